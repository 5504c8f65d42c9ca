"""Progress for long work, on a terminal only (quiet when stderr is not a tty)."""
from __future__ import annotations

import sys
import time


class Progress:
    def __init__(self, label: str, total: int, enabled: bool = True, stream=None,
                 time_left: bool = False, after: float = 0.0):
        self.stream = stream or sys.stderr
        self.enabled = enabled and total > 0 and hasattr(self.stream, "isatty") \
            and self.stream.isatty()
        self.label = label
        self.total = total
        #: also show the time left, from the pace so far
        self.time_left = time_left
        #: say nothing until the work has taken this many seconds (quick work is quiet)
        self.after = after
        self.shown = False
        self.done_count = 0
        self._last = 0.0
        self._start = time.monotonic()

    def advance(self, amount: int = 1) -> None:
        self.done_count += amount
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self._last < 0.2 and self.done_count < self.total:
            return
        if now - self._start < self.after:
            return
        self._last = now
        self.shown = True
        percent = 100.0 * self.done_count / self.total
        elapsed = now - self._start
        left = ""
        if self.time_left and self.done_count:
            left = f", about {elapsed / self.done_count * (self.total - self.done_count):.0f} s left"
        self.stream.write(f"\r{self.label}: {self.done_count}/{self.total} "
                          f"({percent:5.1f}%, {elapsed:.1f} s{left})   ")
        self.stream.flush()

    def done(self) -> None:
        if self.shown:
            self.stream.write("\n")
            self.stream.flush()


class Tally:
    """How much of a job of unknown size is done (the megabytes of a report
    being written), on a terminal only, and only once the job has taken
    ``after`` seconds: the many quick ones say nothing."""

    def __init__(self, label: str, after: float = 1.0, stream=None):
        self.stream = stream or sys.stderr
        self.enabled = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.label = label
        self.after = after
        self.amount = 0
        self.shown = False
        self._last = 0.0
        self._start = time.monotonic()

    def advance(self, amount: int) -> None:
        self.amount += amount
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self._start < self.after or now - self._last < 0.2:
            return
        self._last = now
        self.shown = True
        self.stream.write(f"\r{self.label}: {self.amount / 1e6:,.0f} MB "
                          f"({now - self._start:.1f} s)   ")
        self.stream.flush()

    def done(self) -> None:
        if self.shown:
            self.stream.write(f"\r{self.label}: {self.amount / 1e6:,.0f} MB, done "
                              f"({time.monotonic() - self._start:.1f} s)   \n")
            self.stream.flush()
