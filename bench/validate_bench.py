#!/usr/bin/env python3
"""Time validatesf (python -m scorer.coldstart validatesf) beside the Perl's
CS-ValidateSF-MASTER.pl on a generated run, with and without -docs.

    python bench/validate_bench.py [--lines 100000] [--perl DIR | --no-perl]
                                   [--perl-lines 3000,6000,12000] [--perl-full]
                                   [--perl-timeout S] [--repeat N]

The workload (bench/workload.py, cached under bench/out/) is a run of about
--lines lines answering SF queries (the SF query file made by
``validatequeries -expand``), its answers in a corpus of a few thousand
documents whose texts hold the fillers at their offsets (most of them: a
later filler may overwrite an earlier one, which then draws a warning, as a
real run's would), listed with their lengths in doclength.txt for -docs.

Each command runs as a child process; the table shows its wall seconds (best
of --repeat), CPU seconds and peak memory (the child's maximum resident set,
as GNU time reports it: os.wait4's would count the memory of this process,
which the child is forked from, where time(1) is missing it is used, and
says so).  The Perl's time grows with the square of the run's lines (it
searches every line for each line's parent node), so by default it is timed
on the first --perl-lines lines of the run only, and validatesf on the same,
their outputs compared byte for byte (``:NIL_`` letters aside: the Perl draws
them at random); its time and memory on the whole run are then extrapolated
from the largest two (time as a power of the lines, memory linearly), and the
table says so.  --perl-full runs the Perl on the whole run too (hours at
100,000 lines; --perl-timeout stops it, default 6 h).

Below the table, the targets: validatesf at least 20x the Perl's CPU time on
the whole run, with and without -docs, and its peak memory under a third of
the Perl's.  Exit status 1 when a target is missed, a run fails, or the
outputs differ.
"""
from __future__ import annotations

import argparse
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

import workload  # noqa: E402
from run_bench import OUT, Measurement, cache_bytecode, find_perl, measure, progress  # noqa: E402

#: LDC queries per line of the run (the generator's average), to reach --lines.
LINES_PER_QUERY = 16.2
#: documents per language in the corpus, and the characters of each
POOL = 1500
DOCUMENT_CHARACTERS = 7400
FILLER = "The report said that talks had stalled again while officials met in the capital. "
SPEEDUP_TARGET = 20.0
MEMORY_SHARE_TARGET = 1 / 3
_NIL = re.compile(rb":NIL_[A-Za-z]{4}")


def workload_folder(lines: int, seed: int) -> str:
    """The workload of about ``lines`` lines (made once, then read again)."""
    folder = os.path.join(OUT, f"validate-{lines}-s{seed}")
    if os.path.exists(os.path.join(folder, "done")):
        return folder
    progress(f"writing the workload of {lines:,} lines in {folder}")
    shutil.rmtree(folder, ignore_errors=True)
    workload.generate(folder, max(1, round(lines / LINES_PER_QUERY)), seed, pool=POOL)
    subprocess.run([sys.executable, "-m", "scorer.coldstart", "validatequeries", "-expand",
                    "-query_base", workload.EXPAND_BASE, "-error_file", "vq.errlog",
                    "ldc-query.xml", "sf-query.xml"], cwd=folder, check=True,
                   env=dict(os.environ, PYTHONPATH=ROOT))
    write_corpus(folder)
    with open(os.path.join(folder, "done"), "w") as f:
        f.write("")
    return folder


def write_corpus(folder: str) -> None:
    """The documents of every DOCID the run and the queries name, each filler
    written at its offsets, and doclength.txt."""
    texts: dict = {}

    def text(docid: str) -> list:
        if docid not in texts:
            texts[docid] = list((FILLER * (DOCUMENT_CHARACTERS // len(FILLER) + 1))
                                [:DOCUMENT_CHARACTERS])
        return texts[docid]

    span = re.compile(r"([^:,]+):(\d+)-(\d+)")
    with open(os.path.join(folder, "sf-query.xml"), encoding="utf-8") as f:
        for docid in re.findall(r"<docid>(.*?)</docid>", f.read()):
            text(docid)
    with open(os.path.join(folder, f"{workload.RUNID}.tab.txt"), encoding="utf-8") as f:
        for line in f:
            columns = line.rstrip("\n").split("\t")
            for docid, _start, _end in span.findall(columns[3]):
                text(docid)
            docid, start, end = span.match(columns[6]).groups()
            characters = text(docid)
            characters[int(start):int(end) + 1] = columns[4]
            del characters[DOCUMENT_CHARACTERS:]
    os.makedirs(os.path.join(folder, "docs"), exist_ok=True)
    rows = []
    for docid in sorted(texts):
        body = "".join(texts[docid])
        with open(os.path.join(folder, "docs", docid + ".txt"), "w", encoding="utf-8") as f:
            f.write(body)
        rows.append(f"{docid}\t{len(body)}\tdocs/{docid}.txt\n")
    with open(os.path.join(folder, "doclength.txt"), "w", encoding="utf-8") as f:
        f.writelines(rows)


def prefix_run(folder: str, lines: int) -> str:
    """The run's first ``lines`` lines, as a run of its own."""
    name = f"first{lines}.tab.txt"
    path = os.path.join(folder, name)
    if not os.path.exists(path):
        with open(os.path.join(folder, f"{workload.RUNID}.tab.txt"), encoding="utf-8") as f:
            head = [line for _, line in zip(range(lines), f)]
        with open(path, "w", encoding="utf-8") as f:
            f.writelines(head)
    return name


GNU_TIME = shutil.which("time") or ("/usr/bin/time" if os.path.exists("/usr/bin/time")
                                     else None)


def measure_alone(command: list, cwd: str, log_prefix: str, timeout=None, env=None):
    """``run_bench.measure``, the peak memory the child's own (GNU time's
    report): a child forked from this process starts with its pages."""
    if GNU_TIME is None:
        return measure(command, cwd, log_prefix, timeout, env)
    report = log_prefix + ".time"
    with open(log_prefix + ".stdout", "wb") as stdout, \
            open(log_prefix + ".stderr", "wb") as stderr:
        started = time.perf_counter()
        process = subprocess.Popen([GNU_TIME, "-f", "%U %S %M", "-o", report, *command],
                                   cwd=cwd, env=env, stdout=stdout, stderr=stderr,
                                   start_new_session=True)
        try:
            process.wait(timeout)
            status = "ok" if process.returncode == 0 else f"exit {process.returncode}"
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            status = "timeout"
        seconds = time.perf_counter() - started
    try:
        with open(report) as f:
            user, system, peak = f.read().split()[-3:]
        return Measurement(seconds, float(user) + float(system), int(peak) / 1024, status)
    except (OSError, ValueError):
        return Measurement(seconds, float("nan"), float("nan"), status)


def command(tool: str, perl_dir, docs: bool, run: str, output: str) -> list:
    switches = (["-docs", "doclength.txt"] if docs else []) + ["-output_file", output]
    if tool == "perl":
        return ["perl", "-I" + perl_dir, os.path.join(perl_dir, "CS-ValidateSF-MASTER.pl"),
                *switches, "sf-query.xml", run]
    return [sys.executable, "-m", "scorer.coldstart", "validatesf", *switches, "sf-query.xml",
            run]


def timed(tool, perl_dir, folder, docs, run, repeat=1, timeout=None):
    """The best of ``repeat`` runs (one for the Perl), and the output file."""
    label = f"{tool}-{'docs' if docs else 'nodocs'}-{run.split('.')[0]}"
    output = os.path.join(folder, label + ".valid.txt")
    best = None
    for _ in range(1 if tool == "perl" else repeat):
        if os.path.exists(output):
            os.unlink(output)
        found = measure_alone(command(tool, perl_dir, docs, run, output), folder,
                        os.path.join(folder, label), timeout,
                        env=dict(os.environ, PYTHONPATH=ROOT, PERL_HASH_SEED="0"))
        if best is None or found.seconds < best.seconds:
            best = found
    return best, output


def same_output(ours: str, perl: str) -> bool:
    def read(path):
        with open(path, "rb") as f:
            return _NIL.sub(b":NIL_????", f.read())
    return os.path.exists(ours) and os.path.exists(perl) and read(ours) == read(perl)


def extrapolated(points: list, lines: int) -> tuple:
    """(CPU seconds, MiB) at ``lines`` from the largest two (lines, Measurement)
    points: time as a power of the lines, memory linearly."""
    (n1, m1), (n2, m2) = points[-2], points[-1]
    power = math.log(m2.cpu_seconds / m1.cpu_seconds) / math.log(n2 / n1) \
        if m1.cpu_seconds > 0 and m2.cpu_seconds > m1.cpu_seconds else 1.0
    seconds = m2.cpu_seconds * (lines / n2) ** power
    memory = m2.peak_mib + (m2.peak_mib - m1.peak_mib) * (lines - n2) / (n2 - n1)
    return seconds, memory, power


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--perl", help="a checkout of jamesmayfield/ColdStart")
    parser.add_argument("--no-perl", action="store_true")
    parser.add_argument("--perl-lines", default="3000,6000,12000",
                        help="sizes of the runs the Perl is timed on (comma-separated)")
    parser.add_argument("--perl-full", action="store_true",
                        help="time the Perl on the whole run too")
    parser.add_argument("--perl-timeout", type=float, default=6 * 3600)
    parser.add_argument("--repeat", type=int, default=3)
    options = parser.parse_args()
    cache_bytecode()
    perl_dir, note = (None, "Perl: --no-perl") if options.no_perl else (
        (os.path.abspath(options.perl), f"Perl: {options.perl}") if options.perl
        else find_perl())
    print(f"validatesf beside CS-ValidateSF-MASTER.pl; {note}")
    if GNU_TIME is None:
        print("GNU time (time(1)) not found: each peak memory counts this bench's own too")
    folder = workload_folder(options.lines, options.seed)
    with open(os.path.join(folder, f"{workload.RUNID}.tab.txt"), encoding="utf-8") as f:
        lines = sum(1 for _ in f)
    print(f"workload: {folder} ({lines:,} lines)")
    header = f"{'case':<22} {'lines':>8} {'wall s':>8} {'cpu s':>8} {'MiB':>7}  note"
    print(header)
    failed = False
    results = {}
    for docs in (False, True):
        name = "-docs" if docs else "no -docs"
        ours, output = timed("ours", None, folder, docs, f"{workload.RUNID}.tab.txt",
                             options.repeat)
        failed |= ours.status != "ok"
        print(f"{'validatesf ' + name:<22} {lines:>8,} {ours.seconds:>8.2f} "
              f"{ours.cpu_seconds:>8.2f} {ours.peak_mib:>7.0f}  {ours.status}")
        points = []
        if perl_dir:
            sizes = [int(size) for size in options.perl_lines.split(",") if size]
            for size in sizes:
                run = prefix_run(folder, size)
                perl, perl_output = timed("perl", perl_dir, folder, docs, run)
                mine, mine_output = timed("ours", None, folder, docs, run)
                same = same_output(mine_output, perl_output)
                failed |= not same or perl.status != "ok"
                points.append((size, perl))
                print(f"{'  Perl ' + name:<22} {size:>8,} {perl.seconds:>8.2f} "
                      f"{perl.cpu_seconds:>8.2f} {perl.peak_mib:>7.0f}  {perl.status}; "
                      f"validatesf {mine.cpu_seconds:.2f} cpu s, output "
                      f"{'the same' if same else 'DIFFERS'}")
            whole = None
            if options.perl_full:
                whole, perl_output = timed("perl", perl_dir, folder, docs,
                                           f"{workload.RUNID}.tab.txt",
                                           timeout=options.perl_timeout)
                same = same_output(output, perl_output)
                failed |= not same and whole.status == "ok"
                print(f"{'  Perl ' + name:<22} {lines:>8,} {whole.seconds:>8.2f} "
                      f"{whole.cpu_seconds:>8.2f} {whole.peak_mib:>7.0f}  {whole.status}; "
                      f"output {'the same' if same else 'DIFFERS'}")
            if whole is not None and whole.status == "ok":
                perl_seconds, perl_mib, how = whole.cpu_seconds, whole.peak_mib, "measured"
            elif len(points) >= 2:
                perl_seconds, perl_mib, power = extrapolated(points, lines)
                how = f"extrapolated from {points[-2][0]:,} and {points[-1][0]:,} lines " \
                      f"(time ~ lines^{power:.2f})"
            else:
                continue
            results[name] = (ours, perl_seconds, perl_mib, how)
    if results:
        print()
        print("targets (the whole run):")
        for name, (ours, perl_seconds, perl_mib, how) in results.items():
            speedup = perl_seconds / max(ours.cpu_seconds, 1e-9)
            share = ours.peak_mib / perl_mib
            speed_ok, memory_ok = speedup >= SPEEDUP_TARGET, share < MEMORY_SHARE_TARGET
            failed |= not (speed_ok and memory_ok)
            print(f"  validatesf {name}: {speedup:,.0f}x the Perl's CPU time "
                  f"({perl_seconds:,.0f} s, {how}; target {SPEEDUP_TARGET:.0f}x) "
                  f"{'ok' if speed_ok else 'MISSED'}; peak memory {ours.peak_mib:.0f} MiB, "
                  f"{share:.2f} of the Perl's {perl_mib:,.0f} MiB (target under "
                  f"{MEMORY_SHARE_TARGET:.2f}) {'ok' if memory_ok else 'MISSED'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
