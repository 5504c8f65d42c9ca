"""Classification: the most common kind of shared task (SemEval-style
labelling, stance, natural language inference, claim labels alone), where
each item has one gold label and each run predicts one label per item.

Files: the gold, then the predictions; each either JSON Lines, one
``{"id": ..., "label": ...}`` object a line (an id a string or a whole
number; ``1`` and ``"1"`` are one id), or two tab-separated columns
``id<TAB>label`` (a first line ``id<TAB>label``, in any case, is a header).
Blank lines and a UTF-8 byte-order mark opening the file are skipped in
both.  A file whose first non-blank line starts with ``{`` is JSON Lines.  Gold and predictions are
paired by id: an id given twice, a prediction for an id the gold does not
have, a gold item without a prediction, or a label the policy does not list
is an error naming the file and line (nothing is written).

Policy (``configs/classification.yaml``): ``labels``, the label set;
``average_labels``, the labels the macro and micro averages go over
(default: all; SemEval tasks often leave one out, "neutral" or "Other").

Metrics, as scikit-learn defines them, numbers equal to ``accuracy_score``
and ``precision_recall_fscore_support(..., zero_division=0)``: accuracy; per
label, precision, recall and F1 (F1 = 2 tp / (gold + predicted), from the
counts); macro precision, recall and F1 (the mean over ``average_labels``
of the per-label values); micro F1 over ``average_labels``.  A ratio whose
denominator is 0 is 0 (scikit-learn's ``zero_division=0``, and the value its
default "warn" gives).  The headline is macro F1; the bootstrap draws items.

The task's record (a :class:`~scorer.countstable.task.TableTask`); the work
is in ``scorer/itemlabels/`` (inputs.py reads, counts.py and metrics.py are
the counts table and its metrics, evaluation.py scores, debug.py writes and
reads back the ``.debug``); the reports and the bootstrap are the shared ones
of ``scorer/countstable/`` (``metrics``, ``reports``, ``driver``, ``resample``).
"""
from __future__ import annotations

import unicodedata

from scorer.countstable.jsonl import read_objects
from scorer.countstable.task import TableLeaderboard, TableScoring, TableTask, TableTrack
from scorer.itemlabels import inputs
from scorer.itemlabels.debug import debug_pieces as item_debug_pieces
from scorer.itemlabels.evaluation import evaluate as evaluate_items
from scorer.itemlabels.labels import CONTROL, label_name
from scorer.itemlabels.metrics import EXPLANATIONS, declarations
from scorer.policy import build_policy, list_value
from scorer.problems import ScorerError
from scorer.taskrecord import PolicyKey


class ClassificationScoring(TableScoring):
    def sparse_columns(self, columns) -> frozenset:
        """The per-label counts: an item has them for its gold and predicted
        labels alone (zeros for every other label: rows by the million with
        a few hundred labels)."""
        return frozenset(column for column in columns if ":" in column)


class ClassificationTrack(TableTrack):
    #: scorer.track -slices: the built-in slicing (the gold's labels)
    slicings = ("label",)

    def slice_records(self, path: str) -> list:
        """``(line, unit id as the track names it, record)`` of every gold
        item, for ``scorer.track -slices``: the record its JSON object (none
        for id<TAB>label lines) with its ``label``."""
        items = inputs.read_items(path, "gold")
        keys, _source = self.task.gold_keys(path)
        objects = {}
        if any(True for _ in items) and inputs.starts_json_lines(path):
            objects = dict(read_objects(path, lenient=True))
        return [(line, unit, {**objects.get(line, {}), "label": label})
                for (line, _id, label), unit in zip(items, keys)]


class ClassificationLeaderboard(TableLeaderboard):
    submission = "one predictions file (JSON lines {\"id\", \"label\"} or id<TAB>label lines)"

    def columns(self, request) -> tuple:
        return ("macro_f1", "accuracy", "micro_f1", "macro_precision", "macro_recall")


class Classification(TableTask):
    name = "classification"
    title = "Classification"
    unit, units = "item", "items"
    policy_keys = (
        PolicyKey("labels", "classification: the labels the gold and predictions may use "
                            "(list; required)", (), list_value),
        PolicyKey("average_labels", "classification: the labels the macro and micro averages "
                                    "go over (list; default: all the labels)", (), list_value),
    )
    summary = "classification labels (accuracy and F1 as scikit-learn computes them)"
    files_help = "gold then predictions, JSON lines {\"id\", \"label\"} or id<TAB>label lines"
    run_suffixes = (".jsonl", ".tsv")
    headline = "macro_f1"
    scoring = ClassificationScoring
    track = ClassificationTrack
    leaderboard = ClassificationLeaderboard

    # -- the policy -------------------------------------------------------------

    def validate_policy(self, policy, where, origin, source: str) -> None:
        labels = policy.labels
        if not labels:
            raise ScorerError(f"{where('labels') or source + ': '}no label is given; a "
                              f"classification policy names its labels (labels: [A, B, ...])")
        for key in ("labels", "average_labels"):
            values = getattr(policy, key)
            if any(not value.strip() for value in values):
                raise ScorerError(f"{where(key)}an empty label in "
                                  f"{', '.join(repr(value) for value in values)}")
            unwritable = [value for value in values if CONTROL.search(value)]
            if unwritable:
                # A tab or a line break would split the lines of .debug and TSV files.
                raise ScorerError(f"{where(key)}{unwritable[0]!r} holds a tab, a line break "
                                  f"or another control character")
            repeated = sorted({value for value in values if values.count(value) > 1})
            if repeated:
                raise ScorerError(f"{where(key)}{', '.join(map(repr, repeated))} named twice")
        alike: dict = {}
        for label in labels:
            earlier = alike.setdefault(unicodedata.normalize("NFC", label), label)
            if earlier != label:
                # Two labels that look the same in every report and table.
                raise ScorerError(f"{where('labels')}{earlier!r} and {label!r} differ only in "
                                  f"their Unicode normalization (NFC, NFD): they look alike "
                                  f"but are two labels; write both alike")
        unknown = [label for label in policy.average_labels if label not in labels]
        if unknown:
            raise ScorerError(f"{where('average_labels')}{', '.join(map(repr, unknown))} "
                              f"{'is' if len(unknown) == 1 else 'are'} not among the labels "
                              f"({', '.join(map(repr, labels))})")
        names: dict = {}
        for label in labels:
            earlier = names.setdefault(label_name(label), label)
            if earlier != label:
                raise ScorerError(f"{where('labels')}{earlier!r} and {label!r} give their "
                                  f"metrics one name ({label_name(label)}: a character other "
                                  f"than a letter, digit, '_', '.' or '-' is spelt '_'); "
                                  f"rename one")

    metrics_note = ("; LABEL: a label of the policy, '_' for what is not a letter, digit, "
                    "'_', '.' or '-'")

    def explanations(self) -> list:
        return list(EXPLANATIONS)

    # -- scoring: the counts table of the items -----------------------------------

    def evaluate(self, policy, files: tuple, problems):
        if len(files) != 2:
            raise ScorerError(f"classification needs two files, the gold then the "
                              f"predictions; {len(files)} given")
        return evaluate_items(self.name, policy, tuple(files))

    def debug_pieces(self, evaluation):
        return item_debug_pieces(evaluation)

    def debug_layout(self):
        # (scorer.diff alone reads a .debug back: a run does without these)
        from scorer.countstable.debugblocks import BlockLayout
        from scorer.itemlabels.itemblocks import item_claim
        return BlockLayout("ITEM", "PREDICTED LABEL", item_claim)

    # -- metrics --------------------------------------------------------------------

    def declared_metrics(self, policy) -> tuple:
        """The policy's labels' metrics (those of one label, LABEL, without a
        policy: what -help and the docs list)."""
        if policy is None:
            policy = build_policy({"task": self.name, "labels": ["LABEL"]}, {})
        return declarations(policy)

    # -- a leaderboard and a track: the gold file is the reference ------------------

    def gold_keys(self, path: str) -> tuple:
        return inputs.gold_keys(inputs.read_gold(path))


TASK = Classification()
