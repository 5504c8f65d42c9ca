"""The organizer's reference files, checked before a bundle is made (and
before a participant's check scores anything): the right files for the task,
read by the task's own readers, so that a bundle no submission could be
scored against is never written, and a mistake in the references is not
reported as one in the submission.

Cold Start: the query XML file(s) and the assessment file(s) (a run among
them would be scored with every submission); SciFact and FEVER: the gold
file alone (the participant's predictions are the other file).
"""
from __future__ import annotations

import os
import stat

from scorer.problems import Problems, ScorerError


def check_files(paths) -> None:
    """Each path an existing regular file: the bundle copies it, and the
    scoring run reads it again (a pipe or a device would be read empty)."""
    for path in paths:
        try:
            mode = os.stat(path).st_mode
        except OSError as error:
            raise ScorerError(f"Could not open {path}: {error.strerror}")
        if stat.S_ISDIR(mode):
            raise ScorerError(f"{path}: a reference must be a file (give the files of a "
                              f"folder one by one)")
        if not stat.S_ISREG(mode):
            raise ScorerError(f"{path}: not a regular file (a device, a pipe or a socket); "
                              f"a reference must be a file, which the bundle copies")
        if os.path.getsize(path) == 0:
            raise ScorerError(f"{path}: an empty file; a reference file holds what every "
                              f"submission is scored against")


def check(request, files: list) -> None:
    """Read the reference ``files`` (and -queries / -samples) as a scoring run
    of ``request``'s task reads them; any problem that would fail every
    submission is a ScorerError naming the file."""
    check_files(files)
    check_files(path for path in (request.samples,) if path)
    task = request.policy.task
    if task == "coldstart":
        _check_coldstart(request, files)
    else:
        _check_claims(request, task, files)
    if request.samples:
        from scorer import bootstrap
        bootstrap.read_samples(request.samples)


def _check_coldstart(request, files: list) -> None:
    from scorer.coldstart import queries as query_files
    from scorer.coldstart.runs import ASSESSMENT, identify_file_type, read_run_files
    from scorer.textfile import read_text
    # The split a scoring run makes (scorer/coldstart/driver.py): XML is queries.
    query_paths = [f for f in files if f.endswith(".xml")]
    assessment_paths = [f for f in files if not f.endswith(".xml")]
    need = ("a Cold Start leaderboard's reference files are the query XML file(s) and the "
            "assessment file(s)")
    if not query_paths:
        raise ScorerError(f"no query file (.xml) among the reference files; {need}")
    if not assessment_paths:
        raise ScorerError(f"no assessment file among the reference files; {need}")
    for path in assessment_paths:
        if identify_file_type(path, read_text(path).split("\n")) != ASSESSMENT:
            raise ScorerError(f"{path}: a submission file (9 columns), not assessments; {need} "
                              f"(the run is the participant's)")
    problems = Problems()
    queries = query_files.read_query_files(query_paths, problems)
    if not queries.queries:
        # A warning for one run (as the Perl's); a leaderboard of nothing here.
        raise ScorerError(f"no queries in {', '.join(query_paths)}; {need}")
    if request.expand:
        queries.expand(request.expand)
    selected = query_files.resolve_queries_to_score(request.queries, queries, problems)
    if request.queries is not None and not selected:
        raise ScorerError(f"-queries {request.queries}: none of the queries it names is in the "
                          f"query files")
    read_run_files(assessment_paths, queries, problems)
    if problems.error_count:
        # Every submission's run would have these errors, and fail.
        raise ScorerError("the reference files have errors, which would fail every "
                          "submission:\n" + problems.report().rstrip())


def _check_claims(request, task: str, files: list) -> None:
    if len(files) != 1:
        raise ScorerError(f"a {task} leaderboard's reference is the gold file alone (the "
                          f"participant's predictions are the other file); "
                          f"{len(files)} files given: {' '.join(files)}")
    path = files[0]
    if task == "scifact":
        from scorer.claims import scifact
        if not scifact.read_gold(path):
            raise ScorerError(f"{path}: no gold claims")
        return
    from scorer.claims import fever
    from scorer.claims.jsonl import read_objects
    gold = read_objects(path)
    if not gold:
        raise ScorerError(f"{path}: no gold claims")
    inputs = fever.Inputs(path, path, gold, gold)
    # A blind prediction, scored against each gold line as a submission's is:
    # the gold line's label and evidence are checked by fever's own rules.
    blind = {"predicted_label": "", "predicted_evidence": []}
    for line, claim in gold:
        missing = [key for key in ("label", "evidence") if key not in claim]
        if missing:
            raise ScorerError(f"{path} line {line}: the gold claim has no '{missing[0]}' "
                              f"(a gold file gives each claim its label and evidence)")
        fever.score_claim(str(line), str(line), line, blind, (line, claim), inputs, None)
