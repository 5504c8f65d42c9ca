"""Settings of a command-line process, made before anything heavy loads.

numpy's OpenBLAS starts a thread per core as it loads, and its idle threads
spin: about 50 ms of CPU time (a tenth of a 500-query Cold Start run) for
the few small matrix products a run makes (10,000 samples score no slower
on one thread).  A command-line run asks for one thread unless the user
chose a number.  Only the command lines call this: a program that imports
``scorer`` keeps its environment as it is.

The bootstrap of a large run makes and frees arrays of hundreds of MB,
block after block.  glibc's malloc hands such arrays back to the system as
they are freed and maps new ones, which the kernel must clear page by page
(a fifth of the time of 10,000 samples of 2,000 LDC queries);
:func:`keep_freed_memory` asks it to keep them for the next block instead.
Also for command-line processes only.
"""
from __future__ import annotations

import os

#: The variables by which a user chooses OpenBLAS's number of threads.
BLAS_THREAD_SETTINGS = ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS")


#: True in a process started by a command line (prepare_command_line_process).
_command_line = False


def prepare_command_line_process() -> None:
    """One BLAS thread, unless the user chose a number (call before numpy loads)."""
    global _command_line
    _command_line = True
    if not any(name in os.environ for name in BLAS_THREAD_SETTINGS):
        os.environ["OPENBLAS_NUM_THREADS"] = "1"


def is_command_line() -> bool:
    """True in a process started by one of scorer's command lines."""
    return _command_line


#: Whether keep_freed_memory has been asked already (a process-wide setting).
_keeping = False

#: glibc's mallopt parameters (malloc.h).
_M_TRIM_THRESHOLD, _M_MMAP_MAX = -1, -4


def keep_freed_memory() -> None:
    """In a command-line process using glibc: large blocks from the heap, and
    freed memory kept for reuse rather than returned to the system (no
    effect elsewhere).  Peak memory stays about the same: the freed blocks
    are the very ones the next block of work takes again."""
    global _keeping
    if not _command_line or _keeping:
        return
    _keeping = True
    try:
        import ctypes           # (a long run's alone: a small run does without ctypes)
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError, TypeError):    # not glibc (musl, macOS, Windows)
        return
    mallopt(_M_MMAP_MAX, 0)
    mallopt(_M_TRIM_THRESHOLD, 2 ** 31 - 1)
