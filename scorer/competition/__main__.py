"""python -m scorer.competition: a leaderboard's scoring program, its bundle,
and the participant's check.

    python -m scorer.competition INPUT OUTPUT
    python -m scorer.competition -bundle bundle.zip [-title T] [-start YYYY-MM-DD]
        [-docker_image I] [-max_size BYTES] [-policy P] [switches] REFERENCE_FILES...
    python -m scorer.competition -bundle bundle.zip [-format codabench|codalab]
        -phase NAME:GOLD[,GOLD...] [-phase NAME[:GOLD]]... [-phase_start NAME:DATE]...
        [-phase_end NAME:DATE]... [-max_submissions NAME:N[/day]]... [-policy P] [switches]
    python -m scorer.competition -validate RUN [-max_size BYTES] [-policy P] [switches]
        REFERENCE_FILES...
    python -m scorer.competition -collect EXPORT -policy P -output_dir DIR
        [-ranked_submission last|best|all] [track switches] GOLD_FILES...
"""
from __future__ import annotations

import os
import shutil
import sys
import tempfile

from scorer import output, quickexit, stopping, switches, tasks
from scorer.processenv import prepare_command_line_process
from scorer.competition import archive, layout, submissions
from scorer.limits import whole_number
from scorer.problems import ERROR_EXIT_STATUS, ScorerError
from scorer.switches import Switch, UsageError

def _a_file_not_a_switch(value: str):
    # A forgotten name followed by the next switch; a file so named is ./-name.
    if value.startswith("-"):
        return (f"needs a value, not '{value}' (a file whose name starts with '-' is given "
                f"as ./{value})")
    return None


#: This command's own switches (each takes a value).
OWN_SWITCHES = (
    Switch("bundle", help="write a Codabench bundle (zip) for these reference files and "
                          "switches", check=_a_file_not_a_switch),
    Switch("validate", help="check and score a submission (a file, a folder or a .zip) as "
                            "the leaderboard would", check=_a_file_not_a_switch),
    Switch("title", help="the competition's title in the bundle (default: 'TASK leaderboard')"),
    Switch("start", help="the phase's start date in the bundle, YYYY-MM-DD (default: today, "
                         "UTC)"),
    Switch("docker_image", help="the image the platform runs the scoring program in "
                                "(default: codalab/codalab-legacy:py39)"),
    Switch("max_size", help="the most bytes a submission file may hold, zipped or not "
                            "(default: 1 GiB)"),
    Switch("format", help="the bundle's platform: codabench (competition.yaml version 2) or "
                          "codalab (CodaLab Competitions, version 1) (default: codabench, or "
                          "the policy's competition: format)"),
)
#: The phases' switches, each given once per phase (scorer/competition/phases.py).
PHASE_SWITCHES = (
    Switch("phase", help="a phase of the bundle, NAME:GOLD[,GOLD...] (its reference files), "
                         "repeated, in order; NAME alone: the gold of the phase before "
                         "(practice, evaluation, post-evaluation: SemEval's defaults)"),
    Switch("phase_start", help="NAME:DATE, a phase's start, YYYY-MM-DD[ HH:MM] UTC (default: "
                               "the end of the phase before; the first: -start)"),
    Switch("phase_end", help="NAME:DATE, a phase's end (default: the start of the phase after; "
                             "the last: open)"),
    Switch("max_submissions", help="NAME:N (in all) or NAME:N/day, per participant (default: "
                                   "evaluation 3 in all, else the platform's)"),
)
#: Scorer switches that make no sense here: the program names its own files
#: (and a submission is one run: the switches that pick runs are the tasks').
NOT_HERE = ("output_file", "error_file")

USAGE = """\
Usage:
  python -m scorer.competition INPUT OUTPUT
      the scoring program: reads INPUT/ref (the bundle's reference_data) and the
      submission in INPUT/res; writes OUTPUT/scores.json, scores.txt,
      detailed_results.html and the report set (submission.*)
  python -m scorer.competition -bundle bundle.zip [-title T] [-start YYYY-MM-DD]
      [-docker_image I] [-max_size BYTES] [-policy P] [switches] REFERENCE_FILES...
      a Codabench bundle scoring every submission as python -m scorer would with
      this policy, these switches and reference files (the run left out)
  python -m scorer.competition -validate RUN [-max_size BYTES] [-policy P] [switches]
      REFERENCE_FILES...
      what a participant runs before uploading: the same checks and messages, and
      the scores
  python -m scorer.competition -collect EXPORT -policy P -output_dir DIR
      [-ranked_submission last|best|all] [track switches] GOLD_FILES...
      the ranking from the platform's export: every submission checked, each
      team's ranked one scored by scorer.track into DIR, submissions.md/.csv
Switches:
""" + "".join(f"  -{switch.name:14}{switch.help}\n" for switch in OWN_SWITCHES) + """\
Phases (repeated, one value per phase; or the policy's competition: section):
""" + "".join(f"  -{switch.name:16}{switch.help}\n" for switch in PHASE_SWITCHES) + """\
  -version      the version of scorer
  and every switch of python -m scorer (-policy, -expand, -queries, -max_evidence, ...)
  except -output_file, -error_file and -runids.  The policy key 'leaderboard' lists
  the scores' keys (default per task; python -m scorer -help lists the metrics).
"""


def _read_argv(argv: list, phased: bool = False) -> tuple:
    """(this command's switches, the request's switches, the files);
    ``phased``: the phases name the reference files."""
    # (own first: its -validate RUN is not Cold Start's -validate, which a
    # leaderboard's policy sets with validate: true)
    table = switches.table(OWN_SWITCHES, switches.scorer_table())
    given, files = switches.parse(argv, table, files_needed=False)
    if given.get("help") or given.get("version"):
        return given, {}, files
    own = {switch.name: given.pop(switch.name) for switch in OWN_SWITCHES
           if switch.name in given}
    refused = NOT_HERE + tuple(name for task in tasks.every() for name in task.run_switches)
    for name in given:
        if name in refused:
            raise UsageError(f"-{name} has no use here: the leaderboard names its own files")
    if "bundle" in own and "validate" in own:
        raise UsageError("give -bundle or -validate, not both")
    if phased and "bundle" not in own:
        raise UsageError("-phase, -phase_start, -phase_end and -max_submissions make a bundle: "
                         "give -bundle")
    if "bundle" in own or "validate" in own:
        # (a bundle's phases may come from the policy's competition: section)
        if not files and not phased and not ("bundle" in own and _has_section(given)):
            raise UsageError("the reference files are missing")
    elif len(files) != 2 or given or own:
        raise UsageError("the scoring program takes two folders, INPUT and OUTPUT, and no "
                         "switch")
    return own, given, files


def main(argv: list | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if "-collect" in argv:
        from scorer.competition import collect
        return collect.main(argv)
    try:
        repeated = {}
        if any(argument[1:] in PHASE_NAMES for argument in argv if argument.startswith("-")):
            from scorer.competition import phases
            argv, repeated = phases.take_repeated(argv)
        own, given, files = _read_argv(argv, any(repeated.values()))
    except ScorerError as error:
        sys.stderr.write(switches.usage_error_text(UsageError(str(error), brief=True), USAGE))
        return ERROR_EXIT_STATUS
    except UsageError as error:
        sys.stderr.write(switches.usage_error_text(error, USAGE))
        return ERROR_EXIT_STATUS
    if switches.answered(own, USAGE):
        return 0
    with stopping.stop_on_signals():
        try:
            if "bundle" in own and (repeated or "format" in own or _has_section(given)):
                return make_phased_bundle(own, given, files, repeated)
            if "bundle" in own:
                return make_bundle(own, _setup_request(given, files), files)
            if "validate" in own:
                return validate(own, _setup_request(given, files), files)
            return score_program(files[0], files[1])
        except ScorerError as error:
            sys.stderr.write(f"FATAL_ERROR: {error}\n")
            return error.exit_status
        except stopping.Stopped as stop:
            sys.stderr.write(f"Stopped by {stop.name}; nothing was written\n")
            return stop.exit_status


# -- the scoring program -----------------------------------------------------------

def score_program(input_dir: str, output_dir: str) -> int:
    layout.check_folders(input_dir, output_dir)
    setup = layout.read_reference(os.path.join(input_dir, "ref"))
    return _score_into(setup, lambda scratch: layout.find_submission(
        os.path.join(input_dir, "res"), scratch, setup.task, setup.max_size), output_dir)


def _score_into(setup, find, output_dir: str | None) -> int:
    """Find, check and score the submission; write OUTPUT's files together, or
    none of them (a refused submission leaves no scores.json behind)."""
    scratch = tempfile.mkdtemp(prefix="scorer-competition-")
    try:
        submission = find(scratch)
        scored = submissions.score(setup, submission)
        quickexit.keep(scored)
        if scored.result.errlog.startswith("WARNING"):
            sys.stderr.write(scored.result.errlog)
        if output_dir is not None:
            layout.make_output(output_dir)
            texts = submissions.output_texts(scored, setup.phase)
            output.write_files({os.path.join(output_dir, name): text
                                for name, text in texts.items()})
        else:
            sys.stdout.write(f"{submission.label()}: OK, it would be scored as\n"
                             + submissions.scores_txt(scored.scores))
        return 0
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


# -- the bundle and the participant's check ---------------------------------------

def _setup_request(given: dict, files: list):
    """The request of the reference files and the switches, exactly as
    python -m scorer builds it (every submission adds its file)."""
    from scorer.request import from_switches
    request = from_switches(given, files, None, os.getcwd())
    return tasks.get(request.policy.task).scoring.shared_request(request)


def _max_size(own: dict) -> int:
    text = own.get("max_size")
    if text is None:
        return archive.DEFAULT_MAX_SIZE
    value = whole_number(text, "-max_size (bytes)")
    if value <= 0:
        raise ScorerError("-max_size must be positive")
    return value


def make_bundle(own: dict, request, files: list) -> int:
    import datetime
    from scorer.competition import bundle, references
    target = own["bundle"]
    output.check_writable(target)
    table = switches.scorer_table()
    named = [value for name, value in request.switches if table[name].names_file]
    clash = output.input_written_over(
        [target], [*files, request.policy_file, *named, request.samples])
    if clash:
        raise ScorerError(f"-bundle {target} would write over the input file {clash[1]}; "
                          f"give the bundle another name")
    start = own.get("start") or datetime.datetime.now(datetime.timezone.utc).date().isoformat()
    try:
        datetime.date.fromisoformat(start)
    except ValueError:
        raise ScorerError(f"-start must be a date, YYYY-MM-DD, not '{start}'")
    options = bundle.BundleOptions(title=own.get("title") or f"{request.policy.task} leaderboard",
                                   start=start,
                                   docker_image=own.get("docker_image") or bundle.DOCKER_IMAGE,
                                   max_size=_max_size(own))
    keys = submissions.leaderboard_keys(request)
    # Read as every submission's run will read them: a bundle that could
    # score no submission is not made.
    references.check(request, files)
    entries = bundle.bundle_entries(request, files, options)
    output.write_bytes_atomically(target, bundle.zip_bytes(entries))
    sys.stdout.write(f"Wrote {target}: leaderboard {', '.join(keys)}\n")
    return 0


PHASE_NAMES = tuple(switch.name for switch in PHASE_SWITCHES)


def _has_section(given: dict) -> bool:
    """Whether the policy file's ``competition:`` section shapes the bundle
    (phases, or a format); ``ranked_submission`` alone is -collect's."""
    if not given.get("policy"):
        return False
    from scorer.competition import phases
    from scorer.policy import policy_path
    section = phases.read_section(policy_path(given["policy"]))
    return bool(section.get("phases") or section.get("format"))


def make_phased_bundle(own: dict, given: dict, files: list, repeated: dict) -> int:
    """A bundle of phases (or of one, for CodaLab): each phase's request made
    and its reference files read as make_bundle reads them."""
    from scorer.competition import phasebundle, phases, references
    from scorer.policy import policy_path
    section = phases.read_section(policy_path(given["policy"])) if given.get("policy") else {}
    phase_list = phases.from_settings(repeated or {}, section, own.get("start"))
    if phase_list and files:
        raise ScorerError(f"the phases name their reference files (-phase NAME:GOLD); "
                          f"{files[0]} is given besides them")
    fmt = own.get("format") or section.get("format") or "codabench"
    if fmt not in phases.FORMATS:
        raise ScorerError(f"-format must be one of {', '.join(phases.FORMATS)}, not '{fmt}'")
    if not phase_list:
        if not files:
            raise ScorerError("the reference files are missing (or name phases with -phase "
                              "NAME:GOLD)")
        if fmt == "codabench":
            # (one phase for Codabench: the bundle it always was)
            return make_bundle(own, _setup_request(given, files), files)
        phase_list = phases.from_settings({"phase": ["main:" + ",".join(files)]}, {},
                                          own.get("start"))
    target = own["bundle"]
    output.check_writable(target)
    requests = [_setup_request(given, list(phase.references)) for phase in phase_list]
    table = switches.scorer_table()
    inputs = [path for phase in phase_list for path in phase.references]
    for request in requests:
        inputs += [request.policy_file, request.samples,
                   *(value for name, value in request.switches if table[name].names_file)]
    clash = output.input_written_over([target], inputs)
    if clash:
        raise ScorerError(f"-bundle {target} would write over the input file {clash[1]}; "
                          f"give the bundle another name")
    keys = submissions.leaderboard_keys(requests[0])
    for request, phase in zip(requests, phase_list):
        references.check(request, list(phase.references))
    from scorer.competition.bundle import BundleOptions, DOCKER_IMAGE
    title = own.get("title") or section.get("title") or f"{requests[0].policy.task} leaderboard"
    options = BundleOptions(title=str(title), start=phases.written(phase_list[0].start),
                            docker_image=own.get("docker_image") or DOCKER_IMAGE,
                            max_size=_max_size(own))
    ranked = section.get("ranked_submission", "last")
    entries = phasebundle.entries(requests, phase_list, options, fmt, ranked)
    from scorer.competition import bundle
    output.write_bytes_atomically(target, bundle.zip_bytes(entries))
    sys.stdout.write(f"Wrote {target} ({fmt}): phases "
                     f"{', '.join(phase.name for phase in phase_list)}; leaderboard "
                     f"{', '.join(keys)}\n")
    return 0


def validate(own: dict, request, files: list) -> int:
    from scorer.competition import references
    keys = submissions.leaderboard_keys(request)
    references.check_files(files)
    policy_dir = tempfile.mkdtemp(prefix="scorer-competition-policy-")
    try:
        setup = layout.leaderboard_setup(request, keys, files, policy_dir, _max_size(own))
        run = own["validate"]
        try:
            return _score_into(setup, lambda scratch: layout.submission_at(
                run, scratch, setup.task, setup.max_size), None)
        except ScorerError:
            # Whose mistake: the participant's own reference files are read
            # for it only now (a scored run has read them already).
            references.check(request, files)
            raise
    finally:
        shutil.rmtree(policy_dir, ignore_errors=True)


def run_and_exit(argv: list | None = None) -> None:
    """The command's end, as python -m scorer's: the process leaves by
    ``quickexit.exit_now`` with what it scored kept alive (freeing it piece by
    piece would be a tenth of a submission's time), and with python -m scorer's
    process settings (scorer/processenv.py), made before numpy loads."""
    prepare_command_line_process()
    quickexit.ending_by_exit_now()
    quickexit.exit_now(main(argv))


if __name__ == "__main__":
    run_and_exit()
