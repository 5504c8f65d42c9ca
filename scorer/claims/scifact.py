"""SciFact: gold claims and predictions -> per-claim counts and outcomes.

The counting rules are those of the SciFact leaderboard evaluator
(``evaluator/eval.py`` of ``allenai/scifact-evaluator``, December 2021):

* abstract level: every predicted abstract is *retrieved*, every gold abstract
  *relevant*; a predicted abstract that is a gold abstract of the claim with
  the gold label is correct **label-only**, and also **rationalized** when its
  first ``max(max_evidence, shortest gold rationale)`` predicted sentences
  (all of them when max_evidence is None) contain a whole gold rationale;
* sentence level: every predicted sentence (repeats included) is *retrieved*,
  every sentence of every gold rationale (repeats included) *relevant*; each
  distinct predicted sentence of a gold abstract that lies in a gold rationale
  all of whose sentences are predicted is correct for **selection**, and also
  for **label** when the abstract's predicted label is the gold one.

Sentences are compared as Python values (``4.0`` equals ``4``); abstract ids
as the strings they are in the files.  Predictions come in two shapes,
detected per file (see :func:`read_predictions`).

A run reads both files (the gold first: its errors come before those of the
predictions, which come before any of scoring), then scores each claim and
writes its ``.debug`` text in one step (``_Scorer``), keeping only its
row of counts: no record is made per abstract or sentence scored.  Where
msgspec is installed and the files are large enough
(:func:`scorer.countstable.jsonl.decode_fast`), the lines are decoded into typed
Structs (``_line_types``: whole-number sentences, string labels, ids that are
whole numbers or strings); any other line is read by the standard library and
checked here, with the same results.
"""
from __future__ import annotations

from collections import namedtuple

from scorer.countstable.jsonl import decode_fast, object_blocks, show, type_name
from scorer.countstable.metrics import (CLAIMS, Evaluation, claim_columns, claim_keys, claim_names,
                                   full_data)
from scorer.countstable.reports import RULE, SUBRULE
from scorer.countstable.spool import Spool
from scorer.policy import Policy
from scorer.problems import Problems, ScorerError, Where

NEI = "NOT_ENOUGH_INFO"

LEADERBOARD = "leaderboard"
SETS = "sets"

COLUMNS = (CLAIMS, "abstract_relevant", "abstract_retrieved", "abstract_correct_label_only",
           "abstract_correct_rationalized", "sentence_relevant", "sentence_retrieved",
           "sentence_correct_selection", "sentence_correct_label", "label_correct")

#: Sentence verdicts of the .debug report.
CORRECT = "CORRECT"                  # its gold rationale is wholly predicted
INCOMPLETE = "INCOMPLETE"            # in a gold rationale not wholly predicted
NOT_IN_RATIONALE = "NOT IN ANY GOLD RATIONALE"
REPEATED = "REPEATED"                # counted as retrieved again, not again as correct
ABSTRACT_NOT_IN_GOLD = "ABSTRACT NOT IN GOLD"


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

#: One row of the counts table (``COLUMNS``).
Counts = namedtuple("Counts", COLUMNS)


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
        from scorer.countstable.jsonl import fast_json
        msgspec = fast_json()
        from typing import Union
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


# ---------------------------------------------------------------- scoring

def claim_label(labels) -> str:
    """A claim's label from its abstracts' labels: NOT_ENOUGH_INFO when there are
    none, else the most frequent, ties going to the later label in string order."""
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


#: Claims whose .debug text is handed to the spool at once.
_SPOOL_CLAIMS = 1024


def evaluate(inputs: Inputs, policy: Policy, problems: Problems) -> Evaluation:
    """Score every claim: the counts table in gold order, and the ``.debug``
    text made as each claim is scored."""
    check_order(inputs)
    names = claim_names([g.id for g in inputs.gold])
    keys, key_source = gold_keys(inputs.gold, names)
    claim = _Scorer(inputs, tuple(policy.labels), policy.max_evidence).claim
    gold, predictions = inputs.gold, inputs.predictions
    rows = []
    spool = Spool()
    # The text of a block of claims is joined once and handed on as one piece
    # (not a string a claim, each joined and then written on its own).
    for start in range(0, len(gold), _SPOOL_CLAIMS):
        end = start + _SPOOL_CLAIMS
        pieces = []
        rows += [claim(name, gold_claim, predicted, pieces) for name, gold_claim, predicted
                 in zip(names[start:end], gold[start:end], predictions[start:end])]
        spool.add(["".join(pieces)])
    if key_source == "line":
        problems.record("CLAIM_WARNING",
                        "claim ids are not unique or hold a blank, ':' or ','; claims are "
                        "identified by gold line number (line<N>) in samples files",
                        where=Where(detail=inputs.gold_path))
    for line in inputs.unread_labels:
        problems.record("CLAIM_WARNING",
                        "a top-level 'label' is not read in the leaderboard shape ({id, "
                        "evidence: {doc: {label, sentences}}}): the claim's label is that of "
                        "its predicted abstracts",
                        where=Where(file=inputs.predictions_path, line=line))
    table = claim_columns(rows, COLUMNS)
    return Evaluation("scifact", (inputs.gold_path, inputs.predictions_path), keys, table,
                      None, full_data("scifact", table), policy.max_evidence, key_source,
                      debug=spool)


class _Scorer:
    """Scores claims and writes their ``.debug`` text (its layout:
    :mod:`scorer.countstable.reports`), one claim a call.

    Each list is shown once a claim (a gold abstract's rationales, an
    abstract's predicted sentences), each rationale's verdict once an
    abstract; a list of whole numbers is shown by its ``repr`` (its JSON)
    and a whole number's SENTENCE line head is made once a run.  A claim
    with any other sentence shows its values as ``json.dumps`` does."""

    def __init__(self, inputs: Inputs, allowed: tuple, max_evidence: int | None):
        self.inputs = inputs
        self.allowed = allowed
        self.claim_labels = allowed + (NEI,)
        self.max_evidence = max_evidence
        #: cap -> "first N predicted sentences"
        self.firsts = _Firsts()
        #: row of counts -> its ABSTRACT and SENTENCE COUNTS lines
        self.counts_lines = _CountsLines()
        #: (gold label, predicted label, its source) -> the claim's label lines
        self.label_lines = _LabelLines()
        #: whole number -> its SENTENCE line's head
        self.heads = _SentenceHeads()

    def claim(self, name: str, gold: GoldClaim, predicted: PredictedClaim, out: list) -> tuple:
        """The row of counts of one claim; its ``.debug`` text is added to ``out``
        (a list of strings) piece by piece."""
        gold_line, _id, gold_abstracts, gold_plain = gold
        line, _id, abstracts, given_label, dropped, plain = predicted
        if given_label is not None and given_label not in self.claim_labels:
            raise ScorerError(f"{self.inputs.predictions_path} line {line}: claim "
                              f"label {show(given_label)} is not allowed; allowed: "
                              f"{', '.join(self.claim_labels)}")
        if plain and gold_plain:
            shown_list, heads = repr, self.heads
        else:
            plain = False
            shown_list, heads = show, _ShownHeads()
        head_at = len(out)
        out.append(None)                   # the head, made last
        #: doc -> ("doc<TAB>label<TAB>rationales ...\n", each rationale's text,
        #: label, rationales)
        shown = {}
        relevant = 0
        gold_label = NEI
        for doc, (_doc, gold_label, rationales) in gold_abstracts.items():
            if len(rationales) == 1:
                relevant += len(rationales[0])
                texts = (shown_list(rationales[0]),)
                tail = f"{doc}\t{gold_label}\trationales {texts[0]}\n"
            else:
                relevant += sum(map(len, rationales))
                texts = list(map(shown_list, rationales))
                tail = f"{doc}\t{gold_label}\trationales {' '.join(texts)}\n"
            shown[doc] = (tail, texts, gold_label, rationales)
            out.append("\tGOLD ABSTRACT:\t" + tail)
        if len(shown) > 1:
            gold_label = claim_label([entry[2] for entry in shown.values()])
        retrieved = label_only = rationalized = selection = label_and_selection = 0
        matched = 0                        # predicted abstracts that are gold abstracts
        allowed = self.allowed
        max_evidence = self.max_evidence
        firsts = self.firsts
        for doc, label, sentences, sets in abstracts:
            if label not in allowed:
                raise ScorerError(f"{self.inputs.predictions_path} line {line}: "
                                  f"abstract {show(doc)} is predicted with label "
                                  f"{show(label)}; allowed: {', '.join(allowed)}")
            n = len(sentences)
            retrieved += n
            sentences_text = shown_list(sentences)
            entry = shown.get(doc)
            if entry is None:
                out.append(f"{SUBRULE}\tPREDICTED ABSTRACT:\t{doc}\t{label}\tsentences "
                           f"{sentences_text}{_joined(sets) if sets else ''}\n{_NOT_GOLD}")
                if n:
                    # One line per sentence, their common end joined between heads.
                    out.append(_NOT_IN_GOLD.join([heads[sentence] for sentence in sentences])
                               + _NOT_IN_GOLD)
                continue
            matched += 1
            tail, texts, abstract_label, rationales = entry
            label_right = label == abstract_label
            chosen = set(sentences)
            if len(rationales) == 1:
                members = set(rationales[0])
                rationale_sets = (members,)
            else:
                members = None
                rationale_sets = [set(rationale) for rationale in rationales]
            if label_right:
                label_only += 1
                if max_evidence is None:
                    first, read_text, head = _ALL_READ, sentences_text, chosen
                else:
                    shortest = len(members) if members is not None else \
                        min(map(len, rationale_sets))
                    cap = max_evidence if max_evidence >= shortest else shortest
                    first = firsts[cap]
                    if cap < n:
                        read = sentences[:cap]
                        head, read_text = set(read), shown_list(read)
                    else:
                        head, read_text = chosen, sentences_text
                if members is not None:
                    if members <= head:
                        rationalized += 1
                        verdict = (f"YES\tgold rationale {texts[0]} within the {first} "
                                   f"{read_text}\n")
                    else:
                        verdict = f"NO\tno gold rationale within the {first} {read_text}\n"
                else:
                    for number, rationale_set in enumerate(rationale_sets):
                        if rationale_set <= head:
                            rationalized += 1
                            verdict = (f"YES\tgold rationale {texts[number]} within the "
                                       f"{first} {read_text}\n")
                            break
                    else:
                        verdict = f"NO\tno gold rationale within the {first} {read_text}\n"
                out.append(f"{SUBRULE}\tPREDICTED ABSTRACT:\t{doc}\t{label}\tsentences "
                           f"{sentences_text}{_joined(sets) if sets else ''}\n"
                           f"\tGOLD:\t{tail}\tLABEL:\tRIGHT\n"
                           f"\tRATIONALIZED:\t{verdict}")
            else:
                out.append(f"{SUBRULE}\tPREDICTED ABSTRACT:\t{doc}\t{label}\tsentences "
                           f"{sentences_text}{_joined(sets) if sets else ''}\n"
                           f"\tGOLD:\t{tail}\tLABEL:\tWRONG\n"
                           f"{_LABEL_WRONG}")
            if members is not None and len(chosen) == n:
                # One rationale, no sentence repeated: each sentence is in it or not.
                if members <= chosen:
                    right = len(members)
                    verdict = (f"{CORRECT}\trationale {texts[0]} wholly predicted\t"
                               f"{_FOR_LABEL if label_right else _NOT_FOR_LABEL}\n")
                else:
                    right = 0
                    missing = [s for s in dict.fromkeys(rationales[0]) if s not in chosen]
                    verdict = (f"{INCOMPLETE}\trationale {texts[0]} lacks "
                               f"{shown_list(missing)}\n")
                if not n:
                    pass
                elif chosen <= members:        # every sentence has the rationale's verdict
                    out.append(verdict.join([heads[sentence] for sentence in sentences])
                               + verdict)
                elif chosen.isdisjoint(members):
                    out.append(_NOT_IN.join([heads[sentence] for sentence in sentences])
                               + _NOT_IN)
                else:
                    out += [heads[sentence] + (verdict if sentence in members else _NOT_IN)
                            for sentence in sentences]
            elif len(chosen) == n:
                # Several rationales, no sentence repeated: each rationale's
                # verdict made once, for the sentences predicted of it.
                verdicts: dict = {}
                right = held = 0
                for number, rationale_set in enumerate(rationale_sets):
                    hit = rationale_set & chosen
                    if not hit:
                        continue
                    held += len(hit)
                    if rationale_set <= chosen:
                        right += len(hit)
                        verdict = (f"{CORRECT}\trationale {texts[number]} wholly predicted\t"
                                   f"{_FOR_LABEL if label_right else _NOT_FOR_LABEL}\n")
                    else:
                        missing = [s for s in dict.fromkeys(rationales[number])
                                   if s not in chosen]
                        verdict = (f"{INCOMPLETE}\trationale {texts[number]} lacks "
                                   f"{shown_list(missing)}\n")
                    verdicts.update(dict.fromkeys(hit, verdict))
                if held == len(verdicts):
                    out += [heads[sentence] + verdicts.get(sentence, _NOT_IN)
                            for sentence in sentences]
                else:       # a sentence in two rationales: refused where it comes
                    right = self.sentences(out, sentences, chosen, rationales, rationale_sets,
                                           texts, label_right, shown_list, heads, line, doc,
                                           gold_line)
            else:
                right = self.sentences(out, sentences, chosen, rationales, rationale_sets, texts,
                                       label_right, shown_list, heads, line, doc, gold_line)
            selection += right
            if label_right:
                label_and_selection += right
        for abstract in dropped:
            out.append(f"{SUBRULE}\tDROPPED ABSTRACT:\t{abstract.doc}\t{abstract.label}\t"
                       f"sentences {shown_list(abstract.sentences)}\t{_NOT_SCORED}\n")
        if abstracts or dropped:
            out.append(SUBRULE)
        if matched < len(shown):
            predicted_docs = {abstract.doc for abstract in abstracts}
            out += ["\tMISSED GOLD ABSTRACT:\t" + entry[0] for doc, entry in shown.items()
                    if doc not in predicted_docs]
        if given_label is not None:
            predicted_label, source = given_label, "top-level label"
        else:
            source = "from predicted abstracts"
            if len(abstracts) == 1:
                predicted_label = abstracts[0].label
            elif not abstracts:
                predicted_label = NEI
            else:
                predicted_label = claim_label([abstract.label for abstract in abstracts])
        out[head_at] = (f"{RULE}CLAIM {name}\tgold line {gold_line}\tpredictions line "
                        f"{line}{self.label_lines[gold_label, predicted_label, source]}")
        row = (1, len(shown), len(abstracts), label_only, rationalized, relevant, retrieved,
               selection, label_and_selection, 1 if gold_label == predicted_label else 0)
        out.append(self.counts_lines[row])
        return row

    def sentences(self, out: list, sentences: list, chosen: set, rationales: tuple,
                  rationale_sets: list, texts: list, label_right: bool, shown_list, heads,
                  line: int, doc: str, gold_line: int) -> int:
        """The SENTENCE lines of a predicted gold abstract (added to ``out``),
        in the general case (repeats, several rationales); the number correct."""
        verdicts: dict = {}                # rationale number -> (correct, verdict text)
        seen = set()
        right = 0
        for sentence in sentences:
            if sentence in seen:
                out.append(heads[sentence] + _REPEATED)
                continue
            seen.add(sentence)
            holders = [number for number, members in enumerate(rationale_sets)
                       if sentence in members]
            if not holders:
                out.append(heads[sentence] + _NOT_IN)
                continue
            if len(holders) > 1:
                raise ScorerError(
                    f"{self.inputs.predictions_path} line {line}: sentence {show(sentence)} of "
                    f"abstract {show(doc)} lies in {len(holders)} gold rationales "
                    f"({self.inputs.gold_path} line {gold_line}); a sentence may belong to "
                    f"one rationale of an abstract only")
            number = holders[0]
            verdict = verdicts.get(number)
            if verdict is None:
                missing = [s for s in dict.fromkeys(rationales[number]) if s not in chosen]
                if missing:
                    verdict = (0, f"{INCOMPLETE}\trationale {texts[number]} lacks "
                                  f"{shown_list(missing)}\n")
                else:
                    verdict = (1, f"{CORRECT}\trationale {texts[number]} wholly predicted\t"
                                  f"{_FOR_LABEL if label_right else _NOT_FOR_LABEL}\n")
                verdicts[number] = verdict
            right += verdict[0]
            out.append(heads[sentence] + verdict[1])
        return right


class _Firsts(dict):
    """cap -> the words for the first ``cap`` predicted sentences."""

    __slots__ = ()

    def __missing__(self, cap: int) -> str:
        text = self[cap] = f"first {cap} predicted sentences"
        return text


class _LabelLines(dict):
    """(gold label, predicted label, source) -> the rest of a claim's CLAIM
    line and its label lines (labels are few: made once each)."""

    __slots__ = ()

    def __missing__(self, key: tuple) -> str:
        gold_label, predicted_label, source = key
        if len(self) > 10_000:
            self.clear()
        text = self[key] = (f"\n\tGOLD LABEL:\t{gold_label}\n\tPREDICTED LABEL:\t"
                            f"{predicted_label}\t{source}\t"
                            f"{'RIGHT' if gold_label == predicted_label else 'WRONG'}\n")
        return text


class _CountsLines(dict):
    """A claim's row of counts -> its ABSTRACT and SENTENCE COUNTS lines (rows
    of small numbers repeat: each made once)."""

    __slots__ = ()

    def __missing__(self, row: tuple) -> str:
        (_claims, relevant, retrieved, label_only, rationalized, sentences_relevant,
         sentences_retrieved, selection, label, _label_correct) = row
        if len(self) > 100_000:
            self.clear()
        text = self[row] = (
            f"\tABSTRACT COUNTS:\trelevant {relevant}\tretrieved {retrieved}\tlabel_only "
            f"{label_only}\trationalized {rationalized}\n\tSENTENCE COUNTS:\trelevant "
            f"{sentences_relevant}\tretrieved {sentences_retrieved}\tselection {selection}\t"
            f"label {label}\n")
        return text


class _SentenceHeads(dict):
    """A whole number -> the head of its SENTENCE line, made once."""

    __slots__ = ()

    def __missing__(self, sentence: int) -> str:
        if len(self) > 100_000:
            self.clear()        # (sentence numbers are small; a file may hold others)
        head = self[sentence] = f"\tSENTENCE {sentence}:\t"
        return head


class _ShownHeads:
    """The head of a SENTENCE line of any sentence (its JSON)."""

    __slots__ = ()

    def __getitem__(self, sentence) -> str:
        return f"\tSENTENCE {show(sentence)}:\t"


def _joined(sets: int) -> str:
    """The end of a PREDICTED ABSTRACT line: how many sets were joined (evidence-sets shape)."""
    return f"\tjoined from {sets} set(s)" if sets else ""


_ALL_READ = "all predicted sentences"
_NOT_GOLD = "\tGOLD:\tNONE\tnot a gold abstract of this claim: retrieved, never correct\n"
_NOT_IN_GOLD = f"{ABSTRACT_NOT_IN_GOLD}\n"
_LABEL_WRONG = "\tRATIONALIZED:\tNO\tlabel wrong\n"
_REPEATED = f"{REPEATED}\tretrieved again, not counted again\n"
_NOT_IN = f"{NOT_IN_RATIONALE}\n"
_FOR_LABEL = "counts for label"
_NOT_FOR_LABEL = "not for label: label wrong"
_NOT_SCORED = f"labelled {NEI}: not scored"
