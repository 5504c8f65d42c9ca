"""Every metric a task can rank by, by name: what ``python -m scorer.track
-metric`` and a leaderboard's keys (``python -m scorer.competition``) choose
from.  Light on purpose (no pandas): a scoring program consults it for every
submission.
"""
from __future__ import annotations


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
