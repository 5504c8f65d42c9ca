"""Small Cold Start cases built in code for the tests, and a runner."""
from __future__ import annotations

import contextlib
import io
import os

from scorer.cli import main
from world import Case

PERSON = {"CS17_0100": ("Mara Quist", "per", [("ENG_NW_0100", 1, 10)],
                        ["per:children", "per:schools_attended"])}


def score(directory: str, files: list, *switches) -> tuple:
    """Run the scorer in ``directory``; (exit status, {extension: text}, stderr)."""
    out = os.path.join(directory, "out")
    os.makedirs(out, exist_ok=True)
    for name in os.listdir(out):
        os.remove(os.path.join(out, name))
    argv = ["-expand", "CSSF17", "-output_file", os.path.join(out, "run"),
            "-error_file", os.path.join(out, "run.errlog"), *switches, *files]
    previous = os.getcwd()
    os.chdir(directory)
    stderr = io.StringIO()
    try:
        with contextlib.redirect_stderr(stderr):
            status = main(argv)
    finally:
        os.chdir(previous)
    texts = {}
    for name in os.listdir(out):
        with open(os.path.join(out, name), encoding="utf-8") as f:
            texts[name.split(".", 1)[1]] = f.read()
    return status, texts, stderr.getvalue()


def two_children_case(run_lines=("A",)) -> Case:
    """Mara has two children (ECs 1 and 2), each in one document.  Every run
    named in ``run_lines`` finds both, in one submission file; node ids are
    shared between runs."""
    case = Case(PERSON)
    q = case.sf("CS17_0100")
    case.assess(q, "per:children", "Ivo Quist", "ENG_NW_0101:1-50", "ENG_NW_0101:10-18",
                "C", "NAM", f"{q}:1")
    case.assess(q, "per:children", "Ula Quist", "ENG_NW_0102:1-50", "ENG_NW_0102:10-18",
                "C", "NAM", f"{q}:2")
    for n, run in enumerate(run_lines):
        case.submit(run, q, "per:children", "Ivo Quist", "PER", "ENG_NW_0101:1-50",
                    "ENG_NW_0101:10-18", f"0.{9 - n}", ":E1")
        case.submit(run, q, "per:children", "Ula Quist", "PER", "ENG_NW_0102:1-50",
                    "ENG_NW_0102:10-18", f"0.{8 - n}", ":E2")
    case.runs = {"runs": [line for run in run_lines for line in case.runs[run]]}
    return case
