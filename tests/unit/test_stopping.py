"""scorer/stopping.py: SIGINT, SIGTERM and SIGHUP become ``Stopped`` once,
with the exit status 128 + the signal; a deferred section is not cut; the
handlers go back as they were; an ignored signal stays ignored.  Real
signals sent to this process."""
from __future__ import annotations

import os
import signal
import threading

import pytest

from scorer import stopping


def listing(folder) -> list:
    return sorted(os.listdir(folder))


def test_a_second_signal_does_not_cut_the_cleanup(tmp_path):
    stopped = []
    with stopping.stop_on_signals():
        try:
            os.kill(os.getpid(), signal.SIGTERM)
        except stopping.Stopped as stop:
            stopped.append(stop.name)
            os.kill(os.getpid(), signal.SIGTERM)   # ignored: the run is already stopping
            os.kill(os.getpid(), signal.SIGINT)
            (tmp_path / "cleaned").write_text("yes\n")
    assert stopped == ["SIGTERM"]
    assert listing(tmp_path) == ["cleaned"]


def test_handlers_are_restored_afterwards():
    before = {signum: signal.getsignal(signum) for signum in stopping.STOP_SIGNALS}
    with stopping.stop_on_signals():
        assert all(signal.getsignal(signum) is not before[signum]
                   for signum in stopping.STOP_SIGNALS)
    assert {signum: signal.getsignal(signum) for signum in stopping.STOP_SIGNALS} == before


def test_an_ignored_signal_stays_ignored():
    previous = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        with stopping.stop_on_signals():
            assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
            os.kill(os.getpid(), signal.SIGHUP)    # nohup: nothing happens
    finally:
        signal.signal(signal.SIGHUP, previous)


def test_a_signal_in_a_deferred_section_takes_effect_when_the_outermost_ends():
    steps = []
    with pytest.raises(stopping.Stopped) as caught:
        with stopping.stop_on_signals():
            with stopping.deferred():
                with stopping.deferred():
                    os.kill(os.getpid(), signal.SIGINT)
                    steps.append("inner section finished")
                steps.append("outer section finished")
            steps.append("never")
    assert steps == ["inner section finished", "outer section finished"]
    assert (caught.value.name, caught.value.exit_status, caught.value.signum) == \
        ("SIGINT", 130, signal.SIGINT)
    assert str(caught.value) == "stopped by SIGINT"


def test_a_cleanup_section_swallows_its_pending_signal():
    with stopping.stop_on_signals():
        with stopping.deferred(raise_pending=False):
            os.kill(os.getpid(), signal.SIGTERM)
        finished = True
    assert finished


def test_outside_the_main_thread_nothing_is_installed():
    seen = []

    def worker():
        before = {signum: signal.getsignal(signum) for signum in stopping.STOP_SIGNALS}
        with stopping.stop_on_signals():
            seen.append({signum: signal.getsignal(signum)
                         for signum in stopping.STOP_SIGNALS} == before)

    thread = threading.Thread(target=worker)
    thread.start()
    thread.join()
    assert seen == [True]


def test_an_unknown_signal_is_named_by_number():
    assert stopping.Stopped(99).name == "signal 99"
    assert stopping.Stopped(99).exit_status == 227
