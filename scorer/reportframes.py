"""A run's bootstrap reports read back as DataFrames (``.confidence``,
``.samplescores``), and its 95 % intervals keyed as the per-hop table is: the
reports are the numbers of record, and the API and the picture of ``-plot``
read them so.
"""
from __future__ import annotations

import re

from scorer.results import INTERVAL_COLUMNS

#: The columns of a ``.confidence`` report, in its order.
CONFIDENCE_COLUMNS = ["code", "low99", "low95", "low90", "mean", "score", "high90", "high95",
                      "high99"]


#: A Cold Start line: the code, then 8 cells joined by one blank each; a
#: missing bound is an empty cell, a score without a full-data value is
#: ``     -`` (so blanks alone cannot split the cells).
_COLDSTART_LINE = re.compile(r"(\S+) (\S*) (\S*) (\S*) (\S+) (\S+| {5}-) (\S*) (\S*) (\S*)")


def _number(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        return float("nan")


def confidence_frame(text: str):
    """A ``.confidence`` (or ``.apconfidence``) report as a DataFrame."""
    import pandas as pd
    rows = []
    for line in text.splitlines()[1:]:
        cells = _COLDSTART_LINE.fullmatch(line)
        # Claim tasks pad the metric name; their values are never missing.
        fields = list(cells.groups()) if cells else line.split()
        rows.append([fields[0]] + [_number(f) for f in fields[1:]])
    return pd.DataFrame(rows, columns=CONFIDENCE_COLUMNS)


def interval_frame(task, confidence_texts: list):
    """95 % intervals keyed as the per-hop table is (variant, aggregate, hop,
    metric, low, high), from a run's ``.confidence`` and ``.apconfidence``
    texts (``task``: the task's record, which keys each code; codes it does
    not show per hop are left out)."""
    import pandas as pd
    interval_key = task.picture.interval_key
    rows = []
    for text in confidence_texts:
        for row in confidence_frame(text).itertuples(index=False):
            key = interval_key(row.code)
            if key is not None:
                rows.append((*key, row.low95, row.high95))
    return pd.DataFrame(rows, columns=list(INTERVAL_COLUMNS))


def samplescores_frame(text: str):
    """A ``.samplescores`` report as a DataFrame: ``sample``, then one column a code."""
    import pandas as pd
    lines = text.splitlines()
    header = [h for h in lines[0].split() if h != "#RUNID"]
    rows = []
    for line in lines[1:]:
        cells = [c for c in line.split() if not c.startswith("#")]
        rows.append([int(cells[0])] + [float(c) for c in cells[1:]])
    return pd.DataFrame(rows, columns=["sample"] + header[1:])
