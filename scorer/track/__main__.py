"""``python -m scorer.track``: the track's switches, then the scorer's.

    python -m scorer.track [scorer switches] -output_dir DIR [-jobs N] [-metric NAME]
                           [-compare all|adjacent | -baseline RUN] [-correction holm|bh]
                           [-trials R] [-clusters FILE] FILES...
"""
from __future__ import annotations

if __name__ == "__main__":
    # A command-line process: its settings (one BLAS thread, the allocator
    # keeping freed blocks for the bootstrap; scorer/processenv.py) before
    # the imports below load numpy.  Forked workers inherit them.
    from scorer.processenv import prepare_command_line_process
    prepare_command_line_process()

import os  # noqa: E402
import sys  # noqa: E402
import textwrap  # noqa: E402
from typing import Optional  # noqa: E402

from scorer import cli, stopping  # noqa: E402
from scorer.problems import ERROR_EXIT_STATUS, ScorerError  # noqa: E402
from scorer.catalogue import metric_catalogue  # noqa: E402
from scorer.track.build import (COMPARE_CHOICES, CORRECTION_CHOICES, DEFAULT_TRIALS,  # noqa: E402
                                TrackOptions, build)
from scorer.track.runner import EMPTY  # noqa: E402

#: The track's own switches (each takes a value) and their help.
TRACK_SWITCHES = {
    "output_dir": "The track folder to write (new, empty, or an earlier track's) (Required)",
    "jobs": "Runs scored at once, in separate processes (Default = the number of CPUs)",
    "metric": "The headline metric that ranks the runs (see below; Default = the official "
              "score of the task)",
    "compare": f"Pairs tested: {' or '.join(COMPARE_CHOICES)} (rank neighbours only) "
               f"(Default = all)",
    "baseline": "Compare every run with this run only (pairs: runs - 1), instead of "
                "-compare",
    "correction": f"The adjustment for many pairs that decides 'significant' and the groups: "
                  f"{' or '.join(CORRECTION_CHOICES)} (Holm: family-wise error; bh: "
                  f"Benjamini-Hochberg, false discovery rate) (Default = holm)",
    "trials": f"Approximate randomization trials per pair, exactly (Default = {DEFAULT_TRIALS}, "
              f"with the normal approximation of the tail they cannot resolve)",
    "clusters": "A file of two columns, unit id and cluster id: whole clusters are drawn "
                "and swapped, for units that are not independent (needs -bootstrap)",
}


def usage() -> str:
    lines = ["python -m scorer.track:  Score every run of a track, rank them, put 95% "
             "intervals on the headline score and test the differences", "",
             "Usage: python -m scorer.track [scorer switches] -output_dir DIR [-jobs N] "
             "[-metric NAME] [-compare all|adjacent | -baseline RUN] [-correction holm|bh] "
             "[-trials R] [-clusters FILE] FILES...", "",
             "FILES: Cold Start: the query XML, the assessment file(s), then run files or "
             "folders (every run id is a run); SciFact, FEVER: the gold file, then one "
             "predictions file per run (named by the file name without extension).", "",
             "Track switches:"]
    for name, text in TRACK_SWITCHES.items():
        lines += textwrap.wrap(text, width=80, initial_indent=f"  -{name} <value>".ljust(27),
                               subsequent_indent=" " * 29)
    lines += ["", "Every switch of python -m scorer is taken too, with the same meaning "
              "(-policy, -expand, -queries, -justifications, -bootstrap N -seed S, -samples "
              "FILE, ...); -output_file, -error_file and -runids are the track's to decide.",
              "", "Metrics (-metric):"]
    for task, has_index, heading in (("coldstart", True, "Cold Start with -expand"),
                                     ("coldstart", False, "Cold Start without -expand"),
                                     ("scifact", False, "SciFact"), ("fever", False, "FEVER")):
        names = [name for name, _title in metric_catalogue(task, has_index)]
        lines += textwrap.wrap(f"{heading}: " + ", ".join(names) + " (the first is the default)",
                               width=80, initial_indent="  ", subsequent_indent="    ")
    return "\n".join(lines) + "\n"


def split_arguments(argv: list) -> tuple:
    """(track switches, the scorer's arguments)."""
    track: dict = {}
    rest = []
    i = 0
    while i < len(argv):
        name = argv[i][1:] if argv[i].startswith("-") else None
        if name in TRACK_SWITCHES:
            if i + 1 >= len(argv):
                raise cli.UsageError(f"Switch -{name} needs a value")
            if cli.is_switch(argv[i + 1], TRACK_SWITCHES):
                # A forgotten value: the next switch would be taken for it.
                raise cli.UsageError(f"Switch -{name} needs a value, not the switch "
                                     f"{argv[i + 1]}")
            track[name] = argv[i + 1]
            i += 2
            continue
        rest.append(argv[i])
        i += 1
    return track, rest


def options_from(track: dict) -> TrackOptions:
    if "output_dir" not in track:
        raise cli.UsageError("-output_dir DIR is required: the track writes a folder")
    numbers = {}
    for name, default in (("jobs", os.cpu_count() or 1), ("trials", None)):
        text = track.get(name)
        if text is None:
            numbers[name] = default
        elif not text.isdigit() or int(text) < 1 or len(text) > 9:
            raise cli.UsageError(f"-{name} must be a whole number of at least 1, not '{text}'")
        else:
            numbers[name] = int(text)
    return TrackOptions(output_dir=track["output_dir"], jobs=numbers["jobs"],
                        metric=track.get("metric"), compare=track.get("compare", "all"),
                        trials=numbers["trials"], correction=track.get("correction", "holm"),
                        baseline=track.get("baseline"), clusters=track.get("clusters"))


def main(argv: Optional[list] = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if any(a in ("-help", "-h", "--help") for a in argv):
        sys.stdout.write(usage())
        return 0
    try:
        track, rest = split_arguments(argv)
        options = options_from(track)
        given, files = cli.parse_arguments(rest)
        if given.get("version") or given.get("help"):
            return cli.main(rest)
    except cli.UsageError as error:
        sys.stdout.write(f"ERROR: {error}\n\n{usage()}")
        return ERROR_EXIT_STATUS
    try:
        with stopping.stop_on_signals():
            result = build(given, files, argv, options)
    except ScorerError as error:
        sys.stderr.write(f"FATAL_ERROR: {error}\n")
        return error.exit_status
    except (stopping.Stopped, KeyboardInterrupt) as stop:
        name = stop.name if isinstance(stop, stopping.Stopped) else "SIGINT"
        sys.stderr.write(f"FATAL_ERROR: Stopped by {name}; the track folder was not written\n")
        return stop.exit_status if isinstance(stop, stopping.Stopped) else 130
    for warning in result.warnings:
        sys.stderr.write(f"WARNING: {warning}\n")
    failed = [r for r in result.results if r.status != "ok"]
    for r in failed:
        what = "scored nothing (its files hold no response)" if r.status == EMPTY \
            else "has errors"
        sys.stderr.write(f"ERROR: run {r.name} {what}: see "
                         f"{os.path.join(options.output_dir, 'runs', r.name, 'run.errlog')}\n")
    return result.exit_status


if __name__ == "__main__":
    from scorer.quickexit import exit_now
    # Without waiting for threads: after a stop, the pool's thread may be stuck
    # on the pipe of a worker killed mid-message (scorer/track/runner.py).
    exit_now(main(), abandon_threads=True)
