"""validatesf and validateqrel beside the official Perl validators on freshly
generated runs and assessments (../shared/tools/gen_coldstart.py), damaged
at random with every kind of line the validators warn about, repair or refuse
(tests/helpers/damaged_runs.py), under several -justifications and -depth
values.  The SF query file is the Perl's own CS-ValidateQueries -expand of
the generated LDC queries.

Each case is run as the toolkit's cases are (tests/helpers/toolkit_cases.py):
our files must equal the Perl's byte for byte under one of its hash seeds, and
so must the exit status and the messages.
"""
from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys

import pytest

from damaged_runs import damage_qrel, damage_run
from places import SHARED_TOOLS
from toolkit_cases import compare, our_runner, perl_results, run_case

pytestmark = [pytest.mark.perl, pytest.mark.slow]

GENERATOR = SHARED_TOOLS / "gen_coldstart.py"
HASH_SEEDS = (0, 1, 2, 3)
#: (seed, generator options, validatesf switches, damage rate)
SF_CASES = [
    (201, ["--ldc-queries", "12"], ["-justifications", "1:3"], 0.0),
    (202, ["--ldc-queries", "12", "--justifications", "1:6"], ["-justifications", "1:3"], 0.04),
    (203, ["--ldc-queries", "15", "--single-conflict-rate", "0.6"],
     ["-justifications", "1:1"], 0.03),
    (204, ["--ldc-queries", "10", "--same-doc-rate", "0.6"], ["-justifications", "M:2"], 0.05),
    (205, ["--ldc-queries", "10"], ["-justifications", "2:4", "-depth", "B:2"], 0.02),
    (206, ["--ldc-queries", "10", "--exotic-rate", "0.5"], ["-justifications", "M:M"], 0.03),
    (207, ["--ldc-queries", "10", "--runs", "2"], ["-depth", "A:3"], 0.0),
]
QREL_CASES = [(301, ["--ldc-queries", "12"], 0.0), (302, ["--ldc-queries", "12"], 0.03),
              (303, ["--ldc-queries", "12", "--nominal-rate", "0.4"], 0.0)]


def _generated(tmp_path, perl_dir, seed, options) -> str:
    """A generated case's input folder, with the Perl's SF query file."""
    source = tmp_path / "generated"
    subprocess.run([sys.executable, str(GENERATOR), str(source), "--seed", str(seed), *options],
                   check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["perl", "-I" + perl_dir,
                    os.path.join(perl_dir, "CS-ValidateQueries-MASTER.pl"), "-expand",
                    "-query_base", "CSSF17", "-error_file", "vq.errlog", "ldc-query.xml",
                    "sf-query.xml"], cwd=source, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    return str(source)


def _case(tmp_path, source: str, files: dict, steps: list) -> str:
    import json
    case = tmp_path / "case"
    os.makedirs(case / "input")
    shutil.copy(os.path.join(source, "sf-query.xml"), case / "input")
    for name, text in files.items():
        (case / "input" / name).write_text(text, encoding="utf-8")
    (case / "steps.json").write_text(json.dumps({"steps": steps, "logs": ["v.errlog"]}))
    return str(case)


def _check(case, perl_dir):
    results = perl_results(case, perl_dir, HASH_SEEDS)
    ours = run_case(case, our_runner)
    best = None
    for seed, result in results.items():
        _write(case, result)
        problems = compare(case, ours)
        if not problems:
            return
        best = problems if best is None or len(problems) < len(best) else best
    pytest.fail("differs from the Perl under every hash seed tried:\n" + "\n".join(best))


def _write(case, result):
    from toolkit_cases import _write_set
    _write_set(os.path.join(case, "expected"), result)


@pytest.mark.skipif(not GENERATOR.is_file(),
                    reason=f"the case generator {GENERATOR} is not there (../shared absent)")
@pytest.mark.parametrize("case", SF_CASES, ids=[f"seed{c[0]}" for c in SF_CASES])
def test_validatesf_equals_the_perl_on_a_generated_run(perl_scorer, tmp_path, case):
    seed, options, switches, rate = case
    source = _generated(tmp_path, perl_scorer, seed, options)
    rng = random.Random(seed)
    runs = sorted(name for name in os.listdir(source) if name.endswith(".tab.txt"))
    lines = []
    for name in runs:
        with open(os.path.join(source, name), encoding="utf-8") as f:
            lines += f.read().splitlines()
    text = "".join(line + "\n" for line in damage_run(lines, rng, rate))
    steps = [["validatesf", ["-error_file", "v.errlog", *switches, "-output_file",
                             "run.valid.ldc.tab.txt", "sf-query.xml", "run.tab.txt"]]]
    _check(_case(tmp_path, source, {"run.tab.txt": text}, steps), perl_scorer)


@pytest.mark.skipif(not GENERATOR.is_file(),
                    reason=f"the case generator {GENERATOR} is not there (../shared absent)")
@pytest.mark.parametrize("case", QREL_CASES, ids=[f"seed{c[0]}" for c in QREL_CASES])
def test_validateqrel_equals_the_perl_on_generated_assessments(perl_scorer, tmp_path, case):
    seed, options, rate = case
    source = _generated(tmp_path, perl_scorer, seed, options)
    with open(os.path.join(source, "qrel.txt"), encoding="utf-8") as f:
        lines = f.read().splitlines()
    text = "".join(line + "\n" for line in damage_qrel(lines, random.Random(seed), rate))
    steps = [["validateqrel", ["-error_file", "v.errlog", "-output_file", "qrel",
                               "sf-query.xml", "qrel.txt"]]]
    _check(_case(tmp_path, source, {"qrel.txt": text}, steps), perl_scorer)
