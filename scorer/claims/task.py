"""What SciFact and FEVER share as records
(:class:`~scorer.claims.task.ClaimTask`, a counts-table task: evidence read
up to ``max_evidence``, a label set, gold and predictions files told apart by
their first lines; its track, :class:`~scorer.claims.task.ClaimTrack`, slices
the gold's claims by label).  ``scorer/tasks/`` holds the records."""
from __future__ import annotations

import json

from scorer.claims.policy import HELP as MAX_EVIDENCE_HELP
from scorer.claims.policy import read_max_evidence
from scorer.countstable import reports
from scorer.countstable.jsonl import read_objects
from scorer.countstable.task import TableTask, TableTrack
from scorer.limits import MAX_JSON_DEPTH, json_depth
from scorer.policy import check_labels, list_value
from scorer.problems import ScorerError
from scorer.switches import Switch
from scorer.taskrecord import PolicyKey


MAX_EVIDENCE = Switch("max_evidence", sets_policy=True,
                      help="Claim tasks: predicted evidence read per claim (a number, or "
                           "'all'); overrides the policy")


class ClaimTrack(TableTrack):
    """A claim track; ``-slices label`` slices the gold's claims by label."""

    __slots__ = ()

    slicings = ("label",)

    def slice_records(self, path: str) -> list:
        """``(line, claim key, record)`` of every gold line, each line its
        claim as the task's runs name them (``read_gold_keys``)."""
        objects = read_objects(path, lenient=True)
        keys, _source = self.task.read_gold_keys(path)
        if len(keys) != len(objects):
            raise ScorerError(f"{path}: {len(objects)} lines but {len(keys)} claims; cannot "
                              f"tell which line is which claim for -slices")
        return [(line, unit, record) for (line, record), unit in zip(objects, keys)]


class ClaimTask(TableTask):
    unit, units = "claim", "claims"
    switches = (MAX_EVIDENCE,)
    files_help = "gold then predictions"
    track = ClaimTrack
    #: max_evidence and labels by default (subclasses set them)
    max_evidence = None
    labels: tuple = ()

    @property
    def policy_keys(self) -> tuple:
        return (PolicyKey("max_evidence", MAX_EVIDENCE_HELP, self.max_evidence,
                          read_max_evidence,
                          write=lambda value: "all" if value is None else value),
                PolicyKey("labels", "claim tasks: the labels the gold and predictions may use "
                                    "(list)", self.labels, list_value))

    def validate_policy(self, policy, where, origin, source: str) -> None:
        check_labels(policy, where, self.labels)

    @property
    def summary(self) -> str:
        return f"{self.title} predictions"

    def digest_values(self, policy) -> tuple:
        # The layout of the policy record before each task had its own keys
        # (Cold Start's settings at their record defaults), so that signatures
        # stay comparable with earlier versions'.
        return (self.name, (), (), (), "1:3", "ASSESSED", (), policy.max_evidence,
                policy.labels)

    signature_keys = ("max_evidence",)

    #: keys only a gold line has, and keys only a prediction has (subclasses set
    #: them): a gold file and a predictions file given in each other's place are
    #: told apart by their first lines
    gold_only_keys: tuple = ()
    prediction_only_keys: tuple = ()

    def evaluate(self, policy, files: tuple, problems):
        try:
            return self.read_and_score(policy, tuple(files), problems)
        except ScorerError as error:
            if len(files) == 2 and self.looks_like(files[0]) == "predictions" \
                    and self.looks_like(files[1]) == "gold":
                raise ScorerError(f"{error} (gold and predictions swapped? {files[0]} looks "
                                  f"like predictions and {files[1]} like gold; the gold file "
                                  f"comes first)")
            raise

    def read_and_score(self, policy, files: tuple, problems):
        """Read the files of one run (gold first, then predictions) and score
        them: ``evaluate`` without the hint for swapped files."""
        raise NotImplementedError

    def looks_like(self, path: str) -> str | None:
        """'gold' or 'predictions' from the file's first line (None: cannot tell)."""
        try:
            with open(path, encoding="utf-8") as f:
                line = f.readline(1 << 20)
            if json_depth(line) > MAX_JSON_DEPTH:
                return None
            first = json.loads(line)
        except (OSError, ValueError, RecursionError):
            return None
        if not isinstance(first, dict):
            return None
        gold = any(key in first for key in self.gold_only_keys)
        predicted = any(key in first for key in self.prediction_only_keys)
        if not self.prediction_only_keys:
            # Predictions with no key of their own: whatever is not the gold.
            return "gold" if gold else "predictions"
        if gold and not predicted:
            return "gold"
        if predicted and not gold:
            return "predictions"
        return None

    def debug_pieces(self, evaluation):
        return reports.debug_pieces(evaluation)

    # -- a leaderboard and a track: the gold file is the reference --------------------

    def read_gold_keys(self, path: str) -> tuple:
        """``(claim keys, key source)`` of a gold file, as a run against it
        names its claims in samples files (each task's own rule)."""
        raise NotImplementedError

    def gold_keys(self, path: str) -> tuple:
        """A gold file that cannot be read, holds no claim, or is a predictions
        file given as the gold stops a track before any run is scored."""
        keys = self.read_gold_keys(path)            # (reads it, as its runs will)
        if self.looks_like(path) == "predictions":
            has = (f"{' or '.join(self.prediction_only_keys)} and "
                   if self.prediction_only_keys else "")
            raise ScorerError(f"{path} looks like predictions, not the gold (its first line "
                              f"has {has}no {' or '.join(self.gold_only_keys)}); a claim "
                              f"track's first file is the gold, then one predictions file "
                              f"per run")
        return keys

    def reference_gold_keys(self, path: str) -> tuple:
        return self.read_gold_keys(path)
