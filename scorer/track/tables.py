"""The track's tables as DataFrames, and their files: CSV and JSON for
programs, Markdown for people (LaTeX for papers: ``track/papertables.py``).
"""
from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd

from scorer.results import CORRECTION_NAMES, LEADERBOARD_COLUMNS, RANK_COLUMNS, \
    SIGNIFICANCE_COLUMNS, SIGNIFICANCE_LEVEL

#: Columns of whole numbers that may be empty.
_COUNTS = {"leaderboard": ["rank", "rank_low", "rank_high", "group"],
           "significance": ["wins", "ties", "losses"]}
NO_SAMPLES_NOTE = ("No bootstrap samples were given (-bootstrap N -seed S, or -samples FILE): "
                   "no intervals and no significance tests.")


def statistics_notes(has_samples: bool, correction: str, warnings: list,
                     randomization: str = "") -> str:
    """What the Markdown tables say under themselves: the correction that decides
    `significant` and `group`, or that there were no samples; every warning."""
    if not has_samples:
        lines = [NO_SAMPLES_NOTE]
    else:
        lines = [f"`significant` and `group`: {CORRECTION_NAMES.get(correction, correction)}-"
                 f"adjusted p below {SIGNIFICANCE_LEVEL:g}."
                 + (f" {randomization}" if randomization else "")]
    return "\n\n".join(lines + [f"WARNING: {warning}" for warning in warnings])


def ranked(results: list, metric: str) -> list:
    """The runs that have ``metric``, best first, ties in run-name order."""
    return sorted((r for r in results if metric in r.values),
                  key=lambda r: (-r.values[metric], r.name))


def leaderboard(results: list, metric: str, metric_names: list, intervals: dict,
                rank_ranges: dict = None, groups: dict = None) -> pd.DataFrame:
    """One row per run, best first; ties share a rank and go in run-name order;
    runs without numbers (a fatal error in their files) come last, unranked.
    ``rank_ranges`` and ``groups`` (by run) are empty cells where missing."""
    rank_ranges, groups = rank_ranges or {}, groups or {}
    scored = ranked(results, metric)
    unscored = sorted((r for r in results if metric not in r.values), key=lambda r: r.name)
    rows = []
    for position, result in enumerate(scored):
        score = result.values[metric]
        rank = 1 + sum(1 for other in scored if other.values[metric] > score)
        low, high = intervals.get(result.name, (math.nan, math.nan))
        rank_low, rank_high = rank_ranges.get(result.name, (None, None))
        rows.append([rank, result.name, metric, score, low, high, rank_low, rank_high,
                     groups.get(result.name)]
                    + [result.values.get(name, math.nan) for name in metric_names]
                    + [result.status])
    for result in unscored:
        rows.append([None, result.name, metric, math.nan, math.nan, math.nan, None, None, None]
                    + [math.nan] * len(metric_names) + [result.status])
    frame = pd.DataFrame(rows, columns=[*LEADERBOARD_COLUMNS, *RANK_COLUMNS, *metric_names,
                                        "status"])
    for column in _COUNTS["leaderboard"]:
        frame[column] = frame[column].astype("Int64")
    return frame


def significance(rows: list) -> pd.DataFrame:
    frame = pd.DataFrame(rows, columns=list(SIGNIFICANCE_COLUMNS))
    for column in _COUNTS["significance"]:
        frame[column] = frame[column].astype("Int64")
    frame["significant"] = frame["significant"].astype(bool)
    return frame


# -- files --------------------------------------------------------------------------

def csv_text(frame: pd.DataFrame) -> str:
    """Full precision (shortest repr of each double); an empty cell where there is no value."""
    return frame.to_csv(index=False, lineterminator="\n")


def json_text(frame: pd.DataFrame) -> str:
    """One object per row, each number exact (the shortest repr that reads back
    as the same double, as in the CSV); null where there is no value.  pandas'
    own writer rounds to at most 15 significant digits."""
    records = [{str(column): json_value(value) for column, value in zip(frame.columns, row)}
               for row in frame.itertuples(index=False, name=None)]
    return json.dumps(records, indent=1, allow_nan=False) + "\n"


def json_value(value):
    """A cell as JSON takes it: numpy scalars as Python's, NaN and pandas' NA as None."""
    if value is None or value is pd.NA or value is pd.NaT:
        return None
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        return float(value) if math.isfinite(value) else None
    return str(value)


def markdown_text(frame: pd.DataFrame, note: str = "") -> str:
    """The table for reading, at 4 decimals.  A p-value below what 4 decimals
    show reads '<0.0001' (as in significance.tex), not 0.0000, which would
    claim a p of zero; the CSV and JSON twins hold every digit."""
    shown = frame.copy()
    for column in shown.columns:
        if str(column).startswith("p_"):
            shown[column] = [_p_text(value) for value in shown[column]]
        elif shown[column].isna().any():
            # tabulate leaves only None empty: NaN would read 'nan', pandas' NA '<NA>'
            shown[column] = pd.Series([None if pd.isna(value) else value
                                       for value in shown[column]], dtype=object)
        if not pd.api.types.is_numeric_dtype(shown[column]):
            shown[column] = pd.Series([_markdown_cell(value) for value in shown[column]],
                                      dtype=object, index=shown.index)
    text = shown.to_markdown(index=False, floatfmt=".4f", missingval="") + "\n"
    return text + (f"\n{note}\n" if note else "")


def _markdown_cell(value):
    """A text cell with its '|' escaped (a run named 'a|b' would split its row
    into two cells); a backslash before it is escaped too."""
    if isinstance(value, str) and "|" in value:
        return value.replace("\\", "\\\\").replace("|", "\\|")
    return value


def _p_text(value) -> str:
    """A p-value as markdown_text shows it: 4 decimals, or '<0.0001' below
    what 4 decimals show; empty where there is none."""
    if value is None or pd.isna(value):
        return ""
    return "<0.0001" if value < 0.0001 else f"{value:.4f}"
