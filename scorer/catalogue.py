"""Every metric a task can rank by, by name: what ``python -m scorer.track
-metric`` and a leaderboard's keys (``python -m scorer.competition``) choose
from.  Light on purpose (no pandas): a scoring program consults it for every
submission.
"""
from __future__ import annotations

import re


def metric_catalogue(task: str, has_index: bool) -> list:
    """(name, title) of every metric a track of ``task`` can rank by, headline first."""
    if task == "coldstart":
        from scorer.coldstart import units
        metrics = units.available(has_index)
        head = units.headline(has_index)
        ordered = sorted(metrics, key=lambda m: m.name != head)
        return [(m.name, m.title) for m in ordered]
    from scorer.claims.metrics import REGISTRY
    head = "sentence_label_f1" if task == "scifact" else "strict_score"
    ordered = sorted(REGISTRY[task], key=lambda m: m.name != head)
    # The reference scorers' own names are the titles (-help explains them).
    shown = {"scifact": "SciFact", "fever": "FEVER"}[task]
    return [(m.name, f"{shown} {m.name}") for m in ordered]


def unit_words(task: str) -> tuple:
    """The word for what a task scores one at a time, and its plural: what the
    track's page calls the rows of a run's per-unit table (the task record's
    ``unit`` and ``units`` once every task has one)."""
    return ("query", "queries") if task == "coldstart" else ("claim", "claims")


def is_precision_or_recall(name: str) -> bool:
    """A metric that has an F1 beside it (``..._precision``, ``..._recall``,
    Cold Start's ``..._p``, ``..._r``): what a table short of room leaves out first."""
    return re.search(r"(^|_)(precision|recall|p|r)$", name) is not None


def metric_named(title: str, metric: str) -> str:
    """A metric named once: its title, with its key in brackets when the title
    does not hold it ("FEVER strict_score", not "FEVER strict_score (strict_score)")."""
    return title if metric in title else f"{title} ({metric})"
