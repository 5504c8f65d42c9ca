"""Stopping a run by signal: SIGINT, SIGTERM and SIGHUP become an exception,
``Stopped``, so that the code that writes files can clean up after itself.

By default SIGTERM and SIGHUP end Python at once (no ``finally`` runs) and
SIGINT raises ``KeyboardInterrupt`` anywhere, even half-way through a cleanup.
Inside ``stop_on_signals()`` each of them raises ``Stopped`` instead, once:
later signals are ignored while the run cleans up and exits.  Code that must
not be cut in two (creating a temporary file and noting its name; renaming a
set of reports into place; removing them again) runs in ``deferred()``: a
signal that arrives there takes effect when the section ends.

Signal handlers belong to the main thread; elsewhere ``stop_on_signals()``
changes nothing.  A signal the parent process set to be ignored (``nohup``,
a background job) stays ignored.
"""
from __future__ import annotations

import contextlib
import sys

try:
    # The C module behind ``signal``: the same functions and numbers, without
    # the enum classes ``signal`` builds when imported (a run's start-up pays
    # for every module, and a small run's time is mostly start-up).
    import _signal as signal
except ImportError:
    import signal

#: The names of the signals that stop a run, by number; the exit status is
#: 128 + the number.
_NAMES = {getattr(signal, name): name for name in ("SIGINT", "SIGTERM", "SIGHUP")
          if hasattr(signal, name)}
STOP_SIGNALS = tuple(_NAMES)
SIGINT = signal.SIGINT


class Stopped(BaseException):
    """The run was stopped by a signal.

    A ``BaseException``, like ``KeyboardInterrupt``, so that ``except
    Exception`` clauses do not swallow it.
    """

    def __init__(self, signum: int):
        self.signum = signum
        self.name = _NAMES.get(signum, f"signal {signum}")
        self.exit_status = 128 + signum
        super().__init__(f"stopped by {self.name}")


class _State:
    def __init__(self):
        self.installed = False
        self.depth = 0          # nesting of deferred() sections
        self.pending = None     # a signal that arrived in a deferred section
        self.raised = False     # Stopped was raised: later signals are ignored


_state = _State()


def _on_signal(signum, _frame):
    if _state.raised:
        return
    if _state.depth:
        if _state.pending is None:
            _state.pending = signum
        return
    _state.raised = True
    raise Stopped(signum)


@contextlib.contextmanager
def deferred(raise_pending: bool = True):
    """A section that a signal does not cut: it takes effect at the end of
    the section (outermost), or never with ``raise_pending=False`` (for the
    cleanup after a failure, which ends the run anyway)."""
    _state.depth += 1
    try:
        yield
    finally:
        _state.depth -= 1
        if _state.depth == 0 and _state.pending is not None and not _state.raised \
                and raise_pending:
            signum, _state.pending = _state.pending, None
            _state.raised = True
            raise Stopped(signum)


def _on_main_thread() -> bool:
    """True on the main thread, the only one that may handle signals.  Without
    ``threading`` imported no thread was started by it, so this is the only one
    (importing it for the question costs a small run a millisecond)."""
    threading = sys.modules.get("threading")
    return threading is None or threading.current_thread() is threading.main_thread()


@contextlib.contextmanager
def stop_on_signals():
    """Within this block, SIGINT, SIGTERM and SIGHUP raise ``Stopped`` (once).
    Not nested: an inner use changes nothing."""
    if _state.installed or not _on_main_thread():
        yield
        return
    previous = {}
    for signum in STOP_SIGNALS:
        handler = signal.getsignal(signum)
        if handler in (signal.SIG_IGN, None):
            continue
        previous[signum] = handler
    _state.__init__()
    _state.installed = True
    try:
        for signum in previous:
            signal.signal(signum, _on_signal)
        yield
    finally:
        # No Stopped from here on: the handlers go back as they were.
        _state.raised = True
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        _state.__init__()
