"""``python -m scorer -kb``: scoring a KB in one call gives the reports of
scoring what the toolkit's Perl chain makes of it (CS-ValidateKB -output tac,
CS-ValidateQueries -expand, CS-ResolveQueries, CS-ValidateSF: its
``NAME.valid.ldc.tab.txt``), byte for byte; ``-keep_stages`` writes each
stage's file as the Perl chain wrote it.

The Perl chain's files are those of the shared ``chain`` cases
(../shared/parity/pipeline/chain: the Makefile's setup-sf, run with the Perl
under several hash seeds; any one seed's set may be matched).  The
assessments are the official suite's where the shared scorer cases hold
them, else made up from the Perl's validated file (every line judged).
"""
from __future__ import annotations

import contextlib
import io
import json
import os
from pathlib import Path

import pytest

from assessments import assessments_of
from places import PARITY

from scorer.cli import main

CHAIN = PARITY / "pipeline" / "chain"
SUITE_SCORING = PARITY / "coldstart" / "testsuite"
REPORTS = ("ap", "debug", "sf", "ldcmax", "ldcmean", "summary")

needs_chain = pytest.mark.skipif(not CHAIN.is_dir(),
                                 reason=f"the Perl chain's cases are not here ({CHAIN})")


def score(args: list, out: Path) -> tuple:
    """(exit status, {extension: bytes}, error log) of python -m scorer."""
    out.mkdir(parents=True, exist_ok=True)
    prefix = str(out / "run")
    with contextlib.redirect_stderr(io.StringIO()):
        status = main(["-output_file", prefix, "-error_file", prefix + ".errlog", *args])
    outputs = {}
    for path in out.iterdir():
        if path.is_file():
            outputs[path.name.split(".", 1)[1]] = path.read_bytes()
    return status, outputs, outputs.pop("errlog", b"").decode("utf-8")


def chain_cases() -> list:
    return sorted(path.name for path in CHAIN.iterdir() if (path / "steps.json").is_file()) \
        if CHAIN.is_dir() else []


def chain_files(name: str) -> dict:
    """What the chain case's steps read and wrote: the LDC query file, the KB,
    and per result set (expected, each variant) the Perl's stage files."""
    case = CHAIN / name
    steps = json.loads((case / "steps.json").read_text())["steps"]
    tools = {tool: args for tool, args in steps}
    kb = tools["validatekb"][-1]
    ldc, sf = tools["validatequeries"][-2:]
    rq = tools["resolvequeries"][-1]
    args = tools["validatesf"]
    valid = args[args.index("-output_file") + 1]
    sets = [case / "expected" / "files"]
    if (case / "variants").is_dir():
        sets += sorted(path / "files" for path in (case / "variants").iterdir())
    return dict(kb=case / "input" / kb, ldc=case / "input" / ldc, sets=sets,
                stages={"sf-query.xml": sf, "tac.valid": kb + ".valid", "rq": rq,
                        "valid.ldc.tab.txt": valid})


def qrel_for(name: str, validated: list, tmp_path: Path) -> str:
    suite = SUITE_SCORING / name / "input" / "qrel.txt"
    if suite.is_file():
        return str(suite)
    return assessments_of(validated, tmp_path / "qrel.txt")


@needs_chain
def test_every_chain_case_is_here():
    assert len(chain_cases()) == 20


@needs_chain
@pytest.mark.parametrize("name", chain_cases())
def test_kb_scores_as_the_perl_chain_validated_file(name, tmp_path):
    files = chain_files(name)
    validated = [found / files["stages"]["valid.ldc.tab.txt"] for found in files["sets"]]
    qrel = qrel_for(name, [validated[0]], tmp_path)
    keep = tmp_path / "stages"
    status, ours, log = score(["-kb", "-expand", "CSSF17", "-keep_stages", str(keep),
                               str(files["ldc"]), qrel, str(files["kb"])], tmp_path / "kb")
    assert status == 0, log
    # The stage files: those of one of the Perl's runs (one hash seed's), each.
    base = files["kb"].name[:-len(".tac")]
    ours_stages = {"sf-query.xml": keep / "sf-query.xml",
                   "tac.valid": keep / f"{base}.tac.valid", "rq": keep / f"{base}.rq",
                   "valid.ldc.tab.txt": keep / f"{base}.valid.ldc.tab.txt"}
    matched = [found for found in files["sets"]
               if all(ours_stages[stage].read_bytes() == (found / path).read_bytes()
                      for stage, path in files["stages"].items())]
    assert matched, f"no Perl run's stage files equal ours ({sorted(os.listdir(keep))})"
    # The reports: those of scoring the Perl's validated file of that run.
    perl_valid = matched[0] / files["stages"]["valid.ldc.tab.txt"]
    status, official, official_log = score(["-expand", "CSSF17", str(files["ldc"]), qrel,
                                            str(perl_valid)], tmp_path / "perl")
    assert status == 0, official_log
    for extension in REPORTS:
        assert ours[extension] == official[extension], extension
    # One error log, every message marked with the stage that found it.
    for line in log.splitlines():
        if line.startswith(("WARNING: ", "ERROR: ")):
            assert line.split(": ", 1)[1].startswith(
                ("[validatekb] ", "[validatequeries] ", "[resolvequeries] ", "[validatesf] ",
                 "[score] ")), line
    assert "validate:kb:" in ours["params"].decode("utf-8")


@needs_chain
def test_kb_is_official_numbers_of_the_suite(tmp_path):
    """Where the official suite stored CS-Score's reports of the chain's
    file, the one call gives them (SCORER_TS_MERGE)."""
    files = chain_files("SCORER_TS_MERGE")
    qrel = SUITE_SCORING / "SCORER_TS_MERGE" / "input" / "qrel.txt"
    expected = SUITE_SCORING / "SCORER_TS_MERGE" / "expected"
    if not qrel.is_file():
        pytest.skip(f"the suite's scoring case is not here ({qrel})")
    status, ours, log = score(["-kb", "-expand", "CSSF17", "-justifications", "1:3",
                               str(files["ldc"]), str(qrel), str(files["kb"])], tmp_path)
    assert status == 0, log
    for extension in REPORTS:
        assert ours[extension] == (expected / f"run.{extension}").read_bytes(), extension
