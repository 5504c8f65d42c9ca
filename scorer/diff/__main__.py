"""``python -m scorer.diff``: what changed between two report sets, and what it
did to the scores.

    python -m scorer.diff [-output_file PREFIX] [-query ID[:ID...]] [-top N] A B

A and B are report prefixes (``out/run``: its ``.debug``, with ``.sf``,
``.ldcmax`` and ``.summary`` where present) or ``.debug`` files (then the reports beside them
are read too).  Exit status as ``diff``: 0 when nothing that scores differs,
1 when something does, 255 on errors.
"""
from __future__ import annotations

import os
import sys

from scorer import gcpause, output, quickexit, stopping, switches
from scorer.diff import align, debugfile, render
from scorer.diff.changes import Side
from scorer.diff.scoretables import read_table
from scorer.limits import shorten
from scorer.problems import ERROR_EXIT_STATUS, ScorerError
from scorer.switches import Switch, UsageError

USAGE = """\
Usage: python -m scorer.diff [-output_file PREFIX] [-query ID[:ID...]] [-top N] A B
  A, B            report prefixes (out/run: reads out/run.debug, and .sf, .ldcmax and
                  .summary where present) or .debug files (Cold Start, ours or the Perl
                  2017.2.0's; SciFact; FEVER)
  -output_file P  write P.diff (the text) and P.diff.csv (one row per change);
                  without it the text goes to standard output
  -query IDS      only these SF query (claim, LDC query) ids or SF rows (Q:1), separated
                  by ':'; a short id (47a114c77c) stands for its full id
  -top N          how many queries to list by change in F1 and in AP (default 20)
  -help           this text
  -version        the version of scorer
Exit status: 0 nothing that scores differs, 1 something does, 255 errors.
"""
SWITCHES = switches.table((Switch("output_file"), Switch("query"), Switch("top"),
                           switches.HELP, switches.H, switches.VERSION))
DEFAULT_TOP = 20


def load_side(name: str) -> Side:
    """A side from a prefix or a .debug file, with the tables found beside it."""
    if os.path.isfile(name):
        debug_path = name
        prefix = name[:-len(".debug")] if name.endswith(".debug") else None
    elif os.path.isfile(name + ".debug"):
        debug_path, prefix = name + ".debug", name
    else:
        raise ScorerError(f"{name}: neither a .debug file nor a report prefix "
                          f"(there is no {name}.debug)")
    debug = debugfile.read(debug_path)
    side = Side(name, debug)
    if prefix is not None:
        from scorer import registry
        for extension in registry.get(debug.task).diff.tables:
            path = f"{prefix}.{extension}"
            if os.path.isfile(path):
                setattr(side, extension, read_table(path))
    return side


def parse_switches(argv: list) -> tuple:
    """(options, the two sides); ({"help": True} or {"version": True}, [])."""
    try:
        options, files = switches.parse(argv, SWITCHES, files_needed=False)
    except UsageError as error:
        raise ScorerError(str(error))
    if options.get("help") or options.get("version"):
        return options, []
    if len(files) != 2:
        raise ScorerError(f"expected two report sets A and B, got {len(files)}")
    top = options.get("top", str(DEFAULT_TOP))
    # (the length first: Python converts at most 4,300 digits)
    if not (top.isascii() and top.isdigit()) or len(top) > 9 or int(top) < 1:
        raise ScorerError(f"-top needs a whole number of at least 1, not '{shorten(top)}'")
    options["top"] = int(top)
    prefix = options.get("output_file")
    if prefix is not None and os.path.basename(prefix.strip()) in ("", ".", ".."):
        # An empty prefix, a directory ('.', 'out/') would write hidden files (.diff, ..diff).
        raise ScorerError(f"-output_file needs a file name prefix (it writes PREFIX.diff and "
                          f"PREFIX.diff.csv), not '{prefix}'")
    if "query" in options:
        queries = [q for q in options["query"].split(":") if q]
        if not queries:
            raise ScorerError("-query needs at least one id")
        options["query"] = tuple(queries)
    return options, files


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        options, files = parse_switches(argv)
    except ScorerError as error:
        sys.stderr.write(f"ERROR: {error}\n\n{USAGE}")
        return ERROR_EXIT_STATUS
    if switches.answered(options, USAGE):
        return 0
    try:
        prefix = options.get("output_file")
        if prefix is not None:
            output.check_writable(prefix + ".diff")
        # Two large .debug files are hundreds of thousands of small records
        # that form no cycles: the cyclic collector, paused, does not walk
        # them again and again (a quarter of the diff's time).
        with gcpause.paused():
            a, b = load_side(files[0]), load_side(files[1])
            if a.debug.task != b.debug.task:
                raise ScorerError(f"{files[0]} is a {a.debug.task} report and {files[1]} a "
                                  f"{b.debug.task} report: nothing to compare")
            diff = align.diff_sides(a, b, align.select_queries(a, b, options.get("query")))
        quickexit.keep(diff)   # freed by the process's end, not record by record
        text = render.diff_text(diff, options["top"])
        if prefix is None:
            sys.stdout.write(text)
            sys.stdout.flush()
        else:
            # Both files or neither (README, "Reports: all or none").
            with stopping.stop_on_signals():
                output.write_files({prefix + ".diff": text,
                                    prefix + ".diff.csv": render.csv_text(diff)})
    except ScorerError as error:
        sys.stderr.write(f"ERROR: {error}\n")
        return error.exit_status
    except stopping.Stopped as stop:
        sys.stderr.write(f"ERROR: Stopped by {stop.name}; nothing was written\n")
        return stop.exit_status
    except BrokenPipeError:         # the text's reader stopped reading (`| head`)
        return output.reader_gone()
    return 1 if diff.scoring else 0


if __name__ == "__main__":
    quickexit.ending_by_exit_now()
    quickexit.exit_now(main())
