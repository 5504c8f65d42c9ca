"""The command line, ``python -m scorer``: reads argv (the Perl scorer's
single-dash switches, ``-policy``), prints the help and the version, and
writes the report set of the scored request, all or none; maps problems to
exit statuses.

The switches are read by :mod:`scorer.switches`, the request built and
checked by :mod:`scorer.request`, scored by :mod:`scorer.scoring`.
"""
from __future__ import annotations

import os
import sys

from scorer import output, quickexit, reportset, stopping, switches, tasks
from scorer.policy import task_hint
from scorer.problems import ERROR_EXIT_STATUS, Problems, ScorerError
from scorer.switches import UsageError


def usage(program: str = "scorer") -> str:
    from scorer.policy import known_keys, shipped_policies    # (as _score's)
    every = tasks.every()
    lines = [f"{program}:  Score " + ", ".join(task.summary for task in every), "",
             f"Usage: {program} {{-switch {{-switch ...}}}} files... "
             f"(switches may also follow the files)", "", "Legal switches are:"]
    lines += switches.help_lines(switches.scorer_table())
    lines += ["parameters are:", "  files  the files of a run, by task (Required):"]
    lines += [f"           {task.name}: {task.files_help}" for task in every]
    lines += ["", "Shipped policies, named alone (-policy fever): "
              + ", ".join(shipped_policies())]
    lines += ["", "-policy files (YAML) may hold these keys:"]
    lines += [f"  {key + ':':18}{text}" for key, text in known_keys().items()]
    for task in every:
        lines += task.help_lines()
    return "\n".join(lines) + "\n\n"


def main(argv: list | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    # Read by the switches of the task the policy names (no other task's
    # record is loaded for a run that gives its own switches alone).
    table = switches.run_table(task_hint(switches.policy_argument(argv)))
    try:
        given, files = switches.parse(argv, table)
    except UsageError as error:
        # To standard output, with the usage text, as the Perl does (spec §1.1).
        sys.stdout.write(switches.usage_error_text(error, usage()))
        return ERROR_EXIT_STATUS
    if switches.answered(given, usage):
        return 0
    output_file = given.get("output_file", "stdout")
    error_file = given.get("error_file", "stderr")
    try:
        # The Perl opens its reports, then the error file, before reading any input (spec §1.4).
        output.check_writable(output_file)
        _check_error_file_is_no_report(output_file, error_file)
        _check_reports_spare_the_inputs(output_file, given, files, table)
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
    for path in output.prefix_paths(output_file, _extensions_of_any_task()):
        if os.path.basename(path) == name and \
                os.path.realpath(os.path.dirname(os.path.abspath(path))) == where:
            raise ScorerError(f"-error_file {error_file} is the name of a report of "
                              f"-output_file {output_file}; give the error log another name, "
                              f"such as {output_file}.errlog")


def _check_reports_spare_the_inputs(output_file: str, given: dict, files: list,
                                    table) -> None:
    """No report name at the prefix may be an input of this run: the run would
    write over it, or remove it as an earlier run's report."""
    clash = output.input_written_over(
        _earlier_reports(output_file),
        [*files, *(value for name, value in given.items() if table[name].names_file)])
    if clash:
        report, path = clash
        raise ScorerError(f"-output_file {output_file} would write over the input file "
                          f"{path} (as {report}); choose another prefix")


def _earlier_reports(output_file: str) -> list:
    """The reports at the prefix, of any task, that exist now."""
    return output.existing_reports(output_file, _extensions_of_any_task())


def _extensions_of_any_task() -> list:
    """Every report any task can write at a prefix, each once, sorted."""
    return sorted(reportset.REPORT_EXTENSIONS)


def _score(given: dict, files: list, argv, output_file: str, error_file: str) -> int:
    """Score and write every report of the run, or none of them (README,
    "Reports: all or none"): the reports and the error log form one
    ``output.FileSet``, committed at the very end."""
    # The scoring modules here: -version and -help answer without them.
    from scorer import runpicture, scoring
    from scorer.request import from_switches
    problems = Problems()
    written = output.FileSet()
    try:
        try:
            with written:
                request = from_switches(given, files, argv, os.getcwd())
                if request.plot and output.is_stream(output_file):
                    raise ScorerError("-plot draws <prefix>.png: give -output_file PREFIX")
                outcome = scoring.score(request, problems)
                quickexit.keep(outcome)
                picture = runpicture.draw(request.policy.task, outcome) if request.plot else None
                paths = reportset.add(written, output_file, outcome.reports, picture)
                _add_stage_files(written, outcome)
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
                import traceback    # (for a bug alone: a run never needs it)
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


def _add_stage_files(written, outcome) -> None:
    """Cold Start -kb -keep_stages: the chain's files, with the reports, all or none."""
    files = getattr(outcome, "stage_files", None)
    if files:
        from scorer.coldstart.kbchain import write_stage_files    # (-kb's alone)
        write_stage_files(files, written)


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
