"""A command of scorer run in-process, as ``python -m MODULE ARGV`` runs it
in a folder: its exit status and what it printed (standard output and error
together)."""
from __future__ import annotations

import contextlib
import importlib
import io
import os


def run_in_process(module: str, argv: list, folder) -> tuple:
    """(exit status, stdout and stderr) of ``python -m module argv``, run
    in-process in ``folder``."""
    name = "scorer.cli" if module == "scorer" else module + ".__main__"
    out = io.StringIO()
    status = call_main(importlib.import_module(name).main, argv, folder, out, out)
    return status, out.getvalue()


def call_main(main, argv: list, folder, stdout, stderr) -> int:
    """``main(argv)`` in ``folder``, its printing caught in ``stdout`` and
    ``stderr`` (one buffer for both keeps their order)."""
    previous = os.getcwd()
    os.chdir(folder)
    try:
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            return main(argv)
    finally:
        os.chdir(previous)


class NoAnswer(Exception):
    """A command that did not end within its time (:func:`call_main_in_time`)."""


def call_main_in_time(main, argv: list, folder, stdout, stderr, seconds: int) -> int:
    """:func:`call_main`, stopped with :class:`NoAnswer` after ``seconds`` (a
    hostile input must never hang a command)."""
    import signal

    def stop(_signum, _frame):
        raise NoAnswer(f"no answer within {seconds} s")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        return call_main(main, argv, folder, stdout, stderr)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
