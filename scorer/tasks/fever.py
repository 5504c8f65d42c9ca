"""FEVER fact verification, scored as sheffieldnlp/fever-scorer's
``fever_score`` scores it: the task's record.  The work is in
``scorer/claims/`` (fever.py reads and scores)."""
from __future__ import annotations

from scorer import quickexit
from scorer.claims import fever, feverpass, fevermetrics
from scorer.claims.task import ClaimTask
from scorer.countstable.task import TableLeaderboard


class FeverLeaderboard(TableLeaderboard):
    submission = "one FEVER predictions file (JSON lines)"

    def columns(self, request) -> tuple:
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


class Fever(ClaimTask):
    name = "fever"
    title = "FEVER"
    max_evidence = 5
    labels = ("SUPPORTS", "REFUTES", "NOT ENOUGH INFO")
    metrics = fevermetrics.METRICS
    headline = "strict_score"
    leaderboard = FeverLeaderboard
    gold_only_keys = ("label", "evidence")
    prediction_only_keys = ("predicted_label", "predicted_evidence")

    def read_and_score(self, policy, files: tuple, problems):
        inputs = fever.read_inputs(files)
        # The parsed files outlive the run in a command-line process: freeing
        # them line by line costs a twentieth of a FEVER run (scorer/quickexit.py).
        quickexit.keep(inputs)
        return feverpass.evaluate(inputs, policy, problems)

    def read_gold_keys(self, path: str) -> tuple:
        return fever.gold_keys(fever.read_gold(path))

    def reference_gold_keys(self, path: str) -> tuple:
        return fever.reference_gold_keys(path)

    def debug_layout(self):
        # (scorer.diff alone reads a .debug back: a run does without these)
        from scorer.claims.claimblocks import fever_claim
        from scorer.countstable.debugblocks import BlockLayout
        return BlockLayout("CLAIM", "RECALL", fever_claim, ("strict", "strict", "-"))


TASK = Fever()
