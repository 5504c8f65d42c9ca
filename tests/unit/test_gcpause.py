"""scorer/gcpause.py: no cyclic collection inside the block, the collector
back afterwards (also after an error), nested blocks left to the outer one,
and a collector disabled by the caller left disabled."""
from __future__ import annotations

import gc

import pytest

from scorer import gcpause


def test_paused_inside_enabled_after_also_after_an_error():
    assert gc.isenabled()
    with gcpause.paused():
        assert not gc.isenabled()
        with gcpause.paused():
            assert not gc.isenabled()
        assert not gc.isenabled()           # the inner block left it to the outer one
    assert gc.isenabled()
    with pytest.raises(RuntimeError):
        with gcpause.paused():
            raise RuntimeError("scoring failed")
    assert gc.isenabled()
    gc.unfreeze()


def test_a_collector_the_caller_disabled_stays_disabled():
    gc.disable()
    try:
        with gcpause.paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
