"""Settings of a command-line process, made before anything heavy loads.

numpy's OpenBLAS starts a thread per core as it loads, and its idle threads
spin: about 50 ms of CPU time (a tenth of a 500-query Cold Start run) for
the few small matrix products a run makes (10,000 samples score no slower
on one thread).  A command-line run asks for one thread unless the user
chose a number.  Only the command lines call this: a program that imports
``scorer`` keeps its environment as it is.
"""
from __future__ import annotations

import os

#: The variables by which a user chooses OpenBLAS's number of threads.
BLAS_THREAD_SETTINGS = ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS")


def prepare_command_line_process() -> None:
    """One BLAS thread, unless the user chose a number (call before numpy loads)."""
    if not any(name in os.environ for name in BLAS_THREAD_SETTINGS):
        os.environ["OPENBLAS_NUM_THREADS"] = "1"
