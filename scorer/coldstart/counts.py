"""The counts table of a run: one row per scored tree node (query or EC), with
the sufficient statistics every report and every bootstrap sample is
computed from (spec §3.6, §4.1).
"""
from __future__ import annotations

import re

import numpy as np

from scorer import prf

#: Count columns, in the Perl's field order (spec §5.1).
COUNT_COLUMNS = ("GT", "SUBMITTED", "CORRECT", "INCORRECT", "INEXACT", "INCORRECT_PARENT",
                 "UNASSESSED", "REDUNDANT", "RIGHT", "WRONG", "IGNORED")

_COUNT_OF_LABEL = {"SUBMITTED": "SUBMITTED", "CORRECT": "CORRECT", "INCORRECT": "INCORRECT",
                   "INEXACT": "INEXACT", "INCORRECT_PARENT": "INCORRECT_PARENT",
                   "UNASSESSED": "UNASSESSED", "REDUNDANT": "REDUNDANT", "RIGHT": "RIGHT",
                   "WRONG": "WRONG", "IGNORED": "IGNORE"}

_LEADING_NUMBER = re.compile(r"\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)")


def perl_number(text: str) -> float:
    """A string's value in Perl's numeric context: its leading number, else 0."""
    match = _LEADING_NUMBER.match(text)
    return float(match.group(1)) if match else 0.0


def ec_sort_key(name: str) -> tuple:
    """The Perl's row order (spec §4.2): the query id as a string, then each EC
    component numerically, then fewer components first."""
    first, *rest = name.split(":")
    return (first, tuple(int(c) if c.isascii() and c.isdigit() else perl_number(c) for c in rest))


#: The counts table's columns, in order.
COLUMNS = ("name", "query_id", "sf_full_id", "suffix", "level", "runid", "ldc_id",
           "ldc_full_id", *COUNT_COLUMNS, "P", "R", "F")


def counts_table(rows, sf_to_ldc: dict, queries) -> dict:
    """One row per scored node, in the Perl's row order, with P, R and F1: a
    column name -> its values (lists; level, counts, P, R, F numpy arrays).
    :func:`counts_frame` makes a DataFrame of it; a plain run needs none."""
    rows = sorted(rows, key=lambda row: ec_sort_key(row.name))
    names = [row.name.partition(":") for row in rows]
    ldc_ids = [sf_to_ldc.get(row.query_id) for row in rows]
    ldc_queries = [queries.get(ldc_id) if ldc_id is not None else None for ldc_id in ldc_ids]
    table = {
        "name": [row.name for row in rows],
        "query_id": [row.query_id for row in rows],
        "sf_full_id": [first for first, _, _ in names],
        "suffix": [suffix.split(":")[0] if suffix else "" for _, _, suffix in names],
        "level": [row.level for row in rows],
        "runid": [row.runid for row in rows],
        "ldc_id": ldc_ids,
        "ldc_full_id": [q.full_id if q is not None else None for q in ldc_queries],
        "GT": [row.ground_truth for row in rows],
    }
    for column, label in _COUNT_OF_LABEL.items():
        table[column] = [row.counts[label] for row in rows]
    for column in ("level", *COUNT_COLUMNS):
        table[column] = np.array(table[column], dtype=np.int64)
    table["P"], table["R"], table["F"] = row_scores(table)
    return table


def counts_frame(table):
    """The counts table as a DataFrame (for the track's tables); a DataFrame
    is returned as it is."""
    if not isinstance(table, dict):
        return table
    # pandas (half a second to import) for the track and the API's
    # frames; a command-line run writes its reports from the dict.
    import pandas as pd
    return pd.DataFrame({column: table[column] for column in COLUMNS}, columns=list(COLUMNS))


def row_scores(counts) -> tuple:
    """P = Right / (Submitted - Ignored), R = Right / GT, F1 (spec §4.1)."""
    right = np.asarray(counts["RIGHT"])
    denominator = np.asarray(counts["SUBMITTED"]) - np.asarray(counts["IGNORED"])
    return prf.prf_arrays(right, denominator, np.asarray(counts["GT"]))
