"""P/R/F1 zero rules, micro/macro edge cases, the percentile rule (spec §4.1,
§4.3, §6.5), with properties checked by hypothesis."""
from __future__ import annotations

import numpy as np
import pandas as pd
from hypothesis import given, strategies as st

from scorer import percentile, prf
from scorer.coldstart.counts import COUNT_COLUMNS
from scorer.coldstart import runningsums
from scorer.coldstart.projections import MACRO, MICRO, RunStructure, full_data, sf_aggregates


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


def _table(rows):
    """A counts table from (name, level, GT, submitted, right, ignored) tuples."""
    records = []
    for name, level, gt, submitted, right, ignored in rows:
        record = dict(name=name, query_id=name.split(":")[0][-10:], sf_full_id=name.split(":")[0],
                      suffix="", level=level, runid="R", ldc_id=None, ldc_full_id=None)
        record.update({c: 0 for c in COUNT_COLUMNS})
        record.update(GT=gt, SUBMITTED=submitted, RIGHT=right, IGNORED=ignored)
        records.append(record)
    table = pd.DataFrame.from_records(records)
    p, r, f = prf.prf_arrays(table.RIGHT, table.SUBMITTED - table.IGNORED, table.GT)
    table["P"], table["R"], table["F"] = p, r, f
    return table


def test_macro_counts_rows_without_ground_truth_in_the_numerator_only():
    # spec §4.3 (MISSING_QUERY_RESPONSE): P = 1, 0 (GT 1, nothing submitted), 1, 0.5 -> 0.625
    table = _table([("CSSF17_ENG_aaaaaaaaaa", 0, 1, 1, 1, 0),
                    ("CSSF17_ENG_bbbbbbbbbb", 0, 1, 0, 0, 0),
                    ("CSSF17_ENG_cccccccccc", 0, 1, 2, 1, 1),
                    ("CSSF17_ENG_dddddddddd", 0, 2, 2, 1, 0),
                    ("CSSF17_ENG_eeeeeeeeee", 0, 0, 3, 0, 0)])
    structure = RunStructure(table, has_index=False)
    aggregates = sf_aggregates(structure, full_data(structure))
    macro = aggregates[(MACRO, "0")]
    assert macro.p[0] == (1 + 0 + 1 + 0.5 + 0) / 4
    micro = aggregates[(MICRO, "0")]
    assert micro.p[0] == 3 / (8 - 1)
    assert micro.r[0] == 3 / 5
    assert not aggregates[(MICRO, "1")].exists[0]


def test_macro_is_zero_when_no_row_has_ground_truth():
    table = _table([("CSSF17_ENG_aaaaaaaaaa", 0, 0, 2, 0, 0)])
    structure = RunStructure(table, has_index=False)
    macro = sf_aggregates(structure, full_data(structure))[(MACRO, "0")]
    assert (macro.p[0], macro.r[0], macro.f[0]) == (0.0, 0.0, 0.0)


@given(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 9), st.integers(0, 9),
                          st.integers(0, 9)), min_size=1, max_size=12),
       st.lists(st.integers(0, 3), min_size=12, max_size=12))
def test_a_sample_equals_the_table_with_rows_repeated(rows, copies):
    """Scoring with multiplicities equals scoring the table with each row
    copied that many times (the Perl's bootstrap), to the last bit."""
    spec = []
    for i, (gt, submitted, right, ignored) in enumerate(rows):
        submitted = max(submitted, right + ignored)
        spec.append((f"CSSF17_ENG_{i:010d}", 0, gt, submitted, right, ignored))
    table = _table(spec)
    structure = RunStructure(table, has_index=False)
    weights = np.array([copies[:len(structure.sf_ids)]])
    sampled = sf_aggregates(structure, weights)
    if not weights.any():
        assert not sampled[(MICRO, "0")].exists[0]
        return
    repeated = _table([row for row, k in zip(spec, weights[0]) for _ in range(k)])
    expanded = RunStructure(repeated.assign(query_id=[f"{i}" for i in range(len(repeated))]),
                            has_index=False)
    direct = sf_aggregates(expanded, full_data(expanded))
    for key in (MICRO, MACRO):
        for metric in ("p", "r", "f"):
            assert getattr(sampled[(key, "0")], metric)[0] == getattr(direct[(key, "0")], metric)[0]
    assert 0.0 <= sampled[(MICRO, "0")].p[0] <= 1.0


def _running_sums_one_copy_at_a_time(values, repeats, levels):
    """The Perl's running sums, literally: per sample, each copy of each row
    added in row order (values[j] may differ per sample: a (B, 3) array)."""
    result = {level: np.zeros((repeats.shape[0], 3)) for level in ("0", "1", "ALL")}
    for b in range(repeats.shape[0]):
        for j in range(repeats.shape[1]):
            row = values[j][b] if values[j].ndim == 2 else values[j]
            for _copy in range(repeats[b, j]):
                for level in ("ALL", str(levels[j])):
                    if level in result:
                        for m in range(3):
                            result[level][b, m] += row[m]
    return result


@given(st.integers(1, 40), st.integers(1, 5), st.integers(0, 2 ** 32 - 1), st.booleans(),
       st.sampled_from(["ones", "drawn", "copies"]))
def test_running_sums_add_each_copy_in_row_order(n_rows, n_samples, seed, per_sample, shape):
    """Batched or row by row, every running sum is the double of adding one
    copy at a time, in row order, with or without per-sample values."""
    rng = np.random.default_rng(seed)
    levels = rng.integers(0, 3, n_rows)
    repeats = {"ones": np.ones((n_samples, n_rows), dtype=np.int64),
               "drawn": rng.integers(0, 2, (n_samples, n_rows)),
               "copies": rng.poisson(0.8, (n_samples, n_rows))}[shape]
    if per_sample:
        table = rng.random((n_rows, 4, 3)) * 10.0 ** rng.integers(-3, 4)
        code = rng.integers(0, 4, (n_rows, n_samples))
        values = runningsums.CodedValues(table, code)
        rows = [table[j][code[j]] for j in range(n_rows)]          # (B, 3) each
    else:
        values = rows = rng.random((n_rows, 3)) * 10.0 ** rng.integers(-3, 4)
    expected = _running_sums_one_copy_at_a_time(rows, repeats, levels)
    for batch in (runningsums._BATCH_ELEMENTS, 2):
        runningsums._BATCH_ELEMENTS, saved = batch, runningsums._BATCH_ELEMENTS
        try:
            sums = runningsums.running_sums(values, repeats, levels)
        finally:
            runningsums._BATCH_ELEMENTS = saved
        for level in ("0", "1", "ALL"):
            assert np.array_equal(sums[level], expected[level])
