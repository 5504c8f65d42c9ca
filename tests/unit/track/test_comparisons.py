"""scorer/track/comparisons.py: the pairs compared and their tests over ranked
runs: significance reachable for a hundred runs at the default settings, the
bound on -trials (the work bound, never below the default), the resolution
warning's remedy, progress on a terminal only."""
from __future__ import annotations

import io
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.problems import ScorerError
from scorer.track import comparisons, statistics


@pytest.mark.slow
def test_a_hundred_runs_can_show_significance_at_default_settings():
    """4,950 pairs: the smallest attainable adjusted p must be at most 0.005 and
    clearly different runs must come out significant (with 10,000 trials alone
    no Holm-adjusted p could go below 0.49)."""
    rng = np.random.default_rng(5)
    n_units, n_runs = 300, 100
    skills = np.linspace(0.95, 0.05, n_runs)
    matrices = [np.stack([(rng.random(n_units) < s).astype(float), np.ones(n_units)], 1)
                for s in skills]
    stacked = statistics.stack(matrices)
    order = np.argsort(-stacked[:, ::2].sum(0), kind="stable")
    stacked = statistics.stack([matrices[i] for i in order])
    weights = rng.multinomial(n_units, np.full(n_units, 1 / n_units), size=100)
    sampled = statistics.bootstrap_values("ratio", (0.0, 0.0), stacked, n_runs, weights)
    names = [f"r{i:03d}" for i in range(n_runs)]
    scores = list(stacked[:, ::2].sum(0) / n_units)
    found = comparisons.compare(names, scores, "accuracy", "ratio", (0.0, 0.0), stacked,
                                sampled, comparisons.Settings())
    p_holm = [row[11] for row in found.rows]
    assert len(p_holm) == 4950 and min(p_holm) <= 0.005
    assert sum(p < 0.05 for p in p_holm) > 3000
    assert not found.warnings
    assert max(found.groups.values()) > 5


@settings(deadline=None, max_examples=200, derandomize=True)
@given(st.integers(1, 2_000_000), st.integers(2, 300), st.sampled_from(["all", "adjacent"]))
def test_the_trials_bound_is_the_work_bound_and_never_below_the_default(units, runs, compare):
    pairs = comparisons.pair_count(runs, comparisons.Settings(compare=compare))
    assert pairs == len(comparisons.pairs_for(list(range(runs)),
                                              comparisons.Settings(compare=compare)))
    most = comparisons.most_trials(units, runs, pairs)
    cells = units * (runs + 16) + 250 * pairs
    assert most >= comparisons.DEFAULT_TRIALS
    assert most * cells <= comparisons.MAX_WORK or most == comparisons.DEFAULT_TRIALS
    assert (most + 1) * cells > comparisons.MAX_WORK
    comparisons.check_trials(most, units, runs, pairs)
    comparisons.check_trials(None, units, runs, pairs)
    with pytest.raises(ScorerError, match=f"-trials {most + 1:,} .* at most {most:,} trials"):
        comparisons.check_trials(most + 1, units, runs, pairs)


def test_the_trials_warning_never_asks_for_more_than_the_track_allows():
    """4,950 pairs need 989,999 trials; a track of 100 runs and 100,029 claims
    allows 155,752: its warning says to leave -trials out, not to give more."""
    pairs = 4950
    allowed = comparisons.most_trials(100_029, 100, pairs)
    assert allowed == comparisons.MAX_WORK // (100_029 * 116 + 250 * pairs)
    for most, remedy in ((None, "give -trials 989999 or more, or leave -trials out"),
                         (2_000_000, "give -trials 989999 or more, or leave -trials out"),
                         (allowed, f"leave -trials out (this track allows at most {allowed} "
                                   f"trials)")):
        [warning] = comparisons.resolution_warnings(pairs, comparisons.Settings(
            trials=20_000, most_trials=most))
        assert f"; {remedy} (10,000 trials and the tail rule beyond them)" in warning


class _Terminal(io.StringIO):
    def isatty(self):
        return True


@pytest.mark.parametrize("stream", [_Terminal(), io.StringIO()])
def test_long_randomization_shows_its_progress_on_a_terminal_only(monkeypatch, stream):
    monkeypatch.setattr(comparisons, "PROGRESS_AFTER_S", 0.0)
    monkeypatch.setattr(sys, "stderr", stream)
    rng = np.random.default_rng(3)
    matrices = [np.stack([(rng.random(50) < s).astype(float), np.ones(50)], 1)
                for s in (0.8, 0.6, 0.4)]
    stacked = statistics.stack(matrices)
    sampled = np.zeros((10, 3))
    comparisons.compare(["a", "b", "c"], [0.8, 0.6, 0.4], "accuracy", "ratio", (0.0,), stacked,
                        sampled, comparisons.Settings(trials=5000))
    if isinstance(stream, _Terminal):
        assert "\rrandomization of 3 pairs: trials: 5000/5000 (100.0%" in stream.getvalue()
        assert stream.getvalue().endswith("\n")
    else:
        assert stream.getvalue() == ""
