"""What the pictures and the page of a track are drawn from: one explicit data
object, built by the track command (or a notebook) from its own tables.

The look package never scores and never reads report files: everything it shows
comes from a ``TrackView``.
"""
from __future__ import annotations

import dataclasses
import math
from typing import Optional

import pandas as pd

# The columns of the track's tables, and the level of its tests (the pictures and
# the page import them from here).
from scorer.results import (CORRECTION_NAMES, INTERVAL_COLUMNS,  # noqa: F401
                            LEADERBOARD_COLUMNS, PER_HOP_COLUMNS, PER_QUERY_COLUMNS,
                            RANK_COLUMNS, SCORE_KEY, SIGNIFICANCE_LEVEL)


#: Hops in the order they are shown; others follow in string order.
HOP_ORDER = ("ALL", "0", "1")
#: Metrics in the order they are shown; others follow in first-seen order.
METRIC_ORDER = ("P", "R", "F1", "AP")

#: The significance columns the pictures and the page read (of
#: ``results.SIGNIFICANCE_COLUMNS``, which a track's table has every one of).
SIGNIFICANCE_READ = ("run_a", "run_b", "metric", "delta", "p_bootstrap", "p_randomization",
                     "p_holm", "significant")
#: A run's scores per hop (one run: ``results.PER_HOP_COLUMNS`` without the run).
RUN_SCORE_COLUMNS = SCORE_KEY + ("value",)
#: What a '*' after a run's name means (the picture, leaderboard.tex): a run
#: whose files have errors but which has a score (Cold Start scores the lines it
#: could read, as the Perl does), not like the others'.
ERRORS_NOTE = ("*: the run's files have errors (its run.errlog says which); it was scored "
               "from the lines that could be read.")


@dataclasses.dataclass(frozen=True)
class TrackView:
    metric: str              # headline metric key, e.g. "LDCMEAN_ALL_Macro_AP", "sentence_label_f1", "strict_score"
    metric_title: str        # readable name of it
    leaderboard: pd.DataFrame  # best first; columns: rank, run, metric, score, ci95_low, ci95_high,
                               # then other metric columns (floats), then status ("ok"/"errors");
                               # ci95_* are NaN when the track had no samples
    significance: Optional[pd.DataFrame]  # None without samples; columns: run_a, run_b, metric, delta,
                               # p_bootstrap, p_randomization, p_holm, significant (bool)
    per_query: pd.DataFrame  # long format: run, query, hop, metric, value  (hop "0","1","ALL"; claims: hop "ALL",
                               # query = claim id; metric names such as P, R, F1, AP, or the claim metrics)
    per_hop: pd.DataFrame    # long: run, variant, aggregate, hop, metric, value  (Cold Start variants SF, LDCMAX,
                               # LDCMEAN; aggregate "micro"/"macro"; metric P, R, F1, AP; claims: variant "claims",
                               # aggregate "", hop "ALL", metric = each run.json metric)
    run_files: dict          # run -> list of paths of its report files, relative to the track directory
                               # (e.g. "runs/RUN1/run.summary")
    signature: str
    invocation: str
    # Optional additions (defaults keep the agreed interface):
    #: the per-query metric whose hop-ALL value orders a run's queries, worst
    #: first; None: the headline metric if per_query has it, else "AP", else
    #: "F1", else its first metric
    query_metric: Optional[str] = None
    #: the page's title; None: "Track results: <metric_title>"
    title: Optional[str] = None
    #: the adjustment that decides `significant` and the groups: "holm" or "bh"
    correction: str = "holm"
    #: what a reader must see (e.g. -trials too small for the family)
    warnings: tuple = ()
    #: how the randomization p-values were made (the trials, and how many came
    #: from the tail rule): what significance.md and track.params say under their
    #: tables; empty without tests
    randomization: str = ""
    #: the metrics the leaderboard table shows beside the headline (the others
    #: under "every metric"); None: every one
    main_metrics: Optional[tuple] = None
    #: the word for the unit scored and drawn (the per-query table's rows), and its plural
    unit: str = "query"
    units: str = "queries"
    #: run -> how many units it has rows of, where per_query holds only some of
    #: them (a track's page shows the first thousand of a run, worst first;
    #: per_query.csv.gz has every one); None or a run left out: all of them
    per_query_totals: Optional[dict] = None

    def __post_init__(self):
        require_columns(self.leaderboard, LEADERBOARD_COLUMNS + ("status",), "leaderboard")
        if self.significance is not None:
            require_columns(self.significance, SIGNIFICANCE_READ, "significance")
        require_columns(self.per_query, PER_QUERY_COLUMNS, "per_query")
        require_columns(self.per_hop, PER_HOP_COLUMNS, "per_hop")

    @property
    def runs(self) -> list:
        """Run names, best first."""
        return [str(run) for run in self.leaderboard["run"]]

    @property
    def other_metric_columns(self) -> list:
        """The leaderboard's further metric columns, in their order."""
        return [c for c in self.leaderboard.columns
                if c not in LEADERBOARD_COLUMNS and c not in RANK_COLUMNS and c != "status"]

    @property
    def shown_metric_columns(self) -> list:
        """The metric columns the leaderboard table shows beside the headline."""
        if self.main_metrics is None:
            return self.other_metric_columns
        return [c for c in self.main_metrics if c in self.other_metric_columns]

    @property
    def correction_name(self) -> str:
        return CORRECTION_NAMES.get(self.correction, self.correction)

    def groups(self) -> dict:
        """run -> its group (1: the best and the runs not significantly worse than
        it); empty where the leaderboard has no groups (no samples, or pairs
        other than all)."""
        if "group" not in self.leaderboard.columns:
            return {}
        found = {}
        for run, group in zip(self.leaderboard["run"], self.leaderboard["group"]):
            if group is not None and not pd.isna(group):
                found[str(run)] = int(group)
        return found

    def rank_ranges(self) -> dict:
        """run -> (rank_low, rank_high), where the leaderboard has them."""
        if not {"rank_low", "rank_high"} <= set(self.leaderboard.columns):
            return {}
        return {str(run): (int(low), int(high)) for run, low, high in
                zip(self.leaderboard["run"], self.leaderboard["rank_low"],
                    self.leaderboard["rank_high"])
                if not (pd.isna(low) or pd.isna(high))}

    def headline_significance(self) -> Optional[pd.DataFrame]:
        """The significance rows of the headline metric (None without samples)."""
        if self.significance is None:
            return None
        rows = self.significance[self.significance["metric"] == self.metric]
        if rows.empty and not self.significance.empty:
            raise ValueError(f"significance has no rows for the headline metric {self.metric!r} "
                             f"(it has {sorted(set(self.significance['metric']))})")
        return rows

    def tied_with_best(self) -> set:
        """Runs not significantly worse than the best one under the track's
        correction: group 1 but the best (where the leaderboard has groups);
        else from the pairs with the best (adjusted p >= 0.05); empty without
        samples."""
        groups = self.groups()
        if groups and self.runs:
            return {run for run, group in groups.items() if group == 1 and run != self.runs[0]}
        rows = self.headline_significance()
        if rows is None or not self.runs:
            return set()
        best = self.runs[0]
        tied = set()
        column = "p_bh" if self.correction == "bh" and "p_bh" in rows.columns else "p_holm"
        for run_a, run_b, p_holm in zip(rows["run_a"], rows["run_b"], rows[column]):
            run_a, run_b = str(run_a), str(run_b)
            p_holm = math.nan if p_holm is None else float(p_holm)
            if best in (run_a, run_b) and run_a != run_b and p_holm >= SIGNIFICANCE_LEVEL:
                tied.add(run_b if run_a == best else run_a)
        return tied

    def scored_with_errors(self) -> set:
        """Runs whose files have errors but which have a score (see ERRORS_NOTE)."""
        board = self.leaderboard
        return {str(run) for run, score, status in zip(board["run"], board["score"],
                                                       board["status"])
                if str(status) == "errors" and score is not None and not pd.isna(score)}

    def worse_than_best(self) -> set:
        """Runs significantly worse than the best one under the track's
        correction: the groups after the first (where the leaderboard has
        groups); else the other run of each pair with the best whose adjusted p
        is below 0.05.  A run never tested against the best (``-compare
        adjacent``, ``-baseline``) is in neither this nor :meth:`tied_with_best`."""
        groups = self.groups()
        if groups and self.runs:
            return {run for run, group in groups.items() if group > 1}
        rows = self.headline_significance()
        if rows is None or not self.runs:
            return set()
        best = self.runs[0]
        column = "p_bh" if self.correction == "bh" and "p_bh" in rows.columns else "p_holm"
        worse = set()
        for run_a, run_b, adjusted in zip(rows["run_a"], rows["run_b"], rows[column]):
            run_a, run_b = str(run_a), str(run_b)
            adjusted = math.nan if adjusted is None else float(adjusted)
            if best in (run_a, run_b) and run_a != run_b and adjusted < SIGNIFICANCE_LEVEL:
                worse.add(run_b if run_a == best else run_a)
        return worse

    def sort_metric(self) -> Optional[str]:
        """The per-query metric that orders a run's queries (see query_metric)."""
        if self.query_metric is not None:
            return self.query_metric
        metrics = list(dict.fromkeys(str(m) for m in self.per_query["metric"]))
        for preferred in (self.metric, "AP", "F1"):
            if preferred in metrics:
                return preferred
        return metrics[0] if metrics else None


def require_columns(frame: pd.DataFrame, columns, what: str) -> None:
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise ValueError(f"{what} lacks the columns {missing} (it has {list(frame.columns)})")


def ordered(values, order) -> list:
    """Distinct ``values`` (as strings): those in ``order`` first, in its
    order, then the others as first seen."""
    seen = list(dict.fromkeys(str(v) for v in values))
    return [v for v in order if v in seen] + [v for v in seen if v not in order]

