"""FEVER fact verification, scored as sheffieldnlp/fever-scorer's
``fever_score`` scores it: the task's record.  The work is in
``scorer/claims/`` (fever.py reads and scores)."""
from __future__ import annotations

from scorer.claims.task import ClaimTask


class Fever(ClaimTask):
    name = "fever"
    title = "FEVER"
    max_evidence = 5
    labels = ("SUPPORTS", "REFUTES", "NOT ENOUGH INFO")
    headline = "strict_score"
    submission = "one FEVER predictions file (JSON lines)"


    def debug_layout(self):
        from scorer.diff.debugfile import BlockLayout, fever_claim
        return BlockLayout("CLAIM", "RECALL", fever_claim, ("strict", "strict", "-"))

    def leaderboard(self, request) -> tuple:
        return ("strict_score", "label_accuracy", "precision", "recall", "f1")

    def submission_problem(self, result, name: str) -> str | None:
        if "CLAIM_OWN_GOLD" in result.problem_names:
            # The reference would score these predictions against their own label
            # and evidence: on a leaderboard, a strict score of 1.0 for the asking.
            return (f"{name}: predictions carry their own 'label' and 'evidence'; the "
                    f"leaderboard scores every prediction against its own gold only: remove "
                    f"those keys (a prediction holds 'id', 'predicted_label' and "
                    f"'predicted_evidence')")
        return None


TASK = Fever()
