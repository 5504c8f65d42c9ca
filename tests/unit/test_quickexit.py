"""Ending ``python -m scorer`` without tearing down the heap (scorer/quickexit.py)
must look like a normal exit from outside: the status, every byte written to
the standard streams (buffered, piped), the atexit handlers."""
from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from places import ROOT

DEMO = ROOT / "fixtures" / "coldstart" / "demo" / "input"


def run_script(body: str, tmp_path: Path) -> subprocess.CompletedProcess:
    script = textwrap.dedent(body)
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=tmp_path)


def test_status_streams_and_atexit_handlers_survive(tmp_path):
    done = run_script("""
        import atexit, sys
        from scorer import quickexit
        atexit.register(lambda: open("handler-ran", "w").write("yes"))
        sys.stdout.write("partial line, still in the buffer")
        sys.stderr.write("to stderr")
        quickexit.ending_by_exit_now()
        quickexit.exit_now(3)
        print("never reached")
    """, tmp_path)
    assert done.returncode == 3
    assert done.stdout == "partial line, still in the buffer"
    assert done.stderr == "to stderr"
    assert (tmp_path / "handler-ran").read_text() == "yes"


def test_a_live_thread_gets_the_normal_exit(tmp_path):
    # A normal exit waits for a non-daemon thread: its output must not be cut off.
    done = run_script("""
        import threading, time, sys
        from scorer import quickexit
        def late():
            time.sleep(0.3)
            print("thread finished", flush=True)
        threading.Thread(target=late).start()
        quickexit.exit_now(4)
    """, tmp_path)
    assert done.returncode == 4
    assert done.stdout == "thread finished\n"


def test_keep_holds_only_in_a_process_ending_by_exit_now(tmp_path):
    done = run_script("""
        import weakref
        from scorer import quickexit
        class Thing: pass
        first = Thing(); watch_first = weakref.ref(first)
        quickexit.keep(first); del first
        quickexit.ending_by_exit_now()
        second = Thing(); watch_second = weakref.ref(second)
        quickexit.keep(second); del second
        print(watch_first() is None, watch_second() is None)
    """, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "False"]


@pytest.mark.slow
def test_reports_to_a_pipe_are_whole(tmp_path):
    """The reports written to standard output (no -output_file) by the command
    line equal those of main() called in a process that exits normally."""
    arguments = ["-expand", "CSSF17", "-queries", "qids.txt", "ldc-query.xml", "qrel.txt",
                 "DEMORUN.tab.txt"]
    by_command = subprocess.run([sys.executable, "-m", "scorer", *arguments],
                                capture_output=True, text=True, cwd=DEMO)
    by_main = subprocess.run([sys.executable, "-c",
                              "import sys; from scorer.cli import main; sys.exit(main())",
                              *arguments], capture_output=True, text=True, cwd=DEMO)
    assert by_command.returncode == by_main.returncode == 0
    assert len(by_command.stdout) > 10_000
    assert without_time(by_command.stdout) == without_time(by_main.stdout)


def without_time(text: str) -> str:
    """The reports without .params' time line (the two runs are a second apart)."""
    return "".join(line for line in text.splitlines(True) if not line.startswith("#At: "))
