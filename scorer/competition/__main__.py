"""python -m scorer.competition: a leaderboard's scoring program, its bundle,
and the participant's check.

    python -m scorer.competition INPUT OUTPUT
    python -m scorer.competition -bundle bundle.zip [-title T] [-start YYYY-MM-DD]
        [-docker_image I] [-max_size BYTES] [-policy P] [switches] REFERENCE_FILES...
    python -m scorer.competition -validate RUN [-max_size BYTES] [-policy P] [switches]
        REFERENCE_FILES...
"""
from __future__ import annotations

import os
import shutil
import sys
import tempfile

from scorer import output, quickexit, stopping
from scorer.processenv import prepare_command_line_process
from scorer.competition import archive, layout, scoring
from scorer.limits import whole_number
from scorer.problems import ERROR_EXIT_STATUS, ScorerError

#: This command's own switches (each takes a value).
OWN_SWITCHES = {
    "bundle": "write a Codabench bundle (zip) for these reference files and switches",
    "validate": "check and score a submission (a file, a folder or a .zip) as the "
                "leaderboard would",
    "title": "the competition's title in the bundle (default: 'TASK leaderboard')",
    "start": "the phase's start date in the bundle, YYYY-MM-DD (default: today, UTC)",
    "docker_image": "the image the platform runs the scoring program in "
                    "(default: codalab/codalab-legacy:py39)",
    "max_size": "the most bytes a submission file may hold, zipped or not (default: 1 GiB)",
}
#: Scorer switches that make no sense here: the program names its own files.
NOT_HERE = ("output_file", "error_file", "runids")
#: Own switches whose value is a file name: one starting with '-' is a forgotten
#: name followed by the next switch (a file so named is given as ./-name).
PATH_SWITCHES = ("bundle", "validate")

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
Switches:
""" + "".join(f"  -{name:14}{text}\n" for name, text in OWN_SWITCHES.items()) + """\
  and every switch of python -m scorer (-policy, -expand, -queries, -max_evidence, ...)
  except -output_file, -error_file and -runids.  The policy key 'leaderboard' lists
  the scores' keys (default per task; python -m scorer -help lists the metrics).
"""


class UsageError(Exception):
    pass


def _split(argv: list) -> tuple:
    """This command's switches, and the rest (scorer switches and files)."""
    own: dict = {}
    rest: list = []
    i = 0
    while i < len(argv):
        name = argv[i][1:] if argv[i].startswith("-") else None
        if name in OWN_SWITCHES:
            if i + 1 >= len(argv):
                raise UsageError(f"Switch -{name} needs a value")
            value = argv[i + 1]
            if value.startswith("-") and (name in PATH_SWITCHES or
                                          _is_switch(value)):
                raise UsageError(f"Switch -{name} needs a value, not '{value}'"
                                 + (f" (a file whose name starts with '-' is given as "
                                    f"./{value})" if name in PATH_SWITCHES else ""))
            own[name] = value
            i += 2
            continue
        if name in ("help", "h"):
            own["help"] = True
        elif name in NOT_HERE:
            raise UsageError(f"-{name} has no use here: the leaderboard names its own files")
        rest.append(argv[i])
        i += 1
    return own, rest


def _is_switch(argument: str) -> bool:
    from scorer import cli      # (not imported by the scoring program's own path)
    return cli.is_switch(argument, OWN_SWITCHES)


def main(argv: list | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        own, rest = _split(argv)
        if own.get("help"):
            sys.stdout.write(USAGE)
            return 0
        if "bundle" in own and "validate" in own:
            raise UsageError("give -bundle or -validate, not both")
        if "bundle" in own or "validate" in own:
            if not rest:
                raise UsageError("the reference files are missing")
        elif len(rest) != 2 or any(a.startswith("-") for a in rest) or own:
            raise UsageError("the scoring program takes two folders, INPUT and OUTPUT, "
                             "and no switch")
    except UsageError as error:
        sys.stderr.write(f"ERROR: {error}\n\n{USAGE}")
        return ERROR_EXIT_STATUS
    with stopping.stop_on_signals():
        try:
            if "bundle" in own:
                return make_bundle(own, rest)
            if "validate" in own:
                return validate(own, rest)
            return score_program(rest[0], rest[1])
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
        scored = scoring.score(setup, submission)
        quickexit.keep(scored)
        if scored.result.errlog.startswith("WARNING"):
            sys.stderr.write(scored.result.errlog)
        if output_dir is not None:
            layout.make_output(output_dir)
            texts = scoring.output_texts(scored, setup.task,
                                         scoring.has_index(setup.task, setup.switches))
            output.write_files({os.path.join(output_dir, name): text
                                for name, text in texts.items()})
        else:
            sys.stdout.write(f"{submission.label()}: OK, it would be scored as\n"
                             + scoring.scores_txt(scored.scores))
        return 0
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


# -- the bundle and the participant's check ---------------------------------------

def _setup_request(rest: list):
    """The policy and run switches, exactly as python -m scorer builds them."""
    from scorer import cli
    try:
        given, files = cli.parse_arguments(rest)
    except cli.UsageError as error:
        raise ScorerError(str(error))
    if given.get("help") or given.get("version"):
        raise ScorerError("-help and -version are not switches of a leaderboard")
    request = cli.build_request(given, files, rest, os.getcwd())
    run_switches = {name: given[name] for name in layout.RUN_SWITCHES if name in given}
    return request, files, run_switches


def _max_size(own: dict) -> int:
    text = own.get("max_size")
    if text is None:
        return archive.DEFAULT_MAX_SIZE
    value = whole_number(text, "-max_size (bytes)")
    if value <= 0:
        raise ScorerError("-max_size must be positive")
    return value


def make_bundle(own: dict, rest: list) -> int:
    import datetime
    from scorer.competition import bundle, references
    request, files, run_switches = _setup_request(rest)
    target = own["bundle"]
    output.check_writable(target)
    clash = output.input_written_over(
        [target], [*files, request.policy_file, request.queries, request.samples])
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
    keys = scoring.leaderboard_keys(request.policy, run_switches)
    # Read as every submission's run will read them: a bundle that could
    # score no submission is not made.
    references.check(request, files)
    entries = bundle.bundle_entries(request.policy, files, run_switches, options)
    output.write_bytes_atomically(target, bundle.zip_bytes(entries))
    sys.stdout.write(f"Wrote {target}: leaderboard {', '.join(keys)}\n")
    return 0


def validate(own: dict, rest: list) -> int:
    from scorer.competition import references
    request, files, run_switches = _setup_request(rest)
    keys = scoring.leaderboard_keys(request.policy, run_switches)
    references.check_files(files)
    policy_dir = tempfile.mkdtemp(prefix="scorer-competition-policy-")
    try:
        policy = request.policy._replace(leaderboard=keys)
        policy_path = os.path.join(policy_dir, layout.POLICY_FILE)
        with open(policy_path, "w", encoding="utf-8") as f:
            f.write(layout.policy_text(policy))
        switches = dict(run_switches)
        for name in layout.FILE_SWITCHES:
            if name in switches and os.path.isfile(switches[name]):
                switches[name] = os.path.abspath(switches[name])
        setup = layout.Setup(task=policy.task,
                             references=tuple(os.path.abspath(f) for f in files),
                             policy_path=policy_path, switches=switches, leaderboard=keys,
                             max_size=_max_size(own))
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
