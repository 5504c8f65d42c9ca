"""The bootstrap over claims, vectorised.

A sample is a multiset of claims.  With the (samples x claims) multiplicity
matrix ``M`` (:meth:`scorer.bootstrap.SampleSet.multiplicities`) and the
per-claim counts table ``T`` (claims x columns), every sample's column sums
are one matrix product ``M @ T``; the metric registry then turns the sums
into values with the same definitions the full-data scores use.  No Python
loop runs per sample.

Exactness and determinism: integer-valued columns are multiplied as doubles,
which is exact whatever order the BLAS adds in (all partial sums are whole
numbers below 2**53).  A column of fractions (FEVER per-claim precision) is
split by distinct value: ``sum_v v * (M @ [T == v])``, each count exact, the
few products added in increasing order of ``v``.  So the values do not depend
on the BLAS, the number of threads or the machine.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from scorer.claims.metrics import HarmonicMean, Mean, Ratio, metrics_of
from scorer.stats import CONFIDENCE_LEVELS, percentile_indices

#: Above this many distinct values a fractional column is summed group by group
#: (``reduceat``) instead of through an indicator matrix.
_MAX_INDICATOR_COLUMNS = 512


def column_sums(table: pd.DataFrame, multiplicities: np.ndarray, columns) -> dict:
    """For each column, the vector (one value per sample) of its multiplicity-weighted sum."""
    weights = np.asarray(multiplicities, dtype=np.float64)
    sums: dict = {}
    whole, fractional = [], []
    for column in dict.fromkeys(columns):
        values = table[column].to_numpy(dtype=np.float64)
        (whole if np.all(values == np.floor(values)) else fractional).append(column)
    if whole:
        product = weights @ table[whole].to_numpy(dtype=np.float64)
        for j, column in enumerate(whole):
            sums[column] = product[:, j]
    for column in fractional:
        values = table[column].to_numpy(dtype=np.float64)
        distinct, which = np.unique(values, return_inverse=True)
        if len(distinct) <= _MAX_INDICATOR_COLUMNS:
            indicator = np.zeros((len(values), len(distinct)), dtype=np.float64)
            indicator[np.arange(len(values)), which] = 1.0
            counts = weights @ indicator  # exact whole numbers
        else:
            order = np.argsort(which, kind="stable")
            starts = np.searchsorted(which[order], np.arange(len(distinct)))
            counts = np.add.reduceat(weights[:, order], starts, axis=1)
        total = np.zeros(weights.shape[0], dtype=np.float64)
        for j, value in enumerate(distinct):
            total = total + value * counts[:, j]
        sums[column] = total
    return sums


def sample_values(task, table: pd.DataFrame, multiplicities: np.ndarray) -> pd.DataFrame:
    """Every metric of ``task`` (a claim task's name, or the declarations) for
    every sample: a (samples x metrics) DataFrame."""
    metrics = metrics_of(task)
    columns = [c for m in metrics for c in m.columns]
    sums = column_sums(table, multiplicities, columns)
    n_samples = np.asarray(multiplicities).shape[0]
    values: dict = {}
    with np.errstate(divide="ignore", invalid="ignore"):
        # The ratios first, then what is made of them (as full_data does).
        for metric in metrics:
            if isinstance(metric, Ratio):
                numerator, denominator = sums[metric.numerator], sums[metric.denominator]
                values[metric.name] = np.where(
                    denominator != 0,
                    numerator / np.where(denominator != 0, denominator, 1.0),
                    metric.if_empty)
        for metric in metrics:
            if isinstance(metric, HarmonicMean):
                p, r = values[metric.precision], values[metric.recall]
                total = p + r
                values[metric.name] = np.where(
                    total != 0, 2 * p * r / np.where(total != 0, total, 1.0), 0.0)
            elif isinstance(metric, Mean):
                # One row per sample, summed along the row as the full data's mean is.
                parts = np.stack([np.broadcast_to(values[name], (n_samples,))
                                  for name in metric.of], axis=1)
                values[metric.name] = np.add.reduce(parts, axis=1) / len(metric.of)
    frame = pd.DataFrame({metric.name: np.asarray(values[metric.name],
                                                  dtype=np.float64).reshape(n_samples)
                          for metric in metrics})
    return frame


def confidence_rows(values: pd.DataFrame, full: dict,
                    levels=CONFIDENCE_LEVELS) -> list:
    """Per metric: ``(name, lows (levels order), mean, full-data value, highs (reverse))``.

    Percentile intervals with the Perl scorer's index rule
    (:func:`scorer.stats.percentile_indices`), no interpolation; the mean is
    the exact mean of the sample values.  Empty when there are no samples.
    """
    n = len(values)
    if n == 0:
        return []
    ordered = np.sort(values.to_numpy(dtype=np.float64), axis=0, kind="stable")
    rows = []
    for j, name in enumerate(values.columns):
        column = ordered[:, j]
        bounds = [percentile_indices(n, level) for level in levels]
        lows = tuple(float(column[lo]) for lo, _hi in bounds)
        highs = tuple(float(column[hi]) for _lo, hi in reversed(bounds))
        mean = math.fsum(column.tolist()) / n
        rows.append((name, lows, mean, full.get(name), highs))
    return rows


def interval(values: pd.DataFrame, name: str, level: int) -> tuple | None:
    """``(low, high)`` of one metric at one confidence level (None without samples)."""
    n = len(values)
    if n == 0:
        return None
    lo, hi = percentile_indices(n, level)
    column = np.sort(values[name].to_numpy(dtype=np.float64), kind="stable")
    return float(column[lo]), float(column[hi])
