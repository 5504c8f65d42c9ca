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

from scorer.problems import ScorerError

#: The default leaderboard of each task (Cold Start: with -expand / without).
DEFAULT_LEADERBOARD = {
    "scifact": tuple(f"{kind}_{measure}" for kind in ("abstract_label_only",
                                                    "abstract_rationalized",
                                                    "sentence_selection", "sentence_label")
                     for measure in ("precision", "recall", "f1")),
    "fever": ("strict_score", "label_accuracy", "precision", "recall", "f1"),
    ("coldstart", True): ("ldcmean_ap", "ldcmean_macro_p", "ldcmean_macro_r",
                          "ldcmean_macro_f1"),
    ("coldstart", False): ("sf_ap", "sf_macro_p", "sf_macro_r", "sf_macro_f1"),
}

#: What each report file of the set is called in OUTPUT (``submission.summary``, ...).
REPORT_PREFIX = "submission"
SCORES_JSON = "scores.json"
SCORES_TXT = "scores.txt"
DETAILS = "detailed_results.html"


class SubmissionRefused(ScorerError):
    """The participant's mistake: shown to them, and the submission fails."""


def has_index(task: str, switches: dict) -> bool:
    return task == "coldstart" and bool(switches.get("expand"))


def catalogue(task: str, index: bool) -> list:
    """(name, explanation) of every metric the task computes (as -help and the track list them)."""
    from scorer.catalogue import metric_catalogue
    return metric_catalogue(task, index)


def leaderboard_keys(policy, switches: dict) -> tuple:
    """The policy's leaderboard, or the task's default; every key one this
    setup computes (checked when the bundle is made)."""
    index = has_index(policy.task, switches)
    keys = policy.leaderboard or DEFAULT_LEADERBOARD[
        (policy.task, index) if policy.task == "coldstart" else policy.task]
    known = [name for name, _ in catalogue(policy.task, index)]
    missing = [key for key in keys if key not in known]
    if missing:
        why = " (they need -expand)" if policy.task == "coldstart" and not index else ""
        raise ScorerError(f"leaderboard metric(s) {', '.join(missing)} are not computed for "
                          f"{policy.task} with these switches{why}; the metrics are: "
                          f"{', '.join(known)}")
    return tuple(keys)


_WORDS = {"ap": "AP", "p": "P", "r": "R", "f1": "F1", "sf": "SF", "ldcmean": "LDC-MEAN",
          "ldcmax": "LDC-MAX"}


def column_title(key: str) -> str:
    """A leaderboard column's title (Codabench allows 36 characters)."""
    words = [_WORDS.get(word, word) for word in key.split("_")]
    title = " ".join(words)
    return (title[0].upper() + title[1:])[:36]


#: A scored submission: the layout.Submission, the scorer.api.ScoreResult, and
#: the scores (key -> value, in leaderboard order).
Scored = namedtuple("Scored", "submission result scores")


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
    files, policy, switches = setup.score_arguments(submission.name)
    try:
        with _inside(submission.base):
            result = api.score(files, policy=policy, **switches)
    except ScorerError as error:
        raise SubmissionRefused(_refusal(submission, str(error)))
    if "CLAIM_OWN_GOLD" in result.problem_names:
        # The reference would score these predictions against their own label
        # and evidence: on a leaderboard, a strict score of 1.0 for the asking.
        raise SubmissionRefused(_refusal(
            submission, f"{submission.name}: predictions carry their own 'label' and "
                        f"'evidence'; the leaderboard scores every prediction against its own "
                        f"gold only: remove those keys (a prediction holds 'id', "
                        f"'predicted_label' and 'predicted_evidence')"))
    if setup.task == "coldstart" and len(result.run_ids) != 1:
        held = f"runs {', '.join(result.run_ids)}" if result.run_ids else "no run"
        raise SubmissionRefused(_refusal(submission, f"{submission.name}: holds {held}; a "
                                                     f"submission is one run (one run id)"))
    missing = [key for key in setup.leaderboard if key not in result.values]
    if missing:
        raise ScorerError(f"the scorer computed no {', '.join(missing)} for this setup; "
                          f"remake the bundle with another leaderboard")
    scores = {key: float(result.values[key]) for key in setup.leaderboard}
    for key, value in scores.items():
        if not math.isfinite(value):
            raise ScorerError(f"{key} is {value}, which a leaderboard cannot show")
    return Scored(submission, result, scores)


def _refusal(submission, log: str) -> str:
    return (f"the submission {submission.label()} was not scored (nothing goes on the "
            f"leaderboard):\n{log.rstrip()}")


def scores_json(scores: dict) -> str:
    """Codabench: one flat object, full precision (the shortest text that reads back the same)."""
    return json.dumps(scores, indent=1, allow_nan=False) + "\n"


def scores_txt(scores: dict) -> str:
    """CodaLab: ``key: value`` lines, the same numbers as scores.json."""
    return "".join(f"{key}: {json.dumps(value)}\n" for key, value in scores.items())


def output_texts(scored: Scored, task: str, index: bool) -> dict:
    """``{file name in OUTPUT: text}``, in write order: the report set, the
    page, then the scores (the files a leaderboard reads come last)."""
    from scorer.competition import details
    texts = {f"{REPORT_PREFIX}.{extension}": text
             for extension, text in scored.result.reports.items()}
    texts[f"{REPORT_PREFIX}.errlog"] = scored.result.errlog
    titles = dict(catalogue(task, index))
    headings = {key: column_title(key) for key in scored.scores}
    texts[DETAILS] = details.page(scored, task, titles, headings, list(texts))
    texts[SCORES_TXT] = scores_txt(scored.scores)
    texts[SCORES_JSON] = scores_json(scored.scores)
    return texts
