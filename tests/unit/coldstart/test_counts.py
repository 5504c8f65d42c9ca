"""scorer/coldstart/counts.py: the counts table of the demo run (its rows in
the Perl's order with their counts and P/R/F1, as the golden ``.sf`` prints
them), the Perl's row order and numeric context."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer import prf
from scorer.coldstart.counts import (COLUMNS, COUNT_COLUMNS, counts_frame, ec_sort_key,
                                     perl_number, row_scores)

from coldstart_demo import expected, scored

#: .sf column of each count column
SF_COLUMN = {"GT": "GT", "SUBMITTED": "Submitted", "CORRECT": "Correct",
             "INCORRECT": "Incorrect", "INEXACT": "Inexact", "INCORRECT_PARENT": "PIncorrect",
             "UNASSESSED": "Unassessed", "REDUNDANT": "Dup", "RIGHT": "Right", "WRONG": "Wrong",
             "IGNORED": "Ignored", "P": "Prec", "R": "Recall", "F": "F1"}


def test_the_demo_table_is_the_golden_sf_rows_in_order():
    table = scored().table
    lines = expected("sf").split("\n")
    header = lines[0].split()
    golden = [dict(zip(header, line.split())) for line in lines[1:lines.index("")]
              if not line.startswith("ALL-")]
    assert table["name"] == [row["QID/EC"] for row in golden]
    for i, row in enumerate(golden):
        for column, sf_column in SF_COLUMN.items():
            value = table[column][i]
            shown = "%0.4f" % value if column in ("P", "R", "F") else str(int(value))
            assert shown == row[sf_column], (row["QID/EC"], column)
        assert table["level"][i] == row["QID/EC"].count(":")
        assert table["sf_full_id"][i] == row["QID/EC"].split(":")[0]
        assert table["ldc_id"][i] is not None and table["ldc_full_id"][i].endswith(
            table["ldc_id"][i])
    frame = counts_frame(table)
    assert list(frame.columns) == list(COLUMNS) and len(frame) == len(golden)
    assert counts_frame(frame) is frame


def test_the_perls_row_order():
    names = ["Q:10", "Q:2", "Q", "P:1", "Q:2:1", "Q:1x", "Q:0"]
    assert sorted(names, key=ec_sort_key) == ["P:1", "Q", "Q:0", "Q:1x", "Q:2", "Q:2:1", "Q:10"]


@pytest.mark.parametrize("text, value", [("12abc", 12.0), ("  3.5e2x", 350.0), ("abc", 0.0),
                                         ("-.5", -0.5), ("", 0.0), ("+7.", 7.0)])
def test_a_string_in_perls_numeric_context(text, value):
    assert perl_number(text) == value


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 9), st.integers(0, 9), st.integers(0, 9),
                          st.integers(0, 9)), min_size=1, max_size=8))
def test_row_scores_are_prfs_rules_row_by_row(rows):
    counts = {"RIGHT": [r[0] for r in rows], "SUBMITTED": [r[1] + r[2] for r in rows],
              "IGNORED": [r[2] for r in rows], "GT": [r[3] for r in rows]}
    p, r, f = row_scores(counts)
    for i, (right, scored_, _ignored, gt) in enumerate(rows):
        assert (p[i], r[i]) == (prf.precision(right, scored_), prf.recall(right, gt))
        assert f[i] == prf.f1(p[i], r[i])
    assert len(COUNT_COLUMNS) == 11
