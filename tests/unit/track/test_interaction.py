"""The permutation test of the run x slice interaction: calibrated when the
difference does not depend on the slice, decisive when it flips between
slices, the statistic as defined (docs/statistics.md)."""
from __future__ import annotations

import numpy as np

from scorer import unitstatistic
from scorer.track import interaction


def _accuracy_runs(rng, correct_a, correct_b) -> np.ndarray:
    """Two runs' ``[right, 1]`` per unit, side by side (units x 4)."""
    n = len(correct_a)
    ones = np.ones(n)
    return np.column_stack([correct_a, ones, correct_b, ones]).astype(np.float64)


def test_the_statistic_weighs_each_slices_difference_by_its_units():
    rng = np.random.default_rng(0)
    a = rng.integers(0, 2, 30)
    b = rng.integers(0, 2, 30)
    stacked = _accuracy_runs(rng, a, b)
    membership = np.zeros((2, 30), dtype=bool)
    membership[0, :10] = True
    membership[1, 10:] = True
    differences, observed, p = interaction.test(unitstatistic.RATIO, (0.0, 0.0), stacked, 2,
                                                membership, [(0, 1)], seed=1, permutations=50)
    d = [a[:10].mean() - b[:10].mean(), a[10:].mean() - b[10:].mean()]
    overall = a.mean() - b.mean()
    assert np.allclose(differences[:, 0], d)
    assert np.isclose(observed[0], 10 * (d[0] - overall) ** 2 + 20 * (d[1] - overall) ** 2)
    assert 1 / 51 <= p[0] <= 1


def test_a_difference_that_flips_between_slices_is_found():
    rng = np.random.default_rng(2)
    n = 300
    membership = np.zeros((2, n), dtype=bool)
    membership[0, :150] = True
    membership[1, 150:] = True
    a = np.concatenate([rng.random(150) < 0.9, rng.random(150) < 0.5])
    b = np.concatenate([rng.random(150) < 0.5, rng.random(150) < 0.9])
    _d, _t, p = interaction.test(unitstatistic.RATIO, (0.0, 0.0), _accuracy_runs(rng, a, b), 2,
                                 membership, [(0, 1)], seed=3, permutations=200)
    assert p[0] == 1 / 201


def test_without_an_interaction_the_test_rejects_about_five_percent():
    """400 pairs whose difference (0.1 on every slice) does not depend on it."""
    rng = np.random.default_rng(4)
    n, rejected, tried = 240, 0, 400
    membership = np.zeros((3, n), dtype=bool)
    for s in range(3):
        membership[s, s * 80:(s + 1) * 80] = True
    for trial in range(tried):
        a = rng.random(n) < 0.7
        b = rng.random(n) < 0.6
        _d, _t, p = interaction.test(unitstatistic.RATIO, (0.0, 0.0),
                                     _accuracy_runs(rng, a, b), 2, membership, [(0, 1)],
                                     seed=trial, permutations=199)
        rejected += p[0] <= 0.05
    assert 0.02 <= rejected / tried <= 0.09


def test_overlapping_slices_and_units_in_none_keep_their_sizes():
    rng = np.random.default_rng(5)
    n = 50
    membership = np.zeros((2, n), dtype=bool)
    membership[0, :30] = True
    membership[1, 20:40] = True          # ten units in both; ten in neither
    stacked = _accuracy_runs(rng, rng.integers(0, 2, n), rng.integers(0, 2, n))
    differences, observed, p = interaction.test(unitstatistic.RATIO, (0.0, 0.0), stacked, 2,
                                                membership, [(0, 1)], seed=0, permutations=30)
    used = stacked[:40]
    overall = used[:, 0].mean() - used[:, 2].mean()
    d0 = stacked[:30, 0].mean() - stacked[:30, 2].mean()
    d1 = stacked[20:40, 0].mean() - stacked[20:40, 2].mean()
    assert np.isclose(observed[0], 30 * (d0 - overall) ** 2 + 20 * (d1 - overall) ** 2)
    # The same seed, the same p (the permutations are the seed's).
    again = interaction.test(unitstatistic.RATIO, (0.0, 0.0), stacked, 2, membership, [(0, 1)],
                             seed=0, permutations=30)[2]
    assert again[0] == p[0]
