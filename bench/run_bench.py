#!/usr/bin/env python3
"""Time the scorer on generated Cold Start workloads of growing size.

    python bench/run_bench.py [--sizes 50,500,1000,2000] [--samples 0,1000,10000]
                              [--repeat N] [--perl DIR | --no-perl] [--perl-timeout S]
                              [--no-samples-parse] [--no-million] [--diff-size N]

For each number of LDC queries a workload is generated (bench/workload.py,
cached under bench/out/), and for each number of bootstrap samples a samples
file (python -m scorer.samples).  Each case runs
``python -m scorer -expand CSSF17 [-samples boot.txt] ...`` as a child
process; the table shows its wall seconds (best of --repeat), CPU seconds and
peak memory (the child's maximum resident set, from os.wait4), with the size
of the submission.  Exit status 1 when the scorer failed or logged an ERROR.

The official CS-Score-MASTER.pl (--perl DIR; else $SCORER_PERL_DIR or
../ColdStart when there, --no-perl to skip; the bench says which, or that
none was found) scores the same inputs (PERL_HASH_SEED=0), and its reports
are compared with the scorer's: "same",
or which differ (for .summary its aggregate lines, for .samplescores and
.confidence the code groups; "(mean)": only the mean's last digit).  Where
entry points of an LDC query tie on F1, the Perl's LDC-MAX choice follows its
hash order (spec §0.3), so LDC-MAX lines may differ.  A Perl run is skipped
when the Perl timed out on a smaller workload with as many samples, or when
its time, extrapolated quadratically in submission lines (the Perl's measured
growth) from its last run with as many samples, exceeds --perl-timeout; runs
still going at the timeout are stopped.

Below the table, the speed targets for the cases measured: 1,000 LDC queries
under 1.5 s; at 500 LDC queries at least 40x the Perl (CPU seconds); 10,000
samples x 2,000 LDC queries under 20 s in all; and the largest samples file
(10,000 samples x 2,000 LDC queries by default, 1.1 GB) parsed alone
(scorer.bootstrap.read_samples) in under 3 s.

Then ``-bootstrap 1000000`` on one LDC query of the bundled demo (1.3 GB of
reports, --no-million skips it), against its target: a result under 20 s.

Then ``python -m scorer.diff`` is timed on the ``.debug`` files of one
workload (--diff-size LDC queries, 1,000 by default; 0 skips it) scored under
the two Cold Start policies of configs/, against its targets: under 3 s,
under 500 MB, and no more CPU time than scoring one of the two runs (the two
commands take turns, their median CPU times compared).
"""
from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import threading
import time
from typing import Optional

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import workload  # noqa: E402

OUT = os.path.join(HERE, "out")
SEED = 1
CONFIGS = os.path.join(os.path.dirname(HERE), "configs")
#: The diff's targets: wall seconds and peak resident MB.
DIFF_TARGET_SECONDS = 3.0
DIFF_TARGET_MB = 500
#: Reports compared with the Perl's (.params and .errlog differ on purpose, README).
COMPARED_REPORTS = ("sf", "summary", "ldcmax", "ldcmean", "ap", "debug", "sample",
                    "samplescores", "confidence")


@dataclasses.dataclass
class Measurement:
    seconds: float
    cpu_seconds: float  # user + system time of the child
    peak_mib: float
    status: str  # "ok", "exit N" or "timeout"


def measure(command: list, cwd: str, log_prefix: str, timeout: Optional[float] = None,
            env: Optional[dict] = None) -> Measurement:
    """Run ``command``; wall time and the child's own peak resident memory."""
    with open(log_prefix + ".stdout", "wb") as stdout, open(log_prefix + ".stderr", "wb") as stderr:
        started = time.perf_counter()
        process = subprocess.Popen(command, cwd=cwd, env=env, stdout=stdout, stderr=stderr)
        timer = threading.Timer(timeout, process.kill) if timeout else None
        if timer:
            timer.start()
        _pid, wait_status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(wait_status)  # so a late kill is a no-op
        if timer:
            timer.cancel()
    status = "ok" if process.returncode == 0 else f"exit {process.returncode}"
    if timeout and seconds >= timeout and process.returncode < 0:
        status = "timeout"
    cpu_seconds = usage.ru_utime + usage.ru_stime
    return Measurement(seconds, cpu_seconds, usage.ru_maxrss / 1024, status)  # maxrss: KiB


def cache_bytecode() -> None:
    """Write the bytecode of every scorer module now, as a user's first run
    does: with PYTHONDONTWRITEBYTECODE set (some shells and CI images set
    it) the runs timed would each compile the modules they import again,
    tens of milliseconds that no installed scorer spends."""
    import compileall
    compileall.compile_dir(os.path.join(os.path.dirname(HERE), "scorer"), quiet=1)


def best_of(runs: list) -> Measurement:
    failed = [run for run in runs if run.status != "ok"]
    if failed:
        return failed[0]
    return Measurement(min(r.seconds for r in runs), min(r.cpu_seconds for r in runs),
                       max(r.peak_mib for r in runs), "ok")


# inputs ------------------------------------------------------------------------------

def generator_digest() -> str:
    with open(workload.__file__, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()[:12]


def ensure_workload(ldc_queries: int) -> tuple:
    """(directory, counts) of the cached workload, generated when missing or stale."""
    directory = os.path.join(OUT, f"q{ldc_queries}")
    stamp = os.path.join(directory, "workload.json")
    if os.path.exists(stamp):
        with open(stamp, encoding="utf-8") as f:
            counts = json.load(f)
        if counts.get("generator") == generator_digest():
            return directory, counts
    shutil.rmtree(directory, ignore_errors=True)
    progress(f"generating {ldc_queries} LDC queries")
    counts = dict(workload.generate(directory, ldc_queries, SEED), generator=generator_digest())
    with open(stamp, "w", encoding="utf-8") as f:
        json.dump(counts, f)
    return directory, counts


def ensure_samples(directory: str, count: int) -> Optional[str]:
    """The samples file name (in ``directory``), written when missing; None for 0."""
    if count == 0:
        return None
    name = f"boot{count}.txt"
    if not os.path.exists(os.path.join(directory, name)):
        progress(f"writing {count} samples")
        partial = name + ".partial"
        subprocess.run([sys.executable, "-m", "scorer.samples", "-seed", str(SEED),
                        "-output_file", partial, str(count), "qids.txt"], cwd=directory, check=True)
        os.replace(os.path.join(directory, partial), os.path.join(directory, name))
    return name


# the two scorers ---------------------------------------------------------------------

def run_scorer(directory: str, samples: Optional[str], label: str) -> tuple:
    """(Measurement, output prefix) of one scorer run."""
    out = fresh_directory(os.path.join(directory, label))
    prefix = os.path.join(out, "run")
    command = [sys.executable, "-m", "scorer", "-expand", "CSSF17",
               *(["-samples", samples] if samples else []),
               "-error_file", prefix + ".errlog", "-output_file", prefix, *workload.INPUT_FILES]
    return measure(command, directory, prefix), prefix


def run_perl(perl_dir: str, directory: str, samples: Optional[str], label: str,
             timeout: float) -> tuple:
    out = fresh_directory(os.path.join(directory, label))  # the Perl appends to an old .errlog
    prefix = os.path.join(out, "run")
    command = ["perl", "-I" + perl_dir, os.path.join(perl_dir, "CS-Score-MASTER.pl"),
               "-expand", "CSSF17", *(["-samples", samples] if samples else []),
               "-error_file", prefix + ".errlog", "-output_file", prefix, *workload.INPUT_FILES]
    env = dict(os.environ, PERL_HASH_SEED="0", PERL_PERTURB_KEYS="0")
    return measure(command, directory, prefix, timeout, env), prefix


def fresh_directory(path: str) -> str:
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    return path


def scorer_problems(prefix: str) -> str:
    """'' when the scorer's error log has no ERROR lines, else how many it has."""
    with open(prefix + ".errlog", encoding="utf-8", errors="replace") as f:
        errors = sum(line.startswith("ERROR") for line in f)
    return f"{errors} ERROR lines in {prefix}.errlog" if errors else ""


def differences(ours: str, perl: str) -> str:
    """Which reports differ from the Perl's ('same' if none).  For .summary,
    .confidence and .samplescores it names what differs: the aggregate lines,
    or the EP_VARIANT of the bootstrap codes (LDC-MAX ties, spec §0.3)."""
    different = []
    for report in COMPARED_REPORTS:
        mine, theirs = read_lines(f"{ours}.{report}"), read_lines(f"{perl}.{report}")
        if mine is None or theirs is None or mine == theirs:
            continue
        labels = differing_labels(report, mine, theirs)
        different.append(f"{report}[{' '.join(labels)}]" if labels else report)
    return "same" if not different else "differs: " + ", ".join(different)


def differing_labels(report: str, mine: list, theirs: list) -> list:
    if len(mine) != len(theirs) or report not in ("summary", "confidence", "samplescores"):
        return []
    pairs = [(a.split(), b.split()) for a, b in zip(mine, theirs) if a != b]
    if report == "summary":
        return sorted({a[0] for a, _b in pairs if a})
    if report == "confidence":  # "(mean)": only the mean's last digit, summed in another order
        return sorted({code_group(a[0]) + ("(mean)" if mean_rounding(a, b) else "")
                       for a, b in pairs if a})
    header = mine[0].split()  # .samplescores: the codes of the differing columns
    return sorted({code_group(header[i]) for a, b in pairs
                   for i in range(min(len(a), len(b), len(header))) if a[i] != b[i]})


def code_group(code: str) -> str:
    """``ALLEP_LDCMAXI_Ma_0_F`` -> ``ALLEP_LDCMAXI``."""
    return "_".join(code.split("_")[:2])


def mean_rounding(mine: list, theirs: list) -> bool:
    """Do two .confidence lines differ only by 0.0001 in the mean (field 4)?"""
    return (len(mine) == len(theirs) == 9 and mine[:4] + mine[5:] == theirs[:4] + theirs[5:]
            and abs(float(mine[4]) - float(theirs[4])) <= 0.000100001)


def read_lines(path: str) -> Optional[list]:
    if not os.path.exists(path):
        return None
    with open(path, "rb") as f:
        return f.read().decode("utf-8", "replace").split("\n")


# the table -----------------------------------------------------------------------------

def scorer_version() -> str:
    """The commit of the scorer measured, '+changes' if scorer/ differs from it."""
    root = os.path.dirname(HERE)
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, text=True,
                                capture_output=True, check=True).stdout.strip()
        changes = subprocess.run(["git", "status", "--porcelain", "--", "scorer"], cwd=root,
                                 text=True, capture_output=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown (no git)"
    return commit + ("+changes" if changes else "")


def progress(text: str) -> None:
    print(f"  .. {text}", file=sys.stderr, flush=True)


SCORER_COLUMNS = (("queries", 7), ("samples", 7), ("sub.lines", 9), ("scorer s", 8),
                  ("cpu s", 7), ("scorer MiB", 10), ("us/line", 7))
PERL_COLUMNS = (("perl s", 8), ("cpu s", 7), ("perl MiB", 8), ("speedup", 7))


def format_row(cells: list, columns: tuple, note: str = "") -> str:
    text = " ".join(str(cell).rjust(width) for cell, (_name, width) in zip(cells, columns))
    return text + ("  " + note if note else "")


def perl_skip_reason(history: dict, samples: int, lines: int, timeout: float) -> str:
    """Why a Perl run would not finish in time ('' if it may)."""
    earlier = history.get(samples)
    if earlier is None:
        return ""
    earlier_lines, earlier_run = earlier
    if earlier_run.status == "timeout":
        return "skipped: a smaller workload timed out"
    estimate = earlier_run.seconds * (lines / earlier_lines) ** 2
    if estimate > timeout:
        return f"skipped: estimated {estimate:.0f} s > {timeout:.0f} s"
    return ""


def time_perl(perl_dir, directory, samples_file, samples, lines, scorer, ours, history,
              options) -> tuple:
    """(table cells, note) of the Perl on one case."""
    skip = perl_skip_reason(history, samples, lines, options.perl_timeout)
    if skip:
        return ["-"] * 4, skip
    progress(f"{os.path.basename(directory)}, {samples} samples: Perl")
    runs = []
    for _ in range(options.repeat):
        measurement, theirs = run_perl(perl_dir, directory, samples_file, f"perl-b{samples}",
                                       options.perl_timeout)
        runs.append(measurement)
        if measurement.status != "ok":
            break
    perl = best_of(runs)
    history[samples] = (lines, perl)
    if perl.status == "timeout":
        return [f">{options.perl_timeout:g}", "-", "-", "-"], "Perl stopped at the timeout"
    if perl.status != "ok":
        return ["-"] * 4, f"Perl {perl.status}"
    return ([f"{perl.seconds:.2f}", f"{perl.cpu_seconds:.2f}", f"{perl.peak_mib:.0f}",
             f"{perl.seconds / scorer.seconds:.1f}x"], differences(ours, theirs))


def time_diff(size: int, repeat: int) -> tuple:
    """(table line, failed?) of python -m scorer.diff on the .debug files of
    one workload scored under the KB and the SF policy, beside scoring one of
    them (the two taking turns, the median CPU times compared: the diff is to
    be no slower than scoring)."""
    directory, _counts = ensure_workload(size)
    prefixes, scoring = [], {}
    for policy in ("kb", "sf"):
        out = fresh_directory(os.path.join(directory, f"diff-{policy}"))
        prefix = os.path.join(out, "run")
        progress(f"{size} LDC queries: scoring under configs/coldstart-{policy}.yaml")
        scoring[policy] = [sys.executable, "-m", "scorer", "-policy",
                           os.path.join(CONFIGS, f"coldstart-{policy}.yaml"), "-expand",
                           "CSSF17", "-error_file", "{prefix}.errlog", "-output_file",
                           "{prefix}", *workload.INPUT_FILES]
        scored = measure([part.format(prefix=prefix) for part in scoring[policy]], directory,
                         prefix)
        if scored.status != "ok":
            return f"diff: scoring under the {policy} policy failed ({scored.status})", True
        prefixes.append(prefix)
    out = fresh_directory(os.path.join(directory, "diff"))
    command = [sys.executable, "-m", "scorer.diff", "-output_file", os.path.join(out, "diff"),
               prefixes[0] + ".debug", prefixes[1] + ".debug"]
    progress(f"{size} LDC queries: scorer.diff, and scoring one run, taking turns")
    runs, scorings = [], []
    again = os.path.join(directory, "diff-scoring")
    for _ in range(repeat):
        fresh_directory(out)
        runs.append(measure(command, directory, os.path.join(out, "diff")))
        prefix = os.path.join(fresh_directory(again), "run")
        scorings.append(measure([part.format(prefix=prefix) for part in scoring["kb"]],
                                directory, prefix))
    # Exit status 1 means "something scores differently": expected here.
    runs = [dataclasses.replace(run, status="ok") if run.status == "exit 1" else run
            for run in runs]
    diff = best_of(runs)
    if diff.status != "ok":
        return f"diff: python -m scorer.diff failed ({diff.status})", True
    if best_of(scorings).status != "ok":
        return f"diff: scoring under the kb policy failed ({best_of(scorings).status})", True
    diff_cpu = statistics.median(run.cpu_seconds for run in runs)
    scoring_cpu = statistics.median(run.cpu_seconds for run in scorings)
    sizes = [os.path.getsize(prefix + ".debug") / 1e6 for prefix in prefixes]
    megabytes = diff.peak_mib * 1.048576
    within = diff.seconds < DIFF_TARGET_SECONDS and megabytes < DIFF_TARGET_MB \
        and diff_cpu <= scoring_cpu
    line = (f"diff of two {size}-LDC-query .debug files ({sizes[0]:.1f} MB, "
            f"{sizes[1]:.1f} MB; KB vs SF policy): {diff.seconds:.2f} s, "
            f"{diff.peak_mib:.0f} MiB peak, {diff_cpu:.2f} s cpu (median) where scoring one "
            f"run takes {scoring_cpu:.2f} s cpu: ratio {diff_cpu / scoring_cpu:.2f}; target "
            f"< {DIFF_TARGET_SECONDS:g} s, < {DIFF_TARGET_MB} MB and no slower than scoring: "
            f"{'met' if within else 'MISSED'}")
    return line, False


#: The speed targets: wall seconds of a 1,000-LDC-query run; speed-up over the
#: Perl at 500 LDC queries; seconds to parse the largest samples file alone.
TARGET_1000_SECONDS = 1.5
TARGET_500_SPEEDUP = 40.0
TARGET_SAMPLES_PARSE_SECONDS = 3.0
#: (LDC queries, samples) of the samples file that target is for (1.1 GB).
TARGET_SAMPLES_PARSE_CASE = (2000, 10000)
#: Wall seconds of the whole run on that case.
TARGET_SAMPLES_RUN_SECONDS = 20.0


def find_perl() -> tuple:
    """(the Perl scorer's directory or None, a note saying which or why not)."""
    candidates = [os.environ.get("SCORER_PERL_DIR"),
                  os.path.join(os.path.dirname(os.path.dirname(HERE)), "ColdStart")]
    for candidate in filter(None, candidates):
        if os.path.exists(os.path.join(candidate, "CS-Score-MASTER.pl")) and shutil.which("perl"):
            return os.path.abspath(candidate), (f"Perl scorer: {os.path.abspath(candidate)} "
                                                f"(--no-perl skips it)")
    return None, ("Perl scorer not found ($SCORER_PERL_DIR, ../ColdStart; or perl missing): "
                  "no comparison with it; --perl DIR names it")


def targets(rows_by_case: dict, with_perl: bool) -> list:
    """The Cold Start speed targets for the cases measured (cpu: user+system)."""
    lines = []
    if (1000, 0) in rows_by_case:
        run, _cells = rows_by_case[(1000, 0)]
        met = run.seconds < TARGET_1000_SECONDS
        lines.append(f"1,000 LDC queries: {run.seconds:.2f} s wall, {run.cpu_seconds:.2f} s cpu "
                     f"(target < {TARGET_1000_SECONDS:g} s: {'met' if met else 'MISSED'})")
    if (500, 0) in rows_by_case:
        run, cells = rows_by_case[(500, 0)]
        if not with_perl:
            lines.append("500 LDC queries: no Perl to compare with")
        elif len(cells) > len(SCORER_COLUMNS) and cells[len(SCORER_COLUMNS) + 1] != "-":
            perl_cpu = float(cells[len(SCORER_COLUMNS) + 1])
            speedup = perl_cpu / run.cpu_seconds
            met = speedup >= TARGET_500_SPEEDUP
            lines.append(f"500 LDC queries: {run.cpu_seconds:.2f} s cpu, the Perl "
                         f"{perl_cpu:.2f} s cpu: {speedup:.0f}x (target >= "
                         f"{TARGET_500_SPEEDUP:g}x: {'met' if met else 'MISSED'})")
    if TARGET_SAMPLES_PARSE_CASE in rows_by_case:
        run, _cells = rows_by_case[TARGET_SAMPLES_PARSE_CASE]
        met = run.seconds < TARGET_SAMPLES_RUN_SECONDS
        size, count = TARGET_SAMPLES_PARSE_CASE
        lines.append(f"{count:,} samples x {size:,} LDC queries: {run.seconds:.2f} s wall, "
                     f"{run.cpu_seconds:.2f} s cpu (target < {TARGET_SAMPLES_RUN_SECONDS:g} s: "
                     f"{'met' if met else 'MISSED'})")
    return lines


def time_samples_parse(sizes: list, sample_counts: list) -> str:
    """Parsing the largest samples file alone (scorer.bootstrap.read_samples)."""
    size, count = max(sizes), max(sample_counts)
    if count == 0:
        return ""
    directory, _counts = ensure_workload(size)
    name = ensure_samples(directory, count)
    megabytes = os.path.getsize(os.path.join(directory, name)) / 1e6
    progress(f"parsing {name} of {size} LDC queries alone")
    run = measure([sys.executable, "-c", "import sys; from scorer.bootstrap import "
                   "read_samples; read_samples(sys.argv[1])", name], directory,
                  os.path.join(directory, "parse-samples"))
    if run.status != "ok":
        return f"samples file parse: {run.status}"
    text = (f"samples file parse ({count:,} samples x {size:,} LDC queries, {megabytes:,.0f} MB): "
            f"{run.seconds:.2f} s wall, {run.cpu_seconds:.2f} s cpu, {run.peak_mib:.0f} MiB")
    if (size, count) != TARGET_SAMPLES_PARSE_CASE:
        return text
    met = run.seconds < TARGET_SAMPLES_PARSE_SECONDS
    return text + (f" (target < {TARGET_SAMPLES_PARSE_SECONDS:g} s: "
                   f"{'met' if met else 'MISSED'})")


#: A million samples of one LDC query (a hostile -bootstrap: 1.3 GB of
#: .samplescores): a result within this many seconds, progress on a terminal.
MILLION_SAMPLES = 1_000_000
TARGET_MILLION_SECONDS = 20.0


def time_million_samples(repeat: int) -> tuple:
    """``-bootstrap 1000000`` on one LDC query of the bundled demo: (the line
    to print, whether it failed)."""
    demo = os.path.join(os.path.dirname(HERE), "fixtures", "coldstart", "demo", "input")
    directory = fresh_directory(os.path.join(OUT, "million"))
    with open(os.path.join(directory, "one.txt"), "w", encoding="utf-8") as f:
        f.write("CS17_0001 CSSF17_ENG_47a114c77c\n")
    progress(f"{MILLION_SAMPLES:,} samples of one LDC query")
    runs = []
    for _ in range(repeat):
        runs.append(measure([sys.executable, "-m", "scorer", "-expand", "CSSF17", "-queries",
                             "one.txt", "-bootstrap", str(MILLION_SAMPLES), "-seed", "1",
                             "-output_file", "run"] + [os.path.join(demo, name) for name in
                                                       ("ldc-query.xml", "qrel.txt",
                                                        "DEMORUN.tab.txt")],
                            directory, os.path.join(directory, "scorer")))
        megabytes = sum(os.path.getsize(os.path.join(directory, name)) for name in
                        os.listdir(directory) if name.startswith("run.")) / 1e6
        for name in os.listdir(directory):
            if name.startswith("run."):
                os.remove(os.path.join(directory, name))   # 1.4 GB: not kept
    run = best_of(runs)
    if run.status != "ok":
        return f"{MILLION_SAMPLES:,} samples of one LDC query: {run.status}", True
    met = run.seconds < TARGET_MILLION_SECONDS
    return (f"{MILLION_SAMPLES:,} samples of one LDC query ({megabytes:,.0f} MB of reports): "
            f"{run.seconds:.2f} s wall, {run.cpu_seconds:.2f} s cpu, {run.peak_mib:.0f} MiB "
            f"(target < {TARGET_MILLION_SECONDS:g} s: {'met' if met else 'MISSED'})"), False


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="50,500,1000,2000", help="numbers of LDC queries")
    parser.add_argument("--samples", default="0,1000,10000", help="numbers of bootstrap samples")
    parser.add_argument("--repeat", type=int, default=1, help="runs per case (best time kept)")
    parser.add_argument("--perl", metavar="DIR",
                        help="also time CS-Score-MASTER.pl from DIR (default: $SCORER_PERL_DIR "
                             "or ../ColdStart when it is there)")
    parser.add_argument("--no-perl", action="store_true", help="do not time the Perl")
    parser.add_argument("--perl-timeout", type=float, default=None, metavar="SECONDS",
                        help="600 with --perl; 120 for a Perl found by itself")
    parser.add_argument("--no-samples-parse", action="store_true",
                        help="skip timing the parse of the largest samples file alone")
    parser.add_argument("--no-million", action="store_true",
                        help=f"skip -bootstrap {MILLION_SAMPLES:,} on one LDC query")
    parser.add_argument("--diff-size", type=int, default=1000, metavar="N",
                        help="LDC queries of the scorer.diff timing (0: skip it)")
    options = parser.parse_args()
    cache_bytecode()
    sizes = [int(size) for size in options.sizes.split(",")]
    sample_counts = [int(count) for count in options.samples.split(",")]
    perl_dir = os.path.abspath(options.perl) if options.perl else None
    if perl_dir and not (shutil.which("perl")
                         and os.path.exists(os.path.join(perl_dir, "CS-Score-MASTER.pl"))):
        parser.error(f"--perl: needs perl and {perl_dir}/CS-Score-MASTER.pl")
    perl_found = "Perl scorer not timed (--no-perl)" if options.no_perl else ""
    if perl_dir is None and not options.no_perl:
        perl_dir, perl_found = find_perl()
    if options.perl_timeout is None:
        options.perl_timeout = 600.0 if options.perl else 120.0

    version = scorer_version()
    columns = SCORER_COLUMNS + (PERL_COLUMNS if perl_dir else ())
    rows, failures, perl_history, rows_by_case = [], 0, {}, {}
    for size in sizes:
        directory, counts = ensure_workload(size)
        lines = counts["submission_lines"]
        for samples in sample_counts:
            samples_file = ensure_samples(directory, samples)
            progress(f"{size} LDC queries, {samples} samples: scorer")
            runs = [run_scorer(directory, samples_file, f"scorer-b{samples}")
                    for _ in range(options.repeat)]
            scorer, ours = best_of([measurement for measurement, _ in runs]), runs[-1][1]
            problem = scorer_problems(ours) if scorer.status == "ok" else scorer.status
            failures += bool(problem)
            cells = [size, samples, lines, f"{scorer.seconds:.2f}", f"{scorer.cpu_seconds:.2f}",
                     f"{scorer.peak_mib:.0f}", f"{scorer.seconds / lines * 1e6:.0f}"]
            note = f"SCORER PROBLEM: {problem}" if problem else ""
            if perl_dir:
                perl_cells, perl_note = time_perl(perl_dir, directory, samples_file, samples,
                                                  lines, scorer, ours, perl_history, options)
                cells += perl_cells
                note = note or perl_note
            rows.append(format_row(cells, columns, note))
            rows_by_case[(size, samples)] = (scorer, cells)
            progress(rows[-1])
    target_lines = targets(rows_by_case, perl_dir is not None)
    samples_line = time_samples_parse(sizes, sample_counts) if not options.no_samples_parse else ""
    million_line = ""
    if not options.no_million:
        million_line, million_failed = time_million_samples(options.repeat)
        failures += million_failed
    diff_line = ""
    if options.diff_size:
        diff_line, diff_failed = time_diff(options.diff_size, options.repeat)
        failures += diff_failed

    print()
    print(format_row([name for name, _width in columns], columns,
                     "Perl reports vs scorer's" if perl_dir else ""))
    print("\n".join(rows))
    if perl_found:
        print("\n" + perl_found)
    if target_lines:
        print("\n" + "\n".join(target_lines))
    if samples_line:
        print("\n" + samples_line)
    if million_line:
        print("\n" + million_line)
    if diff_line:
        print("\n" + diff_line)
    final_version = scorer_version()
    notes = [
        f"scorer {version}" + (f" ({final_version} at the end)" if final_version != version else "")
        + f": python -m scorer -expand CSSF17 [-samples bootN.txt] {' '.join(workload.INPUT_FILES)}"
        f" in {os.path.relpath(OUT)}/qN",
        f"s: wall seconds, best of {options.repeat}; cpu s: user+system of the child; MiB: its peak"
        " resident memory; us/line: wall per submission line",
        *(["speedup: Perl wall / scorer wall; Perl run with PERL_HASH_SEED=0, stopped after "
           f"{options.perl_timeout:g} s"] if perl_dir else []),
        f"load average at the end: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs"]
    print("\n" + "\n".join(notes))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
