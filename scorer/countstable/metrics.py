"""The metric declarations of a counts-table task, and their values.

Each task's metrics are declared once, here, as data: a name (the reference
scorer's own), an explanation (printed by the reports and ``-help``), and how
the value follows from the per-claim counts table.  Two kinds exist:

* :class:`Ratio`: a column summed over claims divided by another column summed
  over claims, with a fixed value when the denominator is 0;
* :class:`HarmonicMean`: ``2 * p * r / (p + r)`` from two ratios' values (0
  when both are 0), the way both reference scorers compute F1 -- from the
  float precision and recall, not from the counts;
* :class:`Mean`: the mean of other metrics' values (a macro average), summed
  as numpy sums (pairwise), the way scikit-learn averages.

A task whose metrics follow its policy (one per label of the policy, say)
declares them per run; every function here takes the declarations, or a
claim task's name for its registry entry.

The full-data values (:func:`full_data`) add each column left to right in file
order with plain float addition, as the reference scorers do; the bootstrap
(:mod:`scorer.countstable.resample`) gathers the same columns for every sample at
once.  Both read the definitions below, so they cannot drift apart.
"""
from __future__ import annotations

import functools
import operator

# Plain classes, not dataclasses: a claim run imports neither ``dataclasses``
# (which pulls in ``inspect``) nor ``typing``; they cost more start-up time
# than scoring a thousand claims.


class Ratio:
    """A column summed over claims / another column summed over claims."""

    __slots__ = ("name", "explanation", "numerator", "denominator", "if_empty")

    def __init__(self, name: str, explanation: str, numerator: str, denominator: str,
                 if_empty: float = 0.0):
        self.name = name
        self.explanation = explanation
        self.numerator = numerator
        self.denominator = denominator
        #: The value when the denominator sums to 0.
        self.if_empty = if_empty

    @property
    def columns(self) -> tuple:
        return (self.numerator, self.denominator)


class HarmonicMean:
    """``2 * p * r / (p + r)`` of two metrics' values (named ``precision`` and ``recall``)."""

    __slots__ = ("name", "explanation", "precision", "recall")

    def __init__(self, name: str, explanation: str, precision: str, recall: str):
        self.name = name
        self.explanation = explanation
        self.precision = precision
        self.recall = recall

    @property
    def columns(self) -> tuple:
        return ()

class Mean:
    """The mean of other metrics' values (``of``: their names), with numpy's
    summation (pairwise), as scikit-learn's macro averages are made."""

    __slots__ = ("name", "explanation", "of")

    def __init__(self, name: str, explanation: str, of: tuple):
        self.name = name
        self.explanation = explanation
        self.of = tuple(of)

    @property
    def columns(self) -> tuple:
        return ()


def mean(values) -> float:
    """The mean of ``values`` as numpy (and so scikit-learn) computes it:
    a pairwise sum divided by the count."""
    import numpy as np
    return float(np.add.reduce(np.asarray(values, dtype=np.float64)) / len(values))


#: Every claim row has ``claims`` = 1, so a sum of it counts claims.
CLAIMS = "claims"


def _prf(title: str, what: str, right: str, retrieved: str, relevant: str) -> tuple:
    return (
        Ratio(f"{title}_precision", f"{what}: correct / predicted", right, retrieved),
        Ratio(f"{title}_recall", f"{what}: correct / gold", right, relevant),
        HarmonicMean(f"{title}_f1", f"{what}: 2PR/(P+R) of the two values above",
                     f"{title}_precision", f"{title}_recall"),
    )


#: SciFact: the twelve keys of the leaderboard evaluator's verbose output, then label accuracy.
SCIFACT_METRICS = (
    *_prf("abstract_label_only",
          "Abstracts predicted with the gold label of a gold abstract of the claim",
          "abstract_correct_label_only", "abstract_retrieved", "abstract_relevant"),
    *_prf("abstract_rationalized",
          "Abstracts with the gold label whose first max(max_evidence, shortest gold "
          "rationale) predicted sentences contain a whole gold rationale",
          "abstract_correct_rationalized", "abstract_retrieved", "abstract_relevant"),
    *_prf("sentence_selection",
          "Predicted sentences of a gold abstract whose whole gold rationale is predicted",
          "sentence_correct_selection", "sentence_retrieved", "sentence_relevant"),
    *_prf("sentence_label",
          "Sentences correct for sentence_selection in an abstract predicted with its gold label",
          "sentence_correct_label", "sentence_retrieved", "sentence_relevant"),
    Ratio("label_accuracy",
          "Claims whose predicted claim label equals the gold claim label / claims "
          "(claim label: NOT_ENOUGH_INFO without abstracts, else the label most of its "
          "abstracts carry, ties to the later label in alphabetical order; the "
          "evidence-sets shape gives its own top-level label)",
          "label_correct", CLAIMS),
)

#: FEVER: the five values of fever-scorer's ``fever_score``.
FEVER_METRICS = (
    Ratio("strict_score",
          "Claims with the right label and, unless NOT ENOUGH INFO, a whole gold evidence "
          "group among the first max_evidence predicted sentences / claims",
          "strict", CLAIMS),
    Ratio("label_accuracy", "Claims with the right label (case-insensitive) / claims",
          "label_correct", CLAIMS),
    Ratio("precision",
          "Mean over claims with a verifiable gold label of: predicted sentences read "
          "that are in any gold group / sentences read (1 when none is read); 1 when no "
          "claim is verifiable",
          "precision", "precision_counted", if_empty=1.0),
    Ratio("recall",
          "Claims with a verifiable gold label whose first max_evidence predicted "
          "sentences hold a whole gold group (or whose gold evidence is empty) / such "
          "claims; 0 when no claim is verifiable",
          "recall", "recall_counted", if_empty=0.0),
    HarmonicMean("f1", "2PR/(P+R) of precision and recall (0 when both are 0)",
                 "precision", "recall"),
)

REGISTRY = {"scifact": SCIFACT_METRICS, "fever": FEVER_METRICS}


def metrics_of(task) -> tuple:
    """The declarations of ``task``: a claim task's name (its registry
    entry), or the declarations themselves."""
    return REGISTRY[task] if isinstance(task, str) else tuple(task)


def ordered_sum(values) -> float:
    """Left-to-right sum starting from integer 0, as the reference scorers add.

    Not ``sum()`` (compensated for floats since Python 3.12), not ``math.fsum``,
    not numpy (pairwise): those can differ in the last digit.
    """
    return functools.reduce(operator.add, values, 0)


def harmonic_mean(p: float, r: float) -> float:
    return 2 * p * r / (p + r) if p + r != 0 else 0.0


def full_data(task, table) -> dict:
    """Every metric of ``task`` (a claim task's name, or the declarations) over
    all rows of the counts table, in declaration order (``table``: the column
    lists of :class:`~scorer.countstable.evaluation.Evaluation`, or its DataFrame).  The ratios first, then
    what is made of them."""
    declared = metrics_of(task)
    values: dict = {}
    totals: dict = {}
    for metric in declared:
        if isinstance(metric, Ratio):
            for column in metric.columns:
                if column not in totals:
                    cells = table[column]
                    totals[column] = ordered_sum(cells.tolist() if hasattr(cells, "tolist")
                                                 else cells)
            numerator, denominator = totals[metric.numerator], totals[metric.denominator]
            values[metric.name] = (numerator / denominator if denominator != 0
                                   else metric.if_empty)
    for metric in declared:
        if isinstance(metric, Mean):
            values[metric.name] = mean([values[name] for name in metric.of])
        elif isinstance(metric, HarmonicMean):
            values[metric.name] = harmonic_mean(values[metric.precision], values[metric.recall])
    return {metric.name: float(values[metric.name]) for metric in declared}


def unit_statistic(task, name: str, table, keys: list):
    """Metric ``name`` as per-claim statistics (:class:`scorer.unitstatistic.UnitStatistic`):
    the claim is the unit, and the metric's ratio (or harmonic mean of two,
    or mean of several) finishes the column sums, as the full-data values do."""
    from scorer import unitstatistic
    by_name = {metric.name: metric for metric in metrics_of(task)}
    metric = by_name[name]

    def columns(ratio: Ratio) -> list:
        return [table[ratio.numerator].to_numpy(dtype=float),
                table[ratio.denominator].to_numpy(dtype=float)]

    if isinstance(metric, Ratio):
        return unitstatistic.UnitStatistic(list(keys), _stack(columns(metric), len(keys)),
                                           unitstatistic.RATIO, (metric.if_empty, 0.0))
    if isinstance(metric, Mean):
        ratios = [by_name[part] for part in metric.of]
        if not all(isinstance(ratio, Ratio) for ratio in ratios) \
                or len({ratio.if_empty for ratio in ratios}) > 1:
            raise ValueError(f"{name}: a mean of ratios with one value for an empty "
                             f"denominator is what the statistics finish")
        return unitstatistic.UnitStatistic(
            list(keys), _stack([column for ratio in ratios for column in columns(ratio)],
                               len(keys)),
            unitstatistic.MEAN_OF_RATIOS, (ratios[0].if_empty, 0.0))
    p, r = by_name[metric.precision], by_name[metric.recall]
    return unitstatistic.UnitStatistic(list(keys), _stack(columns(p) + columns(r), len(keys)),
                                       unitstatistic.HARMONIC_MEAN, (p.if_empty, r.if_empty))


def _stack(columns: list, rows: int):
    import numpy as np
    return np.stack(columns, axis=1) if rows else np.zeros((0, len(columns)))
