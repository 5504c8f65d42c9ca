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
        #: how many units per_query has rows of, before a track cut them to
        #: those its page shows (track.runner.SHOWN_UNITS); None: not cut
        self.units = None

    def __eq__(self, other):
        return type(other) is RunResult and vars(self) == vars(other)

    def __repr__(self):
        return "RunResult(" + ", ".join(f"{k}={v!r}" for k, v in vars(self).items()) + ")"


def claim_table_rows(keys: list, columns: dict, sparse: frozenset = frozenset()) -> list:
    """A claim task's per-query rows, (claim, "ALL", column, value), from its
    counts table's column lists (no pandas for a plain run); a zero of a
    column in ``sparse`` (``Task.sparse_columns``) has no row."""
    rows = []
    items = list(columns.items())
    if sparse:
        dense = [(column, values) for column, values in items if column not in sparse]
        thin = [(column, values) for column, values in items if column in sparse]
        for i, key in enumerate(keys):
            for column, values in dense:
                rows.append((key, "ALL", column, float(values[i])))
            for column, values in thin:
                if values[i]:
                    rows.append((key, "ALL", column, float(values[i])))
        return rows
    for i, key in enumerate(keys):
        for column, values in items:
            rows.append((key, "ALL", column, float(values[i])))
    return rows


# -- the long tables of runs (pandas) ------------------------------------------------

PER_QUERY_COLUMNS = ["run", "query", "hop", "metric", "value"]
#: The first line of per_query.csv(.gz).
PER_QUERY_HEADER = ",".join(PER_QUERY_COLUMNS) + "\n"


def capped_per_query(rows: list, metric: str, most: int) -> tuple:
    """``(rows, units)``: a run's per-query rows cut to those of at most
    ``most`` units, and how many units it has.  The units kept are those a
    track's page shows first (its per-unit table, worst first): by the value
    of the sort metric at hop ALL (``look.view.TrackView.sort_metric``: the
    headline metric where the rows have it, else AP, else F1, else the first),
    lowest first, blanks last, ties in the order of the rows."""
    from operator import itemgetter
    units = dict.fromkeys(map(itemgetter(0), rows))
    if len(units) <= most:
        return rows, len(units)
    metrics = dict.fromkeys(map(itemgetter(2), rows))
    sort_metric = next((m for m in (metric, "AP", "F1") if m in metrics), next(iter(metrics)))
    hops = {row[1] for row in rows if row[2] == sort_metric}
    hop = "ALL" if "ALL" in hops else min(hops, key=str)
    value = {query: v for query, h, m, v in rows if m == sort_metric and h == hop}

    def order(unit):
        v = value.get(unit)
        return (1, 0.0) if v is None or v != v else (0, v)

    kept = set(sorted(units, key=order)[:most])
    return [row for row in rows if row[0] in kept], len(units)


def per_query_lines(run: str, rows: list) -> list:
    """A run's per-query rows as the lines of per_query.csv: what pandas'
    ``to_csv`` writes for them in the whole table (fields quoted as the csv
    module quotes them, each number as the shortest text that reads back as
    the same double, an empty cell for NaN), made row by row so that a run
    can write its own lines without the whole table."""
    head = _csv_field(run) + ","
    tails: dict = {}                    # (hop, metric) -> ",hop,metric,"
    lines = []
    append = lines.append
    for query, hop, metric, value in rows:
        tail = tails.get((hop, metric))
        if tail is None:
            tail = tails[hop, metric] = f",{_csv_field(str(hop))},{_csv_field(str(metric))},"
        if type(query) is not str:
            query = str(query)
        if "," in query or '"' in query or "\n" in query:
            query = _csv_field(query)
        append(f"{head}{query}{tail}{'' if value != value else repr(float(value))}\n")
    return lines


def _csv_field(text: str) -> str:
    """A field as csv.writer (QUOTE_MINIMAL, line end \\n) writes it."""
    if "," in text or '"' in text or "\n" in text:
        return '"' + text.replace('"', '""') + '"'
    return text
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


# -- the bootstrap reports read back, as tables --------------------------------------

CONFIDENCE_COLUMNS = ["code", "low99", "low95", "low90", "mean", "score", "high90", "high95",
                      "high99"]
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
        fields = line.split(" ")
        if len(fields) != len(CONFIDENCE_COLUMNS):
            # Claim tasks pad the metric name; their values are never missing.
            fields = [fields[0]] + line.split()[1:]
        rows.append([fields[0]] + [_number(f) for f in fields[1:]])
    return pd.DataFrame(rows, columns=CONFIDENCE_COLUMNS)


def interval_frame(task, confidence_texts: list):
    """95 % intervals keyed as the per-hop table is (variant, aggregate, hop,
    metric, low, high), from a run's ``.confidence`` and ``.apconfidence``
    texts (``task``: the task's record, which keys each code; codes it does
    not show per hop are left out)."""
    import pandas as pd
    interval_key = task.interval_key
    rows = []
    for text in confidence_texts:
        for row in confidence_frame(text).itertuples(index=False):
            key = interval_key(row.code)
            if key is not None:
                rows.append((*key, row.low95, row.high95))
    return pd.DataFrame(rows, columns=["variant", "aggregate", "hop", "metric", "low", "high"])
