"""A scored run as data: its metric values, its per-unit statistics (for
statistics over samples and runs), and long tables per query and per hop.
Shared by the track and the Python API, so both report the same numbers.
"""
from __future__ import annotations


class RunResult:
    """One scored run, as data (small enough to send between processes).  A
    plain class, not a dataclass: the leaderboard's scoring program makes one
    for every submission, and importing dataclasses (and inspect) would cost it
    more than the class saves typing."""

    def __init__(self, name: str, status: str, fatal: str | None = None, values=None,
                 statistics=None, per_query=None, per_hop=None, report_files=None):
        self.name = name
        self.status = status                  # "ok", "errors" or "empty" (track.runner)
        self.fatal = fatal                    # the fatal message, when the run has no reports
        #: metric -> full-data value; metric -> UnitStatistic
        self.values = {} if values is None else values
        self.statistics = {} if statistics is None else statistics
        #: (query, hop, metric, value); (variant, aggregate, hop, metric, value)
        self.per_query = [] if per_query is None else per_query
        self.per_hop = [] if per_hop is None else per_hop
        #: relative to the track dir
        self.report_files = [] if report_files is None else report_files

    def __eq__(self, other):
        return type(other) is RunResult and vars(self) == vars(other)

    def __repr__(self):
        return "RunResult(" + ", ".join(f"{k}={v!r}" for k, v in vars(self).items()) + ")"


def claim_table_rows(keys: list, columns: dict) -> list:
    """A claim task's per-query rows, (claim, "ALL", column, value), from its
    counts table's column lists (no pandas for a plain run)."""
    rows = []
    items = list(columns.items())
    for i, key in enumerate(keys):
        for column, values in items:
            rows.append((key, "ALL", column, float(values[i])))
    return rows


# -- the long tables of runs (pandas) ------------------------------------------------

PER_QUERY_COLUMNS = ["run", "query", "hop", "metric", "value"]
PER_HOP_COLUMNS = ["run", "variant", "aggregate", "hop", "metric", "value"]


def per_query(results: list):
    """Per run, unit and hop, every statistic: a DataFrame of PER_QUERY_COLUMNS."""
    import pandas as pd
    records = [(r.name, query, hop, metric, value)
               for r in results for query, hop, metric, value in r.per_query]
    return pd.DataFrame.from_records(records, columns=PER_QUERY_COLUMNS)


def per_hop(results: list):
    """Per run, every aggregate score: a DataFrame of PER_HOP_COLUMNS."""
    import pandas as pd
    records = [(r.name,) + tuple(row) for r in results for row in r.per_hop]
    return pd.DataFrame.from_records(records, columns=PER_HOP_COLUMNS)
