"""Ending a command-line run without tearing down the heap.

When a run is over, its reports are written and closed, yet the process
still holds what it read and scored: for a FEVER run of 10,000 claims or a
Cold Start run of 500 LDC queries, hundreds of thousands of small objects.
A normal interpreter exit frees them one by one, and then every module: a
tenth of a FEVER run's time, for memory the operating system takes back at
once anyway.  So ``python -m scorer`` keeps a run's results alive to the
end (:func:`keep`, only when :func:`exit_now` will end the process) and ends
with ``os._exit``, after doing what a normal exit does that anyone could
see: the ``atexit`` handlers run and the standard streams are flushed.
Whenever that is not clearly safe (another thread alive, a stream that
cannot be flushed), the normal exit is taken.
"""
from __future__ import annotations

import atexit
import os
import sys


#: What :func:`keep` holds; None unless the process is to end by :func:`exit_now`.
_kept: list | None = None


def ending_by_exit_now() -> None:
    """Say that this process ends by :func:`exit_now` (the command line's entry
    point does): from now on :func:`keep` keeps."""
    global _kept
    if _kept is None:
        _kept = []


def keep(value) -> None:
    """Keep ``value`` alive until the process ends, so that it is never freed
    piece by piece; a no-op in a process that ends normally (the Python API,
    the tests), where it would only hold memory."""
    if _kept is not None:
        _kept.append(value)


def exit_now(status: int, abandon_threads: bool = False) -> None:
    """Exit with ``status``, leaving the heap to the operating system.
    ``abandon_threads``: other threads alive do not make it a normal exit,
    which would wait for them (the track's: after a stop, its process pool's
    thread may wait for ever on a dead worker's pipe)."""
    threading = sys.modules.get("threading")
    if not abandon_threads and threading is not None and threading.active_count() > 1:
        sys.exit(status)   # a normal exit waits for them
    atexit._run_exitfuncs()
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except (OSError, ValueError):
        sys.exit(status)   # the normal exit reports it as Python does
    os._exit(status)
