"""Scored runs as data: a run's metric values and per-unit statistics (for
statistics over samples and runs), the long tables of runs per query and per
hop, and the columns of every table a track writes, declared once here for
the track that writes them and the pictures and page that read them.
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


def wants_statistic(statistics, metric: str) -> bool:
    """Whether ``run_result(..., statistics=...)`` makes ``metric``'s per-unit
    statistics: True, every metric's; False, none; else the metric names given
    (a track sends back its headline's alone)."""
    return statistics is True or (statistics is not False and metric in statistics)


def claim_table_rows(keys: list, columns: dict, sparse: frozenset = frozenset()) -> list:
    """A claim task's per-query rows, (claim, "ALL", column, value), from its
    counts table's column lists (no pandas for a plain run); a zero of a
    column in ``sparse`` (``task.scoring.sparse_columns``) has no row."""
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


# -- the columns of a track's tables (docs/statistics.md defines each) -----------------

#: What names a score of a run: its variant (Cold Start's SF, LDCMAX, LDCMEAN; a
#: counts-table task's "claims"), aggregate ("micro", "macro"; ""), hop and metric.
SCORE_KEY = ("variant", "aggregate", "hop", "metric")
#: Every value per run, unit (query, claim, item) and hop: per_query.csv.
PER_QUERY_COLUMNS = ("run", "query", "hop", "metric", "value")
#: Every score per run: the per-hop table.
PER_HOP_COLUMNS = ("run",) + SCORE_KEY + ("value",)
#: A run's 95 % interval of each score it has one for (the picture of -plot).
INTERVAL_COLUMNS = SCORE_KEY + ("low", "high")
#: leaderboard.csv: these, then each run's 95 % rank range and group (with
#: samples), then the other metrics, then the run's status.
LEADERBOARD_COLUMNS = ("rank", "run", "metric", "score", "ci95_low", "ci95_high")
RANK_COLUMNS = ("rank_low", "rank_high", "group")
#: significance.csv, a row per pair of runs compared.
SIGNIFICANCE_COLUMNS = ("run_a", "run_b", "metric", "delta", "delta_ci95_low",
                        "delta_ci95_high", "wins", "ties", "losses", "p_bootstrap",
                        "p_randomization", "p_holm", "p_bh", "significant")
#: A difference is significant when its adjusted p is below this
#: (``significant`` in significance.csv; the groups and pictures use the same).
SIGNIFICANCE_LEVEL = 0.05
#: The adjustments (-correction) that decide ``significant``, by name.
CORRECTION_NAMES = {"holm": "Holm", "bh": "Benjamini-Hochberg"}


# -- per_query.csv, written run by run (no pandas) ------------------------------------

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


# -- the long tables of runs (pandas) ------------------------------------------------

def per_query(results: list):
    """Per run, unit and hop, every statistic: a DataFrame of PER_QUERY_COLUMNS."""
    import pandas as pd
    records = [(r.name, query, hop, metric, value)
               for r in results for query, hop, metric, value in r.per_query]
    return pd.DataFrame.from_records(records, columns=list(PER_QUERY_COLUMNS))


def per_hop(results: list):
    """Per run, every aggregate score: a DataFrame of PER_HOP_COLUMNS."""
    import pandas as pd
    records = [(r.name,) + tuple(row) for r in results for row in r.per_hop]
    return pd.DataFrame.from_records(records, columns=list(PER_HOP_COLUMNS))
