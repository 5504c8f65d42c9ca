"""The Perl's running sums (scorer/coldstart/runningsums.py): every sum the
very double of adding one row copy at a time, in row order."""
from __future__ import annotations

import numpy as np
from hypothesis import given, strategies as st

from scorer.coldstart import runningsums


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
