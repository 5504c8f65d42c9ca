"""The hand-made cases of ``python -m scorer.diff`` (fixtures/diff/<case>/):
A is the bundled Cold Start demo, B the same with the files of ``b/`` put over
it (``b/args`` replaces the arguments); both are scored, then diffed.

    python tests/helpers/diff_cases.py --regen   # rewrite fixtures/diff/*/expected (review the diff!)
"""
from __future__ import annotations

import argparse
import io
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from commands import call_main  # noqa: E402
from golden import FIXTURES, ROOT, run_case, write_expected  # noqa: E402

from scorer.diff.__main__ import main as diff_main  # noqa: E402

DEMO = os.path.join(FIXTURES, "coldstart", "demo", "input")
CASES_ROOT = os.path.join(FIXTURES, "diff")
#: What a case's expected/ holds: the diff's two files and its exit status.
OUTPUTS = ("diff.diff", "diff.diff.csv")


def find_cases() -> list:
    return sorted(os.path.join(CASES_ROOT, name) for name in os.listdir(CASES_ROOT)
                  if os.path.isdir(os.path.join(CASES_ROOT, name, "b")))


def score_side(work: str, name: str, overrides: str = None) -> str:
    """Score the demo (with ``overrides`` copied over it) into work/name/run.*."""
    side = os.path.join(work, name + "-case")
    shutil.copytree(DEMO, os.path.join(side, "input"))
    if overrides:
        for entry in os.listdir(overrides):
            shutil.copy(os.path.join(overrides, entry), os.path.join(side, "input", entry))
    out = os.path.join(work, name)
    os.makedirs(out)
    status, _ = run_case(side, out)
    assert status == 0, f"scoring {name} failed"
    return out


def run_diff(argv: list, cwd: str) -> tuple:
    """(exit status, stdout, stderr) of python -m scorer.diff, in-process."""
    stdout, stderr = io.StringIO(), io.StringIO()
    status = call_main(diff_main, argv, cwd, stdout, stderr)
    return status, stdout.getvalue(), stderr.getvalue()


def run_diff_case(case: str, work: str) -> tuple:
    """(exit status, {output name: bytes}) of one case, run in ``work``."""
    score_side(work, "A")
    score_side(work, "B", os.path.join(case, "b"))
    os.makedirs(os.path.join(work, "out"))
    status, _, stderr = run_diff(["-output_file", "out/diff", "A/run", "B/run"], work)
    assert status in (0, 1), stderr
    outputs = {}
    for name in OUTPUTS:
        with open(os.path.join(work, "out", name), "rb") as f:
            outputs[name] = f.read()
    return status, outputs


def regenerate() -> None:
    for case in find_cases():
        with tempfile.TemporaryDirectory() as work:
            status, outputs = run_diff_case(case, work)
        write_expected(case, status, outputs)
        print(f"{os.path.relpath(case, ROOT)}: exit {status}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--regen", action="store_true", help="rewrite the expected files")
    if parser.parse_args().regen:
        regenerate()
    else:
        parser.print_help()
