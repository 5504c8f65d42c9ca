"""Cold Start cases for the tests: small ones built in code and a runner; the
bundled demo copied to a test's folder and run in-process (:class:`Demo`, the
``demo`` fixture); the demo's queries read as the input parsers' tests read them."""
from __future__ import annotations

import contextlib
import dataclasses
import io
import os
import shutil
from pathlib import Path
from typing import Optional

from scorer.cli import main
from scorer.coldstart.queries import read_query_files
from scorer.problems import Problems

from places import DEMO
from world import Case

#: The demo's files, in the order the scorer takes them, and its reports.
FILES = ["ldc-query.xml", "qrel.txt", "DEMORUN.tab.txt"]
REPORTS = ["run.ap", "run.debug", "run.errlog", "run.ldcmax", "run.ldcmean", "run.params",
           "run.sf", "run.summary"]

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


# The demo's SF queries (CS17_0001 has two entry points).
ADA_1, ADA_2, KESTREL, JONAS = "47a114c77c", "d8c8ecef3e", "3f0bc7c062", "9aae9b619c"


def logged(problems: Problems) -> tuple:
    """(the error log's entries, its last line)."""
    *entries, last = problems.report().split("\n\n")
    return entries, last.rstrip("\n")


def write(path: Path, text: str) -> str:
    with open(path, "w", encoding="utf-8", newline="") as handle:   # (write_text: 3.10+)
        handle.write(text)
    return str(path)


def query_file(tmp_path: Path, body: str, name: str = "q.xml") -> str:
    return write(tmp_path / name, f'<?xml version="1.0" encoding="UTF-8"?>\n<query_set>\n'
                                  f'{body}</query_set>\n')


def demo_queries(problems: Problems, base: str = "CSSF17"):
    queries = read_query_files([str(DEMO / "ldc-query.xml")], problems)
    queries.expand(base)
    return queries


@dataclasses.dataclass
class Outcome:
    status: int
    stdout: str
    stderr: str
    files: list
    errlog: Optional[str]

    def entries(self) -> tuple:
        """(the error log's messages, its last line)."""
        *entries, last = self.errlog.split("\n\n")
        return entries, last.rstrip("\n")


class Demo:
    """The demo case copied to ``in/`` (the working directory); reports go to ``out/run``."""

    def __init__(self, tmp_path: Path, capsys):
        self.inputs = tmp_path / "in"
        self.out = tmp_path / "out"
        shutil.copytree(DEMO, self.inputs)
        self.out.mkdir()
        self.capsys = capsys

    def edit(self, name: str, number: int, old: str, new: str) -> None:
        path = self.inputs / name
        lines = path.read_text(encoding="utf-8").split("\n")
        assert old in lines[number - 1], (name, number, old)
        lines[number - 1] = lines[number - 1].replace(old, new)
        path.write_text("\n".join(lines), encoding="utf-8")

    def write(self, name: str, text: str) -> None:
        (self.inputs / name).write_text(text, encoding="utf-8")

    def standard_args(self, *switches, files=FILES) -> list:
        return ["-expand", "CSSF17", "-output_file", str(self.out / "run"),
                "-error_file", str(self.out / "run.errlog"), *switches, *files]

    def run(self, *switches, files=FILES) -> Outcome:
        return self.run_argv(self.standard_args(*switches, files=files))

    def run_argv(self, argv) -> Outcome:
        self.capsys.readouterr()
        status = main(list(argv))
        captured = self.capsys.readouterr()
        errlog = self.out / "run.errlog"
        outcome = Outcome(status, captured.out, captured.err, sorted(os.listdir(self.out)),
                          errlog.read_text(encoding="utf-8") if errlog.exists() else None)
        assert "Traceback" not in outcome.stderr + outcome.stdout
        return outcome

    def reports(self) -> dict:
        return {name: (self.out / name).read_text(encoding="utf-8")
                for name in os.listdir(self.out) if name not in ("run.params",)}

    def clear(self) -> None:
        for name in os.listdir(self.out):
            os.remove(self.out / name)
