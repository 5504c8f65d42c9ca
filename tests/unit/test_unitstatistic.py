"""scorer/unitstatistic.py: a metric as a finishing rule over summed per-unit
statistics.  Each rule is checked against the same arithmetic written out in
plain Python (prf.py's zero rules), and ``values`` against a loop over samples."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer import prf
from scorer.unitstatistic import (F1, HARMONIC_MEAN, MEAN_OF_RATIOS, PRECISION, RATIO,
                                  RECALL, UnitStatistic, finish, values)

counts = st.integers(0, 50)


def _ratio(n, d, if_empty):
    return n / d if d else if_empty


@settings(max_examples=200, deadline=None)
@given(right=counts, scored=counts, truth=counts)
def test_precision_recall_f1_are_prfs_rules(right, scored, truth):
    sums = np.array([right, scored, truth], dtype=float)
    p, r = prf.precision(right, scored), prf.recall(right, truth)
    assert float(finish(PRECISION, sums)) == p
    assert float(finish(RECALL, sums)) == r
    assert float(finish(F1, sums)) == prf.f1(p, r)


@settings(max_examples=200, deadline=None)
@given(n=counts, d=counts, empty=st.sampled_from([0.0, 1.0]))
def test_ratio_takes_if_empty_when_the_denominator_sums_to_zero(n, d, empty):
    assert float(finish(RATIO, np.array([n, d], dtype=float), (empty, 0.0))) == \
        _ratio(n, d, empty)


@settings(max_examples=200, deadline=None)
@given(cells=st.lists(counts, min_size=4, max_size=4),
       empty=st.tuples(st.sampled_from([0.0, 1.0]), st.sampled_from([0.0, 1.0])))
def test_harmonic_mean_of_two_ratios(cells, empty):
    p = _ratio(cells[0], cells[1], empty[0])
    r = _ratio(cells[2], cells[3], empty[1])
    expected = 2 * p * r / (p + r) if p + r else 0.0
    assert float(finish(HARMONIC_MEAN, np.array(cells, dtype=float), empty)) == expected


@settings(max_examples=200, deadline=None)
@given(cells=st.lists(counts, min_size=2, max_size=12).filter(lambda c: len(c) % 2 == 0),
       empty=st.sampled_from([0.0, 1.0]))
def test_mean_of_ratios_is_a_macro_average(cells, empty):
    ratios = [_ratio(cells[i], cells[i + 1], empty) for i in range(0, len(cells), 2)]
    got = float(finish(MEAN_OF_RATIOS, np.array(cells, dtype=float), (empty, 0.0)))
    assert got == pytest.approx(sum(ratios) / len(ratios), rel=1e-15, abs=0)


def test_finish_keeps_leading_dimensions():
    sums = np.array([[[1, 2], [0, 0]], [[3, 3], [2, 8]]], dtype=float)
    assert finish(RATIO, sums, (7.0, 0.0)).tolist() == [[0.5, 7.0], [1.0, 0.25]]


@settings(max_examples=60, deadline=None)
@given(data=st.data(), n_units=st.integers(1, 8), n_samples=st.integers(1, 5))
def test_values_sums_each_sample_then_finishes(data, n_units, n_samples):
    matrix = np.array(data.draw(st.lists(st.lists(counts, min_size=3, max_size=3),
                                         min_size=n_units, max_size=n_units)), dtype=float)
    weights = np.array(data.draw(st.lists(st.lists(st.integers(0, 3), min_size=n_units,
                                                   max_size=n_units),
                                          min_size=n_samples, max_size=n_samples)))
    statistic = UnitStatistic([f"u{i}" for i in range(n_units)], matrix, F1)
    got = values(statistic, weights)
    for sample, value in zip(weights, got):
        right, scored, truth = (sum(int(w) * matrix[u, k] for u, w in enumerate(sample))
                                for k in range(3))
        assert value == prf.f1(prf.precision(right, scored), prf.recall(right, truth))


def test_aligned_orders_rows_by_the_units_given_with_zeros_for_missing_ones():
    statistic = UnitStatistic(["b", "a"], np.array([[1.0, 2.0], [3.0, 4.0]]), RATIO)
    assert statistic.aligned(["a", "c", "b"]).tolist() == [[3, 4], [0, 0], [1, 2]]
    # values() over another run's unit order: a unit the run lacks counts as zeros
    weights = np.array([[1, 1, 1], [0, 5, 0]])
    assert values(statistic, weights, ["a", "c", "b"]).tolist() == [4 / 6, 0.0]
