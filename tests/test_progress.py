"""Progress shows on a terminal and stays quiet otherwise."""
from __future__ import annotations

import io

from scorer.progress import Progress


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_quiet_when_not_a_terminal():
    stream = io.StringIO()
    progress = Progress("work", 10, stream=stream)
    progress.advance(10)
    progress.done()
    assert stream.getvalue() == ""


def test_counts_up_on_a_terminal():
    stream = _Terminal()
    progress = Progress("work", 4, stream=stream)
    for _ in range(4):
        progress.advance()
    progress.done()
    text = stream.getvalue()
    assert "\rwork: 4/4 (100.0%" in text
    assert text.endswith("\n")


def test_time_left_from_the_pace_so_far():
    stream = _Terminal()
    progress = Progress("track: runs scored", 3, stream=stream, time_left=True)
    progress.advance()
    progress.advance()
    progress.advance()
    progress.done()
    text = stream.getvalue()
    assert "\rtrack: runs scored: 3/3 (100.0%" in text and "s left" in text
