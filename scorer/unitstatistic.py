"""A metric as a function of summed per-unit statistics.

Every headline metric of every task is a ratio (or a harmonic mean of two
ratios, or the mean of several: a macro average) of sums over units: Cold
Start macro AP is Σ AP / Σ [GT > 0] over queries, micro P is Σ Right /
Σ (Submitted - Ignored), a claim metric is one column sum over another, a
macro F1 over labels the mean of Σ 2tp / Σ (gold + predicted) per label.  So
a run's metric is written once as a ``(units x k)`` matrix of per-unit
statistics and a finishing rule; a bootstrap sample is ``multiplicity @
matrix``, and swapping units between two runs (approximate randomization) is
a sum of matrix products.  No Python loop runs per sample.

The unit is what the bootstrap draws: the LDC query (Cold Start with
``-expand``), the SF query (without), the claim (SciFact, FEVER), the item.
"""
from __future__ import annotations

import dataclasses

import numpy as np

#: finishing rules and the number of statistics each one sums
RATIO = "ratio"                  # [numerator, denominator] -> n / d (if_empty when d = 0)
PRECISION, RECALL, F1 = "precision", "recall", "f1"   # [right, scored, ground truth]
HARMONIC_MEAN = "harmonic_mean"  # [p numerator, p denominator, r numerator, r denominator]
#: [numerator 1, denominator 1, numerator 2, ...] -> the mean of the k ratios (a macro
#: average; if_empty[0] for each empty denominator)
MEAN_OF_RATIOS = "mean_of_ratios"


@dataclasses.dataclass
class UnitStatistic:
    """One metric of one run: per-unit statistics and the rule that finishes their sums."""

    units: list            # unit ids, in the order of the matrix rows
    matrix: np.ndarray     # (units, k) floats
    rule: str
    #: value of a ratio whose denominator sums to 0 (for HARMONIC_MEAN: of p and of r)
    if_empty: tuple = (0.0, 0.0)

    def aligned(self, units: list) -> np.ndarray:
        """The matrix with rows in the order of ``units`` (zeros for units it lacks)."""
        position = {unit: i for i, unit in enumerate(self.units)}
        result = np.zeros((len(units), self.matrix.shape[1]))
        for i, unit in enumerate(units):
            j = position.get(unit)
            if j is not None:
                result[i] = self.matrix[j]
        return result


def _ratio(numerator, denominator, if_empty: float):
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(denominator != 0,
                        numerator / np.where(denominator != 0, denominator, 1.0), if_empty)


def _harmonic(p, r):
    total = p + r
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(total != 0, 2 * p * r / np.where(total != 0, total, 1.0), 0.0)


def finish(rule: str, sums: np.ndarray, if_empty: tuple = (0.0, 0.0)) -> np.ndarray:
    """The metric's value from summed statistics ``(..., k)`` -> ``(...)``."""
    sums = np.asarray(sums, dtype=np.float64)
    if rule == RATIO:
        return _ratio(sums[..., 0], sums[..., 1], if_empty[0])
    if rule == HARMONIC_MEAN:
        return _harmonic(_ratio(sums[..., 0], sums[..., 1], if_empty[0]),
                         _ratio(sums[..., 2], sums[..., 3], if_empty[1]))
    if rule == MEAN_OF_RATIOS:
        ratios = np.ascontiguousarray(_ratio(sums[..., 0::2], sums[..., 1::2], if_empty[0]))
        return np.add.reduce(ratios, axis=-1) / ratios.shape[-1]
    right, scored, truth = sums[..., 0], sums[..., 1], sums[..., 2]
    p = _ratio(right, scored, 0.0)
    r = _ratio(right, truth, 0.0)
    return {PRECISION: p, RECALL: r, F1: _harmonic(p, r)}[rule]


def values(statistic: UnitStatistic, weights: np.ndarray, units: list = None) -> np.ndarray:
    """The metric for each row of ``weights`` (samples x units): one matrix product."""
    matrix = statistic.matrix if units is None else statistic.aligned(units)
    return finish(statistic.rule, np.asarray(weights, dtype=np.float64) @ matrix,
                  statistic.if_empty)
