"""scorer/coldstart/resample.py: the ``.samplescores`` codes in the Perl's
nested order with the codes it does not report left out, and ``round4``:
each value as the number its ``%.4f`` text stands for."""
from __future__ import annotations

import itertools

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.coldstart.projections import MACRO, MICRO
from scorer.coldstart.resample import AP_CODES, codes, missing_codes, round4


def test_the_codes_are_the_perls_63_in_nested_order():
    expected = []
    for mode, variant, aggregate, level, metric in itertools.product(
            ("ONEEP", "ALLEP"), ("LDCMAXI", "LDCMEAN", "SLOTFLG"), ("Mi", "Ma"),
            ("0", "1", "A"), ("P", "R", "F")):
        # The Perl reports no LDC-MEAN micro line, and for one entry point the
        # SF codes alone (LDC-MAX and LDC-MEAN need every entry point).
        if variant == "LDCMEAN" and aggregate == "Mi":
            continue
        if mode == "ONEEP" and variant != "SLOTFLG":
            continue
        expected.append(f"{mode}_{variant}_{aggregate}_{level}_{metric}")
    found = [code for code, *_rest in codes()]
    assert found == expected and len(found) == 63
    for code, mode, variant, aggregate, level, metric in codes():
        assert code.startswith(mode + "_")
        assert {"LDCMAX": "LDCMAXI", "LDCMEAN": "LDCMEAN", "SF": "SLOTFLG"}[variant] in code
        assert code.endswith(f"_{ {'0': '0', '1': '1', 'ALL': 'A'}[level]}_{metric.upper()}")
        assert aggregate in (MICRO, MACRO)


def test_the_ap_codes_are_the_macro_ap_of_ldcmean_and_sf_at_each_level():
    assert [code for code, _variant, _level in AP_CODES] == [
        "ALLEP_LDCMEAN_Ma_0_AP", "ALLEP_LDCMEAN_Ma_1_AP", "ALLEP_LDCMEAN_Ma_A_AP",
        "ALLEP_SLOTFLG_Ma_0_AP", "ALLEP_SLOTFLG_Ma_1_AP", "ALLEP_SLOTFLG_Ma_A_AP"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.floats(0, 2, allow_nan=False) |
                st.integers(0, 20_000).map(lambda k: (k + 0.5) / 1e4) |
                st.integers(0, 20_000).map(lambda k: k / 1e4 + 5e-5), max_size=30))
def test_round4_is_the_value_of_the_perls_text(values):
    """Ties and near-ties of the fifth decimal included: the text rounds the
    double's exact value, which np.rint of the scaled value may not."""
    assert round4(values).tolist() == [float("%.4f" % v) for v in values]


def test_missing_codes_are_those_with_a_sample_without_a_value():
    values = {"A": np.array([0.5, np.nan]), "B": np.array([0.5, 0.25]), "C": np.array([np.nan])}
    assert missing_codes(values) == ["A", "C"]
