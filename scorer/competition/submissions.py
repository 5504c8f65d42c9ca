"""Scoring one submission for a leaderboard: ``scorer.api.score`` (the one
code path ``python -m scorer`` takes), the leaderboard's keys and their
titles, and the files the platform collects from OUTPUT.
"""
from __future__ import annotations

import contextlib
import json
import math
import os
from collections import namedtuple

from scorer import tasks
from scorer.problems import ScorerError

#: What each report file of the set is called in OUTPUT (``submission.summary``, ...).
REPORT_PREFIX = "submission"
SCORES_JSON = "scores.json"
SCORES_TXT = "scores.txt"
DETAILS = "detailed_results.html"


class SubmissionRefused(ScorerError):
    """The participant's mistake: shown to them, and the submission fails."""


def leaderboard_keys(request) -> tuple:
    """The policy's leaderboard, or the task's default; every key one this
    request computes (checked when the bundle is made)."""
    task = tasks.get(request.policy.task)
    keys = request.policy.leaderboard or task.leaderboard.columns(request)
    known = [name for name, _ in task.scoring.catalogue(request)]
    missing = [key for key in keys if key not in known]
    if missing:
        hint = task.leaderboard.missing_metrics_hint(request)
        raise ScorerError(f"leaderboard metric(s) {', '.join(missing)} are not computed for "
                          f"{task.name} with these switches{hint}; "
                          f"the metrics are: {', '.join(known)}")
    return tuple(keys)


_WORDS = {"ap": "AP", "p": "P", "r": "R", "f1": "F1"}


def column_title(key: str, task) -> str:
    """A leaderboard column's title (Codabench allows 36 characters): the
    metric's name, its words as people write them (``task``: the record,
    whose own words are in ``title_words``)."""
    own = task.leaderboard.title_words
    words = [own.get(word) or _WORDS.get(word, word) for word in key.split("_")]
    title = " ".join(words)
    return (title[0].upper() + title[1:])[:36]


#: A scored submission: the layout.Submission, the scorer.api.ScoreResult, the
#: scores (key -> value, in leaderboard order), and the request it was scored by.
Scored = namedtuple("Scored", "submission result scores request")


@contextlib.contextmanager
def _inside(folder: str):
    """Score from the submission's own folder, so that every message names the
    file as the participant did (not the platform's path)."""
    before = os.getcwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(before)


def score(setup, submission) -> Scored:
    """Score the submission; a mistake in it raises SubmissionRefused."""
    from scorer import api
    try:
        with _inside(submission.base):
            request = setup.request(submission.name)
            result = api.score_request(request)
    except ScorerError as error:
        raise SubmissionRefused(_refusal(submission, str(error)))
    problem = tasks.get(setup.task).leaderboard.submission_problem(result, submission.name)
    if problem:
        raise SubmissionRefused(_refusal(submission, problem))
    missing = [key for key in setup.leaderboard if key not in result.values]
    if missing:
        raise ScorerError(f"the scorer computed no {', '.join(missing)} for this setup; "
                          f"remake the bundle with another leaderboard")
    scores = {key: float(result.values[key]) for key in setup.leaderboard}
    for key, value in scores.items():
        if not math.isfinite(value):
            raise ScorerError(f"{key} is {value}, which a leaderboard cannot show")
    return Scored(submission, result, scores, request)


def _refusal(submission, log: str) -> str:
    return (f"the submission {submission.label()} was not scored (nothing goes on the "
            f"leaderboard):\n{log.rstrip()}")


def scores_json(scores: dict) -> str:
    """Codabench: one flat object, full precision (the shortest text that reads back the same)."""
    return json.dumps(scores, indent=1, allow_nan=False) + "\n"


def scores_txt(scores: dict) -> str:
    """CodaLab: ``key: value`` lines, the same numbers as scores.json."""
    return "".join(f"{key}: {json.dumps(value)}\n" for key, value in scores.items())


def output_texts(scored: Scored, phase: dict | None = None) -> dict:
    """``{file name in OUTPUT: text}``, in write order: the report set, the
    page, then the scores (the files a leaderboard reads come last).  A
    phase that shows less (scorer/competition/phases.py) gets no report set
    and a page of the scores alone, or of the receipt alone."""
    from scorer.competition import details
    shows = (phase or {}).get("shows", "details")
    task = tasks.get(scored.request.policy.task)
    titles = dict(task.scoring.catalogue(scored.request))
    headings = {key: column_title(key, task) for key in scored.scores}
    if shows == "details":
        texts = {f"{REPORT_PREFIX}.{extension}": text
                 for extension, text in scored.result.reports.items()}
        texts[f"{REPORT_PREFIX}.errlog"] = scored.result.errlog
        texts[DETAILS] = details.page(scored, task, titles, headings, list(texts))
    elif shows == "scores":
        texts = {DETAILS: details.scores_page(scored, task, titles, headings, phase)}
    else:
        texts = {DETAILS: details.receipt_page(scored, task, phase)}
    texts[SCORES_TXT] = scores_txt(scored.scores)
    texts[SCORES_JSON] = scores_json(scored.scores)
    return texts
