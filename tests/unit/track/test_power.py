"""-power: the smallest detectable difference, by paired bootstrap simulation
(the default) or the normal approximation (-power_method normal), is where the
track's own test (approximate randomization) rejects 80 % of the time; the
units needed make the observed difference just detectable (docs/statistics.md)."""
from __future__ import annotations

import math
from statistics import NormalDist

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
@pytest.mark.parametrize("method", power.METHODS)
def test_the_estimated_80_percent_point_is_where_the_test_rejects_80_percent(method):
    """A pilot of 4,000 units with a planted difference of 0.1 in accuracy; the
    estimate for 400 units (-power 0.1); 800 tracks of 400 such units at that
    difference, each tested as the track tests (2,000 swaps, p < 0.05)."""
    rng = np.random.default_rng(1)
    p_b, planted = 0.6, 0.1
    pilot = _stacked(rng.random(4000) < p_b + planted, rng.random(4000) < p_b)
    sizes, _pairs = power.compute(["a", "b"], "accuracy", unitstatistic.RATIO, (0.0, 0.0),
                                  pilot, (0.1,), 1, method, 7)
    assert sizes["units"].tolist() == [400, 400]
    assert set(sizes["method"]) == {method}
    detectable = float(sizes["min_detectable_difference"].iloc[0])
    assert 0.05 < detectable < 0.2
    datasets = 800
    rate = _rejection_rate(rng, 400, p_b, detectable, datasets)
    half = 2 * math.sqrt(0.8 * 0.2 / datasets)           # the observed rate's own interval
    assert abs(rate - 0.8) <= half, rate
    if method == power.SIMULATION:
        low, high = sizes[["simulation_low", "simulation_high"]].iloc[0]
        assert low < detectable < high and high - low < 0.1 * detectable
    # Where the rate crosses 80 %: below at two thirds of it, above at four thirds.
    assert _rejection_rate(rng, 400, p_b, detectable * 2 / 3, 100) < 0.8
    assert _rejection_rate(rng, 400, p_b, detectable * 4 / 3, 100) > 0.8


def test_the_simulation_is_seeded_and_close_to_the_normal_approximation():
    rng = np.random.default_rng(2)
    n = 300
    stacked = np.hstack([_stacked(rng.random(n) < 0.8, rng.random(n) < 0.7),
                         _stacked(rng.random(n) < 0.6, rng.random(n) < 0.5)])
    names = ["w", "x", "y", "z"]
    args = (names, "accuracy", unitstatistic.RATIO, (0.0, 0.0), stacked, (0.5, 1.0, 4.0), 6)
    sizes, pairs = power.compute(*args, power.SIMULATION, 3)
    again, pairs_again = power.compute(*args, power.SIMULATION, 3)
    other, _ = power.compute(*args, power.SIMULATION, 4)
    normal, normal_pairs = power.compute(*args, power.NORMAL)
    assert sizes.equals(again) and pairs.equals(pairs_again)
    assert not sizes["min_detectable_difference"].equals(other["min_detectable_difference"])
    assert sizes["units"].tolist() == [150, 150, 300, 300, 1200, 1200]
    assert sizes["sigma"].tolist() == normal["sigma"].tolist()
    # the reference pair is the rank neighbours of the median spread
    middle = sorted(pairs["sigma"])[1]
    row = pairs[pairs["sigma"] == middle].iloc[0]
    assert set(zip(sizes["run_a"], sizes["run_b"])) == {(row["run_a"], row["run_b"])}
    for simulated, approximate in zip(sizes["min_detectable_difference"],
                                      normal["min_detectable_difference"]):
        assert math.isclose(simulated, approximate, rel_tol=0.08), (simulated, approximate)
    assert (sizes["simulation_low"] < sizes["min_detectable_difference"]).all()
    assert (sizes["min_detectable_difference"] < sizes["simulation_high"]).all()
    plain = sizes[sizes["alpha"] == 0.05]["min_detectable_difference"].tolist()
    corrected = sizes[sizes["alpha"] == 0.05 / 6]["min_detectable_difference"].tolist()
    assert all(c > p for c, p in zip(corrected, plain))
    assert plain[0] > plain[1] > plain[2]
    assert pairs[["run_a", "run_b"]].values.tolist() == [["w", "x"], ["x", "y"], ["y", "z"]]
    for (_, simulated), (_, approximate) in zip(pairs.iterrows(), normal_pairs.iterrows()):
        for column in ("units_needed", "units_needed_corrected"):
            assert math.isclose(simulated[column], approximate[column], rel_tol=0.2)


def test_the_units_needed_make_the_observed_difference_just_detectable_in_the_simulation():
    rng = np.random.default_rng(5)
    d = (rng.random(500) < 0.7).astype(float) - (rng.random(500) < 0.62)
    differences = power.Differences(d)
    delta, sigma = float(d.mean()), float(np.std(d, ddof=1))
    seed = [9, 1]
    needed = power.simulated_units_needed(differences, delta, 0.05, sigma, seed)

    def point(units):
        return power.simulated_min_detectable(differences, units, (0.05,),
                                              np.random.default_rng(seed))[0][0]
    assert point(needed) <= delta
    assert point(math.floor(needed / 1.02)) > delta
    assert power.simulated_units_needed(differences, 0.0, 0.05, sigma, seed) is None


def test_the_smallest_significant_shift_is_where_the_swap_tests_normal_tail_crosses():
    rng = np.random.default_rng(6)
    c = rng.normal(size=(50, 40))
    c -= c.mean()
    mean, variance = c.mean(axis=1), c.var(axis=1)
    shifts = power.smallest_significant_shifts(mean, variance, 40, 0.05)
    z = NormalDist().inv_cdf(0.975)
    for row, shift in zip(c, shifts):
        for moved, significant in ((row + shift + 1e-6, True),
                                   (row + shift - 1e-6, False)):
            assert (moved.sum() >= z * math.sqrt((moved ** 2).sum())) == significant
    assert np.isinf(power.smallest_significant_shifts(mean, variance, 3, 0.05)).all()


def test_the_80_percent_point_and_its_interval_are_order_statistics():
    shifts = np.arange(1000, 0, -1, dtype=np.float64)
    point, low, high = power.power_point(shifts)
    assert point == 800.0
    spread = 1.96 * math.sqrt(1000 * 0.16)
    assert (low, high) == (math.floor(800 - spread), math.ceil(800 + spread))


def test_normal_sizes_follow_the_formula():
    rng = np.random.default_rng(2)
    n = 300
    stacked = np.hstack([_stacked(rng.random(n) < 0.8, rng.random(n) < 0.7),
                         _stacked(rng.random(n) < 0.6, rng.random(n) < 0.5)])
    sizes, pairs = power.compute(["w", "x", "y", "z"], "accuracy", unitstatistic.RATIO,
                                 (0.0, 0.0), stacked, (0.5, 1.0, 4.0), 6, power.NORMAL)
    zb = NormalDist().inv_cdf(0.8)
    for _, row in sizes.iterrows():
        delta, sigma, units = row["min_detectable_difference"], row["sigma"], row["units"]
        za = NormalDist().inv_cdf(1 - row["alpha"] / 2)
        assert math.isclose(math.sqrt(units) * delta,
                            za * math.sqrt(sigma ** 2 + delta ** 2) + zb * sigma)
    assert sizes["simulation_low"].isna().all()
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
    with pytest.raises(ValueError, match="-power_method must be one of simulation, normal"):
        power.check_method("bootstrap")
