"""The kinds of metric a counts-table task declares, and their values.

A metric is a declaration its task carries (the record's ``metrics``, or
``declared_metrics(policy)`` when they follow the policy): a name (the
reference scorer's own), an explanation (printed by the reports and
``-help``), and how the value follows from the per-unit counts table.
Nothing here names a task: each task's declarations sit with the task (the
claim tasks' in ``scorer/claims/*metrics.py``, those that follow a policy in
the task's record module).  Three kinds exist:

* :class:`Ratio`: a column summed over units divided by another column summed
  over units, with a fixed value when the denominator is 0;
* :class:`HarmonicMean`: ``2 * p * r / (p + r)`` from two ratios' values (0
  when both are 0), the way both reference scorers compute F1 -- from the
  float precision and recall, not from the counts;
* :class:`Mean`: the mean of other metrics' values (a macro average), summed
  as numpy sums (pairwise), the way scikit-learn averages.

The full-data values (:func:`full_data`) add each column left to right in file
order with plain float addition, as the reference scorers do; the bootstrap
(:mod:`scorer.countstable.resample`) gathers the same columns for every sample at
once.  Both read the same declarations, so they cannot drift apart.
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
    import numpy as np      # (here: a plain SciFact or FEVER run imports no numpy)
    return float(np.add.reduce(np.asarray(values, dtype=np.float64)) / len(values))


#: A column every row of a claim task's table holds as 1: its sum counts the claims.
CLAIMS = "claims"


def precision_recall_f1(title: str, what: str, right: str, retrieved: str,
                        relevant: str) -> tuple:
    """``TITLE_precision``, ``TITLE_recall`` (ratios of the column ``right``
    to ``retrieved`` and to ``relevant``) and ``TITLE_f1`` (their harmonic
    mean), explained by ``what``: the three declarations of a P/R/F1 triple."""
    return (
        Ratio(f"{title}_precision", f"{what}: correct / predicted", right, retrieved),
        Ratio(f"{title}_recall", f"{what}: correct / gold", right, relevant),
        HarmonicMean(f"{title}_f1", f"{what}: 2PR/(P+R) of the two values above",
                     f"{title}_precision", f"{title}_recall"),
    )


def ordered_sum(values) -> float:
    """Left-to-right sum starting from integer 0, as the reference scorers add.

    Not ``sum()`` (compensated for floats since Python 3.12), not ``math.fsum``,
    not numpy (pairwise): those can differ in the last digit.
    """
    return functools.reduce(operator.add, values, 0)


def harmonic_mean(p: float, r: float) -> float:
    return 2 * p * r / (p + r) if p + r != 0 else 0.0


def full_data(declared: tuple, table) -> dict:
    """Every metric ``declared`` over all rows of the counts table, in
    declaration order (``table``: the column lists of
    :class:`~scorer.countstable.evaluation.Evaluation`, or its DataFrame).  The
    ratios first, then what is made of them."""
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


def unit_statistic(declared: tuple, name: str, table, keys: list):
    """Metric ``name`` as per-claim statistics (:class:`scorer.unitstatistic.UnitStatistic`):
    the claim is the unit, and the metric's ratio (or harmonic mean of two,
    or mean of several) finishes the column sums, as the full-data values do."""
    from scorer import unitstatistic    # (numpy: see mean)
    by_name = {metric.name: metric for metric in declared}
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
    import numpy as np      # (see mean)
    return np.stack(columns, axis=1) if rows else np.zeros((0, len(columns)))
