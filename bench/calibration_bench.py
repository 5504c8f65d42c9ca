#!/usr/bin/env python3
"""Are the track's tests calibrated?  Exchangeable runs at a larger scale than
the test suite's check.

    python bench/calibration_bench.py [--pairs 2000] [--units 3000] [--samples 1000]

Pairs of runs whose per-unit values (0/1, as FEVER's strict score) come from
one distribution: every difference between them is chance, so each test, at
0.05 and unadjusted, should reject about 5 % of the pairs (the issue's bounds:
3 % to 7.5 %).  Three settings:

- independent units, tests over units;
- units in clusters of 5 that share an effect (a run does well or badly on a
  whole Wikipedia page), tests over units: too eager, the reason for -clusters;
- the same clustered units, tests over clusters (-clusters): calibrated again.

Printed: the share rejected with its Wilson 95 % interval, for p_bootstrap (the
shift test over the bootstrap samples) and p_randomization (the swap test),
from the track's own functions (scorer/track/statistics.py), seeded.
"""
from __future__ import annotations

import argparse
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from scorer import bootstrap, unitstatistic  # noqa: E402
from scorer.track import statistics  # noqa: E402


def wilson(hits: int, n: int, z: float = 1.959964) -> tuple:
    share = hits / n
    centre = (share + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def runs(rng, n_pairs: int, n_units: int, cluster_size: int, cluster_effect: float):
    """``2 n_pairs`` runs' (units, 2) matrices: per-unit 0/1 values and 1."""
    difficulty = rng.uniform(0.25, 0.85, n_units)
    clusters = np.arange(n_units) // cluster_size
    matrices = []
    for _ in range(2 * n_pairs):
        shift = rng.normal(0, cluster_effect, clusters.max() + 1)[clusters]
        chance = np.clip(difficulty + shift, 0, 1)
        matrices.append(np.stack([(rng.random(n_units) < chance) * 1.0, np.ones(n_units)], 1))
    return statistics.stack(matrices), clusters


def rejection(stacked, n_runs, n_samples, trials, seed, clusters=None) -> tuple:
    units = [f"u{i:06d}" for i in range(stacked.shape[0])]
    if clusters is None:
        samples = bootstrap.generate([(u, (u,)) for u in units], n_samples, seed)
    else:
        members: dict = {}
        for unit, cluster in zip(units, clusters):
            members.setdefault(f"c{cluster:06d}", []).append((unit, (unit,)))
        samples = bootstrap.generate_clustered(list(members.items()), n_samples, seed)
    sampled = statistics.bootstrap_values(unitstatistic.RATIO, (0.0, 0.0), stacked, n_runs,
                                          samples.group_multiplicities(units))
    pairs = [(2 * i, 2 * i + 1) for i in range(n_runs // 2)]
    observed = statistics.observed_differences(unitstatistic.RATIO, (0.0, 0.0), stacked, n_runs,
                                               pairs)
    p_boot = [statistics.paired_bootstrap_p(sampled[:, a], sampled[:, b], d)
              for (a, b), d in zip(pairs, observed)]
    p_rand = statistics.randomization_p(unitstatistic.RATIO, (0.0, 0.0), stacked, n_runs, pairs,
                                        trials, seed, clusters)
    return (int(np.sum(np.array(p_boot) < 0.05)), int(np.sum(np.array(p_rand) < 0.05)),
            len(pairs))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pairs", type=int, default=2000)
    parser.add_argument("--units", type=int, default=3000)
    parser.add_argument("--samples", type=int, default=1000)
    parser.add_argument("--trials", type=int, default=2000)
    args = parser.parse_args()
    print(f"exchangeable runs: {args.pairs} pairs x {args.units} units, {args.samples} "
          f"bootstrap samples, {args.trials} trials; rejected at 0.05 (Wilson 95 %)")
    print(f"{'setting':>40} {'p_bootstrap':>24} {'p_randomization':>24}")
    rng = np.random.default_rng(2024)
    independent, _ = runs(rng, args.pairs, args.units, 1, 0.0)
    clustered, clusters = runs(rng, args.pairs, args.units, 5, 0.25)
    failed = False
    for name, stacked, over, expect_calibrated in (
            ("independent units", independent, None, True),
            ("clusters of 5, tests over units", clustered, None, False),
            ("clusters of 5, tests over clusters", clustered, clusters, True)):
        boot, rand, n = rejection(stacked, 2 * args.pairs, args.samples, args.trials, 7, over)
        cells = []
        for hits in (boot, rand):
            low, high = wilson(hits, n)
            cells.append(f"{100 * hits / n:5.2f} % [{100 * low:4.2f}, {100 * high:4.2f}]")
            if expect_calibrated and not 0.03 <= hits / n <= 0.075:
                failed = True
        print(f"{name:>40} {cells[0]:>24} {cells[1]:>24}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
