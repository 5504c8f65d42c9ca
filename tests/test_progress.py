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
