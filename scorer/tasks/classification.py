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

Everything is declared here, in the task's record (a
:class:`~scorer.countstable.task.TableTask`); the counts table, the reports and
the bootstrap are the shared ones of ``scorer/countstable/`` (``metrics``,
``reports``, ``driver``, ``resample``).
"""
from __future__ import annotations

import re
import unicodedata

from scorer.policy import list_value
from scorer.problems import ScorerError
from scorer.countstable.task import TableLeaderboard, TableScoring, TableTask, TableTrack
from scorer.taskrecord import PolicyKey

# The task's work is imported inside the methods that do it: every run, of any
# task, imports every task's record for its switches and policy keys (scorer.registry),
# so a record module imports at its top only what its declarations need (start-up
# time: tests/e2e/test_imports.py, make bench).

#: What a per-label metric name keeps of a label (anything else becomes "_"):
#: letters and digits of any script (labels in Chinese or Arabic, SemEval's
#: multilingual tasks, each kept apart: ASCII alone made them all '_'), '.', '-'.
_NAME_CHARACTERS = re.compile(r"[^\w.-]")
#: What no id or label may hold: it would split a line of the .debug.
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
RULE = "=" * 80 + "\n"
#: The most cells (items x counts columns: 5 a label, and 4) a run's counts
#: table may have: about 1.6 GB (50,000,000 cells: 0.8 GB, 3 CPU seconds).
MAX_TABLE_CELLS = 100_000_000


def label_name(label: str) -> str:
    """A label as it is spelt in its metrics' names (``f1_NOT_ENOUGH_INFO``)."""
    return _NAME_CHARACTERS.sub("_", label)


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
        from scorer.countstable.jsonl import read_objects
        items = read_items(path, "gold")
        keys, _source = self.task.gold_keys(path)
        objects = {}
        if any(True for _ in items) and _starts_json_lines(path):
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
            unwritable = [value for value in values if _CONTROL.search(value)]
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
        return list(_EXPLANATIONS)

    # -- scoring: the counts table of the items -----------------------------------

    def evaluate(self, policy, files: tuple, problems):
        if len(files) != 2:
            raise ScorerError(f"classification needs two files, the gold then the "
                              f"predictions; {len(files)} given")
        return evaluate(policy, tuple(files))

    def debug_pieces(self, evaluation):
        yield f"#{self.name}: {len(evaluation.keys)} item(s)\n"
        for item_id, gold_line, line, gold, predicted in evaluation.outcomes:
            yield (f"{RULE}ITEM {item_id}\tgold line {gold_line}\tpredictions line {line}\n"
                   f"\tGOLD LABEL:\t{gold}\n"
                   f"\tPREDICTED LABEL:\t{predicted}\t{'RIGHT' if gold == predicted else 'WRONG'}"
                   f"\n")

    def debug_layout(self):
        from scorer.countstable.debugblocks import BlockLayout
        return BlockLayout("ITEM", "PREDICTED LABEL", debug_item)

    # -- metrics --------------------------------------------------------------------

    def declared_metrics(self, policy) -> tuple:
        """The policy's labels' metrics (those of one label, LABEL, without a
        policy: what -help and the docs list)."""
        if policy is None:
            from scorer.policy import build_policy
            policy = build_policy({"task": self.name, "labels": ["LABEL"]}, {})
        return declarations(policy)

    # -- a leaderboard and a track: the gold file is the reference ------------------

    def gold_keys(self, path: str) -> tuple:
        from scorer.countstable.evaluation import claim_keys
        items = read_items(path, "gold")
        if not items:
            raise ScorerError(f"{path}: no item; a gold file gives each item its label")
        return claim_keys([item_id for _line, item_id, _label in items],
                          [line for line, _id, _label in items])


def debug_item(item_id: str, facts: list, line: int):
    """An item's block of the ``.debug``, read back for scorer.diff."""
    from scorer.countstable.debugblocks import Claim, fact, labels
    predicted = fact(facts, "PREDICTED LABEL")
    return Claim(item_id, predicted[-1] if predicted else "", (), frozenset(), (), line,
                 *labels(facts))


# -- the metrics ---------------------------------------------------------------------

_EXPLANATIONS = (
    ("macro_f1", "The mean of f1_LABEL over the averaged labels (the headline)"),
    ("accuracy", "Items whose predicted label is the gold label / items"),
    ("micro_f1", "2 tp / (gold + predicted), each summed over the averaged labels"),
    ("macro_precision", "The mean of precision_LABEL over the averaged labels"),
    ("macro_recall", "The mean of recall_LABEL over the averaged labels"),
    ("precision_LABEL", "Items predicted LABEL whose gold label is LABEL / items predicted "
                        "LABEL (0 when none is)"),
    ("recall_LABEL", "Items of gold label LABEL predicted LABEL / items of gold label LABEL "
                     "(0 when none is)"),
    ("f1_LABEL", "2 tp / (gold + predicted) of LABEL: its F1 from the counts (0 when LABEL is "
                 "neither a gold nor a predicted label)"),
)


def averaged(policy) -> tuple:
    """The labels the averages go over."""
    return policy.average_labels or policy.labels


def declarations(policy) -> tuple:
    """The metrics of a policy, as the counts table's ratios and their means:
    the reports' order (the ratios are computed first, the means after)."""
    from scorer.countstable.metrics import Mean, Ratio
    over = averaged(policy)
    per_label = []
    for label in policy.labels:
        name = label_name(label)
        per_label += [
            Ratio(f"precision_{name}", f"Items predicted {label} whose gold label is {label} / "
                                       f"items predicted {label}", f"tp:{label}",
                  f"predicted:{label}"),
            Ratio(f"recall_{name}", f"Items of gold label {label} predicted {label} / items "
                                    f"of gold label {label}", f"tp:{label}", f"gold:{label}"),
            Ratio(f"f1_{name}", f"2 tp / (gold + predicted) of {label}", f"2tp:{label}",
                  f"gold+predicted:{label}"),
        ]
    names = [label_name(label) for label in over]
    return (
        Mean("macro_f1", "The mean of the per-label F1 over " + ", ".join(over),
             [f"f1_{name}" for name in names]),
        Ratio("accuracy", "Items whose predicted label is the gold label / items", "correct",
              "items"),
        Ratio("micro_f1", "2 tp / (gold + predicted), each summed over " + ", ".join(over),
              "2tp", "gold+predicted"),
        Mean("macro_precision", "The mean of the per-label precision over " + ", ".join(over),
             [f"precision_{name}" for name in names]),
        Mean("macro_recall", "The mean of the per-label recall over " + ", ".join(over),
             [f"recall_{name}" for name in names]),
        *per_label,
    )


def counts_columns(labels: tuple) -> tuple:
    """The counts table's columns, one row per item: a label's are
    ``KIND:LABEL``, the others have no ':' (so that no label, not even one
    named 'averaged', can give a column the name of another)."""
    per_label = tuple(f"{kind}:{label}" for label in labels
                      for kind in ("tp", "gold", "predicted", "2tp", "gold+predicted"))
    return ("items", "correct", *per_label, "2tp", "gold+predicted")


def counts_row(gold: str, predicted: str, labels: tuple, over: frozenset) -> tuple:
    """An item's row of the counts table (in counts_columns order)."""
    right = gold == predicted
    row = [1, int(right)]
    for label in labels:
        tp = int(right and gold == label)
        in_gold, in_predicted = int(gold == label), int(predicted == label)
        row += [tp, in_gold, in_predicted, 2 * tp, in_gold + in_predicted]
    averaged_tp = int(right and gold in over)
    row += [2 * averaged_tp, int(gold in over) + int(predicted in over)]
    return tuple(row)


def evaluate(policy, files: tuple):
    """The evaluation of a gold file and a predictions file: the counts table
    in gold order, one row per item, and the outcomes the ``.debug`` shows."""
    from scorer.countstable.metrics import full_data
    from scorer.countstable.evaluation import Evaluation, claim_columns, claim_keys
    gold_path, predictions_path = files
    labels = tuple(policy.labels)
    gold = read_items(gold_path, "gold", labels)
    if not gold:
        raise ScorerError(f"{gold_path}: no item; a gold file gives each item its label")
    cells = len(gold) * len(counts_columns(labels))
    if cells > MAX_TABLE_CELLS:
        # The table is dense (each item a row of every label's counts): about 16 bytes
        # a cell, and the bootstrap's sums over it, a few times that.
        raise ScorerError(f"{gold_path}: {len(gold):,} items and {len(labels):,} labels make a "
                          f"counts table of {cells:,} cells, more than the "
                          f"{MAX_TABLE_CELLS:,} scored in memory; list only the labels the "
                          f"task uses, or score a part of the items at a time")
    predictions = read_items(predictions_path, "predictions", labels)
    gold_line = {item_id: line for line, item_id, _label in gold}
    predicted = {}
    for line, item_id, label in predictions:
        if item_id not in gold_line:
            near = (f" (the gold has {_shown(item_id.strip())}: white space around an id is "
                    f"part of it)" if item_id.strip() in gold_line else "")
            raise ScorerError(f"{predictions_path} line {line}: id {_shown(item_id)} is not "
                              f"an item of the gold ({gold_path}){near}")
        predicted[item_id] = (line, label)
    missing = [(line, item_id) for line, item_id, _label in gold if item_id not in predicted]
    if missing:
        line, item_id = missing[0]
        more = f" (and {len(missing) - 1:,} more)" if len(missing) > 1 else ""
        raise ScorerError(f"{predictions_path}: no prediction for id {_shown(item_id)} "
                          f"({gold_path} line {line}){more}; every item of the gold is "
                          f"predicted")
    over = frozenset(averaged(policy))
    rows, outcomes = [], []
    for line, item_id, label in gold:
        predicted_line, predicted_label = predicted[item_id]
        rows.append(counts_row(label, predicted_label, labels, over))
        outcomes.append((item_id, line, predicted_line, label, predicted_label))
    columns = claim_columns(rows, counts_columns(labels))
    keys, key_source = claim_keys([item_id for _line, item_id, _label in gold],
                                  [line for line, _id, _label in gold])
    declared = declarations(policy)
    return Evaluation("classification", files, keys, columns, outcomes,
                      full_data(declared, columns), key_source=key_source, declared=declared)


# -- reading the files ---------------------------------------------------------------

def read_items(path: str, role: str, labels: tuple | None = None) -> list:
    """``(line, id, label)`` of every item of a gold or predictions file, in
    file order; an id given twice, a line that is not an item, or (given the
    policy's ``labels``) a label not among them is an error naming the file
    and line.  A UTF-8 byte-order mark at the start (as
    spreadsheet programs and some Windows editors write) is not part of the
    first line."""
    from scorer.textfile import read_text
    text = read_text(path)
    bom = text.startswith(BOM)
    first = next((line for line in text.splitlines() if line.strip()), "")
    tsv = not first.lstrip(BOM + " \t").startswith("{")
    items = _tsv_items(path, text[1:] if bom else text) if tsv else _json_items(path)
    if labels is not None:
        _check_labels(items, path, labels, tsv)
    seen: dict = {}
    for line, item_id, _label in items:
        earlier = seen.setdefault(item_id, line)
        if earlier != line:
            raise ScorerError(f"{path} line {line}: id {_shown(item_id)} is on line {earlier} "
                              f"too; each item of the {role} is given once")
    return items


#: The UTF-8 byte-order mark, as text.
BOM = "\ufeff"


def _json_items(path: str) -> list:
    from scorer.countstable.jsonl import read_objects, type_name
    items = []
    for line, item in read_objects(path, lenient=True):
        for key in ("id", "label"):
            if key not in item:
                raise ScorerError(f"{path} line {line}: no '{key}'; an item is "
                                  f'{{"id": ..., "label": ...}}')
        item_id, label = item["id"], item["label"]
        if isinstance(item_id, bool) or not isinstance(item_id, (str, int)):
            raise ScorerError(f"{path} line {line}: 'id' must be a string or a whole number, "
                              f"not {type_name(item_id)}")
        if not isinstance(label, str):
            raise ScorerError(f"{path} line {line}: 'label' must be a string, not "
                              f"{type_name(label)}")
        item_id = item_id if isinstance(item_id, str) else str(item_id)
        if not item_id.strip():
            raise ScorerError(f"{path} line {line}: an empty id ({_shown(item_id)})")
        if _CONTROL.search(item_id):
            raise ScorerError(f"{path} line {line}: id {_shown(item_id)} holds a tab, a line "
                              f"break or another control character")
        items.append((line, item_id, label))
    return items


def _tsv_items(path: str, text: str) -> list:
    items = []
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        if BOM in line:
            # (invisible: the id or label would look right in every message)
            raise ScorerError(f"{path} line {number}: a byte-order mark (U+FEFF, invisible) "
                              f"inside the line; save the file as UTF-8 (one mark at the "
                              f"start, or none, is read)")
        cells = line.split("\t")
        if number == 1 and [cell.strip().lower() for cell in cells] == ["id", "label"]:
            continue                                   # the header
        if len(cells) != 2:
            raise ScorerError(f"{path} line {number}: {len(cells)} tab-separated column(s); "
                              f"an item is id<TAB>label (or a JSON line "
                              f'{{"id": ..., "label": ...}})')
        if not cells[0].strip():
            raise ScorerError(f"{path} line {number}: an empty id ({_shown(cells[0])})")
        items.append((number, cells[0], cells[1]))
    return items


def _check_labels(items: list, path: str, labels: tuple, tsv: bool) -> None:
    known = set(labels)
    for line, _item_id, label in items:
        if label not in known:
            raise ScorerError(f"{path} line {line}: label {_shown(label)} is not one of the "
                              f"policy's labels ({', '.join(map(repr, labels))})"
                              f"{_label_hint(label, labels, tsv and line == 1)}")


def _label_hint(label: str, labels: tuple, first_tsv_line: bool) -> str:
    """Why a label that is not the policy's may look as if it were one."""
    for known in labels:
        if unicodedata.normalize("NFC", label) == unicodedata.normalize("NFC", known):
            return (f"; it differs from {known!r} only in its Unicode normalization (NFC, "
                    f"NFD), so it looks the same but is not")
    for known in labels:
        if label.strip() == known:
            return f"; it is {known!r} with white space around it"
    for known in labels:
        if label.casefold() == known.casefold():
            return f"; labels differ by case: the policy has {known!r}"
    if first_tsv_line:
        return "; a header line, if this is one, is id<TAB>label"
    return ""


def _shown(text: str) -> str:
    from scorer.limits import shorten
    return repr(shorten(text))


TASK = Classification()


def _starts_json_lines(path: str) -> bool:
    """Whether a gold file is JSON lines (its first byte past a BOM and blanks a '{')."""
    with open(path, "rb") as f:
        return f.read(64).lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{")
