"""Scores from counts: P/R/F1 with their zero rules, and the bootstrap
percentile rule.  Every report of every task computes its numbers here.
"""
from __future__ import annotations

import math


def precision(right: float, denominator: float) -> float:
    """``right / denominator``, 0 when nothing was scored (spec §4.1)."""
    return right / denominator if denominator else 0.0


def recall(right: float, ground_truth: float) -> float:
    """``right / ground_truth``, 0 when there is no ground truth (spec §4.1)."""
    return right / ground_truth if ground_truth else 0.0


def f1(p: float, r: float) -> float:
    """Harmonic mean, 0 when both are 0 (computed as the Perl does: 2PR/(P+R))."""
    if p + r == 0:
        return 0.0
    return 2 * p * r / (p + r)


def prf_arrays(right, denominator, ground_truth):
    """Vectorised :func:`precision`, :func:`recall` and :func:`f1` over numpy arrays.

    Same operation order as the scalar functions, so each element is the very
    same double.
    """
    import numpy as np      # (here: the diff and a plain run use the scalar rules alone)
    right = np.asarray(right, dtype=float)
    denominator = np.asarray(denominator, dtype=float)
    ground_truth = np.asarray(ground_truth, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(denominator != 0, right / np.where(denominator != 0, denominator, 1), 0.0)
        r = np.where(ground_truth != 0, right / np.where(ground_truth != 0, ground_truth, 1), 0.0)
        total = p + r
        f = np.where(total != 0, 2 * p * r / np.where(total != 0, total, 1), 0.0)
    return p, r, f


#: Confidence levels of the ``.confidence`` report, in column order.
CONFIDENCE_LEVELS = (99, 95, 90)


def percentile_indices(n: int, confidence: float) -> tuple[int, int]:
    """0-based positions of the lower and upper bound among ``n`` sorted values.

    The Perl scorer's rule (spec §6.5), no interpolation:
    ``lo = floor(n * (100 - c) * 0.5 / 100)``, ``hi = floor(n * (1 - that)) - 1``,
    computed in doubles in that order.  n = 100 at 95 % gives (2, 96).
    """
    low_fraction = (100 - confidence) * 0.5 / 100
    high_fraction = 1 - low_fraction
    return int(math.floor(n * low_fraction)), int(math.floor(n * high_fraction)) - 1
