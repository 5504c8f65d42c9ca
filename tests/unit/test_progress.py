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


def test_a_tally_says_nothing_of_quick_work_nor_off_a_terminal():
    from scorer.progress import Tally
    for stream, after in ((io.StringIO(), 0.0), (_Terminal(), 60.0)):
        tally = Tally("writing run.samplescores", after=after, stream=stream)
        tally.advance(5_000_000)
        tally.done()
        assert stream.getvalue() == ""


def test_a_tally_of_long_work_shows_what_is_done_on_a_terminal():
    from scorer.progress import Tally
    stream = _Terminal()
    tally = Tally("writing run.samplescores", after=0.0, stream=stream)
    tally.advance(1_500_000)
    tally.advance(1_500_000)
    tally.done()
    text = stream.getvalue()
    assert text.startswith("\rwriting run.samplescores: 2 MB (")
    assert "\rwriting run.samplescores: 3 MB, done (" in text and text.endswith("\n")


def test_quick_work_says_nothing_when_told_to_wait():
    stream = _Terminal()
    progress = Progress("randomization", 4, stream=stream, after=60.0)
    for _ in range(4):
        progress.advance()
    progress.done()
    assert stream.getvalue() == ""
