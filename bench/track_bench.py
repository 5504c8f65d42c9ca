#!/usr/bin/env python3
"""Time ``python -m scorer.track`` on generated Cold Start and FEVER tracks.

    python bench/track_bench.py [--tracks 20x500,100x200] [--fever 100x100029]
                                [--samples 1000] [--jobs N]

For each RUNSxLDC size a workload of LDC queries is generated
(bench/workload.py, cached under bench/out/) and RUNS runs are made from its
submission: run r keeps each SF query's answers with its own probability
(0.35 to 0.95, seeded), so the runs differ the way real systems do, by
coverage.  The whole track runs with ``-bootstrap SAMPLES -seed 1`` as one
child process; the table shows its wall seconds, CPU seconds (all
processes), and peak memory (the largest resident set of the track's
processes), then what the statistics could say at the default resolution
(10,000 trials and the tail rule beyond them): the pairs tested, how many
are significant after Holm, the smallest Holm-adjusted p (at most 0.005 is
the target), the largest group number, and the folder's size on disk against
the runs' reports without samples files plus one track.bootsamples (at most
1.2x).  Targets: 20 runs x 500 LDC queries x 1,000 samples under 60 s on 2
cores; 100 x 200 x 1,000 under 2 minutes and 2 GB.

Then each FEVER track (``--fever RUNSxCLAIMS``, '' for none; its runs made once
from ``gen_fever.py``'s predictions, see ``make_fever_track``), scored with
``-policy configs/fever.yaml -bootstrap SAMPLES -seed 7``: its wall and CPU
seconds, the largest process's peak, the peak of all its processes together
(``TreeMemory``), and its folder's size (the runs' reports, the samples file,
the tables, the largest tables by name).  Target: 100 runs x 100,029 claims x
1,000 samples within 10 minutes and 4 GiB on 2 cores.  Each FEVER track is
then scored again with ``-slices label`` (``--fever-slices SPEC``, '' for
none): its wall and CPU seconds and peak of all processes together against
the same track's without; target: at most 1.5x the time and 1.5x the peak.
"""
from __future__ import annotations

import argparse
import os
import random
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
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


#: FEVER labels, which a run's predictions are changed among.
FEVER_LABELS = ("SUPPORTS", "REFUTES", "NOT ENOUGH INFO")


def make_fever_track(n_runs: int, n_claims: int) -> str:
    """A FEVER track: the gold of ``gen_fever.py --seed 5 --random N`` (beside
    the project, ../shared/tools) and ``n_runs`` prediction files made from
    its predictions: run r changes each claim's predicted label with its own
    probability (0.05 to 0.5, seeded) and drops its predicted evidence half
    as often, so the runs differ as systems do."""
    directory = os.path.join(OUT, f"fever-track-{n_runs}x{n_claims}")
    runs = os.path.join(directory, "runs")
    if os.path.isdir(runs) and len(os.listdir(runs)) == n_runs:
        return directory
    shutil.rmtree(directory, ignore_errors=True)
    os.makedirs(runs)
    generator = os.path.join(os.path.dirname(ROOT), "shared", "tools", "gen_fever.py")
    import subprocess
    subprocess.run([sys.executable, generator, "--seed", "5", "--random", str(n_claims - 29),
                    "--out", directory], check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(directory, "predictions.jsonl"), encoding="utf-8") as f:
        lines = f.read().splitlines()
    os.remove(os.path.join(directory, "predictions.jsonl"))
    rng = random.Random(1)
    for r in range(n_runs):
        change = 0.05 + 0.45 * r / max(1, n_runs - 1)
        out = []
        for line in lines:
            draw = rng.random()
            if draw < change:
                head, _sep, rest = line.partition('"predicted_label": "')
                label, _sep, tail = rest.partition('"')
                line = f'{head}"predicted_label": "{rng.choice(FEVER_LABELS)}"{tail}'
                if draw < change / 2:
                    line = line[:line.index('"predicted_evidence": ')] + \
                        '"predicted_evidence": []}'
            out.append(line + "\n")
        with open(os.path.join(runs, f"run{r:03d}.jsonl"), "w", encoding="utf-8") as f:
            f.writelines(out)
    return directory


class TreeMemory:
    """The peak of the memory a process and its descendants take together,
    sampled every ``every`` seconds: the sum of their proportional set sizes
    (Pss, /proc/PID/smaps_rollup: a page shared by forked workers counted once
    in all), or of their resident sets where Pss cannot be read."""

    def __init__(self, every: float = 0.2):
        import threading
        self.every = every
        self.peak_bytes = 0
        self.root = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)

    def start(self, pid: int) -> None:
        self.root = pid
        self._thread.start()

    def stop(self) -> float:
        """The peak, in MiB."""
        self._stop.set()
        self._thread.join()
        return self.peak_bytes / 2 ** 20

    def _watch(self) -> None:
        while not self._stop.wait(self.every):
            self.peak_bytes = max(self.peak_bytes, sum(map(_memory_of, _tree(self.root))))


def _tree(root: int) -> list:
    """``root`` and every process descending from it."""
    children: dict = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="utf-8") as f:
                parent = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        children.setdefault(parent, []).append(int(entry))
    found, waiting = [], [root]
    while waiting:
        pid = waiting.pop()
        found.append(pid)
        waiting += children.get(pid, [])
    return found


def _memory_of(pid: int) -> int:
    for path, key in ((f"/proc/{pid}/smaps_rollup", "Pss:"), (f"/proc/{pid}/status", "VmRSS:")):
        try:
            with open(path, encoding="utf-8") as f:
                for line in f:
                    if line.startswith(key):
                        return int(line.split()[1]) * 1024
        except OSError:
            continue
    return 0


def measure_tree(command: list, cwd: str, log_prefix: str):
    """``measure`` (wall, CPU of the whole tree, the largest process's peak),
    and the peak of all the processes together in MiB."""
    import subprocess
    import time
    from run_bench import Measurement
    with open(log_prefix + ".stdout", "wb") as stdout, \
            open(log_prefix + ".stderr", "wb") as stderr:
        started = time.perf_counter()
        process = subprocess.Popen(command, cwd=cwd, stdout=stdout, stderr=stderr)
        memory = TreeMemory()
        memory.start(process.pid)
        _pid, wait_status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - started
        together = memory.stop()
    code = os.waitstatus_to_exitcode(wait_status)
    result = Measurement(seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024,
                         "ok" if code == 0 else f"exit {code}")
    return result, together


def folder_bytes(folder: str) -> dict:
    """Bytes on disk under ``folder``: {'runs': ..., 'samples': ..., 'tables': ...}."""
    sizes = {"runs": 0, "samples": 0, "tables": 0}
    seen = set()
    for where, _dirs, names in os.walk(folder):
        for name in names:
            status = os.stat(os.path.join(where, name))
            if (status.st_dev, status.st_ino) in seen:
                continue            # a hard link: the samples file kept once
            seen.add((status.st_dev, status.st_ino))
            size = status.st_size
            kind = "runs" if os.sep + "runs" + os.sep in os.path.join(where, name) + os.sep \
                and os.path.relpath(where, folder) != "." else \
                "samples" if "bootsamples" in name else "tables"
            sizes[kind] += size
    return sizes


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


def _sliced_fever(command: list, directory: str, target: str, spec: str, size: str,
                  samples: int, plain, plain_together: float) -> bool:
    """The FEVER track again with -slices SPEC: its time and peak against the
    track's without (``plain``); True when it ran."""
    position = command.index("-output_dir")
    sliced_command = command[:position] + ["-slices", spec] + command[position:]
    result, together = measure_tree(sliced_command, directory,
                                    os.path.join(directory, "track-sliced"))
    shutil.rmtree(target, ignore_errors=True)
    wall = result.seconds / max(plain.seconds, 1e-9)
    cpu = result.cpu_seconds / max(plain.cpu_seconds, 1e-9)
    memory = together / max(plain_together, 1e-9)
    met = result.status == "ok" and wall <= 1.5 and memory <= 1.5
    print(f"{'FEVER ' + size + ' -slices ' + spec:>20} {samples:>8} {result.seconds:8.1f} "
          f"{result.cpu_seconds:8.1f} {result.peak_mib:9.0f}  {result.status}; all processes "
          f"together at most {together:,.0f} MiB; against the track without: {wall:.2f}x the "
          f"wall time, {cpu:.2f}x the CPU, {memory:.2f}x the peak; target 1.5x and 1.5x: "
          f"{'met' if met else 'MISSED'}", flush=True)
    return result.status == "ok"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tracks", default="20x500,100x200")
    parser.add_argument("--samples", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--fever", default="100x100029", metavar="RUNSxCLAIMS[,...]",
                        help="FEVER tracks (the target: 100 runs x 100,000 claims x 1,000 "
                             "samples within 10 minutes and 4 GiB; '' for none)")
    parser.add_argument("--fever-slices", default="label", metavar="SPEC",
                        help="each FEVER track again with -slices SPEC, against the track "
                             "without (the target: 1.5x the time and the peak; '' for none)")
    args = parser.parse_args()
    cache_bytecode()
    os.makedirs(OUT, exist_ok=True)
    print(f"{'runs x LDC queries':>20} {'samples':>8} {'wall s':>8} {'CPU s':>8} "
          f"{'peak MiB':>9} {'pairs':>6} {'signif.':>7} {'min p_holm':>10} {'groups':>6} "
          f"{'size x':>6}  status")
    failed = False
    for size in filter(None, args.tracks.split(",")):
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
    for size in filter(None, args.fever.split(",")):
        n_runs, n_claims = (int(x) for x in size.split("x"))
        directory = make_fever_track(n_runs, n_claims)
        target = os.path.join(directory, "track-out")
        shutil.rmtree(target, ignore_errors=True)
        command = [sys.executable, "-m", "scorer.track", "-policy",
                   os.path.join(ROOT, "configs", "fever.yaml"), "-bootstrap", str(args.samples),
                   "-seed", "7", "-jobs", str(args.jobs), "-output_dir", target,
                   "actual.jsonl", "runs"]
        result, together = measure_tree(command, directory, os.path.join(directory, "track"))
        failed |= result.status != "ok"
        sizes = folder_bytes(target) if result.status == "ok" else {}
        shown = ", ".join(f"{kind} {size / 2 ** 20:,.0f} MiB" for kind, size in sizes.items())
        largest = sorted(((os.path.getsize(os.path.join(target, name)), name)
                          for name in (os.listdir(target) if sizes else [])
                          if os.path.isfile(os.path.join(target, name))
                          and "bootsamples" not in name), reverse=True)[:3]
        met = result.status == "ok" and result.seconds <= 600 and together <= 4096
        print(f"{'FEVER ' + size:>20} {args.samples:>8} {result.seconds:8.1f} "
              f"{result.cpu_seconds:8.1f} {result.peak_mib:9.0f}  {result.status}; all "
              f"processes together at most {together:,.0f} MiB; folder: {shown} (largest "
              f"tables: {', '.join(f'{name} {n / 2 ** 20:,.1f} MiB' for n, name in largest)})"
              f"; target (100 runs x 100,000 claims x 1,000 samples, 2 cores): 10 minutes and "
              f"4 GiB: {'met' if met else 'MISSED'}", flush=True)
        shutil.rmtree(target, ignore_errors=True)
        if args.fever_slices:
            failed |= not _sliced_fever(command, directory, target, args.fever_slices, size,
                                        args.samples, result, together)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
