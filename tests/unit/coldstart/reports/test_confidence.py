"""scorer/coldstart/reports/confidence.py: the bootstrap reports.
``.confidence`` lines against the Perl's percentile rule written out here
(floor(n (100 - c) / 200), floor(n (1 - that)) - 1, no interpolation) over
the sorted values; missing values; ``.samplescores`` cells; ``.sample``
lines; the per-hop key of a code."""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer import bootstrap
from scorer.coldstart.reports.confidence import (CONFIDENCE_HEADER, interval_line, per_hop_key,
                                                 render_confidence, render_samplescores,
                                                 sample_lines)
from scorer.coldstart.resample import round4


def test_missing_values_sort_before_zeros_and_print_empty():
    texts = [None, "0.0000", "0.5000", None, "1.0000"]
    line = interval_line("ALLEP_SLOTFLG_Mi_1_P", texts, None)
    # n = 5: every bound is index 0 (low) or 3 (high); index 0 is a missing value
    assert line == "ALLEP_SLOTFLG_Mi_1_P    0.3000      - 0.5000 0.5000 0.5000\n"


def test_samplescores_cells_from_the_table_equal_formatting():
    rng = np.random.default_rng(3)
    codes = ["A", "B", "C"]
    for scale in (1.0, 3.0):             # 3.0: values above 1 take the formatting path
        values = round4(rng.random((40, 3)) * scale)
        values[rng.random((40, 3)) < 0.2] = np.nan
        text = "".join(render_samplescores(list(range(1, 41)), codes,
                                           {c: values[:, j] for j, c in enumerate(codes)},
                                           "R%1")())
        expected = "Sample# A B C #RUNID\n" + "".join(
            "%6d" % (i + 1) + "".join("               %0.4f" % (0.0 if np.isnan(v) else v)
                                      for v in values[i]) + " #R%1\n" for i in range(40))
        assert text == expected


def _bounds(n, c):
    low = math.floor(n * ((100 - c) * 0.5 / 100))
    return low, math.floor(n * (1 - (100 - c) * 0.5 / 100)) - 1


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 10_000), min_size=1, max_size=60),
       st.sampled_from([None, "0.25", "1"]))
def test_an_interval_line_is_the_sorted_values_at_the_perls_positions(ks, original):
    values = [k / 1e4 for k in ks]
    ordered = sorted(values)
    n = len(values)
    total = 0.0
    for v in values:
        total += v
    low = ["%6.4f" % ordered[_bounds(n, c)[0]] for c in (99, 95, 90)]
    high = ["%6.4f" % ordered[_bounds(n, c)[1]] for c in (90, 95, 99)]
    scr = "%0.4f" % float(original) if original is not None else "     -"
    assert interval_line("CODE", values, original) == \
        " ".join(["CODE", *low, "%0.4f" % (total / n), scr, *high]) + "\n"
    assert interval_line("CODE", np.array(values), original) == \
        interval_line("CODE", values, original)


def test_render_confidence_sorts_the_codes_and_is_a_header_alone_without_samples():
    values = {"B_CODE": [0.5, 0.25], "A_CODE": [1.0, None]}
    assert render_confidence(["B_CODE", "A_CODE"], values, {"B_CODE": "0.5000"}) == (
        CONFIDENCE_HEADER
        # (two samples: every bound is the lower one, here a missing value: empty)
        + "A_CODE    0.5000      -   \n"
        + "B_CODE 0.2500 0.2500 0.2500 0.3750 0.5000 0.2500 0.2500 0.2500\n")
    assert render_confidence(["A_CODE"], {"A_CODE": []}, {}) == CONFIDENCE_HEADER
    assert render_confidence(["A_CODE"], {}, {}) == CONFIDENCE_HEADER


def test_sample_lines_show_the_first_sf_id_of_each_drawn_element():
    samples = bootstrap.parse_samples(["2 L1:a,b L2:c\n", "1 L2:c L1:b,a\n"])
    assert "".join(sample_lines(samples)) == "1 L2:c L1:b\n2 L1:a L2:c\n"


@pytest.mark.parametrize("code, key", [
    ("ALLEP_SLOTFLG_Mi_1_P", ("SF", "micro", "1", "P")),
    ("ALLEP_LDCMAXI_Ma_A_F", ("LDCMAX", "macro", "ALL", "F1")),
    ("ALLEP_LDCMEAN_Ma_0_AP", ("LDCMEAN", "macro", "0", "AP")),
    ("ONEEP_SLOTFLG_Mi_A_R", None)])
def test_per_hop_key_of_a_code(code, key):
    assert per_hop_key(code) == key
