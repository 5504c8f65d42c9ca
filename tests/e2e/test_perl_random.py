"""Parity on freshly generated random cases: the Perl scorer (when checked out
beside the project) and scorer score the same generated inputs, for several
seeds, policies and -justifications values, with and without samples.

A report of ours must equal the Perl's under one of several PERL_HASH_SEED
values, line by line (spec §0.3: where the Perl depends on its hash order).
"""
from __future__ import annotations

import pytest

from perl_compare import compare_case, generate
from places import ROOT, SHARED_TOOLS

# Seconds each (the Perl, a case generated): pytest -m "not slow" leaves them out.
pytestmark = [pytest.mark.perl, pytest.mark.slow]

GENERATOR = SHARED_TOOLS / "gen_coldstart.py"
SF_POLICY = ["-justifications", "1:1", "-ignore", "UNASSESSED",
             "-wrong", "INCORRECT:INCORRECT_PARENT:INEXACT:DUPLICATE"]
CASES = [
    # (seed, generator options, the Perl's switches[, scorer's switches if different])
    (101, ["--stable"], ["-expand", "CSSF17"]),
    (102, ["--stable", "--ldc-queries", "30"], ["-expand", "CSSF17", "-justifications", "1:1"]),
    (103, ["--stable"], ["-expand", "CSSF17", "-justifications", "M:M",
                         "-queries", "qids.txt"]),
    (104, ["--stable", "--qids-hop0-rate", "0.3", "--dup-line-rate", "0.03"],
     ["-expand", "CSSF17", "-queries", "qids.txt", "-justifications", "2:4"]),
    (105, ["--stable"], ["-expand", "CSSF17", *SF_POLICY],
     ["-expand", "CSSF17", "-policy", "{root}/configs/coldstart-sf.yaml"]),
    (106, ["--stable", "--exotic-rate", "0.5", "--nominal-rate", "0.4"],
     ["-expand", "CSSF17", "-right", "CORRECT:INEXACT", "-ignore", "UNASSESSED:DUPLICATE",
      "-wrong", "INCORRECT:INCORRECT_PARENT"]),
    (107, ["--stable", "--boot-samples", "40"], ["-expand", "CSSF17", "-samples", "boot.txt"]),
    (108, ["--stable", "--boot-samples", "60", "--entrypoints", "1:4"],
     ["-expand", "CSSF17", "-samples", "boot.txt", "-justifications", "1:2"]),
    (109, ["--stable"], ["-expand", "CSSF17", "-tabs", "-fields", "EC:LEVEL:GT:RIGHT:WRONG:P:R:F"]),
]


@pytest.mark.skipif(not GENERATOR.is_file(),
                    reason=f"the case generator {GENERATOR} is not there (../shared absent)")
@pytest.mark.parametrize("case", CASES, ids=[f"seed{c[0]}" for c in CASES])
def test_generated_case_equals_the_perl_scorer(perl_scorer, tmp_path, case):
    seed, generator_options, perl_switches, *ours = case
    our_switches = [s.replace("{root}", str(ROOT)) for s in (ours[0] if ours else perl_switches)]
    case_dir = str(tmp_path / "case")
    files = generate(case_dir, seed, generator_options)
    # Reports that the Perl itself writes differently under different hash
    # seeds (random ties) are not compared; the rest must match.
    problems = compare_case(perl_scorer, case_dir, perl_switches + files, str(tmp_path),
                            our_args=our_switches + files, unstable_ok=True)
    assert not problems, f"differences: {problems} (inputs in {case_dir})"


@pytest.mark.skipif(not GENERATOR.is_file(),
                    reason=f"the case generator {GENERATOR} is not there (../shared absent)")
def test_each_hash_seed_alone_matches_modulo_the_documented_ties(perl_scorer, tmp_path):
    """Case seed104 has an LDC query whose entry points tie on F1: under some
    PERL_HASH_SEEDs the Perl picks the other one (on some machines under
    every seed tried).  Compared under each seed alone, our reports match the
    Perl's, line for line or but for that tie (docs/parity.md, deliberate
    difference 1); the tie is met under at least one of the seeds."""
    from perl_compare import _read_outputs, lines_match
    seed, generator_options, switches = CASES[3][:3]
    assert seed == 104
    case_dir = str(tmp_path / "case")
    files = generate(case_dir, seed, generator_options)
    other_entry_point = 0
    for hash_seed in range(6):
        work = tmp_path / f"hash{hash_seed}"
        problems = compare_case(perl_scorer, case_dir, switches + files, str(work),
                                hash_seeds=(hash_seed,))
        assert not problems, f"PERL_HASH_SEED={hash_seed}: {problems} (inputs in {case_dir})"
        ours, perl = (_read_outputs(str(work / name)) for name in ("ours", f"perl{hash_seed}"))
        other_entry_point += not lines_match(ours["ldcmax"], [perl["ldcmax"]])
    assert other_entry_point > 0
