"""scorer/track/runner.py: the wait for a run's result notices a worker that
died even when the process pool cannot tell, and returns a settled result."""
from __future__ import annotations

import time
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool

import pytest

from scorer.track import runner


class _DeadWorker:
    exitcode = -9


class _PoolWithADeadWorker:
    """A pool whose worker died while its own thread cannot tell (stuck on the
    dead worker's pipe): the future is never settled."""
    _processes = {1234: _DeadWorker()}


def test_a_dead_worker_is_noticed_even_when_the_pool_cannot_tell():
    started = time.monotonic()
    with pytest.raises(BrokenProcessPool):
        runner._result(Future(), _PoolWithADeadWorker())
    assert time.monotonic() - started < 5 * runner._POLL_SECONDS + 2


def test_a_settled_future_is_returned_while_the_workers_live():
    class LiveWorker:
        exitcode = None

    class Pool:
        _processes = {1: LiveWorker()}

    future = Future()
    future.set_result("scored")
    assert runner._result(future, Pool()) == "scored"
