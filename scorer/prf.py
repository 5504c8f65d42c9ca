"""Precision, recall and F1 from counts, with their zero rules: every P/R/F1
of every Cold Start report (and of the diff's recomputations) is made here.
"""
from __future__ import annotations


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
