"""scorer/diff/hashorder.py: an LDC-MAX choice between entry points of equal
combined F1 (the Perl's hash order) is recognised, and nothing else is."""
from __future__ import annotations

from scorer.diff.hashorder import ldcmax_ties


def _cells(gt, submitted, right, ignored=0):
    return {"GT": str(gt), "Submitted": str(submitted), "Ignored": str(ignored),
            "Right": str(right)}


def _rows(query, run, hop0, hop1):
    """A query's two rows: the query itself (hop 0) and its hop-1 row."""
    return {(query, run, "0"): hop0, (f"{query}:1", run, "1"): hop1}


# Two entry points of LDC query L: S1 (F1 of summed counts 4/8 = 0.5) and S2 (10/20 = 0.5)
S1 = (_cells(2, 2, 1), _cells(2, 2, 1))
S2 = (_cells(6, 6, 3), _cells(4, 4, 2))
S3 = (_cells(6, 6, 5), _cells(4, 4, 2))          # another F1 (0.8)
AGGREGATE = {("ALL-Macro", "R", "0"): {"F1": "0.5"}}


def _sf(*queries):
    table = dict(AGGREGATE)
    for name, rows in queries:
        table.update(_rows(name, "R", *rows))
    return table


def test_two_entry_points_of_equal_f1_are_a_tie():
    sf = _sf(("S1", S1), ("S2", S2))
    assert ldcmax_ties(_rows("L", "R", *S1), _rows("L", "R", *S2), sf, dict(sf)) == {("L", "R")}


def test_the_same_rows_on_both_sides_are_no_tie():
    sf = _sf(("S1", S1), ("S2", S2))
    assert ldcmax_ties(_rows("L", "R", *S1), _rows("L", "R", *S1), sf, sf) == set()


def test_entry_points_of_different_f1_are_a_scoring_difference():
    sf = _sf(("S1", S1), ("S3", S3))
    assert ldcmax_ties(_rows("L", "R", *S1), _rows("L", "R", *S3), sf, sf) == set()


def test_an_entry_point_scored_otherwise_on_side_b_is_no_tie():
    sf_a = _sf(("S1", S1), ("S2", S2))
    sf_b = _sf(("S1", S1), ("S2", (S2[0], _cells(4, 4, 1))))
    assert ldcmax_ties(_rows("L", "R", *S1), _rows("L", "R", *S2), sf_a, sf_b) == set()


def test_rows_that_are_no_sf_querys_are_no_tie():
    sf = _sf(("S1", S1), ("S2", S2))
    made_up = (_cells(2, 2, 1), _cells(1, 1, 0))
    assert ldcmax_ties(_rows("L", "R", *S1), _rows("L", "R", *made_up), sf, sf) == set()


def test_ties_are_per_run_and_aggregates_are_left_out():
    sf = _sf(("S1", S1), ("S2", S2))
    sf.update(_rows("S1", "Q", *S1))
    sf.update(_rows("S2", "Q", *S1))
    a = {**_rows("L", "R", *S1), **_rows("L", "Q", *S1), ("ALL-Macro", "R", "0"): {"F1": "1"}}
    b = {**_rows("L", "R", *S2), **_rows("L", "Q", *S1), ("ALL-Macro", "R", "0"): {"F1": "0"}}
    assert ldcmax_ties(a, b, sf, sf) == {("L", "R")}
