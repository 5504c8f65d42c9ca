#!/usr/bin/env python3
"""Time ``python -m scorer -validate`` (one command: validate the raw run in
memory, score what the validator keeps) beside the official two steps,
CS-ValidateSF-MASTER.pl then CS-Score-MASTER.pl on its validated file, on a
generated run, with and without -docs.

    python bench/validate_score_bench.py [--lines 100000] [--perl DIR | --no-perl]
                                         [--perl-lines 3000,6000] [--repeat N]

The workload is bench/validate_bench.py's (cached under bench/out/): a run of
about --lines lines, its assessments, the LDC query file (scored with
``-expand CSSF17``), the SF query file the Perl validator reads (what
``validatequeries -expand`` makes of it) and a corpus for -docs.  Each
command runs as a child process (wall seconds, best of --repeat; CPU
seconds; peak memory from GNU time, as validate_bench.py measures them).  The
scorer's line is also timed without -validate (the raw run, with the one
warning saying what the validator would drop), for the cost of validating.

The Perl's two steps grow with the square of the run's lines, so they are
timed on the run's first --perl-lines lines (each step alone; their sum is
the Perl's time), beside ``python -m scorer -validate`` on the same lines,
whose reports are compared with those of ``python -m scorer`` on the Perl's
validated file (they must be the same) and with the Perl's own: "same", or
which differ (.debug with the ``:NIL_`` letters aside: the Perl draws them at
random; .ldcmax and the LDC-MAX lines of .summary where entry points tie,
which the Perl breaks in its hash order, as bench/run_bench.py says).  The Perl's
time on the whole run is extrapolated from the largest two sizes, each step
as a power of the lines.

Below the table, the target: ``python -m scorer -validate`` on the whole run
faster (CPU seconds) than the Perl's validate-then-score, with and without
-docs.  Exit status 1 when it is missed, a command fails, or reports differ.
"""
from __future__ import annotations

import argparse
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

import workload  # noqa: E402
from run_bench import cache_bytecode, find_perl, fresh_directory  # noqa: E402
from validate_bench import (extrapolated, measure_alone, prefix_run,  # noqa: E402
                            workload_folder)

#: The reports compared with the Perl's (.params and .errlog hold times and paths).
COMPARED = ("sf", "ldcmax", "ldcmean", "summary", "ap", "debug")
_NIL = re.compile(rb":NIL_[A-Za-z]{4}")
ENV = dict(os.environ, PYTHONPATH=ROOT, PERL_HASH_SEED="0", PERL_PERTURB_KEYS="0")


def ours(folder: str, run: str, docs: bool, validate: bool, label: str, repeat: int):
    """(best Measurement, output prefix) of python -m scorer on ``run``."""
    out = fresh_directory(os.path.join(folder, label))
    prefix = os.path.join(out, "run")
    command = [sys.executable, "-m", "scorer", *(["-validate"] if validate else []),
               *(["-docs", "doclength.txt"] if docs else []), "-expand", workload.EXPAND_BASE,
               "-error_file", prefix + ".errlog", "-output_file", prefix,
               "ldc-query.xml", "qrel.txt", run]
    best = None
    for _ in range(repeat):
        for name in os.listdir(out):
            os.unlink(os.path.join(out, name))
        found = measure_alone(command, folder, os.path.join(folder, label), env=ENV)
        if best is None or found.seconds < best.seconds:
            best = found
    return best, prefix


def perl(perl_dir: str, folder: str, run: str, docs: bool, label: str):
    """(validator Measurement, scorer Measurement or None, output prefix) of the
    Perl's two steps on ``run``."""
    out = fresh_directory(os.path.join(folder, label))
    valid = os.path.join(out, "run.valid.ldc.tab.txt")
    validator = measure_alone(
        ["perl", "-I" + perl_dir, os.path.join(perl_dir, "CS-ValidateSF-MASTER.pl"),
         *(["-docs", "doclength.txt"] if docs else []), "-error_file",
         os.path.join(out, "valid.errlog"), "-output_file", valid, "sf-query.xml", run],
        folder, os.path.join(out, "validate"), env=ENV)
    if validator.status != "ok":
        return validator, None, None
    prefix = os.path.join(out, "run")
    scorer = measure_alone(
        ["perl", "-I" + perl_dir, os.path.join(perl_dir, "CS-Score-MASTER.pl"), "-expand",
         workload.EXPAND_BASE, "-error_file", prefix + ".errlog", "-output_file", prefix,
         "ldc-query.xml", "qrel.txt", valid], folder, os.path.join(out, "score"), env=ENV)
    return validator, scorer, prefix


def differences(mine: str, theirs: str) -> str:
    different = []
    for report in COMPARED:
        paths = (f"{mine}.{report}", f"{theirs}.{report}")
        if not all(os.path.exists(path) for path in paths):
            different.append(f"{report} (missing)")
            continue
        texts = []
        for path in paths:
            with open(path, "rb") as f:
                texts.append(_NIL.sub(b":NIL_????", f.read()))
        if texts[0] != texts[1]:
            different.append(report)
    return "same" if not different else "DIFFER: " + ", ".join(different)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--perl", help="a checkout of jamesmayfield/ColdStart")
    parser.add_argument("--no-perl", action="store_true")
    parser.add_argument("--perl-lines", default="3000,6000",
                        help="sizes of the runs the Perl is timed on (comma-separated)")
    parser.add_argument("--repeat", type=int, default=3)
    options = parser.parse_args()
    cache_bytecode()
    perl_dir, note = (None, "Perl: --no-perl") if options.no_perl else (
        (os.path.abspath(options.perl), f"Perl: {options.perl}") if options.perl
        else find_perl())
    print(f"python -m scorer -validate beside CS-ValidateSF then CS-Score; {note}")
    folder = workload_folder(options.lines, options.seed)
    whole = f"{workload.RUNID}.tab.txt"
    with open(os.path.join(folder, whole), encoding="utf-8") as f:
        lines = sum(1 for _ in f)
    print(f"workload: {folder} ({lines:,} lines)")
    print(f"{'case':<30} {'lines':>8} {'wall s':>8} {'cpu s':>8} {'MiB':>7}  note")
    failed = False
    results = {}
    for docs in (False, True):
        name = "-docs" if docs else "no -docs"
        if not docs:
            raw, _prefix = ours(folder, whole, False, False, "scorer-raw", options.repeat)
            failed |= raw.status != "ok"
            print(f"{'scorer (raw run, checked)':<30} {lines:>8,} {raw.seconds:>8.2f} "
                  f"{raw.cpu_seconds:>8.2f} {raw.peak_mib:>7.0f}  {raw.status}")
        mine, _prefix = ours(folder, whole, docs, True, f"scorer-validate-{docs}",
                             options.repeat)
        failed |= mine.status != "ok"
        print(f"{'scorer -validate ' + name:<30} {lines:>8,} {mine.seconds:>8.2f} "
              f"{mine.cpu_seconds:>8.2f} {mine.peak_mib:>7.0f}  {mine.status}")
        if not perl_dir:
            continue
        points = []
        for size in [int(size) for size in options.perl_lines.split(",") if size]:
            run = prefix_run(folder, size)
            validator, scorer, theirs = perl(perl_dir, folder, run, docs, f"perl-{docs}-{size}")
            if scorer is None:
                failed = True
                print(f"{'  Perl validate ' + name:<30} {size:>8,}  {validator.status}")
                continue
            same, validated = ours(folder, run, docs, True, f"scorer-{docs}-{size}", 1)
            # The must-hold: -validate on the raw run scores as the Perl's validated file.
            _m, on_perls = ours(folder, os.path.join(os.path.dirname(theirs),
                                                     "run.valid.ldc.tab.txt"),
                                False, False, f"scorer-perl-valid-{docs}-{size}", 1)
            compared = differences(validated, on_perls)
            against_perl = differences(validated, theirs)
            failed |= scorer.status != "ok" or compared != "same" or \
                against_perl not in ("same", "DIFFER: ldcmax, summary")
            points.append((size, validator, scorer))
            for step, measured in (("validate", validator), ("score", scorer)):
                print(f"{'  Perl ' + step + ' ' + name:<30} {size:>8,} {measured.seconds:>8.2f} "
                      f"{measured.cpu_seconds:>8.2f} {measured.peak_mib:>7.0f}  "
                      f"{measured.status}")
            print(f"{'  scorer -validate ' + name:<30} {size:>8,} {same.seconds:>8.2f} "
                  f"{same.cpu_seconds:>8.2f} {same.peak_mib:>7.0f}  reports {compared} as "
                  f"scoring the Perl's validated file; beside CS-Score's: {against_perl}"
                  + (" (LDC-MAX ties, the Perl's hash order)" if "ldcmax" in against_perl
                     else ""))
        if len(points) >= 2:
            validate_s, _mib, validate_power = extrapolated(
                [(size, v) for size, v, _s in points], lines)
            score_s, _mib, score_power = extrapolated([(size, s) for size, _v, s in points],
                                                      lines)
            how = (f"extrapolated from {points[-2][0]:,} and {points[-1][0]:,} lines: validate "
                   f"~ lines^{validate_power:.2f}, score ~ lines^{score_power:.2f}")
            results[name] = (mine, validate_s + score_s, how)
    if results:
        print()
        print("target (the whole run): python -m scorer -validate faster than the Perl's "
              "validate-then-score (CPU seconds)")
        for name, (mine, perl_seconds, how) in results.items():
            ok = mine.cpu_seconds < perl_seconds
            failed |= not ok
            print(f"  {name}: {mine.cpu_seconds:,.1f} s against {perl_seconds:,.0f} s "
                  f"({perl_seconds / max(mine.cpu_seconds, 1e-9):,.0f}x; {how}) "
                  f"{'ok' if ok else 'MISSED'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
