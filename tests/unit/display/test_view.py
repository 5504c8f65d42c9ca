"""The view the pictures and the page are drawn from (scorer/display/view.py)."""
from __future__ import annotations


def test_the_view_reads_only_columns_the_track_writes():
    """The look package names the columns it reads; the track's tables hold every one."""
    from scorer import results
    from scorer.display import view
    assert set(view.SIGNIFICANCE_READ) <= set(results.SIGNIFICANCE_COLUMNS)
    assert view.RUN_SCORE_COLUMNS == results.PER_HOP_COLUMNS[1:]
