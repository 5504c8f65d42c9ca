"""SciFact claim verification, scored as the leaderboard's evaluator
(allenai/scifact-evaluator) scores it: the task's record.  The work is in
``scorer/claims/`` (scifactinputs.py reads, scifact.py scores)."""
from __future__ import annotations

from scorer import quickexit
from scorer.claims import scifact, scifactinputs, scifactmetrics
from scorer.claims.task import ClaimTask, ClaimTrack
from scorer.countstable.task import TableLeaderboard
from scorer.problems import ScorerError


class SciFactLeaderboard(TableLeaderboard):
    submission = "one SciFact predictions file (JSON lines)"

    def columns(self, request) -> tuple:
        return tuple(f"{kind}_{measure}"
                     for kind in ("abstract_label_only", "abstract_rationalized",
                                  "sentence_selection", "sentence_label")
                     for measure in ("precision", "recall", "f1"))


class SciFactTrack(ClaimTrack):
    """``-slices label``: a claim sits in the slice of every label its
    evidence gives, NOT_ENOUGH_INFO (the dataset's name) without evidence."""

    def slice_labels(self, record: dict) -> list:
        found = []
        evidence = record.get("evidence") or {}
        if isinstance(evidence, dict):
            for rationales in evidence.values():
                for rationale in rationales if isinstance(rationales, list) else []:
                    label = rationale.get("label") if isinstance(rationale, dict) else None
                    if isinstance(label, str) and label not in found:
                        found.append(label)
        return found or [scifactinputs.NEI]

    def slice_label_order(self) -> tuple:
        return tuple(self.task.labels) + (scifactinputs.NEI,)


class SciFact(ClaimTask):
    name = "scifact"
    title = "SciFact"
    max_evidence = 3
    labels = ("SUPPORT", "CONTRADICT")
    metrics = scifactmetrics.METRICS
    headline = "sentence_label_f1"
    track = SciFactTrack
    leaderboard = SciFactLeaderboard
    gold_only_keys = ("claim", "cited_doc_ids")

    def read_and_score(self, policy, files: tuple, problems):
        if len(files) != 2:
            raise ScorerError(f"scifact needs two files, the gold claims then the "
                              f"predictions; {len(files)} given")
        inputs = scifactinputs.read_inputs(*files)
        quickexit.keep(inputs)
        return scifact.evaluate(inputs, policy, problems)

    def read_gold_keys(self, path: str) -> tuple:
        return scifactinputs.gold_keys(scifactinputs.read_gold(path))

    def debug_layout(self):
        # (scorer.diff alone reads a .debug back: a run does without these)
        from scorer.claims.claimblocks import scifact_claim
        from scorer.countstable.debugblocks import BlockLayout
        return BlockLayout("CLAIM", "SENTENCE COUNTS", scifact_claim,
                           ("rationalized", "rationalized abstracts", "none"))


TASK = SciFact()
