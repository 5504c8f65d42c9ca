"""scorer/reportframes.py: bootstrap reports read back as DataFrames.  The
texts the report writers make (coldstart/reports/confidence.py, the claim
tasks' padded lines) come back as the very numbers written, missing values
as NaN; intervals are keyed by the task's record."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from scorer import tasks
from scorer.coldstart.reports.confidence import render_confidence, render_samplescores
from scorer.reportframes import (CONFIDENCE_COLUMNS, confidence_frame, interval_frame,
                                 samplescores_frame)

VALUES = {"ALLEP_SLOTFLG_Mi_1_P": [0.25, 0.5, 0.75, 1.0],
          "ALLEP_LDCMAXI_Ma_A_F": [0.5, None, 0.5, 0.5],
          "ONEEP_SLOTFLG_Mi_A_R": [0.0, 0.125, 0.25, 0.375]}
ORIGINALS = {"ALLEP_SLOTFLG_Mi_1_P": "0.5000"}


def test_a_confidence_report_reads_back_as_its_numbers():
    text = render_confidence(sorted(VALUES), VALUES, ORIGINALS)
    frame = confidence_frame(text)
    assert list(frame.columns) == CONFIDENCE_COLUMNS
    assert frame["code"].tolist() == sorted(VALUES)
    nan = float("nan")
    # four samples: every lower bound is the first value, every upper one the third
    expected = {"ALLEP_LDCMAXI_Ma_A_F": [nan, nan, nan, 0.375, nan, 0.5, 0.5, 0.5],
                "ALLEP_SLOTFLG_Mi_1_P": [0.25, 0.25, 0.25, 0.625, 0.5, 0.75, 0.75, 0.75],
                "ONEEP_SLOTFLG_Mi_A_R": [0.0, 0.0, 0.0, 0.1875, nan, 0.25, 0.25, 0.25]}
    for row in frame.itertuples(index=False):
        assert np.array_equal(list(row[1:]), expected[row.code], equal_nan=True), row.code


def test_missing_bounds_beside_a_score_without_a_full_data_value_keep_their_columns():
    """A code without a full-data score (ONEEP) whose samples miss a value: its
    line holds empty cells and '     -'; each number stays in its column (the
    mean was read as the 99 % lower bound)."""
    text = render_confidence(["ONEEP_SLOTFLG_Mi_1_P"],
                             {"ONEEP_SLOTFLG_Mi_1_P": [None, 0.5, 0.5, 0.5]}, {})
    assert text.splitlines()[1] == "ONEEP_SLOTFLG_Mi_1_P    0.3750      - 0.5000 0.5000 0.5000"
    row = confidence_frame(text).iloc[0]
    assert math.isnan(row["low99"]) and math.isnan(row["low90"]) and math.isnan(row["score"])
    assert (row["mean"], row["high90"], row["high99"]) == (0.375, 0.5, 0.5)


def test_padded_claim_lines_read_alike():
    text = ("header\n"
            "strict_score     0.1000 0.2000 0.3000 0.4000 0.4000 0.5000 0.6000 0.7000\n")
    frame = confidence_frame(text)
    assert frame.iloc[0].tolist() == ["strict_score", 0.1, 0.2, 0.3, 0.4, 0.4, 0.5, 0.6, 0.7]


def test_samplescores_read_back_as_written():
    codes = ["A_1", "B_2"]
    values = {"A_1": np.array([0.25, np.nan, 1.0]), "B_2": np.array([0.0, 0.5, 0.1234])}
    text = "".join(render_samplescores([1, 2, 3], codes, values, "RUN")())
    frame = samplescores_frame(text)
    expected = pd.DataFrame({"sample": [1, 2, 3], "A_1": [0.25, 0.0, 1.0],
                             "B_2": [0.0, 0.5, 0.1234]})
    pd.testing.assert_frame_equal(frame, expected)


def test_intervals_are_keyed_as_the_per_hop_table_by_the_task():
    text = render_confidence(sorted(VALUES), VALUES, ORIGINALS)
    frame = interval_frame(tasks.get("coldstart"), [text])
    confidence = confidence_frame(text).set_index("code")
    # the ONEEP code is not shown per hop
    assert len(frame) == 2
    rows = {tuple(r[:4]): (r[4], r[5]) for r in frame.itertuples(index=False)}
    assert rows[("SF", "micro", "1", "P")] == tuple(
        confidence.loc["ALLEP_SLOTFLG_Mi_1_P", ["low95", "high95"]])
    assert ("LDCMAX", "macro", "ALL", "F1") in rows
