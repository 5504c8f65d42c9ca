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

import itertools
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
    if request.policy.task == "coldstart":
        _check_coldstart(request, files)
    else:
        _check_claims(request, request.policy.task, files)


def _check_coldstart(request, files: list) -> None:
    from scorer.coldstart import driver
    from scorer.coldstart.runs import ASSESSMENT, identify_file_type
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
        # Its first lines tell (the whole file is read next, as every run reads it).
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            first_lines = [line.rstrip("\n") for line in itertools.islice(f, 1000)]
        if identify_file_type(path, first_lines) != ASSESSMENT:
            raise ScorerError(f"{path}: a submission file (9 columns), not assessments; {need} "
                              f"(the run is the participant's)")
    problems = Problems()
    # What a track reads once for all its runs, every submission's run reads too.
    driver.read_shared_inputs(request._replace(files=tuple(files), bootstrap=None),
                              assessment_paths, problems)
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
    from scorer.claims import driver, fever, scifact
    if task == "scifact":
        keys, key_source = scifact.gold_keys(scifact.read_gold(path))
    else:
        gold = fever.read_gold(path)
        inputs = fever.Inputs(path, path, gold, gold)
        # A blind prediction, scored against each gold line as a submission's
        # is: the gold line's label and evidence are checked by fever's rules.
        blind = {"predicted_label": "", "predicted_evidence": []}
        for line, claim in gold:
            missing = [key for key in ("label", "evidence") if key not in claim]
            if missing:
                raise ScorerError(f"{path} line {line}: the gold claim has no '{missing[0]}' "
                                  f"(a gold file gives each claim its label and evidence)")
            fever.score_claim(str(line), str(line), line, blind, (line, claim), inputs, None)
        keys, key_source = fever.gold_keys(gold)
    if request.samples:
        # Samples of claims the gold does not have would fail every submission.
        from scorer.bootstrap import read_samples
        driver.check_sample_ids(read_samples(request.samples), request.samples, keys,
                                key_source, path)
