"""Scoring with the cyclic garbage collector paused.

Reading and scoring a run makes millions of small lists, dicts and tuples
(parsed JSON lines, submission entries, outcomes) that live until the
reports are written and form no reference cycles.  CPython's collector,
started by allocation counts, would walk all of them again and again: about
a third of the time of reading a large JSON-lines file.  It is paused while
one run is scored; reference counting still frees everything as usual.
"""
from __future__ import annotations

import contextlib
import gc


@contextlib.contextmanager
def paused():
    """No cyclic collection inside the block (nested blocks leave it to the outer one)."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        # Re-enabled as it is, the collector's first pass would walk every
        # object made in the block (a fifth of a large Cold Start run); frozen
        # (gc.freeze: every object alive now, the caller's too), they are left
        # out of its passes.  Reference counting still frees them; only a
        # reference cycle already unreachable now is never collected.
        gc.freeze()
        gc.enable()
