#!/usr/bin/env python3
"""Time ``python -m scorer.track`` on generated Cold Start tracks.

    python bench/track_bench.py [--tracks 20x500,100x200] [--samples 1000] [--jobs N]

For each RUNSxLDC size a workload of LDC queries is generated
(bench/workload.py, cached under bench/out/) and RUNS runs are made from its
submission: run r keeps each SF query's answers with its own probability
(0.35 to 0.95, seeded), so the runs differ the way real systems do, by
coverage.  The whole track runs with ``-bootstrap SAMPLES -seed 1`` as one
child process; the table shows its wall seconds, CPU seconds (all
processes), and peak memory (the largest resident set of the track's
processes), then what the statistics could say at the default resolution
(10,000 trials and the normal tail beyond them): the pairs tested, how many
are significant after Holm, the smallest Holm-adjusted p (at most 0.005 is
the target), the largest group number, and the folder's size on disk against
the runs' reports without samples files plus one track.bootsamples (at most
1.2x).  Targets: 20 runs x 500 LDC queries x 1,000 samples under 60 s on 2
cores; 100 x 200 x 1,000 under 2 minutes and 2 GB.
"""
from __future__ import annotations

import argparse
import os
import random
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import workload  # noqa: E402
from run_bench import OUT, cache_bytecode, measure  # noqa: E402


def make_track(n_runs: int, ldc_queries: int) -> str:
    directory = os.path.join(OUT, f"track-{n_runs}x{ldc_queries}")
    runs = os.path.join(directory, "runs")
    if os.path.isdir(runs) and len(os.listdir(runs)) == n_runs:
        return directory
    shutil.rmtree(directory, ignore_errors=True)
    workload.generate(directory, ldc_queries, seed=1)
    with open(os.path.join(directory, f"{workload.RUNID}.tab.txt"), encoding="utf-8") as f:
        lines = f.read().splitlines()
    os.remove(os.path.join(directory, f"{workload.RUNID}.tab.txt"))
    os.makedirs(runs)
    rng = random.Random(1)
    queries = sorted({"_".join(line.split("\t")[0].split("_")[:3]) for line in lines})
    for r in range(n_runs):
        keep = 0.35 + 0.6 * r / max(1, n_runs - 1)
        kept = {q for q in queries if rng.random() < keep}
        runid = f"TRACKRUN{r:03d}"
        with open(os.path.join(runs, f"{runid}.tab.txt"), "w", encoding="utf-8") as f:
            for line in lines:
                if "_".join(line.split("\t")[0].split("_")[:3]) in kept:
                    columns = line.split("\t")
                    columns[2] = runid
                    f.write("\t".join(columns) + "\n")
    return directory


def statistics_figures(folder: str) -> tuple:
    """(pairs, significant pairs, smallest p_holm, groups, the folder's size on disk
    over its reports without samples files plus one track.bootsamples)."""
    import csv
    try:
        with open(os.path.join(folder, "significance.csv"), encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
        with open(os.path.join(folder, "leaderboard.csv"), encoding="utf-8") as f:
            groups = [int(r["group"]) for r in csv.DictReader(f) if r["group"]]
    except OSError:
        return 0, 0, float("nan"), 0, float("nan")
    significant = sum(r["significant"] == "True" for r in rows)
    smallest = min((float(r["p_holm"]) for r in rows), default=float("nan"))
    seen, on_disk, without = set(), 0, 0
    for directory, _folders, names in os.walk(folder):
        for name in names:
            status = os.stat(os.path.join(directory, name))
            if status.st_ino not in seen:
                seen.add(status.st_ino)
                on_disk += status.st_size
            if name not in ("run.bootsamples", "run.sample"):
                without += status.st_size
    return len(rows), significant, smallest, max(groups, default=0), on_disk / max(without, 1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tracks", default="20x500,100x200")
    parser.add_argument("--samples", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    cache_bytecode()
    os.makedirs(OUT, exist_ok=True)
    print(f"{'runs x LDC queries':>20} {'samples':>8} {'wall s':>8} {'CPU s':>8} "
          f"{'peak MiB':>9} {'pairs':>6} {'signif.':>7} {'min p_holm':>10} {'groups':>6} "
          f"{'size x':>6}  status")
    failed = False
    for size in args.tracks.split(","):
        n_runs, ldc_queries = (int(x) for x in size.split("x"))
        directory = make_track(n_runs, ldc_queries)
        target = os.path.join(directory, "track-out")
        shutil.rmtree(target, ignore_errors=True)
        command = [sys.executable, "-m", "scorer.track", "-expand", "CSSF17",
                   "-bootstrap", str(args.samples), "-seed", "1", "-jobs", str(args.jobs),
                   "-output_dir", target, "ldc-query.xml", "qrel.txt", "runs"]
        result = measure(command, directory, os.path.join(directory, "track"))
        failed |= result.status != "ok"
        pairs, significant, smallest, groups, ratio = statistics_figures(target)
        print(f"{size:>20} {args.samples:>8} {result.seconds:8.1f} {result.cpu_seconds:8.1f} "
              f"{result.peak_mib:9.0f} {pairs:>6} {significant:>7} {smallest:>10.3g} "
              f"{groups:>6} {ratio:>6.2f}  {result.status}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
