"""scorer/results.py: scored runs as data.  A run's lines of per_query.csv
are what pandas writes for the whole table; the units a track keeps of a
run's per-query rows; a claim task's per-query rows; which statistics a
run result makes."""
from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.results import (PER_QUERY_HEADER, RunResult, capped_per_query, claim_table_rows,
                            per_query, per_query_lines, wants_statistic)
from scorer.track import tables


@settings(max_examples=300, deadline=None)
@given(st.text(st.sampled_from('ab,"\n\r x'), min_size=1, max_size=5),
       st.lists(st.tuples(st.text(st.sampled_from('q1,"\n\r '), max_size=4) | st.integers(0, 9),
                          st.sampled_from(["ALL", "0", "1", 'h,"']),
                          st.sampled_from(["P", "AP", "strict", "m\n"]),
                          st.floats(allow_infinity=False) | st.sampled_from([-0.0, 1e16, 1e-05])),
                max_size=12))
def test_per_query_lines_are_what_pandas_writes_for_the_whole_table(run, rows):
    """Each run writes its own lines of per_query.csv.gz (results.per_query_lines):
    the text pandas' to_csv writes for those rows in the whole table."""
    results = [RunResult(run, "ok", per_query=rows), RunResult("other", "ok", per_query=rows[:3])]
    expected = tables.csv_text(per_query(results))
    assert expected == PER_QUERY_HEADER + "".join(per_query_lines(run, rows) +
                                                  per_query_lines("other", rows[:3]))


def test_the_units_kept_are_the_worst_by_the_headline_at_hop_all():
    rows = [("q1", "ALL", "strict", 0.5), ("q1", "0", "strict", 0.0), ("q2", "ALL", "strict", 0.25),
            ("q3", "ALL", "strict", math.nan), ("q4", "ALL", "strict", 0.25),
            ("q4", "ALL", "other", 9.0), ("q5", "ALL", "strict", 1.0)]
    kept, units = capped_per_query(rows, "strict", 3)
    assert units == 5
    # lowest first, ties in row order (q2 before q4), a blank value last
    assert kept == [rows[0], rows[1], rows[2], rows[4], rows[5]]
    assert capped_per_query(rows, "strict", 5) == (rows, 5)
    # without the headline: AP, else F1, else the first metric
    ap = [("a", "1", "AP", 0.9), ("b", "1", "AP", 0.1), ("a", "1", "F1", 0.0)]
    assert capped_per_query(ap, "strict", 1) == ([ap[1]], 2)


def test_claim_rows_from_column_lists_with_sparse_zeros_left_out():
    columns = {"right": [1, 0], "evidence": [0, 2]}
    assert claim_table_rows(["c1", "c2"], columns) == [
        ("c1", "ALL", "right", 1.0), ("c1", "ALL", "evidence", 0.0),
        ("c2", "ALL", "right", 0.0), ("c2", "ALL", "evidence", 2.0)]
    assert claim_table_rows(["c1", "c2"], columns, frozenset({"evidence"})) == [
        ("c1", "ALL", "right", 1.0), ("c2", "ALL", "right", 0.0), ("c2", "ALL", "evidence", 2.0)]


def test_which_statistics_a_run_result_makes():
    assert wants_statistic(True, "f1") and not wants_statistic(False, "f1")
    assert wants_statistic(("f1",), "f1") and not wants_statistic(("strict",), "f1")


def test_run_results_compare_by_their_contents():
    assert RunResult("r", "ok", values={"m": 1.0}) == RunResult("r", "ok", values={"m": 1.0})
    assert RunResult("r", "ok") != RunResult("r", "errors")
    assert repr(RunResult("r", "ok")).startswith("RunResult(name='r', status='ok', fatal=None")
