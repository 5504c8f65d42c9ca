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


def run_result(name: str, task: str, outcome, status: str = "ok",
               statistics: bool = True, claim_rows: bool = True) -> RunResult:
    """The data of one scored run (``outcome``: a task driver's ``score`` result;
    Cold Start: its first run id); the per-unit statistics only when asked; a
    claim task's per-query rows unless ``claim_rows`` is False (then
    :func:`claim_table_rows` makes them when they are wanted)."""
    result = RunResult(name, status)
    if task == "coldstart":
        _coldstart_data(result, outcome, statistics)
    else:
        _claims_data(result, outcome, statistics, claim_rows)
    return result


def _coldstart_data(result: RunResult, outcome, statistics: bool = True) -> None:
    from scorer.coldstart import units
    from scorer.coldstart.ap import LEVEL_ORDER
    from scorer.coldstart.projections import MICRO, all_aggregates, full_data
    from scorer.stats import prf_arrays
    if not outcome.runs:
        return
    scores = outcome.runs[0]
    run_units = units.RunUnits(scores)
    for metric in units.available(scores.structure.has_index):
        result.values[metric.name] = run_units.value(metric)
        if statistics:
            result.statistics[metric.name] = run_units.statistic(metric)
    structure = scores.structure
    for (variant, aggregate, level), line in sorted(
            all_aggregates(structure, full_data(structure)).items()):
        if line.exists[0]:
            for name, values in (("P", line.p), ("R", line.r), ("F1", line.f)):
                result.per_hop.append((variant, "micro" if aggregate == MICRO else "macro",
                                       level, name, float(values[0])))
    for variant in ("SF", "LDCMEAN") if structure.has_index else ("SF",):
        for level, value in run_units.ap_levels(variant).items():
            result.per_hop.append((variant, "macro", level, "AP", float(value)))
    # Per SF query and hop: the counts of its rows, P/R/F1 from them, and AP.
    table = structure.table
    counted = ["GT", "SUBMITTED", "RIGHT", "WRONG", "IGNORED"]
    by_level = table.groupby(["sf_full_id", "level"], sort=True)[counted].sum()
    ap = {(row.query_full_id, row.level): row.ap for row in scores.ap_rows}
    for query in sorted(set(table["sf_full_id"])):
        levels = by_level.loc[query]
        for hop in LEVEL_ORDER:
            if hop == "ALL":
                sums = levels.sum()
            elif int(hop) in levels.index:
                sums = levels.loc[int(hop)]
            else:
                continue
            p, r, f = prf_arrays(sums["RIGHT"], sums["SUBMITTED"] - sums["IGNORED"], sums["GT"])
            for name in counted:
                result.per_query.append((query, hop, name, float(sums[name])))
            result.per_query += [(query, hop, "P", float(p)), (query, hop, "R", float(r)),
                                 (query, hop, "F1", float(f))]
            if (query, hop) in ap:
                result.per_query.append((query, hop, "AP", float(ap[(query, hop)])))


def _claims_data(result: RunResult, outcome, statistics: bool = True,
                 claim_rows: bool = True) -> None:
    from scorer.claims.metrics import unit_statistic
    evaluation = outcome.evaluation
    for name, value in evaluation.metrics.items():
        result.values[name] = float(value)
        if statistics:
            result.statistics[name] = unit_statistic(evaluation.task, name, evaluation.counts,
                                                     evaluation.keys)
        result.per_hop.append(("claims", "", "ALL", name, float(value)))
    if claim_rows:
        result.per_query += claim_table_rows(evaluation.keys, evaluation.columns)


def claim_table_rows(keys: list, columns: dict) -> list:
    """A claim task's per-query rows, (claim, "ALL", column, value), from its
    counts table's column lists (no pandas for a plain run)."""
    rows = []
    items = list(columns.items())
    for i, key in enumerate(keys):
        for column, values in items:
            rows.append((key, "ALL", column, float(values[i])))
    return rows


# -- the bootstrap reports read back, as tables --------------------------------------

CONFIDENCE_COLUMNS = ["code", "low99", "low95", "low90", "mean", "score", "high90", "high95",
                      "high99"]
_VARIANT_OF_CODE = {"SLOTFLG": "SF", "LDCMAXI": "LDCMAX", "LDCMEAN": "LDCMEAN"}
_AGGREGATE_OF_CODE = {"Mi": "micro", "Ma": "macro"}
_HOP_OF_CODE = {"0": "0", "1": "1", "A": "ALL"}
_METRIC_OF_CODE = {"P": "P", "R": "R", "F": "F1", "AP": "AP"}


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


def interval_frame(task: str, confidence_texts: list):
    """95 % intervals keyed as the per-hop table is (variant, aggregate, hop,
    metric, low, high), from a run's ``.confidence`` and ``.apconfidence``
    texts (Cold Start: the all-entry-point codes)."""
    import pandas as pd
    rows = []
    for text in confidence_texts:
        for row in confidence_frame(text).itertuples(index=False):
            if task != "coldstart":
                rows.append(("claims", "", "ALL", row.code, row.low95, row.high95))
                continue
            mode, variant, aggregate, hop, metric = row.code.split("_")
            if mode == "ALLEP":
                rows.append((_VARIANT_OF_CODE[variant], _AGGREGATE_OF_CODE[aggregate],
                             _HOP_OF_CODE[hop], _METRIC_OF_CODE[metric], row.low95, row.high95))
    return pd.DataFrame(rows, columns=["variant", "aggregate", "hop", "metric", "low", "high"])


def run_picture(task: str, outcome) -> bytes:
    """The single-run picture of ``-plot`` (scorer.look): every score per hop,
    with its 95 % interval when the run was bootstrapped; titled with the run
    id (Cold Start) or the predictions file's name, so that a track's run draws
    the very picture of the single run."""
    import os
    from scorer.look.plot import run_png
    from scorer.track.tables import per_hop
    data = run_result("run", task, outcome)
    texts = dict(outcome.reports.files())
    confidence = [texts[name] for name in ("confidence", "apconfidence") if texts.get(name)]
    intervals = interval_frame(task, confidence) if confidence else None
    if task == "coldstart":
        title = outcome.runs[0].runid if outcome.runs else "no run"
    else:
        title = os.path.basename(outcome.evaluation.files[-1])
    return run_png(per_hop([data]).drop(columns="run"), intervals, title)
