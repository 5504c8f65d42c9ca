"""Hostile inputs: hundreds of damaged copies of the fixtures,
each run in-process through ``scorer.cli.main``.

For every case: exit 0 or 255; no exception escapes (a traceback); a fatal
error names the file at fault, leaves only the error log at the prefix; a
run that succeeds writes its reports; nothing is written outside the
prefix's folder.  No case may hang (an alarm stops one that runs away).
"""
from __future__ import annotations

import os
import shutil
import signal

import pytest

from scorer.cli import main

from commands import run_in_process
from hostile_cases import all_cases

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
    if case.scored is not None:
        assert status == (0 if case.scored else 255), (status, errlog, captured)


# --------------------------------------- msgspec and the standard library
#
# scorer/countstable/jsonl.py reads JSON lines through msgspec where it is
# installed (and the files are large), through the standard library where it
# is not: every new JSON case must give the same reports, log and exit status
# either way (the same bytes, or the same refusal).

JSON_CASES = [case for case in CASES
              if case.name.startswith("classification-") or "-json-" in case.name]


def _run_reading(way: str, case, work, monkeypatch, capsys) -> tuple:
    from unittest import mock
    from scorer.countstable import jsonl
    if work.exists():
        shutil.rmtree(work)
    work.mkdir()
    for name, data in case.files.items():
        (work / name).write_bytes(data)
    (work / "out").mkdir()
    monkeypatch.chdir(work)
    patch = mock.patch.object(jsonl, "FAST", False) if way == "stdlib" else \
        mock.patch.object(jsonl, "FAST_MIN_BYTES", 0)
    with patch:
        status = main(["-output_file", "out/run", "-error_file", "out/run.errlog"] + case.argv)
    captured = capsys.readouterr()
    written = {name: (work / "out" / name).read_bytes()
               for name in sorted(os.listdir(work / "out"))}
    return status, written, captured.out, captured.err


def test_the_json_cases_are_hundreds():
    assert len(JSON_CASES) >= 300


@pytest.mark.parametrize("case", JSON_CASES, ids=[case.name for case in JSON_CASES])
def test_json_cases_read_alike_by_msgspec_and_the_standard_library(case, tmp_path,
                                                                    monkeypatch, capsys):
    from scorer.countstable import jsonl
    if jsonl.fast_json() is None:
        pytest.skip("msgspec is not installed")
    work = tmp_path / "work"
    assert _run_reading("msgspec", case, work, monkeypatch, capsys) == \
        _run_reading("stdlib", case, work, monkeypatch, capsys)


# -------------------------------------------------------------- long names
#
# A file's temporary name (``.NAME.UNIQUE.tmp``, a track's ``.NAME.XXXXXXXX.tmp``
# folder) is made from its final name: it must fit wherever the final name fits.
# At the longest name that fits, every command writes its files; one byte more
# and it refuses before any work, naming the file.

def _name_max(folder) -> int:
    return os.pathconf(folder, "PC_NAME_MAX")


def _fever_case(folder) -> list:
    from hostile_cases import FEVER_INLINE, ROOT
    (folder / "a.jsonl").write_bytes(FEVER_INLINE.read_bytes())
    (folder / "b.jsonl").write_bytes(FEVER_INLINE.read_bytes())
    return ["-policy", str(ROOT / "configs" / "fever.yaml")]


@pytest.mark.parametrize("command", ["scorer", "error_file", "track", "diff", "bundle"])
def test_the_longest_name_that_fits_is_written_and_one_more_byte_refused(command, tmp_path):
    policy = _fever_case(tmp_path)
    longest = _name_max(tmp_path)
    if command in ("scorer", "diff"):
        # The final names: PREFIX.samplescores, PREFIX.diff.csv (the longest extensions)
        longest -= len(".samplescores" if command == "scorer" else ".diff.csv")
        if command == "diff":
            assert run_in_process("scorer", policy + ["-output_file", "a", "a.jsonl"],
                                tmp_path)[0] == 0
    for length, fits in ((longest, True), (longest + 1, False)):
        name = "n" * length
        if command == "scorer":
            module, argv = "scorer", policy + ["-bootstrap", "3", "-seed", "1", "-output_file",
                                               name, "a.jsonl"]
        elif command == "error_file":
            module, argv = "scorer", policy + ["-output_file", "a", "-error_file", name,
                                               "a.jsonl"]
        elif command == "track":
            module, argv = "scorer.track", policy + ["-jobs", "1", "-output_dir", name,
                                                     "a.jsonl", "b.jsonl"]
        elif command == "diff":
            module, argv = "scorer.diff", ["-output_file", name, "a", "a"]
        else:
            module, argv = "scorer.competition", policy + ["-bundle", name, "a.jsonl"]
        status, text = run_in_process(module, argv, tmp_path)
        assert "Traceback" not in text
        written = sorted(entry for entry in os.listdir(tmp_path) if entry.startswith(name))
        hidden = [entry for entry in os.listdir(tmp_path) if entry.startswith(".")]
        assert hidden == []               # no temporary file or folder left
        if fits:
            assert status == 0, text
            assert written
        else:
            assert status == 255 and "File name too long" in text and name in text, text
            assert written == []
        for entry in written:
            target = tmp_path / entry
            shutil.rmtree(target) if target.is_dir() else target.unlink()


# ------------------------------------------- numbers of the other commands

@pytest.mark.parametrize("module, switch", [("scorer.diff", "-top"), ("scorer.track", "-trials"),
                                            ("scorer.track", "-jobs"),
                                            ("scorer.competition", "-max_size")])
def test_a_number_of_5000_digits_is_refused_naming_its_switch(module, switch, tmp_path):
    """Python converts at most 4,300 digits: each command checks a number's
    length first (these were ValueError tracebacks)."""
    from hostile_cases import HUGE_DIGITS
    policy = _fever_case(tmp_path)
    if module == "scorer.diff":
        assert run_in_process("scorer", policy + ["-output_file", "a", "a.jsonl"],
                            tmp_path)[0] == 0
        argv = [switch, HUGE_DIGITS, "a", "a"]
    elif module == "scorer.track":
        argv = policy + [switch, HUGE_DIGITS, "-output_dir", "track", "a.jsonl", "b.jsonl"]
    else:
        argv = policy + ["-validate", "a.jsonl", switch, HUGE_DIGITS, "b.jsonl"]
    status, text = run_in_process(module, argv, tmp_path)
    assert status == 255 and "Traceback" not in text
    assert f"{switch} " in text and "9999... (5,000 characters)" in text, text
    assert not (tmp_path / "track").exists()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are a POSIX thing")
def test_a_named_pipe_as_the_policy_is_refused_without_waiting_for_a_writer(tmp_path):
    from hostile_cases import COLDSTART_ARGV, coldstart_files
    for name, data in coldstart_files().items():
        (tmp_path / name).write_bytes(data)
    os.mkfifo(tmp_path / "policy.yaml")
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(ALARM_SECONDS)           # opening it would wait for a writer for ever
    try:
        status, text = run_in_process("scorer", ["-policy", "policy.yaml"] + COLDSTART_ARGV,
                                    tmp_path)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert status == 255
    assert "FATAL_ERROR: policy.yaml: not a regular file (a device, a pipe or a socket)" in text
