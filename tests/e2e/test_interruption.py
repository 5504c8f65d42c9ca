"""Runs stopped by a signal: a Cold Start run with -bootstrap that
takes a second or more is sent SIGTERM, SIGINT or SIGHUP at several moments,
from reading the inputs to writing the reports.  Every time, the prefix must
hold either the complete report set, byte for byte that of an uninterrupted
run, or no report (with the error log saying why, exit 128 + the signal's
number), and never a temporary file.  Each run starts over reports of an
earlier run at the same prefix, which a stopped run must remove."""
from __future__ import annotations

import dataclasses
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import workload

# Seconds each (processes run and stopped): pytest -m "not slow" leaves them out.
pytestmark = pytest.mark.slow

LDC_QUERIES = 150
ARGS = ["-expand", "CSSF17", "-bootstrap", "1500", "-seed", "5"]
EARLIER = b"an earlier run's report\n"


@dataclasses.dataclass
class Case:
    inputs: Path
    out: Path
    reference: dict      # name -> bytes of an uninterrupted run (.params without its time)
    seconds: float       # its time from the scorer's start to its first temporary file


def reports(out: Path) -> dict:
    found = {}
    for name in os.listdir(out):
        data = (out / name).read_bytes()
        found[name] = data.split(b"\n", 1)[1] if name == "run.params" else data
    return found


def handles_sigterm(pid: int) -> bool:
    """The scorer's own handlers are in place (its first instants are Python
    starting up, which a signal ends before any file is touched)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            caught = next(line for line in f if line.startswith("SigCgt:"))
    except (OSError, StopIteration):
        return True
    return bool(int(caught.split()[1], 16) & (1 << (signal.SIGTERM - 1)))


def start(case: Case) -> subprocess.Popen:
    argv = [sys.executable, "-m", "scorer", *ARGS, "-output_file", str(case.out / "run"),
            "-error_file", str(case.out / "run.errlog"), *workload.INPUT_FILES]
    return subprocess.Popen(argv, cwd=case.inputs, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)


def wait_until_started(process: subprocess.Popen) -> float:
    while process.poll() is None and not handles_sigterm(process.pid):
        time.sleep(0.001)
    return time.monotonic()


@pytest.fixture(scope="module")
def case(tmp_path_factory) -> Case:
    root = tmp_path_factory.mktemp("interruption")
    workload.generate(str(root / "in"), LDC_QUERIES, seed=3)
    (root / "out").mkdir()
    case = Case(root / "in", root / "out", {}, 0.0)
    process = start(case)
    started = wait_until_started(process)
    while process.poll() is None and not any(temporary(name) for name in os.listdir(case.out)):
        time.sleep(0.001)
    case.seconds = time.monotonic() - started
    _out, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    case.reference = reports(case.out)
    assert "run.bootsamples" in case.reference and "run.errlog" in case.reference
    return case


def temporary(name: str) -> bool:
    return name.startswith(".") and name.endswith(".tmp")


# (signal, moment): a fraction of the time the uninterrupted run takes to read
# and score (before its first temporary file), or the moment a temporary file of
# that report appears (the reports are being written).
MOMENTS = [
    (signal.SIGTERM, 0.1), (signal.SIGTERM, 0.5), (signal.SIGTERM, ".run.debug."),
    (signal.SIGTERM, ".run.sample."), (signal.SIGTERM, ".run.bootsamples."),
    (signal.SIGINT, 0.3), (signal.SIGINT, ".run.samplescores."),
    (signal.SIGHUP, 0.9),
]


@pytest.mark.parametrize("signum, moment", MOMENTS,
                         ids=[f"{signal.Signals(s).name}-{m}" for s, m in MOMENTS])
def test_a_stopped_run_leaves_every_report_or_none(case, signum, moment):
    for name in os.listdir(case.out):
        os.remove(case.out / name)
    for name in case.reference:
        if name != "run.errlog":
            (case.out / name).write_bytes(EARLIER)
    process = start(case)
    started = wait_until_started(process)
    sent = False
    while process.poll() is None:
        if isinstance(moment, float):
            due = time.monotonic() - started >= moment * case.seconds
        else:
            due = any(name.startswith(moment) for name in os.listdir(case.out))
        if due:
            process.send_signal(signum)
            sent = True
            break
        time.sleep(0.001)
    _out, err = process.communicate(timeout=120)
    err = err.decode("utf-8")
    got = reports(case.out)

    assert [name for name in got if temporary(name)] == []
    name = signal.Signals(signum).name
    if got == case.reference:
        # Finished: the signal came too late (during the renames, which it does not
        # cut, or as Python exits), or not at all.
        assert isinstance(moment, float), "stopped while writing, yet every report is there"
        assert process.returncode in (0, 128 + signum, -signum), err
        if process.returncode == 128 + signum:
            assert err == f"{name} came after the reports were complete\n"
        return
    assert sent and process.returncode == 128 + signum, err
    assert list(got) == ["run.errlog"], err
    message = f"FATAL_ERROR: Stopped by {name}; no report was written\n"
    assert err == message
    errlog = got["run.errlog"].decode("utf-8")
    assert errlog.endswith(message)
    removed = " ".join(sorted(n for n in case.reference if n != "run.errlog"))
    assert (f"WARNING: Removed reports of an earlier run at {case.out / 'run'}, so that none "
            f"is taken for this run's: {removed}\n") in errlog
