"""Statistics over the runs of a track: bootstrap intervals, the paired
bootstrap test, approximate randomization (with an exact or normal tail), Holm's and
Benjamini-Hochberg's adjustments, rank ranges and groups.

Pure functions over arrays.  Every run's metric is a finishing rule over
summed per-unit statistics (:mod:`scorer.unitstatistic`), so with all runs'
matrices side by side (``units x (runs * k)``) one matrix product per block of
samples or trials serves every run and every pair.
"""
from __future__ import annotations

import hashlib
import math

import numpy as np

from scorer import processenv, unitstatistic
from scorer.percentile import percentile_indices

#: Trials computed at once (bounds memory whatever -trials is) ...
_TRIAL_BLOCK = 2000
#: ... and at most this many trial-by-unit cells in a block (128 MiB of swaps as
#: doubles: 100,000 claims take 167 trials a block, not 2,000 and 1.6 GB).
_TRIAL_CELLS = 1 << 24
#: Trial-by-pair-by-statistic cells of the randomization's differences made at
#: once (16 MiB a temporary array).
_PAIR_CELLS = 1 << 21
#: Relative tolerance when a resampled difference is compared with the
#: observed one: equal differences reached through other float sums count.
_TOLERANCE = 1e-9
#: The smallest p-value written: the smallest normal double (a p-value is never 0).
_SMALLEST_P = math.ldexp(1.0, -1022)


def stack(matrices: list) -> np.ndarray:
    """Runs' ``(units, k)`` matrices side by side: ``(units, runs * k)``."""
    return np.hstack(matrices) if matrices else np.zeros((0, 0))


def run_values(rule: str, if_empty: tuple, sums: np.ndarray, n_runs: int) -> np.ndarray:
    """``(rows, runs * k)`` summed statistics -> ``(rows, runs)`` metric values."""
    rows = sums.shape[0]
    return unitstatistic.finish(rule, sums.reshape(rows, n_runs, -1), if_empty)


def bootstrap_values(rule: str, if_empty: tuple, stacked: np.ndarray, n_runs: int,
                     multiplicity: np.ndarray) -> np.ndarray:
    """Every run's metric in every sample: ``(samples, runs)``.  The counts are
    made doubles a block of samples at a time (at 100,000 claims a whole
    1,000-sample matrix of doubles would take 800 MB)."""
    step = max(1, _TRIAL_CELLS // max(multiplicity.shape[1], 1))
    sums = np.vstack([np.asarray(multiplicity[start:start + step], dtype=np.float64) @ stacked
                      for start in range(0, len(multiplicity), step)]
                     or [np.zeros((0, stacked.shape[1]))])
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


def bootstrap_differences(values_a: np.ndarray, values_b: np.ndarray) -> np.ndarray:
    """The paired differences ``a - b`` of two runs' resampled metric, sample by sample."""
    return np.asarray(values_a, dtype=np.float64) - np.asarray(values_b, dtype=np.float64)


def paired_bootstrap_p(values_a: np.ndarray, values_b: np.ndarray, observed: float) -> float:
    """The two-sided paired bootstrap test, by shifting the bootstrap distribution
    of the difference to the null (Efron and Tibshirani, *An Introduction to the
    Bootstrap*, 1993, section 16.4): the share of samples whose difference, minus
    the observed difference, is at least the observed difference in absolute
    value, ``(1 + hits) / (1 + samples)``.  (sacrebleu's paired bootstrap differs:
    it centres the absolute differences on their own mean and counts strictly
    greater ones.)"""
    deltas = bootstrap_differences(values_a, values_b)
    if len(deltas) == 0:
        return float("nan")
    return (1 + _at_least(deltas - observed, observed)) / (1 + len(deltas))


def coin_flips(n_trials: int, n_units: int, seed: int, clusters: np.ndarray = None):
    """Blocks of ``(trials, units)`` 0/1 floats: unit swapped in a trial or not.

    From the raw 64-bit stream of numpy's PCG64 (stable across numpy versions),
    one bit per unit, trials in order: the same seed gives the same swaps on
    every machine, whatever the block size.  With ``clusters`` (each unit's
    cluster number, 0 to C - 1) one bit per cluster is drawn and every unit of
    a cluster is swapped with it."""
    bits = np.random.default_rng(seed).bit_generator
    width = n_units if clusters is None else (int(clusters.max()) + 1 if len(clusters) else 0)
    words = max(1, -(-width // 64))
    done = 0
    while done < n_trials:
        block = min(_TRIAL_BLOCK, max(1, _TRIAL_CELLS // max(n_units, 1)), n_trials - done)
        raw = bits.random_raw(block * words).astype(np.uint64).reshape(block, words)
        unpacked = np.unpackbits(raw.view(np.uint8).reshape(block, words * 8), axis=1,
                                 bitorder="little")[:, :width]
        if clusters is not None:
            unpacked = unpacked[:, clusters]
        yield unpacked.astype(np.float64)
        done += block


def randomization_hits(rule: str, if_empty: tuple, stacked: np.ndarray, n_runs: int,
                       pairs: list, trials: int, seed: int,
                       clusters: np.ndarray = None, progress=None) -> np.ndarray:
    """Approximate randomization for each pair ``(a, b)`` of run positions: how
    many of ``trials`` trials give a difference at least the observed one in
    absolute value.

    In a trial every unit's contribution (every cluster's, with ``clusters``) is
    swapped between the two runs with probability 1/2, the same swaps for every
    pair.  With ``S`` the swap matrix, run a's sums become ``Σ a + S @ b - S @ a``:
    one product ``S @ stacked`` per block serves every pair.  ``progress``, if
    given, is called with the number of trials of each block done."""
    n_units = stacked.shape[0]
    k = stacked.shape[1] // max(n_runs, 1)
    totals = stacked.sum(axis=0).reshape(n_runs, k)
    observed = unitstatistic.finish(rule, totals, if_empty)
    hits = np.zeros(len(pairs), dtype=np.int64)
    if not pairs:
        return hits
    # Blocks of swaps of 100+ MB, made and freed one after another: kept by
    # the allocator for the next (a command line's process only).
    processenv.keep_freed_memory()
    columns, restore = _distinct_columns(stacked)
    first = np.array([a for a, _b in pairs], dtype=np.intp)
    second = np.array([b for _a, b in pairs], dtype=np.intp)
    # _at_least's bound for each pair's observed difference
    differences = observed[first] - observed[second]
    bounds = np.abs(differences) * (1 - _TOLERANCE) - _TOLERANCE * 1e-3
    for swaps in coin_flips(trials, n_units, seed, clusters):
        moved = swaps @ columns
        if restore is not None:
            moved = moved[:, restore]
        moved = moved.reshape(len(swaps), n_runs, k)
        # The pairs a group at a time, each value made as for one pair alone
        # (element by element: the same doubles), in one call for the group
        # rather than a few per pair (4,950 pairs, 60 blocks of trials at
        # 100,000 claims: a Python loop of 300,000 steps).
        group = max(1, _PAIR_CELLS // max(len(swaps) * k, 1))
        for start in range(0, len(pairs), group):
            a, b = first[start:start + group], second[start:start + group]
            shift = moved[:, b] - moved[:, a]
            delta = (unitstatistic.finish(rule, totals[a] + shift, if_empty)
                     - unitstatistic.finish(rule, totals[b] - shift, if_empty))
            hits[start:start + group] += np.count_nonzero(
                np.abs(delta) >= bounds[start:start + group], axis=0)
        if progress is not None:
            progress(len(swaps))
    return hits


def _distinct_columns(stacked: np.ndarray) -> tuple:
    """``(columns, restore)``: ``stacked``'s distinct columns and where each
    column of it is among them (``columns[:, restore]`` is ``stacked``), or
    ``(stacked, None)``.  Runs share columns: a ratio's denominators (every
    claim counts once for every run), runs that give the same answers; the
    swaps' product is made once for each.  Only for whole numbers whose sums
    stay below 2^53: then every sum is exact, whatever the matrices' shapes
    make the BLAS add first, so the products are those of ``stacked`` itself."""
    if stacked.size == 0 or stacked.shape[1] < 2 or \
            not np.array_equal(stacked, np.floor(stacked)) or \
            float(np.abs(stacked).sum(axis=0).max()) >= 2.0 ** 53:
        return stacked, None
    first: dict = {}                    # a column's digest -> its distinct columns' places
    kept, restore = [], np.empty(stacked.shape[1], dtype=np.intp)
    for j in range(stacked.shape[1]):
        column = np.ascontiguousarray(stacked[:, j])
        places = first.setdefault(hashlib.sha256(column.tobytes()).digest(), [])
        for place in places:
            if np.array_equal(stacked[:, kept[place]], column):
                restore[j] = place
                break
        else:
            places.append(len(kept))
            restore[j] = len(kept)
            kept.append(j)
    if len(kept) == stacked.shape[1]:
        return stacked, None
    return np.ascontiguousarray(stacked[:, kept]), restore


def randomization_p(rule: str, if_empty: tuple, stacked: np.ndarray, n_runs: int,
                    pairs: list, trials: int, seed: int, clusters: np.ndarray = None) -> list:
    """The Monte Carlo p-value of approximate randomization,
    ``(1 + hits) / (1 + trials)``, for each pair (see :func:`randomization_hits`)."""
    hits = randomization_hits(rule, if_empty, stacked, n_runs, pairs, trials, seed, clusters)
    return [(1 + int(h)) / (1 + trials) for h in hits]


#: Below this many trials at least as extreme as the observed difference, the
#: Monte Carlo p is not resolved (relative error above about 30 %) and, at the
#: default resolution, the tail rule gives the p-value.
TAIL_HITS = 10


def _gradient(rule: str, if_empty: tuple, point: np.ndarray) -> np.ndarray:
    """The finishing rule's gradient at ``point`` (k sums), by central differences."""
    k = len(point)
    steps = 1e-6 * np.maximum(np.abs(point), 1.0)
    plus = np.tile(point, (k, 1)) + np.diag(steps)
    minus = np.tile(point, (k, 1)) - np.diag(steps)
    return (unitstatistic.finish(rule, plus, if_empty)
            - unitstatistic.finish(rule, minus, if_empty)) / (2 * steps)


def normal_tail_p(rule: str, if_empty: tuple, stacked: np.ndarray, n_runs: int, pair: tuple,
                  clusters: np.ndarray = None) -> float:
    """The swap distribution's two-sided tail beyond the observed difference, by
    its normal approximation, for one pair ``(a, b)``.

    A swap pattern ``e`` (+1 kept, -1 swapped, per unit or cluster) moves the two
    runs' sums to ``M ± Σ e_i x_i / 2`` around their midpoint ``M``, where
    ``x_i = a_i - b_i``; to first order the difference is ``Σ e_i g_i`` with
    ``g_i = ∇f(M) · x_i``: mean 0, variance ``Σ g_i²`` (exact for a mean of
    per-unit values).  The p-value is ``erfc(|observed| / sqrt(2 Σ g_i²))``,
    never below ``2 / 2^n`` (``n`` units or clusters where the runs differ),
    the smallest p the exact swap distribution can give, nor below 2^-1022."""
    a, b = pair
    k = stacked.shape[1] // max(n_runs, 1)
    x = stacked[:, a * k:(a + 1) * k] - stacked[:, b * k:(b + 1) * k]
    totals_a, totals_b = stacked[:, a * k:(a + 1) * k].sum(0), stacked[:, b * k:(b + 1) * k].sum(0)
    observed = float(unitstatistic.finish(rule, totals_a, if_empty)
                     - unitstatistic.finish(rule, totals_b, if_empty))
    g = x @ _gradient(rule, if_empty, (totals_a + totals_b) / 2)
    differs = np.any(x != 0, axis=1).astype(np.float64)
    if clusters is not None and len(clusters):
        width = int(clusters.max()) + 1
        g = np.bincount(clusters, weights=g, minlength=width)
        differs = np.bincount(clusters, weights=differs, minlength=width)
    n = int(np.count_nonzero(differs))
    if n == 0 or observed == 0:
        return 1.0
    sigma = math.sqrt(float(np.dot(g, g)))
    p = math.erfc(abs(observed) / (sigma * math.sqrt(2))) if sigma > 0 else 0.0
    # Never 0: at most 2^-1022 (the smallest normal double), far below any threshold.
    return min(1.0, max(p, math.ldexp(1.0, max(1 - n, -1022))))


def sign_test_counts(rule: str, stacked: np.ndarray, n_runs: int, pair: tuple,
                     clusters: np.ndarray = None):
    """``(wins, losses)`` where the swap distribution of the pair ``(a, b)`` is a
    sign test's, else None.

    That is so for a ratio whose per-unit denominators are the same for both
    runs (a swap leaves the denominator's sum as it is: the difference is
    ``Σ e_i x_i / D``, ``x_i`` the difference of unit i's numerators) when every
    unit (cluster, with ``clusters``) where the runs differ differs by the same
    amount ``±c``: accuracy-like metrics, FEVER's strict score, whose per-unit
    values are 0 or 1.  Then ``|Σ e_i x_i| = c |2W - n|``, W binomial (n, 1/2)."""
    if rule != unitstatistic.RATIO or stacked.shape[1] != 2 * n_runs:
        return None
    a, b = pair
    if not np.array_equal(stacked[:, 2 * a + 1], stacked[:, 2 * b + 1]):
        return None
    x = stacked[:, 2 * a] - stacked[:, 2 * b]
    if clusters is not None and len(clusters):
        x = np.bincount(clusters, weights=x, minlength=int(clusters.max()) + 1)
    size = np.abs(x)
    # Sums of equal values in another order differ in the last bits.
    largest = float(size.max(initial=0.0))
    differs = size > 1e-9 * max(largest, 1e-300)
    if not differs.any():
        return None
    # The sizes that differ, without gathering them: the largest is one of them.
    smallest = float(np.min(size, where=differs, initial=np.inf))
    if largest - smallest > 1e-9 * largest:
        return None
    return (int(np.count_nonzero(np.logical_and(x > 0, differs))),
            int(np.count_nonzero(np.logical_and(x < 0, differs))))


def sign_test_p(wins: int, losses: int) -> float:
    """The exact two-sided p of the sign test, ``P(|2W - n| >= |wins - losses|)``
    for W binomial (n = wins + losses, 1/2): ``2 P(W <= min(wins, losses))``, at
    most 1, at least 2^-1022.  Summed from the largest term down in logarithms,
    so no count of units underflows it."""
    n = wins + losses
    k = min(wins, losses)
    if wins == losses:
        return 1.0
    log_top = (math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
               - n * math.log(2.0))
    total, term, i = 0.0, 1.0, k
    while i >= 0:
        total += term
        term *= i / (n - i + 1)         # C(n, i - 1) / C(n, i)
        if term < 1e-17 * total:
            break
        i -= 1
    log_p = math.log(2.0) + log_top + math.log(total)
    if log_p >= 0:
        return 1.0
    return max(math.exp(log_p), _SMALLEST_P)


def tail_p(rule: str, if_empty: tuple, stacked: np.ndarray, n_runs: int, pair: tuple,
           clusters: np.ndarray = None, by_column: np.ndarray = None) -> tuple:
    """The p-value of a pair beyond what the trials resolve, and whether it is
    exact: the sign test's (:func:`sign_test_p`) where the swap distribution is
    one (:func:`sign_test_counts`), else the normal approximation
    (:func:`normal_tail_p`).  On a sign test's lattice the normal tail is below
    the exact p (by 10 to 25 % where p is 10^-7 to 10^-3: the observed value is
    an atom of the distribution), on the wrong side of the thresholds.
    ``by_column``: ``stacked`` stored column by column (``np.asfortranarray``),
    which the sign test reads two columns of much faster, with the same
    results (its steps are exact); the normal tail reads ``stacked``, whose
    sums and products it makes in the order they were made."""
    counts = sign_test_counts(rule, stacked if by_column is None else by_column, n_runs, pair,
                              clusters)
    if counts is not None:
        return sign_test_p(*counts), True
    return normal_tail_p(rule, if_empty, stacked, n_runs, pair, clusters), False


def resolved_p(hits: int, trials: int, tail: float = None, exact: bool = False) -> float:
    """The p-value of a pair: the Monte Carlo one where at least ``TAIL_HITS``
    trials reached the observed difference (or no tail is given); else the tail
    rule's p: an ``exact`` one as it is (it is what the trials estimate), an
    approximate one never above the smallest resolved Monte Carlo p,
    ``(1 + TAIL_HITS) / (1 + trials)`` (the trials showed the p-value is below it)."""
    monte_carlo = (1 + int(hits)) / (1 + trials)
    if tail is None or hits >= TAIL_HITS:
        return monte_carlo
    if exact:
        return tail
    return min(tail, (1 + TAIL_HITS) / (1 + trials))


def observed_differences(rule: str, if_empty: tuple, stacked: np.ndarray, n_runs: int,
                         pairs: list) -> list:
    k = stacked.shape[1] // max(n_runs, 1)
    values = unitstatistic.finish(rule, stacked.sum(axis=0).reshape(n_runs, k), if_empty)
    return [float(values[a] - values[b]) for a, b in pairs]


# -- corrections -------------------------------------------------------------------

HOLM, BH = "holm", "bh"
CORRECTIONS = (HOLM, BH)


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


def benjamini_hochberg(p_values) -> list:
    """The Benjamini-Hochberg step-up adjustment (false discovery rate), in the
    input order: ``min over j >= i of m p_(j) / j``, at most 1."""
    p = np.asarray(p_values, dtype=np.float64)
    m = len(p)
    if m == 0:
        return []
    order = np.argsort(p, kind="stable")
    adjusted = np.empty(m)
    running = 1.0
    for position in range(m - 1, -1, -1):
        index = order[position]
        running = min(running, m * p[index] / (position + 1))
        adjusted[index] = running
    return adjusted.tolist()


def smallest_attainable_adjusted(m: int, smallest_p: float) -> float:
    """The smallest adjusted p any pair of an ``m``-pair family can get when no
    p-value is below ``smallest_p``, by Holm: ``m p``.  (Benjamini-Hochberg's is
    that for a pair whose p is smaller than every other, but only ``p`` when every
    pair has it: it multiplies the i-th smallest p by ``m / i``.)"""
    return min(1.0, m * smallest_p)


# -- effect sizes, ranks, groups ----------------------------------------------------

def unit_values(rule: str, stacked: np.ndarray, n_runs: int, pair: tuple,
                gathered: bool = True):
    """Per-unit values of the two runs ``(a, b)``, where the metric is a mean of
    per-unit values: a ratio whose denominator is, unit by unit, the same 0 or 1
    for both runs (units with 0 are left out of the mean).  Returns the two
    ``(units,)`` arrays of the units that count, or None for another metric
    (without ``gathered``: True rather than the arrays)."""
    if rule != unitstatistic.RATIO or stacked.shape[1] != 2 * n_runs:
        return None
    a, b = pair
    den_a, den_b = stacked[:, 2 * a + 1], stacked[:, 2 * b + 1]
    if not (np.array_equal(den_a, den_b) and np.all((den_a == 0) | (den_a == 1))):
        return None
    if not gathered:
        return True
    counted = den_a == 1
    return stacked[counted, 2 * a], stacked[counted, 2 * b]


def wins_ties_losses(rule: str, stacked: np.ndarray, n_runs: int, pair: tuple):
    """Units where run a's value is above, equal to, below run b's; None where the
    metric is not a mean of per-unit values (see :func:`unit_values`)."""
    if unit_values(rule, stacked, n_runs, pair, gathered=False) is None:
        return None
    a, b = pair
    # unit_values' units, counted where they count rather than gathered first
    counted = stacked[:, 2 * a + 1] == 1
    value_a, value_b = stacked[:, 2 * a], stacked[:, 2 * b]
    return tuple(int(np.count_nonzero(np.logical_and(compared, counted)))
                 for compared in (value_a > value_b, value_a == value_b, value_a < value_b))


#: Samples ranked at once (bounds memory: samples x runs x runs booleans).
_RANK_BLOCK = 200


def sample_ranks(sampled: np.ndarray) -> np.ndarray:
    """Each run's rank in each sample, ``(samples, runs)``: 1 + the number of runs
    with a higher value in that sample (ties share the best rank)."""
    ranks = np.empty(sampled.shape, dtype=np.int64)
    for start in range(0, len(sampled), _RANK_BLOCK):
        block = sampled[start:start + _RANK_BLOCK]
        ranks[start:start + len(block)] = 1 + np.count_nonzero(
            block[:, None, :] > block[:, :, None], axis=2)
    return ranks


def rank_ranges(sampled: np.ndarray, confidence: float = 95) -> list:
    """Each run's ``(rank_low, rank_high)``: the Perl's percentile rule on its
    ranks over the samples (rank_low the better, smaller number)."""
    ranks = sample_ranks(sampled)
    ranges = []
    for i in range(sampled.shape[1]):
        low, high = percentile_interval(ranks[:, i], confidence)
        ranges.append((int(low), int(high)))
    return ranges


def groups(n_runs: int, worse: dict) -> list:
    """Groups of runs in rank order (positions 0 to n - 1, best first).

    The best run leads group 1, which holds it and every run not significantly
    worse than it; the best-ranked run left leads group 2, which holds it and
    every run left not significantly worse than it; and so on down.
    ``worse[(i, j)]`` (i ranked above j): run j is significantly worse than run i.
    A pair missing from ``worse`` counts as not significant."""
    group = [0] * n_runs
    number = 0
    for leader in range(n_runs):
        if group[leader]:
            continue
        number += 1
        group[leader] = number
        for j in range(leader + 1, n_runs):
            if not group[j] and not worse.get((leader, j), False):
                group[j] = number
    return group
