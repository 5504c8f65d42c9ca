"""``python -m scorer.track``: the track's switches, then the scorer's.

    python -m scorer.track [scorer switches] -output_dir DIR [-jobs N] [-metric NAME]
                           [-compare all|adjacent | -baseline RUN] [-correction holm|bh]
                           [-trials R] [-clusters FILE] [-slices SPEC]
                           [-power SIZES [-power_method simulation|normal]]
                           [-figure_width IN] FILES...
"""
from __future__ import annotations

if __name__ == "__main__":
    # A command-line process: its settings (one BLAS thread, the allocator
    # keeping freed blocks for the bootstrap; scorer/processenv.py) before
    # the imports below load numpy.  Forked workers inherit them.
    from scorer.processenv import prepare_command_line_process
    prepare_command_line_process()

import dataclasses  # noqa: E402
import os  # noqa: E402
import sys  # noqa: E402
import textwrap  # noqa: E402
from typing import Optional  # noqa: E402

from scorer import stopping, switches, tasks  # noqa: E402
from scorer.problems import ERROR_EXIT_STATUS, ScorerError  # noqa: E402
from scorer.switches import Switch, UsageError  # noqa: E402
from scorer.limits import shorten  # noqa: E402
from scorer.track import errata, published, verify  # noqa: E402
from scorer.track.build import (COMPARE_CHOICES, CORRECTION_CHOICES, DEFAULT_TRIALS,  # noqa: E402
                                TrackOptions, build, track_request)
from scorer.track.power import check_method, read_sizes  # noqa: E402
from scorer.track.runner import EMPTY  # noqa: E402
from scorer.display.plot import DEFAULT_WIDTH_IN as DEFAULT_FIGURE_WIDTH, check_width  # noqa: E402

#: The track's own switches (each takes a value).
TRACK_SWITCHES = (
    Switch("output_dir", help="The track folder to write (new, empty, or an earlier track's) "
                              "(Required)"),
    Switch("jobs", help="Runs scored at once, in separate processes (Default = the number of "
                        "CPUs)"),
    Switch("metric", help="The headline metric that ranks the runs (see below; Default = the "
                          "official score of the task)"),
    Switch("compare", help=f"Pairs tested: {' or '.join(COMPARE_CHOICES)} (rank neighbours "
                           f"only) (Default = all)"),
    Switch("baseline", help="Compare every run with this run only (pairs: runs - 1), instead "
                            "of -compare"),
    Switch("correction", help=f"The adjustment for many pairs that decides 'significant' and "
                              f"the groups: {' or '.join(CORRECTION_CHOICES)} (Holm: "
                              f"family-wise error; bh: Benjamini-Hochberg, false discovery "
                              f"rate) (Default = holm)"),
    Switch("trials", help=f"Approximate randomization trials per pair, exactly, at most as "
                          f"many as the track's size allows (Default = {DEFAULT_TRIALS}, with the "
                          f"exact sign test or a normal approximation for the tail they cannot "
                          f"resolve)"),
    Switch("clusters", help="A file of two columns, unit id and cluster id: whole clusters are "
                            "drawn and swapped, for units that are not independent (needs "
                            "-bootstrap)"),
    Switch("figure_width", help="The leaderboard picture's width in inches: 3.3 for one column "
                                "of a two-column page, 7 for the page's width (Default = 7)"),
    Switch("slices", help="A leaderboard per slice of the units, with intervals, rank ranges, "
                          "groups and paired tests from the track's one draw: a built-in "
                          "slicing (label: SciFact, FEVER, the label tasks; slot, language, hop: "
                          "Cold Start with -expand), field:KEY (a key "
                          "of the gold's lines) or file:PATH (unit id, slice name a line)"),
    Switch("power", help="SIZES: how many units a difference needs, at these multiples of the "
                         "track's units, such as 0.5,1,2,4: power.csv (the smallest difference "
                         "significant with 80 % power, uncorrected and corrected for the pairs "
                         "compared), power_pairs.csv (each rank neighbours' units needed), "
                         "power.png"),
    Switch("power_method", help="How -power finds the 80 % point: simulation (paired bootstrap "
                                "simulation at each size, under the track's test and "
                                "correction) or normal (the normal approximation) (Default = "
                                "simulation)"),
    Switch("errata", help="OLD_TRACK_DIR: a published track; the track is scored again into "
                          "-output_dir, with errata.md, .csv and .tex saying what changed (the "
                          "golds' SHA-256, every run's headline, rank, range and group, the "
                          "gold's units changed)"),
    Switch("old_gold", help="With -errata: the published track's shared files, FILE[,FILE...] "
                            "(Default = the files its track.params names, where their SHA-256 "
                            "still matches)"),
    Switch("verify", help="LEADERBOARD_JSON: recompute a published leaderboard from FILES (and "
                          "these switches), without -output_dir; exit 0 only when every number "
                          "is reproduced exactly, else each differing number and the part of "
                          "the signature that differs are named (exit 1)"),
)


def usage() -> str:
    lines = ["python -m scorer.track:  Score every run of a track, rank them, put 95% "
             "intervals on the headline score and test the differences", "",
             "Usage: python -m scorer.track [scorer switches] -output_dir DIR [-jobs N] "
             "[-metric NAME] [-compare all|adjacent | -baseline RUN] [-correction holm|bh] "
             "[-trials R] [-clusters FILE] [-slices SPEC] [-power SIZES [-power_method M]] "
             "[-figure_width IN] "
             "FILES...", "",
             "FILES: the files every run shares, then the runs':"]
    for task in tasks.every():
        lines += textwrap.wrap(f"{task.title}: {task.track.files_help}", width=80,
                               initial_indent="  ", subsequent_indent="    ")
    lines += ["", "Track switches:"]
    for switch in TRACK_SWITCHES:
        lines += textwrap.wrap(switch.help, width=80,
                               initial_indent=f"  -{switch.name} <value>".ljust(27),
                               subsequent_indent=" " * 29)
    lines += ["  -help, -version          this text; the version of scorer", "",
              "Every switch of python -m scorer is taken too, with the same meaning "
              "(-policy, -expand, -queries, -justifications, -bootstrap N -seed S, -samples "
              "FILE, ...); -output_file, -error_file and -runids are the track's to decide.",
              "", "Metrics (-metric):"]
    for task in tasks.every():
        for heading, catalogue in task.scoring.catalogues():
            lines += textwrap.wrap(f"{heading}: " + ", ".join(name for name, _ in catalogue)
                                   + " (the first is the default)",
                                   width=80, initial_indent="  ", subsequent_indent="    ")
    return "\n".join(lines) + "\n"


def options_from(given: dict) -> TrackOptions:
    if "verify" in given:
        if "output_dir" in given:
            raise UsageError("-verify recomputes without writing: give no -output_dir")
        if "errata" in given:
            raise UsageError("give -verify or -errata, not both")
        others = {name: value for name, value in given.items() if name != "verify"}
        # (the other switches read as for a track, which writes nothing here)
        return dataclasses.replace(options_from({**others, "output_dir": "-"}),
                                   output_dir=None)
    if "old_gold" in given and "errata" not in given:
        raise UsageError("-old_gold goes with -errata OLD_TRACK_DIR")
    if "output_dir" not in given:
        raise UsageError("-output_dir DIR is required: the track writes a folder")
    numbers = {}
    for name, default in (("jobs", os.cpu_count() or 1), ("trials", None)):
        text = given.get(name)
        if text is None:
            numbers[name] = default
        elif not (text.isascii() and text.isdigit()) or len(text) > 9 or int(text) < 1:
            # (the length first: Python converts at most 4,300 digits)
            raise UsageError(f"-{name} must be a whole number of at least 1, not "
                             f"'{shorten(text)}'", brief=True)
        else:
            numbers[name] = int(text)
    width = DEFAULT_FIGURE_WIDTH
    if "figure_width" in given:
        try:
            width = check_width(given["figure_width"])
        except ValueError as error:
            raise UsageError(f"-figure_width {error}", brief=True) from None
    return TrackOptions(output_dir=given["output_dir"], jobs=numbers["jobs"],
                        metric=given.get("metric"), compare=given.get("compare", "all"),
                        trials=numbers["trials"], correction=given.get("correction", "holm"),
                        baseline=given.get("baseline"), clusters=given.get("clusters"),
                        figure_width=width, slices=given.get("slices"),
                        power=_power_sizes(given.get("power")),
                        power_method=_power_method(given))


def _power_sizes(text: Optional[str]):
    if text is None:
        return None
    try:
        return read_sizes(text)
    except ValueError as error:
        raise UsageError(str(error), brief=True) from None


def _power_method(given: dict) -> str:
    method = given.get("power_method", "simulation")
    if "power_method" in given and "power" not in given:
        raise UsageError("-power_method goes with -power SIZES", brief=True)
    try:
        return check_method(method)
    except ValueError as error:
        raise UsageError(str(error), brief=True) from None


def main(argv: Optional[list] = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        given, files = switches.parse(argv, switches.table(switches.scorer_table(),
                                                           TRACK_SWITCHES))
        if switches.answered(given, usage):
            return 0
        options = options_from(given)
    except UsageError as error:
        sys.stdout.write(switches.usage_error_text(error, usage()))
        return ERROR_EXIT_STATUS
    own = {switch.name for switch in TRACK_SWITCHES}
    scorer_given = {name: value for name, value in given.items() if name not in own}
    try:
        with stopping.stop_on_signals():
            request = track_request(files, scorer_given.pop("policy", None),
                                    samples=scorer_given.pop("samples", None),
                                    bootstrap=scorer_given.pop("bootstrap", None),
                                    seed=scorer_given.pop("seed", None), argv=argv,
                                    **scorer_given)
            if "verify" in given:
                return _verify(given["verify"], request, options)
            republished = _errata_inputs(given, options) if "errata" in given else None
            result = build(request, options)
            if republished is not None:
                shared = tasks.get(request.policy.task).track.find_runs(list(request.files))[0]
                errata.write(republished[0], result, republished[1], shared,
                             options.output_dir)
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


def _errata_inputs(given: dict, options) -> tuple:
    """The published track and its gold, read before anything is scored."""
    if not os.path.isdir(given["errata"]):
        raise ScorerError(f"-errata {given['errata']}: not a folder; give the published track's "
                          f"folder (its leaderboard.json and track.params)")
    old = published.read(given["errata"])
    if os.path.realpath(old.folder) == os.path.realpath(options.output_dir):
        raise ScorerError(f"-output_dir {options.output_dir} is the published track "
                          f"-errata reads; write the re-scored track to another folder")
    given_gold = [path for path in given.get("old_gold", "").split(",") if path]
    return old, errata.old_gold(old, given_gold)


def _verify(leaderboard: str, request, options) -> int:
    old = published.read(leaderboard)
    result = build(request, options)
    shared = tasks.get(request.policy.task).track.find_runs(list(request.files))[0]
    status, text = verify.report(*verify.differences(old, result, shared), leaderboard)
    sys.stdout.write(text)
    return status


if __name__ == "__main__":
    from scorer.quickexit import exit_now
    # Without waiting for threads: after a stop, the pool's thread may be stuck
    # on the pipe of a worker killed mid-message (scorer/track/runner.py).
    exit_now(main(), abandon_threads=True)
