"""Micro and macro aggregates of the SF projection: edge cases (spec §4.3), and
a bootstrap sample scored as the table with its rows repeated."""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st

from scorer import prf
from scorer.coldstart.counts import COUNT_COLUMNS
from scorer.coldstart.projections import (MACRO, MICRO, RunStructure, full_data, ldc_max_choice,
                                          sf_aggregates)


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


@pytest.mark.slow
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


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.sampled_from([0.0, 0.25, 0.5, 1.0]), min_size=1, max_size=4),
                min_size=1, max_size=6),
       st.integers(0, 5), st.data())
def test_ldc_max_chooses_the_drawn_entry_point_of_highest_f1_first_of_ties(groups, n_samples,
                                                                          data):
    """Per LDC query and sample: of its SF queries drawn, the one of highest
    F1, the first in member order of those tied (spec decision 1); -1 when
    none is drawn, the way a direct look at each gives it."""
    members, f1, start = [], [], 0
    for scores in groups:
        members.append(np.arange(start, start + len(scores)))
        f1 += scores
        start += len(scores)
    structure = SimpleNamespace(ldc_members=members, ldc_names=list(range(len(groups))),
                                sf_f1=np.array(f1))
    multiplicity = np.array(data.draw(st.lists(st.lists(st.integers(0, 3), min_size=start,
                                                        max_size=start),
                                               min_size=n_samples, max_size=n_samples)),
                            dtype=np.int64).reshape(n_samples, start)
    chosen = ldc_max_choice(structure, multiplicity)
    for b in range(n_samples):
        for g, group in enumerate(members):
            drawn = [m for m in group.tolist() if multiplicity[b, m] > 0]
            expected = max(drawn, key=lambda m: (f1[m], -m)) if drawn else -1
            assert chosen[b, g] == expected
