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
    main = importlib.import_module(name).main
    out = io.StringIO()
    previous = os.getcwd()
    os.chdir(folder)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            status = main(argv)
    finally:
        os.chdir(previous)
    return status, out.getvalue()
