"""-power: the smallest detectable difference is where the track's own test
(approximate randomization) rejects 80 % of the time, by simulation; the
units needed and the sizes follow the formula (docs/statistics.md)."""
from __future__ import annotations

import math

import numpy as np
import pytest

from scorer import unitstatistic
from scorer.track import power, statistics


TRIALS = 2000


def _stacked(a, b) -> np.ndarray:
    ones = np.ones(len(a))
    return np.column_stack([a, ones, b, ones]).astype(np.float64)


def _rejection_rate(rng, n: int, p_b: float, delta: float, datasets: int) -> float:
    rejected = 0
    for seed in range(datasets):
        a = rng.random(n) < p_b + delta
        b = rng.random(n) < p_b
        p = statistics.randomization_p(unitstatistic.RATIO, (0.0, 0.0), _stacked(a, b), 2,
                                       [(0, 1)], TRIALS, seed)[0]
        rejected += p < 0.05
    return rejected / datasets


@pytest.mark.slow
def test_the_estimated_80_percent_point_is_where_the_test_rejects_80_percent():
    """A pilot of 4,000 units with a planted difference of 0.1 in accuracy; the
    estimate for 400 units (-power 0.1); 800 tracks of 400 such units at that
    difference, each tested as the track tests (2,000 swaps, p < 0.05)."""
    rng = np.random.default_rng(1)
    p_b, planted = 0.6, 0.1
    pilot = _stacked(rng.random(4000) < p_b + planted, rng.random(4000) < p_b)
    sizes, _pairs = power.compute(["a", "b"], "accuracy", unitstatistic.RATIO, (0.0, 0.0),
                                  pilot, (0.1,), 1)
    assert sizes["units"].tolist() == [400, 400]
    detectable = float(sizes["min_detectable_difference"].iloc[0])
    assert 0.05 < detectable < 0.2
    datasets = 800
    rate = _rejection_rate(rng, 400, p_b, detectable, datasets)
    half = 2 * math.sqrt(0.8 * 0.2 / datasets)           # the simulation's own interval
    assert abs(rate - 0.8) <= half, rate
    # Where the rate crosses 80 %: below at two thirds of it, above at four thirds.
    assert _rejection_rate(rng, 400, p_b, detectable * 2 / 3, 100) < 0.8
    assert _rejection_rate(rng, 400, p_b, detectable * 4 / 3, 100) > 0.8


def test_sizes_scale_as_one_over_the_root_of_the_units_and_pairs_need_what_the_formula_says():
    rng = np.random.default_rng(2)
    n = 300
    stacked = np.hstack([_stacked(rng.random(n) < 0.8, rng.random(n) < 0.7),
                         _stacked(rng.random(n) < 0.6, rng.random(n) < 0.5)])
    names = ["w", "x", "y", "z"]
    sizes, pairs = power.compute(names, "accuracy", unitstatistic.RATIO, (0.0, 0.0), stacked,
                                 (0.5, 1.0, 4.0), 6)
    assert sizes["units"].tolist() == [150, 150, 300, 300, 1200, 1200]
    plain = sizes[sizes["alpha"] == 0.05]["min_detectable_difference"].tolist()
    # about 1 / sqrt(units) (exactly so but for the sigma^2 + delta^2 of the null spread)
    assert math.isclose(plain[0] / plain[2], 4 / math.sqrt(2), rel_tol=0.03)
    from statistics import NormalDist
    za, zb = NormalDist().inv_cdf(0.975), NormalDist().inv_cdf(0.8)
    for _, row in sizes.iterrows():
        delta, sigma, units = row["min_detectable_difference"], row["sigma"], row["units"]
        za = NormalDist().inv_cdf(1 - row["alpha"] / 2)
        assert math.isclose(math.sqrt(units) * delta,
                            za * math.sqrt(sigma ** 2 + delta ** 2) + zb * sigma)
    corrected = sizes[sizes["alpha"] == 0.05 / 6]["min_detectable_difference"].tolist()
    assert all(c > p for c, p in zip(corrected, plain))
    assert pairs[["run_a", "run_b"]].values.tolist() == [["w", "x"], ["x", "y"], ["y", "z"]]
    for _, row in pairs.iterrows():
        # the observed difference at the units needed is just detectable
        assert power.min_detectable(row["sigma"], int(row["units_needed"]), 0.05) <= \
            abs(row["delta"]) < power.min_detectable(row["sigma"],
                                                     int(row["units_needed"]) - 1, 0.05)


def test_a_mean_of_per_unit_values_is_linearized_exactly():
    rng = np.random.default_rng(3)
    a, b = rng.random(50) < 0.5, rng.random(50) < 0.4
    d = power.per_unit_differences(unitstatistic.RATIO, (0.0, 0.0), _stacked(a, b), 2, (0, 1))
    assert np.allclose(d, a.astype(float) - b)


def test_bad_sizes_are_refused():
    for text in ("", "0", "-1", "two", "nan", "1,,2"):
        with pytest.raises(ValueError, match="multiples of the track's units"):
            power.read_sizes(text)
    assert power.read_sizes("0.5,1,2,4,1") == (0.5, 1.0, 2.0, 4.0)
