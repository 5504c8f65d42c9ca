"""SciFact's files read and checked: the gold claims and the predictions (both
shapes, detected per file: see :func:`~scorer.claims.scifactinputs.read_predictions`), each line a record,
every refusal naming the file and the line; the predictions checked to list
the gold claims in gold order (:func:`~scorer.claims.scifactinputs.check_order`), and the keys samples
files draw the claims by (:func:`~scorer.claims.scifactinputs.gold_keys`).

The gold is read first: its errors come before those of the predictions,
which come before any of scoring (``scorer/claims/scifact.py``).  Where
msgspec is installed and the files are large enough
(:func:`scorer.countstable.jsonl.decode_fast`), the lines are decoded into typed
Structs (``_line_types``: whole-number sentences, string labels, ids that are
whole numbers or strings); any other line is read by the standard library and
checked here, with the same results.
"""
from __future__ import annotations

from collections import namedtuple

from scorer.countstable.evaluation import claim_keys, claim_names
from scorer.countstable.jsonl import decode_fast, fast_json, object_blocks, show, type_name
from scorer.problems import ScorerError

NEI = "NOT_ENOUGH_INFO"

LEADERBOARD = "leaderboard"
SETS = "sets"


# ---------------------------------------------------------------- input records

# Records are collections.namedtuple classes: a run makes a few per claim, a
# tuple is the cheapest record to make, and typing.NamedTuple or dataclasses
# would cost a plain run more start-up time than scoring a thousand claims.
# Sentence lists are the lists read (never changed): a list of whole numbers
# is shown by its repr, which is its JSON.

#: ``Record(*fields)`` without the generated ``__new__``'s Python call (all
#: fields given, defaults included): for the records made per claim.
_record = tuple.__new__

#: rationales: in file order, each the list of its sentences as written.
GoldAbstract = namedtuple("GoldAbstract", "doc label rationales")

#: abstracts: doc -> GoldAbstract, file order; plain: every sentence is a
#: whole number (not a boolean).
GoldClaim = namedtuple("GoldClaim", "line id abstracts plain", defaults=(True,))

#: sets: evidence-sets shape, how many sets were joined (0 in the leaderboard shape).
PredictedAbstract = namedtuple("PredictedAbstract", "doc label sentences sets", defaults=(0,))

#: label: evidence-sets shape, the top-level claim label (None in the leaderboard
#: shape); dropped: evidence-sets shape, abstracts labelled NOT_ENOUGH_INFO, left
#: out; plain: every sentence is a whole number.
PredictedClaim = namedtuple("PredictedClaim", "line id abstracts label dropped plain",
                            defaults=(None, (), True))

#: unread_labels: lines of the predictions whose top-level ``label`` the
#: shape does not read (leaderboard shape: the abstracts' labels decide).
Inputs = namedtuple("Inputs", "gold_path predictions_path gold predictions shape unread_labels",
                    defaults=((),))



# ---------------------------------------------------------------- reading

def read_inputs(gold_path: str, predictions_path: str) -> Inputs:
    typed = decode_fast((gold_path, predictions_path))
    gold = read_gold(gold_path, typed)
    predictions, shape, unread_labels = read_predictions(predictions_path, typed)
    return Inputs(gold_path, predictions_path, gold, predictions, shape, unread_labels)


def _line_types():
    """``(GoldLine, PredictionLine, gold decoder, predictions decoder, UNSET)``:
    the msgspec Structs lines of the common shape are decoded into (made on
    first use: they need msgspec and typing).  A line of any other shape
    (other kinds of ids, sentences or labels, a missing key) is read by the
    standard library and checked by the general rules."""
    global _TYPES
    if _TYPES is None:
        msgspec = fast_json()
        from typing import Union    # (typing: a plain run does without it)
        # (defstruct: this module's annotations are text, which msgspec would
        # look up among the module's names)
        rationale = msgspec.defstruct("RationaleSet", [("sentences", list[int]),
                                                       ("label", str)])
        ident = Union[int, str]
        GoldLine = msgspec.defstruct("GoldLine", [
            ("id", ident), ("evidence", dict[str, list[rationale]])])
        # Either shape: an abstract maps to {sentences, label} (the leaderboard
        # shape) or to a list of such sets (the evidence-sets shape).
        PredictionLine = msgspec.defstruct("PredictionLine", [
            ("id", ident), ("evidence", dict[str, Union[rationale, list[rationale]]]),
            ("label", Union[str, msgspec.UnsetType], msgspec.UNSET)])
        _TYPES = (GoldLine, PredictionLine, msgspec.json.Decoder(GoldLine),
                  msgspec.json.Decoder(PredictionLine), msgspec.UNSET)
    return _TYPES


_TYPES = None
#: A type no line is decoded into (the standard library's lines are dicts).
_NO_TYPE = type("NoType", (), {})


def _as_object(line) -> dict:
    """A GoldLine or PredictionLine as the standard library reads its line
    (for the general rules: the keys they read)."""
    def entry(value):
        return {"sentences": value.sentences, "label": value.label}

    evidence = {doc: ([entry(s) for s in value] if type(value) is list else entry(value))
                for doc, value in line.evidence.items()}
    found = {"id": line.id, "evidence": evidence}
    label = getattr(line, "label", _TYPES[4])
    if label is not _TYPES[4]:
        found["label"] = label
    return found


def _require(obj: dict, key: str, where: str, what: str):
    if key not in obj:
        raise ScorerError(f"{where}: {what} has no '{key}'")
    return obj[key]


#: Exactly these kinds: sentences of a plain claim (bool, a subclass, is not
#: shown as its JSON by repr).
_INT = {int}


def _sentences(value, where: str, what: str) -> list:
    if not isinstance(value, list):
        raise ScorerError(f"{where}: 'sentences' of {what} must be a list of sentence "
                          f"numbers, not {type_name(value)}")
    for sentence in value:
        if isinstance(sentence, (list, dict)):
            raise ScorerError(f"{where}: 'sentences' of {what} holds {show(sentence)}; "
                              f"a sentence must be a number")
    return value


def _label(value, where: str, what: str) -> str:
    if not isinstance(value, str):
        raise ScorerError(f"{where}: the label of {what} must be a string, "
                          f"not {type_name(value)}")
    return value


def _evidence_sets(doc: str, sets, where: str, role: str) -> tuple:
    """A list of ``{sentences, label}`` sets -> (their common label, their sentence lists)."""
    what = f"abstract {show(doc)}"
    if not isinstance(sets, list):
        raise ScorerError(f"{where}: {what} must map to a list of "
                          f"{{\"sentences\", \"label\"}} sets, not {type_name(sets)}")
    if not sets:
        raise ScorerError(f"{where}: {what} has an empty list of rationale sets, so no "
                          f"label ({role} abstracts need at least one set)")
    labels, sentence_lists = [], []
    for entry in sets:
        if not isinstance(entry, dict):
            raise ScorerError(f"{where}: a rationale set of {what} must be an object "
                              f"{{\"sentences\", \"label\"}}, not {type_name(entry)}")
        sentence_lists.append(_sentences(_require(entry, "sentences", where,
                                                  f"a rationale set of {what}"), where, what))
        labels.append(_label(_require(entry, "label", where, f"a rationale set of {what}"),
                             where, what))
    if len(set(labels)) > 1:
        raise ScorerError(f"{where}: conflicting labels for {what}: "
                          f"{', '.join(dict.fromkeys(labels))} (one label per abstract)")
    return labels[0], tuple(sentence_lists)


def _plain(sentence_lists) -> bool:
    """Every sentence of every list is a whole number (exactly an int)."""
    return all([_INT.issuperset(map(type, sentences)) for sentences in sentence_lists])


def read_gold(path: str, typed: bool | None = None) -> list:
    """The SciFact claims file: ``{id, evidence: {doc: [{sentences, label}, ...]}}`` a line
    (``typed``: read through msgspec's Structs; None: when the file is large
    enough, :func:`scorer.countstable.jsonl.decode_fast`)."""
    if typed is None:
        typed = decode_fast((path,))
    GoldLine, decoder = (_line_types()[0], _line_types()[2]) if typed else (_NO_TYPE, None)
    claims = []
    for block in object_blocks(path, decoder):
        for line, obj in block:
            if type(obj) is GoldLine:
                claim = _typed_gold(line, obj)
                if claim is not None:
                    claims.append(claim)
                    continue
                obj = _as_object(obj)
            else:
                claim = _common_gold(line, obj)
                if claim is not None:
                    claims.append(claim)
                    continue
            claims.append(_gold_claim(path, line, obj))
    if not claims:
        # The evaluator writes 0.0 for every metric (its safe division), which
        # passes an empty export for a run that scored nothing; FEVER's stops.
        raise ScorerError(f"{path}: no gold claims; the scores are undefined without claims")
    return claims


def _typed_gold(line: int, obj) -> GoldClaim | None:
    """The claim of a GoldLine, or None when the general rules must read it
    (an abstract without sets, or of conflicting labels: their errors)."""
    abstracts = {}
    for doc, sets in obj.evidence.items():
        if len(sets) == 1:
            first = sets[0]
            abstracts[doc] = _record(GoldAbstract, (doc, first.label, (first.sentences,)))
            continue
        if not sets:
            return None
        label = sets[0].label
        for entry in sets:
            if entry.label != label:
                return None
        abstracts[doc] = _record(GoldAbstract, (doc, label,
                                                tuple([entry.sentences for entry in sets])))
    return _record(GoldClaim, (line, obj.id, abstracts, True))


def _common_sets(sets) -> tuple | None:
    """(label, sentence lists) of an abstract's ``{sentences, label}`` sets in
    the common form (a list of them, of one label, every sentence an int), or None."""
    if type(sets) is not list or not sets:
        return None
    label = None
    sentence_lists = []
    for entry in sets:
        if type(entry) is not dict:
            return None
        sentences = entry.get("sentences")
        entry_label = entry.get("label")
        if type(sentences) is not list or type(entry_label) is not str or \
                not _INT.issuperset(map(type, sentences)) or \
                (label is not None and entry_label != label):
            return None
        label = entry_label
        sentence_lists.append(sentences)
    return label, sentence_lists


def _common_gold(line: int, obj: dict) -> GoldClaim | None:
    """The claim of a line in the common form (an id; each abstract a list of
    ``{sentences, label}`` sets of one label, every sentence an int), made
    without the messages the checks would need; None for any other line,
    which :func:`_gold_claim` reads and checks."""
    if "id" not in obj:
        return None
    evidence = obj.get("evidence")
    if type(evidence) is not dict:
        return None
    abstracts = {}
    for doc, sets in evidence.items():
        common = _common_sets(sets)
        if common is None:
            return None
        abstracts[doc] = _record(GoldAbstract, (doc, common[0], tuple(common[1])))
    return _record(GoldClaim, (line, obj["id"], abstracts, True))


def _gold_claim(path: str, line: int, obj: dict) -> GoldClaim:
    where = f"{path} line {line}"
    claim_id = _require(obj, "id", where, "the gold claim")
    evidence = _require(obj, "evidence", where, "the gold claim")
    if not isinstance(evidence, dict):
        raise ScorerError(f"{where}: 'evidence' must be an object mapping abstract ids "
                          f"to rationale sets, not {type_name(evidence)}")
    abstracts = {}
    for doc, sets in evidence.items():
        label, rationales = _evidence_sets(doc, sets, where, "gold")
        abstracts[doc] = GoldAbstract(doc, label, rationales)
    plain = _plain([r for abstract in abstracts.values() for r in abstract.rationales])
    return GoldClaim(line, claim_id, abstracts, plain)


def _evidence(obj):
    """The ``evidence`` of a line read (a dict, or a PredictionLine), or None."""
    if type(obj) is dict:
        return obj.get("evidence")
    return obj.evidence


def _has_label(obj) -> bool:
    if type(obj) is dict:
        return "label" in obj
    return obj.label is not _TYPES[4]


def detect_shape(objects: list) -> tuple:
    """Which shape a prediction file is in, and the line that decided it:

    * leaderboard: ``{id, evidence: {doc: {label, sentences}}}``;
    * evidence sets: ``{id, label, evidence: {doc: [{sentences, label}, ...]}}``.

    The first non-empty evidence decides.  A file whose every evidence is
    empty is in the sets shape when some line has a top-level ``label``
    (which every line then needs) other than NOT_ENOUGH_INFO or every line
    has one, else in the leaderboard shape; the line
    is None when no line decided (a leaderboard file of empty predictions).
    """
    for line, obj in objects:
        evidence = _evidence(obj)
        if isinstance(evidence, dict) and evidence:
            first = next(iter(evidence.values()))
            return (SETS if isinstance(first, list) else LEADERBOARD), line
    labelled = [(line, obj["label"] if type(obj) is dict else obj.label)
                for line, obj in objects if _has_label(obj)]
    if not labelled:
        return LEADERBOARD, None
    if len(labelled) < len(objects) and all(label == NEI for _line, label in labelled):
        # Read alike in both shapes (no abstract predicted: NOT_ENOUGH_INFO):
        # the leaderboard shape, which needs no label on the other lines, as
        # the evaluator reads the file.
        return LEADERBOARD, None
    return SETS, labelled[0][0]


def _shape_reason(shape: str, line: int, objects: list) -> str:
    """Why the file was read in ``shape``, the decision made on ``line``."""
    name = "evidence-sets" if shape == SETS else "leaderboard"
    if any(at == line and isinstance(_evidence(obj), dict) and _evidence(obj)
           for at, obj in objects):
        return f"line {line} of this file is in the {name} shape"
    return (f"line {line} has a top-level 'label' and no line predicts an abstract, so the "
            f"file is read in the evidence-sets shape (id, label, evidence sets)")


def read_predictions(path: str, typed: bool | None = None) -> tuple:
    """The predictions, their shape, and the lines whose top-level ``label``
    that shape does not read (leaderboard shape); ``typed`` as for
    :func:`read_gold`."""
    if typed is None:
        typed = decode_fast((path,))
    PredictionLine, decoder = (_line_types()[1], _line_types()[3]) if typed else \
        (_NO_TYPE, None)
    objects = []
    for block in object_blocks(path, decoder):
        objects += block
    shape, first_line = detect_shape(objects)
    claims, unread_labels = [], []
    for line, obj in objects:
        if type(obj) is PredictionLine:
            claim = _typed_prediction(line, obj, shape, unread_labels)
            if claim is not None:
                claims.append(claim)
                continue
            obj = _as_object(obj)
        else:
            claim = _common_prediction(line, obj, shape, unread_labels)
            if claim is not None:
                claims.append(claim)
                continue
        claims.append(_prediction_claim(path, line, obj, shape, first_line, objects,
                                        unread_labels))
    return claims, shape, tuple(unread_labels)


def _typed_prediction(line: int, obj, shape: str, unread_labels: list) -> PredictedClaim | None:
    """The claim of a PredictionLine, or None when the general rules must read
    it (an abstract in the other shape, a set list empty or of conflicting
    labels, a sets-shape line without its label: their errors)."""
    abstracts = []
    label = obj.label
    unset = _TYPES[4]
    if shape == LEADERBOARD:
        for doc, value in obj.evidence.items():
            if type(value) is list:
                return None
            abstracts.append(_record(PredictedAbstract, (doc, value.label, value.sentences, 0)))
        if label is not unset:
            unread_labels.append(line)
        return _record(PredictedClaim, (line, obj.id, tuple(abstracts), None, (), True))
    if label is unset:
        return None
    dropped = []
    for doc, sets in obj.evidence.items():
        if type(sets) is not list or not sets:
            return None
        set_label = sets[0].label
        if len(sets) == 1:
            joined = sets[0].sentences
        else:
            for entry in sets:
                if entry.label != set_label:
                    return None
            joined = [sentence for entry in sets for sentence in entry.sentences]
        (dropped if set_label == NEI else abstracts).append(
            _record(PredictedAbstract, (doc, set_label, joined, len(sets))))
    return _record(PredictedClaim, (line, obj.id, tuple(abstracts), label, tuple(dropped), True))


def _common_prediction(line: int, obj: dict, shape: str,
                       unread_labels: list) -> PredictedClaim | None:
    """The claim of a line in the common form of its file's shape (every
    sentence an int, every label a string), made without the messages the
    checks would need; None for any other line, which
    :func:`_prediction_claim` reads and checks."""
    if "id" not in obj:
        return None
    evidence = obj.get("evidence")
    if type(evidence) is not dict:
        return None
    abstracts = []
    if shape == LEADERBOARD:
        for doc, value in evidence.items():
            if type(value) is not dict:
                return None
            label = value.get("label")
            sentences = value.get("sentences")
            if type(label) is not str or type(sentences) is not list or \
                    not _INT.issuperset(map(type, sentences)):
                return None
            abstracts.append(_record(PredictedAbstract, (doc, label, sentences, 0)))
        if "label" in obj:
            unread_labels.append(line)
        return _record(PredictedClaim, (line, obj["id"], tuple(abstracts), None, (), True))
    claim_label = obj.get("label")
    if type(claim_label) is not str:
        return None
    dropped = []
    for doc, sets in evidence.items():
        common = _common_sets(sets)
        if common is None:
            return None
        label, sentence_lists = common
        joined = sentence_lists[0] if len(sentence_lists) == 1 else \
            [s for sentences in sentence_lists for s in sentences]
        (dropped if label == NEI else abstracts).append(
            _record(PredictedAbstract, (doc, label, joined, len(sentence_lists))))
    return _record(PredictedClaim, (line, obj["id"], tuple(abstracts), claim_label,
                                    tuple(dropped), True))


def _prediction_claim(path: str, line: int, obj: dict, shape: str, first_line, objects: list,
                      unread_labels: list) -> PredictedClaim:
    where = f"{path} line {line}"
    claim_id = _require(obj, "id", where, "the prediction")
    evidence = _require(obj, "evidence", where, "the prediction")
    if not isinstance(evidence, dict):
        raise ScorerError(f"{where}: 'evidence' must be an object mapping abstract ids "
                          f"to predictions, not {type_name(evidence)}")
    abstracts, dropped = [], []
    for doc, value in evidence.items():
        in_sets_shape = isinstance(value, list)
        if in_sets_shape != (shape == SETS) and isinstance(value, (list, dict)):
            raise ScorerError(
                f"{where}: abstract {show(doc)} is written in the "
                f"{'evidence-sets' if in_sets_shape else 'leaderboard'} shape, but "
                f"{_shape_reason(shape, first_line, objects)}; one file must use one shape")
        if shape == SETS:
            label, sentence_lists = _evidence_sets(doc, value, where, "predicted")
            joined = sentence_lists[0] if len(sentence_lists) == 1 else \
                [s for sentences in sentence_lists for s in sentences]
            target = dropped if label == NEI else abstracts
            target.append(PredictedAbstract(doc, label, joined, len(sentence_lists)))
        else:
            what = f"abstract {show(doc)}"
            if not isinstance(value, dict):
                raise ScorerError(f"{where}: {what} must map to an object "
                                  f"{{\"label\", \"sentences\"}}, not {type_name(value)}")
            label = _label(_require(value, "label", where, what), where, what)
            sentences = _sentences(_require(value, "sentences", where, what), where, what)
            abstracts.append(PredictedAbstract(doc, label, sentences))
    claim_label = None
    if shape == SETS:
        if "label" not in obj:
            raise ScorerError(f"{where}: the prediction has no top-level 'label', but "
                              f"{_shape_reason(shape, first_line, objects)}; in that "
                              f"shape every line needs its claim's label")
        claim_label = _label(obj["label"], where, "the claim")
    elif "label" in obj:
        unread_labels.append(line)
    plain = _plain([a.sentences for a in abstracts]) and _plain([a.sentences for a in dropped])
    return PredictedClaim(line, claim_id, tuple(abstracts), claim_label, tuple(dropped), plain)


# ---------------------------------------------------------------- the claims in order

def claim_label(labels) -> str:
    """A claim's label from its abstracts' labels: NOT_ENOUGH_INFO when there are
    none, else the most frequent, ties going to the later label in string order."""
    if type(labels) is list and labels and labels.count(labels[0]) == len(labels):
        return labels[0]                 # (the common case: one label throughout)
    counts: dict = {}  # first-seen order, as collections.Counter keeps (without its cost)
    for label in labels:
        counts[label] = counts.get(label, 0) + 1
    if not counts:
        return NEI
    return max(counts, key=lambda label: (counts[label], label))


def check_order(inputs: Inputs) -> None:
    """Predictions must list the gold claims, one line each, in gold order."""
    gold, predictions = inputs.gold, inputs.predictions
    if gold and not predictions:
        raise ScorerError(f"{inputs.predictions_path}: no predictions, for {len(gold)} gold "
                          f"claim(s) ({inputs.gold_path}); predictions must list every gold "
                          f"claim once, in gold order")
    for g, p in zip(gold, predictions):
        if g.id != p.id:
            raise ScorerError(
                f"{inputs.predictions_path} line {p.line}: prediction for claim {show(p.id)} "
                f"where the gold ({inputs.gold_path} line {g.line}) has claim {show(g.id)}; "
                f"predictions must list every gold claim once, in gold order")
    if len(predictions) < len(gold):
        missing = gold[len(predictions)]
        raise ScorerError(
            f"{inputs.predictions_path}: {len(predictions)} prediction line(s) for "
            f"{len(gold)} gold claims; no prediction for claim {show(missing.id)} "
            f"({inputs.gold_path} line {missing.line}) and after")
    if len(predictions) > len(gold):
        extra = predictions[len(gold)]
        raise ScorerError(
            f"{inputs.predictions_path} line {extra.line}: prediction for claim "
            f"{show(extra.id)} after the last gold claim ({len(gold)} gold claims)")


def gold_keys(gold: list, names: list | None = None) -> tuple:
    """``(claim keys, key source)`` of the gold claims (``names``: their ids as
    text, when made already): what samples files draw."""
    if names is None:
        names = claim_names([claim.id for claim in gold])
    return claim_keys(names, [claim.line for claim in gold])
