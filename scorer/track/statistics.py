"""Statistics over the runs of a track: bootstrap intervals, the paired
bootstrap test, approximate randomization and Holm's adjustment.

Pure functions over arrays.  Every run's metric is a finishing rule over
summed per-unit statistics (:mod:`scorer.statistic`), so with all runs'
matrices side by side (``units x (runs * k)``) one matrix product per block of
samples or trials serves every run and every pair.
"""
from __future__ import annotations

import numpy as np

from scorer import statistic
from scorer.stats import percentile_indices

#: A difference is significant when its Holm-adjusted p is below this
#: (``significant`` in significance.csv; the pictures mark runs the same way).
SIGNIFICANCE_LEVEL = 0.05
#: Trials computed at once (bounds memory whatever -trials is).
_TRIAL_BLOCK = 2000
#: Relative tolerance when a resampled difference is compared with the
#: observed one: equal differences reached through other float sums count.
_TOLERANCE = 1e-9


def stack(matrices: list) -> np.ndarray:
    """Runs' ``(units, k)`` matrices side by side: ``(units, runs * k)``."""
    return np.hstack(matrices) if matrices else np.zeros((0, 0))


def run_values(rule: str, if_empty: tuple, sums: np.ndarray, n_runs: int) -> np.ndarray:
    """``(rows, runs * k)`` summed statistics -> ``(rows, runs)`` metric values."""
    rows = sums.shape[0]
    return statistic.finish(rule, sums.reshape(rows, n_runs, -1), if_empty)


def bootstrap_values(rule: str, if_empty: tuple, stacked: np.ndarray, n_runs: int,
                     multiplicity: np.ndarray) -> np.ndarray:
    """Every run's metric in every sample: ``(samples, runs)``."""
    sums = np.asarray(multiplicity, dtype=np.float64) @ stacked
    return run_values(rule, if_empty, sums, n_runs)


def percentile_interval(values: np.ndarray, confidence: float = 95) -> tuple:
    """The Perl scorer's percentile rule (no interpolation) on one run's samples."""
    n = len(values)
    if n == 0:
        return (float("nan"), float("nan"))
    low, high = percentile_indices(n, confidence)
    ordered = np.sort(values, kind="stable")
    return float(ordered[low]), float(ordered[high])


def _at_least(values: np.ndarray, observed: float) -> int:
    bound = abs(observed) * (1 - _TOLERANCE) - _TOLERANCE * 1e-3
    return int(np.count_nonzero(np.abs(values) >= bound))


def paired_bootstrap_p(values_a: np.ndarray, values_b: np.ndarray, observed: float) -> float:
    """Two-sided paired bootstrap, null-centred (as sacrebleu's paired bootstrap):
    the share of samples whose centred difference is at least the observed one,
    ``(1 + hits) / (1 + samples)``."""
    deltas = np.asarray(values_a) - np.asarray(values_b)
    if len(deltas) == 0:
        return float("nan")
    centred = deltas - deltas.mean()
    return (1 + _at_least(centred, observed)) / (1 + len(deltas))


def coin_flips(n_trials: int, n_units: int, seed: int):
    """Blocks of ``(trials, units)`` 0/1 floats: unit swapped in a trial or not.

    From the raw 64-bit stream of numpy's PCG64 (stable across numpy versions),
    one bit per unit, trials in order: the same seed gives the same swaps on
    every machine, whatever the block size."""
    bits = np.random.default_rng(seed).bit_generator
    words = max(1, -(-n_units // 64))
    done = 0
    while done < n_trials:
        block = min(_TRIAL_BLOCK, n_trials - done)
        raw = bits.random_raw(block * words).astype(np.uint64).reshape(block, words)
        unpacked = np.unpackbits(raw.view(np.uint8).reshape(block, words * 8), axis=1,
                                 bitorder="little")
        yield unpacked[:, :n_units].astype(np.float64)
        done += block


def randomization_p(rule: str, if_empty: tuple, stacked: np.ndarray, n_runs: int,
                    pairs: list, trials: int, seed: int) -> list:
    """Approximate randomization for each pair ``(a, b)`` of run positions.

    In a trial every unit's contribution is swapped between the two runs with
    probability 1/2 (the same swaps for every pair); the p-value is
    ``(1 + trials whose |difference| >= |observed|) / (1 + trials)``.  With
    ``S`` the swap matrix, run a's sums become ``Σ a + S @ b - S @ a``: one
    product ``S @ stacked`` per block serves every pair."""
    n_units = stacked.shape[0]
    k = stacked.shape[1] // max(n_runs, 1)
    totals = stacked.sum(axis=0).reshape(n_runs, k)
    observed = statistic.finish(rule, totals, if_empty)
    hits = np.zeros(len(pairs), dtype=np.int64)
    if not pairs:
        return []
    for swaps in coin_flips(trials, n_units, seed):
        moved = (swaps @ stacked).reshape(len(swaps), n_runs, k)
        for i, (a, b) in enumerate(pairs):
            shift = moved[:, b] - moved[:, a]
            delta = (statistic.finish(rule, totals[a] + shift, if_empty)
                     - statistic.finish(rule, totals[b] - shift, if_empty))
            hits[i] += _at_least(delta, observed[a] - observed[b])
    return [(1 + int(h)) / (1 + trials) for h in hits]


def observed_differences(rule: str, if_empty: tuple, stacked: np.ndarray, n_runs: int,
                         pairs: list) -> list:
    k = stacked.shape[1] // max(n_runs, 1)
    values = statistic.finish(rule, stacked.sum(axis=0).reshape(n_runs, k), if_empty)
    return [float(values[a] - values[b]) for a, b in pairs]


def holm(p_values) -> list:
    """Holm's step-down adjustment (family-wise error), in the input order."""
    p = np.asarray(p_values, dtype=np.float64)
    m = len(p)
    if m == 0:
        return []
    order = np.argsort(p, kind="stable")
    adjusted = np.empty(m)
    running = 0.0
    for position, index in enumerate(order):
        running = max(running, min(1.0, (m - position) * p[index]))
        adjusted[index] = running
    return adjusted.tolist()
