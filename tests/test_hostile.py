"""Hostile inputs: hundreds of damaged copies of the fixtures,
each run in-process through ``scorer.cli.main``.

For every case: exit 0 or 255; no exception escapes (a traceback); a fatal
error names the file at fault, leaves only the error log at the prefix; a
run that succeeds writes its reports; nothing is written outside the
prefix's folder.  No case may hang (an alarm stops one that runs away).
"""
from __future__ import annotations

import os
import signal

import pytest

from hostile_cases import all_cases
from scorer.cli import main

CASES = all_cases()
#: Far beyond what any case needs (they take milliseconds); a hang is a failure, not a wait.
ALARM_SECONDS = 30


def _tree(folder) -> dict:
    found = {}
    for directory, _subdirs, names in os.walk(folder):
        for name in names:
            path = os.path.join(directory, name)
            found[os.path.relpath(path, folder)] = os.path.getsize(path)
    return found


class _Hang(Exception):
    pass


def _alarm(_signum, _frame):
    raise _Hang(f"no answer within {ALARM_SECONDS} s")


def test_there_are_hundreds_of_cases():
    assert len(CASES) >= 300
    assert len({case.name for case in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_hostile_input(case, tmp_path, monkeypatch, capsys):
    work = tmp_path / "work"
    work.mkdir()
    for name, data in case.files.items():
        (work / name).write_bytes(data)
    (work / "out").mkdir()
    monkeypatch.chdir(work)
    before = _tree(work)
    argv = ["-output_file", "out/run", "-error_file", "out/run.errlog"] + case.argv
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(ALARM_SECONDS)
    try:
        status = main(argv)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    captured = capsys.readouterr()
    assert status in (0, 255), (status, captured)
    assert "Traceback" not in captured.out + captured.err
    after = _tree(work)
    outside = {name: size for name, size in after.items() if not name.startswith("out" + os.sep)}
    assert outside == before, "written outside the prefix's folder"
    written = sorted(name for name in after if name.startswith("out" + os.sep))
    errlog_path = work / "out" / "run.errlog"
    errlog = errlog_path.read_text(encoding="utf-8") if errlog_path.exists() else ""
    fatal = "FATAL_ERROR" in errlog or (status == 255 and not errlog)
    if fatal:
        # A fatal error (or a usage error, before any log): no report at the prefix.
        assert written in ([], [os.path.join("out", "run.errlog")]), written
        if case.at_fault is not None and "FATAL_ERROR" in errlog:
            fatal_text = errlog[errlog.index("FATAL_ERROR"):]
            names = case.at_fault if isinstance(case.at_fault, tuple) else (case.at_fault,)
            assert any(name in fatal_text for name in names), fatal_text
    elif case.argv[:1] in (["--help"], ["--version"], ["-h"]):
        assert status == 0 and written == [] and captured.out
    else:
        # Scored (perhaps with errors that are not fatal): every report is there.
        assert os.path.join("out", "run.params") in written, (written, errlog)
    if status == 255 and case.line is not None:
        # The line at fault is named (first line: the file's type may be what is wrong).
        names = case.at_fault if isinstance(case.at_fault, tuple) else (case.at_fault,)
        # (the Perl's own wording for an unknown assessment code: "in file: F at line: N")
        assert any(f"{name} line {case.line}" in errlog
                   or f"{name} at line: {case.line}\n" in errlog for name in names), errlog
    if case.expect is not None:
        assert case.expect in errlog + captured.out + captured.err
