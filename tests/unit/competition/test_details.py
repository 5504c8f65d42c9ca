"""scorer/competition/details.py: the participant's detailed page.  Its table
of what counted made from per-query rows (keys and metrics in first-seen
order, NaN as missing) or straight from a claim task's counts table (the same
grid, or None where the rows must decide); the .debug shown, cut past a
size, with HTML escaped."""
from __future__ import annotations

import math

from scorer.competition import details


def test_the_grid_of_per_query_rows():
    rows = [("q2", "0", "P", 0.5), ("q1", "0", "P", 1.0), ("q2", "0", "R", math.nan),
            ("q1", "1", "R", 2)]
    keys, metrics, values = details._grid(rows)
    assert keys == [("q2", "0"), ("q1", "0"), ("q1", "1")] and metrics == ["P", "R"]
    assert values == [[0.5, 1.0, None], [None, None, 2.0]]


def test_a_claim_tables_grid_is_that_of_its_rows():
    claims, columns = ["c1", "c2"], {"right": [1, 0], "evidence": [0.5, 2]}
    rows = [(claim, "ALL", name, float(column[i])) for i, claim in enumerate(claims)
            for name, column in columns.items()]
    assert details._claim_grid((claims, columns)) == details._grid(rows)
    assert details._claim_grid(None) is None
    assert details._claim_grid((["c1", "c1"], columns)) is None        # a key twice
    assert details._claim_grid((claims, {"right": [1, math.nan]})) is None
    assert details._claim_grid((claims, {"right": [1]})) is None       # a short column
    assert details._claim_grid(([], {})) == ([], [], [])


def test_the_debug_is_escaped_and_cut(monkeypatch):
    assert details._why("", "claim") == ""
    text = details._why("CLAIM <1> & more", "claim")
    assert "CLAIM &lt;1&gt; &amp; more" in text and "For each claim" in text
    assert "The first" not in text
    monkeypatch.setattr(details, "DEBUG_SHOWN", 5)
    cut = details._why("0123456789", "query")
    assert "<pre>01234</pre>" in cut and "The first 5 characters" in cut
