"""SciFact claim verification, scored as the leaderboard's evaluator
(allenai/scifact-evaluator) scores it: the task's record.  The work is in
``scorer/claims/`` (scifact.py reads and scores)."""
from __future__ import annotations

from scorer.claims.task import ClaimTask


class SciFact(ClaimTask):
    name = "scifact"
    title = "SciFact"
    max_evidence = 3
    labels = ("SUPPORT", "CONTRADICT")
    headline = "sentence_label_f1"
    submission = "one SciFact predictions file (JSON lines)"


    def debug_layout(self):
        from scorer.diff.debugfile import BlockLayout, scifact_claim
        return BlockLayout("CLAIM", "SENTENCE COUNTS", scifact_claim,
                           ("rationalized", "rationalized abstracts", "none"))

    def leaderboard(self, request) -> tuple:
        return tuple(f"{kind}_{measure}"
                     for kind in ("abstract_label_only", "abstract_rationalized",
                                  "sentence_selection", "sentence_label")
                     for measure in ("precision", "recall", "f1"))


TASK = SciFact()
