"""P/R/F1 and their zero rules (scorer/prf.py, spec §4.1), with properties
checked by hypothesis."""
from __future__ import annotations

from hypothesis import given, strategies as st

from scorer import prf


def test_zero_denominators():
    assert prf.precision(0, 0) == 0.0
    assert prf.recall(3, 0) == 0.0
    assert prf.f1(0.0, 0.0) == 0.0
    assert prf.f1(1.0, 0.0) == 0.0
    assert prf.f1(0.5, 1.0) == 2 * 0.5 * 1.0 / 1.5


@given(st.integers(0, 50), st.integers(0, 50), st.integers(0, 50))
def test_vectorised_scores_equal_the_scalar_ones(right, denominator, ground_truth):
    p, r, f = prf.prf_arrays([right], [denominator], [ground_truth])
    assert p[0] == prf.precision(right, denominator)
    assert r[0] == prf.recall(right, ground_truth)
    assert f[0] == prf.f1(p[0], r[0])


@given(st.floats(0, 1), st.floats(0, 1))
def test_f1_lies_between_zero_and_the_larger_score(p, r):
    value = prf.f1(p, r)
    assert 0.0 <= value <= max(p, r) + 1e-12
