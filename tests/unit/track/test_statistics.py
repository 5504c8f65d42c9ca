"""The track's statistics recomputed by independent code from what the track
folder holds (per-claim values in per_query.csv.gz, track.bootsamples, the seed):
intervals, rank ranges, p-values, the normal tail, Holm and Benjamini-Hochberg,
groups, wins/ties/losses; calibration on exchangeable runs; properties of the
adjustments and groups; the new switches' bad inputs; determinism."""
from __future__ import annotations

import json
import math
import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import binomtest

import scorer
from scorer import cli, unitstatistic
from scorer.track import comparisons, statistics
from scorer.track.__main__ import main as track_main
from scorer.track.folder import exact_floats

from places import ROOT

FEVER_POLICY = str(ROOT / "configs" / "fever.yaml")
LABELS = ("SUPPORTS", "REFUTES", "NOT ENOUGH INFO")


def _fever_track(folder: Path, n_claims: int, skills: list, seed: int = 1) -> list:
    """A FEVER gold of ``n_claims`` claims (every third on one page) and one
    predictions file per skill: a run gets a claim right with that probability."""
    rng = random.Random(seed)
    gold, paths = [], [str(folder / "gold.jsonl")]
    for i in range(n_claims):
        label = LABELS[i % 3]
        evidence = [[[i, i, f"Page{i // 3}", 0]]] if label != LABELS[2] else [[[i, None, None, None]]]
        gold.append({"id": i, "verifiable": "VERIFIABLE", "label": label, "claim": f"c{i}",
                     "evidence": evidence})
    (folder / "gold.jsonl").write_text("".join(json.dumps(g) + "\n" for g in gold))
    for r, skill in enumerate(skills):
        lines = []
        for claim in gold:
            right = rng.random() < skill
            label = claim["label"] if right else LABELS[(LABELS.index(claim["label"]) + 1) % 3]
            evidence = [[f"Page{claim['id'] // 3}", 0]] if right else []
            lines.append({"id": claim["id"], "predicted_label": label,
                          "predicted_evidence": evidence})
        path = folder / f"team{r:02d}.jsonl"
        path.write_text("".join(json.dumps(line) + "\n" for line in lines))
        paths.append(str(path))
    return paths


# -- independent code: everything from the definitions in docs/statistics.md ---------

def read_samples(path: Path, units: list) -> np.ndarray:
    position = {unit: i for i, unit in enumerate(units)}
    rows = []
    for line in path.read_text().splitlines():
        counts = np.zeros(len(units))
        for token in line.split()[1:]:
            for member in token.split(":")[0:1]:
                counts[position[member]] += 1
        rows.append(counts)
    return np.array(rows)


def percentile(values, confidence=95):
    ordered = sorted(values)
    n = len(ordered)
    low_fraction = (100 - confidence) * 0.5 / 100
    return ordered[int(math.floor(n * low_fraction))], \
        ordered[int(math.floor(n * (1 - low_fraction))) - 1]


def holm(p):
    m = len(p)
    order = sorted(range(m), key=lambda i: (p[i], i))
    adjusted, running = [0.0] * m, 0.0
    for position, i in enumerate(order):
        running = max(running, min(1.0, (m - position) * p[i]))
        adjusted[i] = running
    return adjusted


def bh(p):
    m = len(p)
    order = sorted(range(m), key=lambda i: (p[i], i))
    adjusted = [0.0] * m
    for position, i in enumerate(order):
        adjusted[i] = min(1.0, min(m * p[j] / (later + 1)
                                   for later, j in enumerate(order) if later >= position))
    return adjusted


def swap_bits(trials: int, width: int, seed: int) -> np.ndarray:
    """The documented stream: PCG64(seed)'s raw 64-bit words, ceil(width / 64) per
    trial, bit j of a trial (little-endian) swaps unit (or cluster) j."""
    words = max(1, -(-width // 64))
    raw = np.random.default_rng(seed).bit_generator.random_raw(trials * words)
    bits = np.zeros((trials, width), dtype=bool)
    for t in range(trials):
        for j in range(width):
            bits[t, j] = (int(raw[t * words + j // 64]) >> (j % 64)) & 1
    return bits


def group_numbers(scores: list, significant: dict) -> list:
    group, number = [0] * len(scores), 0
    for leader in range(len(scores)):
        if group[leader]:
            continue
        number += 1
        group[leader] = number
        for j in range(leader + 1, len(scores)):
            if not group[j] and not (significant[(leader, j)] and scores[leader] > scores[j]):
                group[j] = number
    return group


def _independent(out: Path, trials: int, seed: int, clusters: dict = None, tail=True):
    board = pd.read_csv(out / "leaderboard.csv", **exact_floats())
    per_claim = pd.read_csv(out / "per_query.csv.gz", dtype={"query": str},
                            **exact_floats())
    strict = per_claim[per_claim.metric == "strict"].pivot(index="query", columns="run",
                                                           values="value")
    units = sorted(strict.index)
    runs = list(board["run"])
    values = strict.loc[units, runs].to_numpy()                 # units x runs
    weights = read_samples(out / "track.bootsamples", units)    # samples x units
    sampled = (weights @ values) / weights.sum(axis=1, keepdims=True)
    full = values.mean(axis=0)
    n_units, n_runs = values.shape
    if clusters is None:
        cluster_of = np.arange(n_units)
    else:
        names = sorted(set(clusters.values()))
        cluster_of = np.array([names.index(clusters[u]) for u in units])
    bits = swap_bits(trials, int(cluster_of.max()) + 1, seed)[:, cluster_of]
    rows = []
    pairs = [(a, b) for a in range(n_runs) for b in range(a + 1, n_runs)]
    for a, b in pairs:
        x = values[:, a] - values[:, b]
        observed = full[a] - full[b]
        swapped = (values[:, a] - bits * x).mean(axis=1) - (values[:, b] + bits * x).mean(axis=1)
        hits = int(np.sum(np.abs(swapped) >= abs(observed) * (1 - 1e-9) - 1e-12))
        p = (1 + hits) / (1 + trials)
        if tail and hits < 10:
            g = np.bincount(cluster_of, weights=x / n_units)
            moved = np.abs(g[np.abs(g) > 1e-12])
            if moved.max() - moved.min() <= 1e-9 * moved.max():
                # every cluster that moves moves by the same amount: the sign test
                p = max(binomtest(int(np.sum(g > 1e-12)), len(moved)).pvalue, 2.0 ** -1022)
            else:
                n = np.count_nonzero(np.bincount(cluster_of, weights=(x != 0).astype(float)))
                z = abs(observed) / math.sqrt(float(np.sum(g ** 2)))
                p = min(max(math.erfc(z / math.sqrt(2)), 2.0 ** max(1 - n, -1022)),
                        11 / (1 + trials))
        deltas = sampled[:, a] - sampled[:, b]
        shifted = np.abs(deltas - observed) >= abs(observed) * (1 - 1e-9) - 1e-12
        rows.append({"delta": observed, "p_randomization": p,
                     "p_bootstrap": (1 + int(shifted.sum())) / (1 + len(deltas)),
                     "ci": percentile(deltas), "wins": int(np.sum(x > 0)),
                     "ties": int(np.sum(x == 0)), "losses": int(np.sum(x < 0))})
    p_holm = holm([r["p_randomization"] for r in rows])
    p_bh = bh([r["p_randomization"] for r in rows])
    ranks = 1 + (sampled[:, None, :] > sampled[:, :, None]).sum(axis=2)
    return board, runs, pairs, rows, p_holm, p_bh, sampled, ranks, full


@pytest.mark.slow
@pytest.mark.parametrize("with_clusters", [False, True])
def test_every_number_is_recomputed_from_the_samples_and_the_seed(tmp_path, with_clusters):
    files = _fever_track(tmp_path, 90, [0.9, 0.85, 0.7, 0.6, 0.58, 0.3])
    extra, clusters = [], None
    if with_clusters:
        clusters = {str(i): f"page{i // 3}" for i in range(90)}
        (tmp_path / "clusters.tsv").write_text("".join(f"{u}\t{c}\n" for u, c in clusters.items()))
        extra = ["-clusters", str(tmp_path / "clusters.tsv")]
    out = tmp_path / "track"
    assert track_main(["-policy", FEVER_POLICY, "-bootstrap", "300", "-seed", "4", "-jobs", "1",
                       "-metric", "strict_score", "-output_dir", str(out)] + extra + files) == 0
    board, runs, pairs, rows, p_holm, p_bh, sampled, ranks, full = _independent(
        out, comparisons.DEFAULT_TRIALS, 4, clusters)
    significance = pd.read_csv(out / "significance.csv", **exact_floats())
    assert list(zip(significance.run_a, significance.run_b)) == \
        [(runs[a], runs[b]) for a, b in pairs]
    for (a, b), row, ph, pb, (_, got) in zip(pairs, rows, p_holm, p_bh, significance.iterrows()):
        assert got.delta == pytest.approx(row["delta"], abs=1e-15)
        assert got.p_bootstrap == row["p_bootstrap"]
        assert (got.delta_ci95_low, got.delta_ci95_high) == pytest.approx(row["ci"], abs=1e-12)
        assert (got.wins, got.ties, got.losses) == (row["wins"], row["ties"], row["losses"])
        assert got.p_randomization == pytest.approx(row["p_randomization"], rel=1e-6)
        assert got.p_holm == pytest.approx(ph, rel=1e-6)
        assert got.p_bh == pytest.approx(pb, rel=1e-6)
        assert got.significant == (ph < 0.05)
    for i, run in enumerate(runs):
        record = board.iloc[i]
        assert record.score == pytest.approx(full[i], abs=1e-15)
        assert (record.ci95_low, record.ci95_high) == pytest.approx(percentile(sampled[:, i]),
                                                                    abs=1e-12)
        assert (record.rank_low, record.rank_high) == percentile(ranks[:, i])
    significant = {pair: ph < 0.05 for pair, ph in zip(pairs, p_holm)}
    assert list(board["group"]) == group_numbers(list(full), significant)
    if with_clusters:
        # Whole clusters are drawn: the claims of a page come in equal numbers.
        weights = read_samples(out / "track.bootsamples", sorted(clusters))
        by_page = {}
        for column, unit in enumerate(sorted(clusters)):
            by_page.setdefault(clusters[unit], []).append(weights[:, column])
        assert all(np.all(np.array(cols) == cols[0]) for cols in by_page.values())
    # The tail rule gave the pairs far apart their p-values (below 1 / (trials + 1)).
    assert significance.p_randomization.min() < 1 / (comparisons.DEFAULT_TRIALS + 1)


@pytest.mark.slow
def test_bh_chooses_significance_and_groups_and_the_baseline_compares_with_one_run(tmp_path):
    files = _fever_track(tmp_path, 60, [0.9, 0.8, 0.75, 0.5])
    base = scorer.score_track(files, policy=FEVER_POLICY, bootstrap=200, seed=2, trials=3000,
                              correction="bh")
    _board, runs, pairs, rows, p_holm, p_bh, *_rest, full = _independent(
        *_folder(files, tmp_path, ["-correction", "bh", "-trials", "3000"]), 3000, 2, tail=False)
    assert list(base.significance.significant) == [p < 0.05 for p in p_bh]
    assert list(base.leaderboard.group) == group_numbers(
        list(full), {pair: p < 0.05 for pair, p in zip(pairs, p_bh)})
    against = scorer.score_track(files, policy=FEVER_POLICY, bootstrap=200, seed=2, trials=3000,
                                 baseline=runs[2])
    assert list(zip(against.significance.run_a, against.significance.run_b)) == \
        [(run, runs[2]) for run in runs if run != runs[2]]
    # The same pair has the same p (one set of swaps), its delta is run minus baseline.
    same = against.significance.set_index("run_a").loc[runs[0]]
    everything = base.significance.set_index(["run_a", "run_b"]).loc[(runs[0], runs[2])]
    assert same.p_randomization == everything.p_randomization
    assert same.delta == everything.delta
    assert against.leaderboard.group.isna().all()       # groups need every pair
    assert not against.leaderboard.rank_low.isna().any()
    # The signature says what was compared, and is the same for the same inputs.
    assert "|compare:all|" in base.signature and "baseline" not in base.signature
    assert f"|compare:baseline={runs[2]}|" in against.signature
    assert "compare:all" not in against.signature
    again = scorer.score_track(files, policy=FEVER_POLICY, bootstrap=200, seed=2, trials=3000,
                               baseline=runs[2])
    assert again.signature == against.signature


def _folder(files, tmp_path, extra) -> tuple:
    out = tmp_path / "bh"
    assert track_main(["-policy", FEVER_POLICY, "-bootstrap", "200", "-seed", "2",
                       "-output_dir", str(out)] + extra + files) == 0
    return (out,)


# -- resolution at 100 runs ---------------------------------------------------------------

@pytest.mark.slow
def test_a_trials_count_too_small_for_the_family_warns_everywhere(tmp_path, capsys):
    files = _fever_track(tmp_path, 45, [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2])
    out = tmp_path / "track"
    assert track_main(["-policy", FEVER_POLICY, "-bootstrap", "50", "-seed", "1", "-trials",
                       "500", "-output_dir", str(out)] + files) == 0
    err = capsys.readouterr().err
    assert "WARNING: -trials 500 is too small for the 28 pairs" in err
    assert "-trials 5599 or more" in err
    for name in ("track.params", "significance.md", "leaderboard.md", "index.html"):
        assert "-trials 500 is too small" in (out / name).read_text(), name
    track = scorer.score_track(files, policy=FEVER_POLICY, bootstrap=50, seed=1, trials=6000)
    assert track.warnings == []
    # Benjamini-Hochberg divides by the number of small p-values: with many pairs at
    # the smallest p, pairs are significant, and the warning says when they can be.
    track = scorer.score_track(files, policy=FEVER_POLICY, bootstrap=50, seed=1, trials=500,
                               correction="bh")
    # (the old warning said no bh-adjusted p could be below 28/501 = 0.0559)
    assert min(track.significance.p_bh) < 0.01 and track.significance.significant.sum() >= 10
    [warning] = track.warnings
    assert "no bh-adjusted p can be below" not in warning
    assert ("a bh-adjusted p can be below 0.005 (the level 0.05 over 10) only where at least "
            "12 pairs are at or near that smallest p together, and below 0.05 only where at "
            "least 2 are") in warning


@pytest.mark.slow
def test_how_the_p_values_were_made_is_said_wherever_they_are_shown(tmp_path):
    """significance.md, track.params and the page say alike how many p-values
    came from the trials and how many from the tail rule, and which rule."""
    files = _fever_track(tmp_path, 60, [0.95, 0.9, 0.4, 0.3])
    out = tmp_path / "track"
    assert track_main(["-policy", FEVER_POLICY, "-bootstrap", "50", "-seed", "1", "-jobs", "1",
                       "-output_dir", str(out)] + files) == 0
    significance = pd.read_csv(out / "significance.csv", **exact_floats())
    tail = int((significance.p_randomization < 11 / 10001).sum())
    note = (f"p_randomization: 10000 trials; {tail} of 6 p-values from the exact sign test "
            f"(fewer than 10 trials reached the observed difference).")
    assert 0 < tail < 6
    for name in ("significance.md", "track.params", "index.html"):
        assert note in (out / name).read_text(), name


# -- calibration on exchangeable runs --------------------------------------------------

def test_both_tests_are_calibrated_on_exchangeable_runs():
    """1,000 pairs of runs whose per-unit values come from one distribution (a
    mean of 0/1 values, as accuracy): at 0.05 each test rejects between 3 % and
    7.5 % of the pairs (seeded, so the same numbers every time)."""
    rng = np.random.default_rng(21)
    n_units, n_pairs, n_samples = 150, 1000, 400
    skill = rng.uniform(0.3, 0.8, n_units)
    matrices = [np.stack([(rng.random(n_units) < skill).astype(float), np.ones(n_units)], 1)
                for _ in range(2 * n_pairs)]
    stacked = statistics.stack(matrices)
    weights = rng.multinomial(n_units, np.full(n_units, 1 / n_units), size=n_samples)
    sampled = statistics.bootstrap_values("ratio", (0.0, 0.0), stacked, 2 * n_pairs, weights)
    pairs = [(2 * i, 2 * i + 1) for i in range(n_pairs)]
    observed = statistics.observed_differences("ratio", (0.0, 0.0), stacked, 2 * n_pairs, pairs)
    p_boot = np.array([statistics.paired_bootstrap_p(sampled[:, a], sampled[:, b], d)
                       for (a, b), d in zip(pairs, observed)])
    p_rand = np.array(statistics.randomization_p("ratio", (0.0, 0.0), stacked, 2 * n_pairs,
                                                 pairs, 1000, seed=3))
    for p in (p_boot, p_rand):
        assert 0.03 <= float(np.mean(p < 0.05)) <= 0.075, float(np.mean(p < 0.05))


@pytest.mark.slow
def test_the_normal_tail_is_not_far_below_the_exact_swap_distribution():
    """For a mean of per-unit values, the exact two-sided p over all 2^n swap
    patterns (n = 16) against the tail rule, on per-unit values of several
    shapes: where the exact p is below 0.01 the tail rule is never below half of
    it, nor ever below 2 / 2^n (it is mostly above: conservative where one unit
    dominates)."""
    rng = np.random.default_rng(2)
    n = 16
    patterns = ((np.arange(2 ** n)[:, None] >> np.arange(n)) & 1) * 2 - 1
    shapes = {"uniform": lambda: (rng.random(n) + rng.uniform(0, 0.6), rng.random(n)),
              "0/1": lambda: ((rng.random(n) < 0.8) * 1.0, (rng.random(n) < 0.3) * 1.0),
              "sparse": lambda: ((rng.random(n) < 0.5) * rng.random(n), np.zeros(n)),
              "heavy": lambda: (rng.standard_cauchy(n) ** 2, np.zeros(n))}
    checked = 0
    for make in shapes.values():
        for _ in range(30):
            a, b = make()
            x = a - b
            if not x.any():
                continue
            stacked = np.stack([a, np.ones(n), b, np.ones(n)], 1)
            exact = float(np.mean(np.abs(patterns @ x) >= abs(x.sum()) * (1 - 1e-12)))
            tail = statistics.normal_tail_p("ratio", (0.0, 0.0), stacked, 2, (0, 1))
            assert tail >= 2.0 ** (1 - n)
            if exact < 0.01:       # the tail, where the rule is used
                assert tail >= exact / 2, (exact, tail)
                checked += 1
    assert checked > 50


def test_the_tail_of_a_mean_of_0_1_values_is_the_exact_sign_test():
    """Where every unit that differs differs by the same amount (accuracy, FEVER's
    strict score), the swap distribution is the sign test's: the tail rule gives
    its exact p (scipy's binomtest), not the normal approximation, which is 10 to
    25 % below it there and would make pairs significant that are not."""
    rng = np.random.default_rng(8)
    below = 0
    for _ in range(60):
        n = int(rng.integers(200, 3000))
        a = (rng.random(n) < rng.uniform(0.5, 0.8)).astype(float)
        b = np.where(rng.random(n) < rng.uniform(0.5, 0.95), a, (rng.random(n) < 0.4) * 1.0)
        stacked = np.stack([a, np.ones(n), b, np.ones(n)], 1)
        wins, losses = int(np.sum(a > b)), int(np.sum(a < b))
        if wins == losses:
            continue
        exact = max(binomtest(wins, wins + losses).pvalue, 2.0 ** -1022)
        p, is_exact = statistics.tail_p("ratio", (0.0, 0.0), stacked, 2, (0, 1))
        assert is_exact and p == pytest.approx(exact, rel=1e-9)
        normal = statistics.normal_tail_p("ratio", (0.0, 0.0), stacked, 2, (0, 1))
        below += 1e-7 < exact < 1e-3 and normal < 0.95 * exact
    assert below > 5          # what the exact rule mends
    # Clusters: the sign test over clusters whose sums differ by the same amount.
    a, b = np.array([1.0, 1, 0, 1, 1, 1, 0, 0]), np.array([0.0, 0, 0, 1, 0, 0, 1, 0])
    stacked = np.stack([a, np.ones(8), b, np.ones(8)], 1)
    clusters = np.array([0, 0, 1, 1, 2, 2, 3, 3])          # sums 2, 0, 2, -1
    assert statistics.sign_test_counts("ratio", stacked, 2, (0, 1), clusters) is None
    clusters = np.array([0, 1, 1, 1, 2, 3, 3, 3])          # sums 1, 1, 1, 0
    assert statistics.sign_test_counts("ratio", stacked, 2, (0, 1), clusters) == (3, 0)
    # Not a sign test: values other than 0 and 1, or denominators that differ.
    c = np.array([1.0, 0.5, 0, 1, 0.5, 1, 0, 0])          # differences 1, 0.5 and -1
    assert statistics.tail_p("ratio", (0.0, 0.0), np.stack([c, np.ones(8), b, np.ones(8)], 1),
                             2, (0, 1))[1] is False
    assert statistics.sign_test_counts("ratio", np.stack([a, a, b, np.ones(8)], 1), 2,
                                       (0, 1)) is None
    assert statistics.sign_test_counts("f1", np.zeros((8, 6)), 2, (0, 1)) is None


def test_the_exact_sign_test_reaches_the_smallest_double_without_underflow():
    assert statistics.sign_test_p(10, 0) == 2 / 2 ** 10
    assert statistics.sign_test_p(3000, 0) == 2.0 ** -1022
    assert statistics.sign_test_p(5, 5) == 1.0 and statistics.sign_test_p(1, 0) == 1.0
    assert statistics.sign_test_p(2000, 1500) == pytest.approx(
        binomtest(2000, 3500).pvalue, rel=1e-9)


def test_the_tail_is_never_zero_however_far_apart_the_runs():
    n = 3000
    stacked = np.stack([np.ones(n), np.ones(n), np.zeros(n), np.ones(n)], 1)
    assert statistics.normal_tail_p("ratio", (0.0, 0.0), stacked, 2, (0, 1)) == 2.0 ** -1022


# -- properties -------------------------------------------------------------------------

p_lists = st.lists(st.floats(0, 1, allow_nan=False), min_size=1, max_size=40)


@settings(deadline=None, max_examples=200, derandomize=True)
@given(p_lists)
def test_holm_and_bh_against_their_definitions_and_each_other(p):
    adjusted_holm, adjusted_bh = statistics.holm(p), statistics.benjamini_hochberg(p)
    assert adjusted_holm == pytest.approx(holm(p)) and adjusted_bh == pytest.approx(bh(p))
    for raw, h, b in zip(p, adjusted_holm, adjusted_bh):
        assert raw <= b + 1e-15 and b <= h + 1e-15 and h <= 1
    for i in range(len(p)):
        for j in range(len(p)):
            if p[i] <= p[j]:      # monotone: a smaller p never gets a larger adjusted p
                assert adjusted_holm[i] <= adjusted_holm[j] + 1e-15
                assert adjusted_bh[i] <= adjusted_bh[j] + 1e-15


@settings(deadline=None, max_examples=200, derandomize=True)
@given(st.integers(1, 12).flatmap(lambda n: st.tuples(
    st.just(n), st.lists(st.booleans(), min_size=n * (n - 1) // 2,
                         max_size=n * (n - 1) // 2))))
def test_groups_hold_the_best_and_every_run_tied_with_it(case):
    n, flags = case
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    worse = dict(zip(pairs, flags))
    found = statistics.groups(n, worse)
    assert found[0] == 1
    assert {j for j in range(1, n) if not worse[(0, j)]} == {j for j in range(1, n)
                                                              if found[j] == 1}
    leaders = [found.index(g) for g in range(1, max(found) + 1)]
    assert leaders == sorted(leaders)
    for j in range(n):
        # a run is significantly worse than the leader of every earlier group
        assert all(worse[(leaders[g - 1], j)] for g in range(1, found[j]) if leaders[g - 1] < j)
    assert found == group_numbers([float(n - i) for i in range(n)], worse)


# -- bad input ----------------------------------------------------------------------------

@pytest.mark.parametrize("extra, lines, message", [
    (["-baseline", "nosuch"], None, "-baseline nosuch: no run of that name"),
    (["-correction", "bonferroni"], None, "-correction must be one of holm, bh, not 'bonferroni'"),
    (["-baseline", "team00", "-compare", "adjacent"], None, "give it or -compare adjacent"),
    (["-clusters", "{c}"], ["0 a", "1"], "{c} line 2: expected two columns"),
    (["-clusters", "{c}"], ["0 a", "1 b", "0 a"], "{c} line 3: unit '0' is listed twice"),
    (["-clusters", "{c}"], ["0 a", "1 b", "0 b"], "{c} line 3: unit '0' is in two clusters"),
    (["-clusters", "{c}"], [f"{i} a" for i in range(12)] + ["99 z"],
     "{c} line 13: unit '99' is not in the gold"),
    (["-clusters", "{c}"], [f"{i} a" for i in range(10)], "{c}: 2 unit(s) of the gold have no "
                                                          "cluster (10, 11)"),
])
def test_bad_statistics_switches_stop_the_track_before_anything_is_written(
        tmp_path, capsys, extra, lines, message):
    files = _fever_track(tmp_path, 12, [0.9, 0.5])
    clusters = tmp_path / "clusters.txt"
    if lines is not None:
        clusters.write_text("\n".join(lines) + "\n")
    extra = [e.replace("{c}", str(clusters)) for e in extra]
    out = tmp_path / "track"
    status = track_main(["-policy", FEVER_POLICY, "-bootstrap", "20", "-seed", "1",
                         "-output_dir", str(out)] + extra + files)
    err = capsys.readouterr().err
    assert status == 255
    assert message.replace("{c}", str(clusters)) in err and "Traceback" not in err
    assert not out.exists() and not [n for n in os.listdir(tmp_path) if n.startswith(".track")]


def test_trials_that_would_run_for_hours_are_refused_before_any_run_is_scored(
        tmp_path, capsys, monkeypatch):
    from scorer.track import runner
    files = _fever_track(tmp_path, 300, [0.9, 0.7, 0.5])

    def scored(*_args, **_kwargs):
        raise AssertionError("a run was scored")

    monkeypatch.setattr(runner, "score_runs", scored)
    out = tmp_path / "track"
    status = track_main(["-policy", FEVER_POLICY, "-bootstrap", "20", "-seed", "1",
                         "-trials", "999999999", "-output_dir", str(out)] + files)
    err = capsys.readouterr().err
    assert status == 255 and "Traceback" not in err
    # 3 runs, 3 pairs, 300 claims: 300 x (3 + 16) + 250 x 3 cells a trial
    most = comparisons.MAX_WORK // (300 * 19 + 750)
    assert (f"FATAL_ERROR: -trials 999,999,999 asks the randomization for too much work: at "
            f"most {most:,} trials for 3 runs (3 pairs) over 300 claims") in err
    assert not out.exists() and not [n for n in os.listdir(tmp_path) if n.startswith(".track")]


@pytest.mark.slow
def test_the_help_lists_the_new_switches():
    result = subprocess.run([sys.executable, "-m", "scorer.track", "-help"], capture_output=True,
                            text=True, cwd=ROOT)
    for switch in ("-correction", "-baseline", "-clusters", "-trials"):
        assert switch in result.stdout


# -- determinism ------------------------------------------------------------------------

@pytest.mark.slow
def test_the_folder_does_not_depend_on_jobs_or_the_hash_seed(tmp_path):
    files = _fever_track(tmp_path, 30, [0.9, 0.7, 0.6, 0.4])
    (tmp_path / "clusters.txt").write_text("".join(f"{i} p{i // 3}\n" for i in range(30)))
    folders = []
    for jobs, hash_seed in (("1", "0"), ("2", "12345")):
        out = tmp_path / "out"
        subprocess.run([sys.executable, "-m", "scorer.track", "-policy", FEVER_POLICY,
                        "-bootstrap", "40", "-seed", "3", "-jobs", jobs, "-correction", "bh",
                        "-clusters", str(tmp_path / "clusters.txt"), "-output_dir", str(out)]
                       + files, check=True, cwd=ROOT, capture_output=True,
                       env={**os.environ, "PYTHONHASHSEED": hash_seed})
        folder = tmp_path / f"out{jobs}"
        out.rename(folder)
        folders.append(folder)
    for path in sorted(folders[0].rglob("*")):
        relative = path.relative_to(folders[0])
        if path.is_file() and path.name not in ("track.params", "run.params"):
            assert path.read_bytes() == (folders[1] / relative).read_bytes(), relative


# -- Cold Start: the headline rebuilt from per-query AP ------------------------------------

@pytest.mark.slow
def test_cold_start_ldcmean_ap_numbers_are_recomputed_from_per_query_ap(tmp_path):
    """ldcmean_ap rebuilt from each SF query's AP at hop ALL (per_query.csv.gz):
    per LDC query the mean of its entry points' AP, over the LDC queries with
    ground truth; then every interval, rank range, delta interval, count and
    p-value from track.bootsamples and the seed."""
    import workload
    workload.generate(str(tmp_path), 40, seed=9)
    lines = (tmp_path / f"{workload.RUNID}.tab.txt").read_text().splitlines()
    queries = sorted({"_".join(line.split("\t")[0].split("_")[:3]) for line in lines})
    runs = tmp_path / "runs"
    runs.mkdir()
    rng = random.Random(4)
    for r, keep in enumerate((0.95, 0.9, 0.6, 0.5)):
        kept = {q for q in queries if rng.random() < keep}
        with open(runs / f"R{r}.tab.txt", "w") as f:
            for line in lines:
                if "_".join(line.split("\t")[0].split("_")[:3]) in kept:
                    cells = line.split("\t")
                    cells[2] = f"R{r}"
                    f.write("\t".join(cells) + "\n")
    out = tmp_path / "track"
    assert track_main(["-expand", "CSSF17", "-bootstrap", "200", "-seed", "6", "-jobs", "1",
                       "-output_dir", str(out), str(tmp_path / "ldc-query.xml"),
                       str(tmp_path / "qrel.txt"), str(runs)]) == 0
    ldc_of = {}
    for line in (out / "track.bootsamples").read_text().splitlines():
        for element in line.split()[1:]:
            ldc, members = element.split(":")
            ldc_of.update({member: ldc for member in members.split(",")})
    per_query = pd.read_csv(out / "per_query.csv.gz", **exact_floats())
    per_query = per_query[per_query.hop == "ALL"]
    board = pd.read_csv(out / "leaderboard.csv", **exact_floats())
    names = list(board.run)
    ldcs = sorted(set(ldc_of.values()))
    truth = per_query[per_query.metric == "GT"].groupby("query").value.max()
    has_truth = np.array([any(truth.get(sf, 0) > 0 for sf in ldc_of if ldc_of[sf] == ldc)
                          for ldc in ldcs], dtype=float)
    values = np.zeros((len(ldcs), len(names)))
    for j, run in enumerate(names):
        ap = per_query[(per_query.run == run) & (per_query.metric == "AP")].set_index("query").value
        for i, ldc in enumerate(ldcs):
            members = sorted(sf for sf in ldc_of if ldc_of[sf] == ldc)
            values[i, j] = sum(float(ap.get(sf, 0.0)) for sf in members) / len(members)
    weights = read_samples(out / "track.bootsamples", ldcs)
    sampled = (weights @ values) / (weights @ has_truth)[:, None]
    full = values.sum(axis=0) / has_truth.sum()
    assert list(board.score) == pytest.approx(list(full), abs=1e-14)
    ranks = 1 + (sampled[:, None, :] > sampled[:, :, None]).sum(axis=2)
    for i in range(len(names)):
        assert (board.ci95_low[i], board.ci95_high[i]) == \
            pytest.approx(percentile(sampled[:, i]), abs=1e-12)
        assert (board.rank_low[i], board.rank_high[i]) == percentile(ranks[:, i])
    significance = pd.read_csv(out / "significance.csv", **exact_floats())
    bits = swap_bits(comparisons.DEFAULT_TRIALS, len(ldcs), 6)
    p_values = []
    for (_, row), (a, b) in zip(significance.iterrows(),
                                [(a, b) for a in range(4) for b in range(a + 1, 4)]):
        assert (row.run_a, row.run_b) == (names[a], names[b])
        counted = has_truth == 1
        x = values[:, a] - values[:, b]
        assert (row.wins, row.ties, row.losses) == (int(np.sum(x[counted] > 0)),
                                                    int(np.sum(x[counted] == 0)),
                                                    int(np.sum(x[counted] < 0)))
        deltas = sampled[:, a] - sampled[:, b]
        observed = full[a] - full[b]
        assert (row.delta_ci95_low, row.delta_ci95_high) == pytest.approx(percentile(deltas),
                                                                          abs=1e-12)
        extreme = np.abs(deltas - observed) >= abs(observed) * (1 - 1e-9) - 1e-12
        assert row.p_bootstrap == (1 + int(extreme.sum())) / (1 + len(deltas))
        swapped = ((values[:, a] - bits * x) - (values[:, b] + bits * x)).sum(1) / has_truth.sum()
        hits = int(np.sum(np.abs(swapped) >= abs(observed) * (1 - 1e-9) - 1e-12))
        p = (1 + hits) / (1 + comparisons.DEFAULT_TRIALS)
        if hits < 10:
            g = x / has_truth.sum()
            p = min(max(math.erfc(abs(observed) / math.sqrt(2 * float(np.sum(g ** 2)))),
                        2.0 ** (1 - np.count_nonzero(x))), 11 / (1 + comparisons.DEFAULT_TRIALS))
        assert row.p_randomization == pytest.approx(p, rel=1e-6)
        p_values.append(p)
    assert list(significance.p_holm) == pytest.approx(holm(p_values), rel=1e-6)
    assert list(significance.p_bh) == pytest.approx(bh(p_values), rel=1e-6)


@pytest.mark.slow
def test_claim_runs_in_a_track_equal_single_runs_and_share_one_samples_file(tmp_path):
    """The track draws a claim track's samples once, from the gold, and hands
    them to every run: each run's folder is what the run alone writes, and its
    run.bootsamples is the track's file."""
    files = _fever_track(tmp_path, 20, [0.8, 0.6, 0.4])
    out = tmp_path / "track"
    assert track_main(["-policy", FEVER_POLICY, "-bootstrap", "30", "-seed", "5", "-jobs", "2",
                       "-output_dir", str(out)] + files) == 0
    for path in files[1:]:
        name = Path(path).stem
        single = tmp_path / f"single-{name}"
        single.mkdir()
        assert cli.main(["-policy", FEVER_POLICY, "-bootstrap", "30", "-seed", "5",
                                "-output_file", str(single / "run"), "-error_file",
                                str(single / "run.errlog"), files[0], path]) == 0
        assert sorted(os.listdir(single)) == sorted(os.listdir(out / "runs" / name))
        for report in os.listdir(single):
            if report != "run.params":
                assert (single / report).read_bytes() == \
                    (out / "runs" / name / report).read_bytes(), (name, report)
        assert os.path.samefile(out / "track.bootsamples", out / "runs" / name / "run.bootsamples")


def test_the_api_refuses_statistics_arguments_of_the_wrong_kind(tmp_path):
    files = _fever_track(tmp_path, 10, [0.8, 0.6])
    for keyword, value, message in (("correction", 1, "correction must be a string"),
                                    ("baseline", 3, "baseline must be a string"),
                                    ("clusters", ["x"], "clusters must be a string"),
                                    ("trials", 0, "trials must be a whole number")):
        with pytest.raises(scorer.problems.ScorerError, match=message):
            scorer.score_track(files, policy=FEVER_POLICY, bootstrap=10, seed=1,
                               **{keyword: value})


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_per_query_is_written_run_by_run_and_the_page_holds_what_it_shows(tmp_path, monkeypatch,
                                                                          jobs):
    """per_query.csv.gz, each run's part written by the process that scored it,
    is the CSV of every run's rows (what the track without a folder returns,
    run order, pandas' own text); the page holds the rows of each run's first
    SHOWN_UNITS units (its worst first) and says where the rest are; the
    track's per_query reads the file back."""
    import gzip
    from scorer.results import per_query
    from scorer.track import runner
    from scorer.track.tables import csv_text
    files = _fever_track(tmp_path, 40, [0.9, 0.5, 0.7])
    computed = scorer.score_track(files, policy=FEVER_POLICY, bootstrap=20, seed=3)
    monkeypatch.setattr(runner, "SHOWN_UNITS", 7)
    out = tmp_path / "track"
    written = scorer.score_track(files, policy=FEVER_POLICY, bootstrap=20, seed=3,
                                 output_dir=str(out), jobs=int(jobs))
    expected = csv_text(per_query(computed.results))
    assert expected.count("\n") == 1 + 3 * 40 * 9
    assert gzip.decompress((out / "per_query.csv.gz").read_bytes()).decode() == expected
    assert not (out / "per_query.csv").exists() and not (out / ".per_query").exists()
    pd.testing.assert_frame_equal(written.per_query, computed.per_query)
    page = (out / "index.html").read_text()
    assert page.count("the first 7 of 40 claims; every one in per_query.csv.gz") == 3
    assert page.count('<a href="per_query.csv.gz">per_query.csv.gz</a>') == 3
    data = json.loads(page.split('<script type="application/json" id="lazy-per-query">')[1]
                      .split("</script>")[0])
    assert 7 <= len(data["labels"]) <= 3 * 7 and len(data["tables"]) == 3
    assert written.leaderboard.equals(computed.leaderboard)


@pytest.mark.parametrize("fractional", [False, True])
def test_randomization_is_the_same_with_the_runs_shared_columns_multiplied_once(monkeypatch,
                                                                                fractional):
    """statistics._distinct_columns: the swaps' product made once for columns
    the runs share (a ratio's denominators, runs of the same answers), only
    where every sum is exact; the hits are those of the whole product."""
    rng = np.random.default_rng(4)
    n_units, n_runs = 300, 6
    numerators = (rng.random((n_units, n_runs)) < 0.5).astype(float)
    numerators[:, 3] = numerators[:, 1]                 # two runs of the same answers
    if fractional:
        numerators = numerators * rng.random((n_units, 1))
    stacked = np.empty((n_units, 2 * n_runs))
    stacked[:, 0::2], stacked[:, 1::2] = numerators, 1.0
    columns, restore = statistics._distinct_columns(stacked)
    if fractional:
        assert restore is None
    else:
        assert columns.shape[1] == n_runs and np.array_equal(columns[:, restore], stacked)
    pairs = [(a, b) for a in range(n_runs) for b in range(n_runs) if a != b]
    shared = statistics.randomization_hits("ratio", (0.0, 0.0), stacked, n_runs, pairs, 500, 3)
    monkeypatch.setattr(statistics, "_distinct_columns", lambda matrix: (matrix, None))
    whole = statistics.randomization_hits("ratio", (0.0, 0.0), stacked, n_runs, pairs, 500, 3)
    assert np.array_equal(shared, whole) and shared.sum() > 0


def _hits_pair_by_pair(rule, if_empty, stacked, n_runs, pairs, trials, seed):
    """The randomization's hits as first written: the swaps' product, then each
    pair alone (its shifted sums, its difference, its count)."""
    n_units = stacked.shape[0]
    k = stacked.shape[1] // n_runs
    totals = stacked.sum(axis=0).reshape(n_runs, k)
    observed = unitstatistic.finish(rule, totals, if_empty)
    hits = np.zeros(len(pairs), dtype=np.int64)
    for swaps in statistics.coin_flips(trials, n_units, seed):
        moved = (swaps @ stacked).reshape(len(swaps), n_runs, k)
        for i, (a, b) in enumerate(pairs):
            shift = moved[:, b] - moved[:, a]
            delta = (unitstatistic.finish(rule, totals[a] + shift, if_empty)
                     - unitstatistic.finish(rule, totals[b] - shift, if_empty))
            hits[i] += statistics._at_least(delta, observed[a] - observed[b])
    return hits


@pytest.mark.parametrize("rule, k", [("ratio", 2), ("f1", 3), ("harmonic_mean", 4),
                                     ("mean_of_ratios", 6)])
@pytest.mark.parametrize("pair_cells", [1, 7 * 12, 1 << 21])
def test_randomization_counts_the_pairs_in_groups_as_each_pair_alone(monkeypatch, rule, k,
                                                                     pair_cells):
    """randomization_hits takes the pairs a group at a time (every size of
    group, down to one pair): the hits are those of each pair alone, exactly,
    for every finishing rule, with fractional statistics and empty sums."""
    rng = np.random.default_rng(8)
    n_units, n_runs = 211, 7
    stacked = rng.integers(0, 4, (n_units, n_runs * k)) * rng.random((n_units, 1))
    stacked[:, k - 1::k][rng.random((n_units, n_runs)) < 0.3] = 0.0
    stacked[:, 2 * k:3 * k] = 0.0                       # a run with nothing: empty sums
    pairs = [(a, b) for a in range(n_runs) for b in range(n_runs) if a != b]
    monkeypatch.setattr(statistics, "_TRIAL_CELLS", n_units * 12)   # blocks of 12 trials
    expected = _hits_pair_by_pair(rule, (0.25, 0.5), stacked, n_runs, pairs, 100, 5)
    monkeypatch.setattr(statistics, "_PAIR_CELLS", pair_cells)
    got = statistics.randomization_hits(rule, (0.25, 0.5), stacked, n_runs, pairs, 100, 5)
    assert got.tolist() == expected.tolist() and 0 < expected.sum() < 100 * len(pairs)


def _sign_counts_gathered(stacked, a, b, clusters=None):
    """sign_test_counts as first written: the differing sizes gathered."""
    if not np.array_equal(stacked[:, 2 * a + 1], stacked[:, 2 * b + 1]):
        return None
    x = stacked[:, 2 * a] - stacked[:, 2 * b]
    if clusters is not None:
        x = np.bincount(clusters, weights=x, minlength=int(clusters.max()) + 1)
    size = np.abs(x)
    differs = size > 1e-9 * max(float(size.max(initial=0.0)), 1e-300)
    if not differs.any():
        return None
    moved = size[differs]
    if float(moved.max() - moved.min()) > 1e-9 * float(moved.max()):
        return None
    return int(np.count_nonzero(x[differs] > 0)), int(np.count_nonzero(x[differs] < 0))


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("clustered", [False, True])
def test_sign_counts_and_wins_are_those_of_the_gathered_units(seed, clustered):
    """sign_test_counts and wins_ties_losses count in place what they once
    gathered first: the same answers, from a matrix stored by rows or by
    columns (the track reads a copy by columns), on 0/1, fractional, equal
    and empty statistics, with and without clusters."""
    rng = np.random.default_rng(seed)
    n_units, n_runs = 97, 6
    stacked = np.empty((n_units, 2 * n_runs))
    stacked[:, 0::2] = rng.integers(0, 2, (n_units, n_runs)) * (0.5 if seed % 3 == 1 else 1.0)
    if seed % 3 == 2:
        stacked[:, 0::2] *= rng.random((n_units, n_runs))
    stacked[:, 1::2] = (rng.random((n_units, 1)) < 0.8) if seed % 2 else 1.0
    stacked[:, 9] = 2.0                                  # a run counted otherwise
    stacked[:, 6] = stacked[:, 4]                        # two runs that agree
    clusters = rng.integers(0, 13, n_units) if clustered else None
    for matrix in (stacked, np.asfortranarray(stacked)):
        for a in range(n_runs):
            for b in range(n_runs):
                if a == b:
                    continue
                assert statistics.sign_test_counts("ratio", matrix, n_runs, (a, b), clusters) \
                    == _sign_counts_gathered(stacked, a, b, clusters)
                values = statistics.unit_values("ratio", stacked, n_runs, (a, b))
                expected = None if values is None else (
                    int(np.count_nonzero(values[0] > values[1])),
                    int(np.count_nonzero(values[0] == values[1])),
                    int(np.count_nonzero(values[0] < values[1])))
                assert statistics.wins_ties_losses("ratio", matrix, n_runs, (a, b)) == expected


# -- the statistic alone: calibration, Holm, the coin flips' blocks ----------------

@pytest.mark.slow
@settings(derandomize=True, max_examples=5, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1), ratio=st.booleans())
def test_randomization_is_calibrated_on_exchangeable_values(seed, ratio):
    """The statistic alone: 400 independent pairs of runs whose per-unit values
    come from one distribution.  At 0.05 about 5 % are rejected (binomial: 20
    of 400, standard deviation 4.4; the bounds are 4 deviations away)."""
    rng = np.random.default_rng(seed)
    n_units, n_pairs = 60, 400
    truth = (rng.random((2 * n_pairs, n_units)) < 0.9) if ratio else \
        np.ones((2 * n_pairs, n_units), dtype=bool)
    matrices = [np.stack([rng.random(n_units) * truth[r], truth[r].astype(float)], 1)
                for r in range(2 * n_pairs)]
    stacked = statistics.stack(matrices)
    pairs = [(2 * i, 2 * i + 1) for i in range(n_pairs)]
    p = np.array(statistics.randomization_p("ratio", (0.0, 0.0), stacked, 2 * n_pairs, pairs,
                                            500, seed=seed))
    assert np.all((p > 0) & (p <= 1))
    assert 3 <= int((p < 0.05).sum()) <= 38


def test_holm_adjustment():
    assert statistics.holm([0.01, 0.04, 0.03, 0.5]) == pytest.approx([0.04, 0.09, 0.09, 0.5])
    assert statistics.holm([]) == []
    adjusted = statistics.holm([0.2, 0.2, 0.2])
    assert adjusted == pytest.approx([0.6, 0.6, 0.6])


def test_coin_flips_do_not_depend_on_the_block_size(monkeypatch):
    whole = np.vstack(list(statistics.coin_flips(30, 70, seed=9)))
    monkeypatch.setattr(statistics, "_TRIAL_BLOCK", 7)
    blocks = np.vstack(list(statistics.coin_flips(30, 70, seed=9)))
    assert np.array_equal(whole, blocks)
    monkeypatch.setattr(statistics, "_TRIAL_CELLS", 150)     # 2 trials of 70 units a block
    cells = list(statistics.coin_flips(30, 70, seed=9))
    assert len(cells) == 15 and np.array_equal(whole, np.vstack(cells))
    assert 0.4 < whole.mean() < 0.6
