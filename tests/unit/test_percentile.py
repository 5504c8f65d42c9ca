"""The Perl scorer's percentile rule (scorer/percentile.py, spec §6.5)."""
from __future__ import annotations

from hypothesis import given, strategies as st

from scorer import percentile


def test_percentile_rule_of_the_perl_scorer():
    assert percentile.percentile_indices(100, 95) == (2, 96)
    assert percentile.percentile_indices(100, 99) == (0, 98)
    assert percentile.percentile_indices(100, 90) == (5, 94)
    assert percentile.percentile_indices(1000, 95) == (25, 974)
    assert percentile.percentile_indices(20, 90) == (1, 18)
    assert percentile.percentile_indices(5, 99) == (0, 3)


@given(st.integers(1, 5000), st.sampled_from(percentile.CONFIDENCE_LEVELS))
def test_percentile_indices_are_ordered_and_inside(n, confidence):
    low, high = percentile.percentile_indices(n, confidence)
    assert 0 <= low <= max(high, 0) < n or (n < 3 and high < low)
