"""The command line: the Perl scorer's single-dash switches, ``-policy``, and
the mapping of problems to exit statuses.

Switches may come before or after the files (the Perl wants them first).
Everything below this module receives a frozen ``Request``.
"""
from __future__ import annotations

import os
import sys

from scorer.version import PERL_REFERENCE_VERSION, __version__
from scorer import gcpause, output, quickexit, stopping
from scorer import reports as reports_module
from scorer.policy import (DEFAULT_FIELDS, DISCIPLINES, LEGAL_CHOICES, POLICY_KEYS, build_policy,
                           load_policy_file)
from scorer.limits import has_lone_surrogate, whole_number
from scorer.problems import ERROR_EXIT_STATUS, Problems, ScorerError
from scorer.request import Request

#: switch -> (takes a value?, default shown in the help, help text)
SWITCHES = {
    "bootstrap": (True, None, "Draw this many bootstrap samples (seeded by -seed) instead of "
                              "reading -samples; they are written to <prefix>.bootsamples"),
    "discipline": (True, "ASSESSED", "Discipline for identifying ground truth (see below for "
                                     "options)"),
    "error_file": (True, "stderr", "Where should error output be sent? (filename, stdout or "
                                   "stderr)"),
    "expand": (True, None, "Expand multi-entrypoint queries, using string provided as base for "
                           "expanded query names"),
    "fields": (True, ":".join(DEFAULT_FIELDS), "Colon-separated list of output fields to print "
                                               "(see below for options)"),
    "h": (False, None, None),
    "help": (False, None, "Show help"),
    "ignore": (True, "UNASSESSED:DUPLICATE", "Colon-separated list of assessment codes, submitted "
               "value corresponding to which to be ignored (post-policy) (see policy options "
               "below for legal choices)"),
    "justifications": (True, "1:3", "Are multiple justifications allowed? Legal values are of the "
                       "form A:B where A represents justifications per document and B represents "
                       "total justifications. Use 'M' to allow any number of justifications, for "
                       "e.g., 'M:10' to allow multiple justifications per document but overall "
                       "not more than 10 (best or top) justifications."),
    "max_evidence": (True, None, "Claim tasks: predicted evidence read per claim (a number, or "
                                 "'all'); overrides the policy"),
    "output_file": (True, "stdout", "Where should program output be sent? (prefix of filename, "
                                    "stdout or stderr)"),
    "plot": (False, None, "Also draw <prefix>.png: every score per hop (P, R, F1, AP; claim "
                          "tasks: every metric) with its 95% interval when samples were "
                          "given (Cold Start: the first run id's)"),
    "policy": (True, None, "YAML policy file (configs/NAME.yaml): task, right, wrong, ignore, "
                           "justifications, discipline, fields, max_evidence; switches given "
                           "on the command line override it"),
    "queries": (True, None, "file (one LDC query ID, SF query ID pair, separated by space, per "
                "line with an optional number separated by space representing the hop upto "
                "which evaluation is to be performed) or colon-separated list of SF query IDs to "
                "be scored (if omitted, all query files in 'files' parameter will be scored)"),
    "right": (True, "CORRECT", "Colon-separated list of assessment codes, submitted value "
              "corresponding to which to be counted as right (post-policy) (see policy options "
              "below for legal choices)"),
    "runids": (True, None, "Colon-separated list of run IDs to be scored (if omitted, all runids "
                           "will be scored)"),
    "samples": (True, None, "Specify the Bootstrap resamples file."),
    "seed": (True, None, "Seed of -bootstrap (a whole number; 0 is a seed like any other)"),
    "tabs": (False, None, "Use tabs to separate output fields instead of spaces (useful for "
                          "export to spreadsheet)"),
    "version": (False, None, "Print version number and exit"),
    "wrong": (True, "INCORRECT:INCORRECT_PARENT:INEXACT", "Colon-separated list of assessment "
              "codes, submitted value corresponding to which to be counted as wrong "
              "(post-policy) (see policy options below for legal choices)"),
}

#: Switches that set the policy (and override a -policy file).
POLICY_SWITCHES = ("right", "wrong", "ignore", "justifications", "discipline", "fields",
                   "max_evidence")

DISCIPLINE_HELP = {
    "ASSESSED": "No match unless this exact entry appears in the assessments",
    "STRING_CASE": "String matches modulo case differences; provenance need not match",
    "STRING_EXACT": "Exact string match, but provenance need not match",
}

CATEGORY_HELP = {
    "CORRECT": "Number of assessed correct responses.",
    "DUPLICATE": "Number of duplicate responses.",
    "INCORRECT": "Number of assessed incorrect responses.",
    "INCORRECT_PARENT": "Number of responses that had incorrect (grand-)parent.",
    "INEXACT": "Number of assessed inexact responses.",
    "UNASSESSED": "Number of unassessed responses.",
}


class UsageError(Exception):
    """A mistake on the command line: message, then the usage text (or, with
    ``brief``, a pointer to -help, so that the message does not scroll away)."""

    def __init__(self, message: str, brief: bool = False):
        super().__init__(message)
        self.brief = brief


#: Switches that mean nothing to the claim tasks, and the one that means nothing
#: to Cold Start: given for the wrong task they are refused, not ignored.
COLDSTART_ONLY = ("expand", "queries", "runids", "right", "wrong", "ignore", "justifications",
                  "discipline", "fields", "tabs")
CLAIMS_ONLY = ("max_evidence",)

#: GNU-style spellings that are accepted as the switch they stand for.
ALIASES = {"--help": "-help", "--version": "-version"}


def _suggestion(name: str) -> str:
    """ " (did you mean -X?)" where one switch is close to ``name``."""
    import difflib
    bare = name.lstrip("-")
    if bare in SWITCHES:
        return f" (did you mean -{bare}?)"
    close = difflib.get_close_matches(bare, [n for n in SWITCHES if len(n) > 1], n=2, cutoff=0.75)
    return f" (did you mean -{close[0]}?)" if len(close) == 1 else ""


def usage(program: str = "scorer") -> str:
    import textwrap
    from scorer.coldstart.reports.tables import FIELDS
    lines = [f"{program}:  Score TAC Cold Start slot-filling runs (byte-identical to "
             f"CS-Score-MASTER.pl {PERL_REFERENCE_VERSION}), SciFact and FEVER "
             f"predictions", "",
             f"Usage: {program} {{-switch {{-switch ...}}}} files... "
             f"(switches may also follow the files)", "", "Legal switches are:"]
    for name in sorted(SWITCHES):
        takes_value, default, help_text = SWITCHES[name]
        if help_text is None:
            continue
        head = f"  -{name}" + (" <value>" if takes_value else "")
        text = help_text + (f" (Default = {default})." if default else "")
        # A word longer than a line (the -fields default) stays whole, to be copied as it is.
        lines += textwrap.wrap(text, width=80, initial_indent=head.ljust(27),
                               subsequent_indent=" " * 29, break_long_words=False,
                               break_on_hyphens=False)
    lines += ["parameters are:",
              "  files  Query file (.xml), assessment files, then submission files (Cold Start);",
              "         gold then predictions (SciFact, FEVER) (Required).", "",
              "-discipline is one of the following:"]
    lines += [f"  {name + ':':14}{DISCIPLINE_HELP[name]}" for name in DISCIPLINES]
    lines.append("-fields is a colon-separated list drawn from the following:")
    lines += [f"  {name + ':':18}{FIELDS[name][3]}" for name in sorted(DEFAULT_FIELDS)]
    lines.append("policy options are a colon-separated list drawn from the following:")
    for name in sorted(LEGAL_CHOICES):
        legal = " and ".join(f"-{option.lower()}" for option in LEGAL_CHOICES[name])
        lines.append(f"  {name + ':':18}{CATEGORY_HELP[name]} Legal choice for {legal}.")
    lines.append("-policy files (YAML) may hold these keys:")
    lines += [f"  {key + ':':18}{text}" for key, text in POLICY_KEYS.items()]
    from scorer.claims.metrics import explain
    for task in ("scifact", "fever"):
        lines.append(f"{task} metrics (run.json and .summary):")
        for line in explain(task).splitlines():
            name, _, text = line.partition(": ")
            lines += textwrap.wrap(text, width=80, initial_indent=f"  {name + ':':33}",
                                   subsequent_indent=" " * 35)
    return "\n".join(lines) + "\n\n"


def is_switch(argument: str, extra=()) -> bool:
    """Whether ``argument`` is one of scorer's switches, or ``-NAME`` for a
    name in ``extra`` (a command's own switches): as the value of a switch
    before it, a forgotten value."""
    name = ALIASES.get(argument, argument)
    return name.startswith("-") and (name[1:] in SWITCHES or name[1:] in extra)


def parse_arguments(argv) -> tuple:
    """Switch values (only those given) and the files, the Perl's way: a switch
    is ``-NAME`` with an exact name; a value switch takes the next argument."""
    given: dict = {}
    files: list = []
    for argument in argv:
        if has_lone_surrogate(argument):
            shown = os.fsencode(argument).decode("utf-8", "backslashreplace")
            raise UsageError(f"the argument '{shown}' is not valid UTF-8 (rename the file, or "
                             f"give its name in UTF-8)", brief=True)
    i = 0
    while i < len(argv):
        argument = ALIASES.get(argv[i], argv[i])
        if argument.startswith("-") and len(argument) > 1:
            name = argument[1:]
            if name not in SWITCHES:
                raise UsageError(f"Unknown switch: {argument}{_suggestion(name)}", brief=True)
            takes_value = SWITCHES[name][0]
            if name in ("help", "h"):
                return {"help": True}, files
            if name == "version":
                return {"version": True}, files
            if takes_value:
                if i + 1 >= len(argv):
                    raise UsageError(f"Switch {argument} needs a value", brief=True)
                if is_switch(argv[i + 1]):
                    # A forgotten value: the next switch would be taken for it
                    # (-output_file -policy p.yaml: reports named -policy.*).
                    raise UsageError(f"Switch {argument} needs a value, not the switch "
                                     f"{argv[i + 1]}", brief=True)
                if name in ("output_file", "error_file") and not argv[i + 1].strip():
                    # An empty name would write ".sf" and friends, or fail at the very end.
                    raise UsageError(f"Switch {argument} needs a file name (or stdout, stderr), "
                                     f"not '{argv[i + 1]}'", brief=True)
                given[name] = argv[i + 1]
                i += 2
                continue
            given[name] = True
        else:
            files.append(argument)
        i += 1
    if not files:
        # Checked before any file is opened or the policy validated, as the Perl does (spec §1.1).
        raise UsageError("Not enough arguments; files must be provided")
    return given, files


def bootstrap_settings(given: dict) -> tuple:
    """(-bootstrap N, -seed S) as numbers (None where not given), checked."""
    bootstrap = None
    seed = None
    if "bootstrap" in given:
        from scorer.bootstrap import MAX_SAMPLES
        if given["bootstrap"].strip().startswith("-"):
            raise ScorerError("-bootstrap must not be negative")
        bootstrap = whole_number(given["bootstrap"], "-bootstrap (the number of samples)",
                                 MAX_SAMPLES)
        if bootstrap == 0:
            # No sample: empty intervals and no tests, which look like a finished run.
            raise ScorerError("-bootstrap must be at least 1 (the number of samples to draw), "
                              "not 0; leave it out to score without samples")
        if "seed" not in given:
            raise ScorerError("-bootstrap needs -seed S, so that the samples can be drawn again")
        if "samples" in given:
            raise ScorerError("give either -samples FILE or -bootstrap N -seed S, not both")
    if "seed" in given:
        from scorer.bootstrap import seed_from_text
        seed = seed_from_text(given["seed"])
    return bootstrap, seed


def build_request(given: dict, files: list, argv, cwd: str) -> Request:
    policy_file = given.get("policy")
    file_settings = load_policy_file(policy_file) if policy_file else {}
    switches = {name: given[name] for name in POLICY_SWITCHES if name in given}
    policy = build_policy(file_settings, switches, source=policy_file or "command line")
    not_for_task = CLAIMS_ONLY if policy.task == "coldstart" else COLDSTART_ONLY
    misplaced = [f"-{name}" for name in not_for_task if name in given]
    if misplaced:
        # Ignoring them would give numbers that look right for a run that was not asked for.
        raise ScorerError(f"{', '.join(misplaced)} {'does' if len(misplaced) == 1 else 'do'} "
                          f"not apply to the task {policy.task}"
                          + (f" (set by {policy_file})" if policy_file else "")
                          + "; remove it, or choose the task with -policy")
    bootstrap, seed = bootstrap_settings(given)
    if "seed" in given and "bootstrap" not in given:
        # A seed that seeds nothing: the user meant to draw samples.
        raise ScorerError("-seed applies only with -bootstrap N (the samples it draws)")
    if policy.task == "coldstart" and (given.get("samples") or bootstrap is not None) \
            and not given.get("expand"):
        # The Perl dies here after writing half its reports (spec §7.24).
        raise ScorerError("-samples and -bootstrap need -expand: bootstrap samples are drawn "
                          "over LDC queries")
    check_each_file_once(_input_paths(policy.task, files))
    runids = tuple(r for r in given["runids"].split(":")) if given.get("runids") else None
    return Request(policy=policy, files=tuple(files),
                   output_file=given.get("output_file", "stdout"),
                   error_file=given.get("error_file", "stderr"),
                   policy_file=policy_file, expand=given.get("expand"),
                   queries=given.get("queries"), runids=runids, tabs=bool(given.get("tabs")),
                   samples=given.get("samples"), bootstrap=bootstrap, seed=seed,
                   argv=tuple(argv), program="python -m scorer", cwd=cwd)


def _input_paths(task: str, files: list) -> list:
    """The files read, folders standing for their ``*.tab.txt`` files (Cold Start)."""
    if task != "coldstart":
        return list(files)
    from scorer.coldstart.runs import expand_run_paths
    return expand_run_paths(files)


def check_each_file_once(paths: list) -> None:
    """Refuse a file named twice (the same path, or the same file by a link or
    another name): its lines would be read, and counted, twice."""
    by_name: dict = {}
    by_identity: dict = {}
    for number, path in enumerate(paths):
        earlier = by_name.setdefault(os.path.realpath(path), number)
        if earlier == number:
            try:
                status = os.stat(path)
            except (OSError, ValueError):
                continue   # a missing file is reported when it is opened
            if not status.st_ino:
                continue   # a file system without file numbers
            earlier = by_identity.setdefault((status.st_dev, status.st_ino), number)
        if earlier != number:
            same = "" if paths[earlier] == path else f" (as {paths[earlier]})"
            raise ScorerError(f"{path} is given twice{same}: its lines would be read and "
                              f"counted twice; name each file once")


def run_task(request: Request, problems: Problems):
    return score_task(request, problems).reports


def score_task(request: Request, problems: Problems, samples=None):
    """The task's outcome: its reports and its scores as data (``samples``:
    already read or drawn, for callers that score several runs with them)."""
    if request.policy.task == "coldstart":
        from scorer.coldstart import driver
    else:
        from scorer.claims import driver
    with gcpause.paused():
        return driver.score(request, problems, samples=samples)


def main(argv: list | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        given, files = parse_arguments(argv)
    except UsageError as error:
        # To standard output, with the usage text, as the Perl does (spec §1.1).
        if error.brief:
            sys.stdout.write(f"ERROR: {error}\nRun with -help for the switches and what they "
                             f"mean.\n")
        else:
            sys.stdout.write(f"ERROR: {error}\n\n{usage()}")
        return ERROR_EXIT_STATUS
    if given.get("help"):
        sys.stdout.write(usage())
        return 0
    if given.get("version"):
        sys.stdout.write(f"scorer version {__version__} (Cold Start reports as "
                         f"CS-Score-MASTER.pl version {PERL_REFERENCE_VERSION})\n")
        return 0
    output_file = given.get("output_file", "stdout")
    error_file = given.get("error_file", "stderr")
    try:
        # The Perl opens its reports, then the error file, before reading any input (spec §1.4).
        output.check_writable(output_file)
        _check_error_file_is_no_report(output_file, error_file)
        _check_reports_spare_the_inputs(output_file, given, files)
        if not output.is_stream(error_file) and os.path.exists(error_file):
            raise ScorerError(f"File {error_file} already exists")
        output.check_writable(error_file)
    except ScorerError as error:
        sys.stderr.write(f"FATAL_ERROR: {error}\n")
        return ERROR_EXIT_STATUS
    with stopping.stop_on_signals():
        return _score(given, files, argv, output_file, error_file)


def _check_error_file_is_no_report(output_file: str, error_file: str) -> None:
    """The error log must not take a report's name: it would be written over
    or removed with the reports."""
    if output.is_stream(output_file) or output.is_stream(error_file):
        return
    where = os.path.realpath(os.path.dirname(os.path.abspath(error_file)))
    name = os.path.basename(error_file)
    for path in output.prefix_paths(output_file, reports_module.extensions_of_any_task()):
        if os.path.basename(path) == name and \
                os.path.realpath(os.path.dirname(os.path.abspath(path))) == where:
            raise ScorerError(f"-error_file {error_file} is the name of a report of "
                              f"-output_file {output_file}; give the error log another name, "
                              f"such as {output_file}.errlog")


def _check_reports_spare_the_inputs(output_file: str, given: dict, files: list) -> None:
    """No report name at the prefix may be an input of this run: the run would
    write over it, or remove it as an earlier run's report."""
    clash = output.input_written_over(
        _earlier_reports(output_file),
        [*files, *(given.get(name) for name in ("policy", "samples", "queries"))])
    if clash:
        report, path = clash
        raise ScorerError(f"-output_file {output_file} would write over the input file "
                          f"{path} (as {report}); choose another prefix")


def _earlier_reports(output_file: str) -> list:
    """The reports at the prefix, of any task, that exist now."""
    return output.existing_reports(output_file, reports_module.extensions_of_any_task())


def _score(given: dict, files: list, argv, output_file: str, error_file: str) -> int:
    """Score and write every report of the run, or none of them (README,
    "Reports: all or none"): the reports and the error log form one
    ``output.FileSet``, committed at the very end."""
    problems = Problems()
    written = output.FileSet()
    try:
        try:
            with written:
                request = build_request(given, files, argv, os.getcwd())
                if given.get("plot") and output.is_stream(output_file):
                    raise ScorerError("-plot draws <prefix>.png: give -output_file PREFIX")
                outcome = score_task(request, problems)
                quickexit.keep(outcome)
                paths = output.write_reports(output_file, outcome.reports, written)
                if given.get("plot"):
                    from scorer.results import run_picture
                    picture = f"{output_file}.png"
                    written.add(picture, run_picture(request.policy.task, outcome))
                    paths.append(picture)
                # An earlier run's report this run does not write would pass for one of its own.
                obsolete = [path for path in _earlier_reports(output_file) if path not in paths]
                if obsolete:
                    _note_removed(problems, output_file, obsolete)
                    written.remove_on_commit(obsolete)
                log = problems.report()
                if not output.is_stream(error_file):
                    output.write_error_log(error_file, log, written)
                written.commit()
            if output.is_stream(error_file):
                output.write_error_log(error_file, log)
            return ERROR_EXIT_STATUS if problems.error_count else 0
        except ScorerError as error:
            with stopping.deferred(raise_pending=False):
                return _fail(written, output_file, error_file, problems, str(error),
                             error.exit_status)
        except BrokenPipeError:
            # Reports or log on a pipe whose reader stopped (`| head`): nothing
            # is wrong with the run; the files not yet in place are dropped.
            with stopping.deferred(raise_pending=False):
                written.discard()
            return output.reader_gone()
        except Exception as error:  # a bug: the same cleanup, and the traceback to report it
            with stopping.deferred(raise_pending=False):
                import traceback
                traceback.print_exc()
                return _fail(written, output_file, error_file, problems,
                             f"internal error ({type(error).__name__}: {error}); please report "
                             f"it with the traceback", ERROR_EXIT_STATUS)
    except (stopping.Stopped, KeyboardInterrupt) as stop:
        with stopping.deferred(raise_pending=False):
            if not isinstance(stop, stopping.Stopped):
                stop = stopping.Stopped(stopping.SIGINT)
            if written.committed:
                sys.stderr.write(f"{stop.name} came after the reports were complete\n")
                return stop.exit_status
            lost = ("the reports shown are incomplete" if output.is_stream(output_file)
                    else "no report was written")
            return _fail(written, output_file, error_file, problems,
                         f"Stopped by {stop.name}; {lost}", stop.exit_status)


def _note_removed(problems: Problems, output_file: str, paths: list) -> None:
    problems.record("EARLIER_REPORTS_REMOVED", output_file,
                    " ".join(os.path.basename(path) for path in paths))


def _fail(written, output_file: str, error_file: str, problems: Problems, message: str,
          status: int) -> int:
    """After a fatal error or a signal: no report of this run, none of an
    earlier run's at the prefix, and the error log says why."""
    written.discard()
    removed = output.remove_files(_earlier_reports(output_file))
    if removed:
        _note_removed(problems, output_file, removed)
    try:
        output.write_error_log(error_file, problems.report_fatal(message))
    except ScorerError as error:
        sys.stderr.write(f"FATAL_ERROR: {error}\n")
    if not output.is_stream(error_file):
        sys.stderr.write(f"FATAL_ERROR: {message}\n")
    return status
