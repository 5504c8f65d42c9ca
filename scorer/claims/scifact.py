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
"""
from __future__ import annotations

from collections import namedtuple

from scorer.claims.jsonl import read_objects, show, type_name
from scorer.claims.metrics import (CLAIMS, Evaluation, claim_columns, claim_keys, claim_names,
                                   full_data)
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

# Records are collections.namedtuple classes: a run makes several per claim,
# a tuple is the cheapest record to make, and typing.NamedTuple or
# dataclasses would cost a plain run more start-up time than scoring a
# thousand claims.

#: ``Record(*fields)`` without the generated ``__new__``'s Python call (all
#: fields given, defaults included): for the records made per sentence.
_record = tuple.__new__

#: rationales: in file order, each the list of its sentences as written.
GoldAbstract = namedtuple("GoldAbstract", "doc label rationales")

#: abstracts: doc -> GoldAbstract, file order.
GoldClaim = namedtuple("GoldClaim", "line id abstracts")

#: sets: evidence-sets shape, how many sets were joined (0 in the leaderboard shape).
PredictedAbstract = namedtuple("PredictedAbstract", "doc label sentences sets", defaults=(0,))

#: label: evidence-sets shape, the top-level claim label (None in the leaderboard
#: shape); dropped: evidence-sets shape, abstracts labelled NOT_ENOUGH_INFO, left out.
PredictedClaim = namedtuple("PredictedClaim", "line id abstracts label dropped",
                            defaults=(None, ()))

#: unread_labels: lines of the predictions whose top-level ``label`` the
#: shape does not read (leaderboard shape: the abstracts' labels decide).
Inputs = namedtuple("Inputs", "gold_path predictions_path gold predictions shape unread_labels",
                    defaults=((),))


# ---------------------------------------------------------------- per-claim outcomes

#: rationale: the gold rationale holding the sentence (CORRECT, INCOMPLETE),
#: else None; missing: INCOMPLETE, the rationale's sentences not predicted.
SentenceOutcome = namedtuple("SentenceOutcome", "sentence verdict rationale missing",
                             defaults=(None, ()))

#: cap: sentences read for "rationalized" (None: all), only when the label is
#: right; rationale: the first gold rationale found among those sentences, else
#: None; sentences: SentenceOutcome, in predicted order.
AbstractOutcome = namedtuple("AbstractOutcome",
                             "predicted gold label_right cap rationale sentences")

#: One row of the counts table (``COLUMNS``).
Counts = namedtuple("Counts", COLUMNS)

#: name: the claim id as the report shows it; abstracts: AbstractOutcome;
#: missed: gold abstracts not predicted; counts: its :class:`Counts` row.
ClaimOutcome = namedtuple("ClaimOutcome", "key name gold predicted gold_label predicted_label "
                                          "abstracts missed counts")


# ---------------------------------------------------------------- reading

def read_inputs(gold_path: str, predictions_path: str) -> Inputs:
    gold = read_gold(gold_path)
    predictions, shape, unread_labels = read_predictions(predictions_path)
    return Inputs(gold_path, predictions_path, gold, predictions, shape, unread_labels)


def _require(obj: dict, key: str, where: str, what: str):
    if key not in obj:
        raise ScorerError(f"{where}: {what} has no '{key}'")
    return obj[key]


def _sentences(value, where: str, what: str) -> tuple:
    if not isinstance(value, list):
        raise ScorerError(f"{where}: 'sentences' of {what} must be a list of sentence "
                          f"numbers, not {type_name(value)}")
    for sentence in value:
        if isinstance(sentence, (list, dict)):
            raise ScorerError(f"{where}: 'sentences' of {what} holds {show(sentence)}; "
                              f"a sentence must be a number")
    return tuple(value)


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


def read_gold(path: str) -> list:
    """The SciFact claims file: ``{id, evidence: {doc: [{sentences, label}, ...]}}`` a line."""
    claims = []
    for line, obj in read_objects(path):
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
        claims.append(GoldClaim(line, claim_id, abstracts))
    if not claims:
        # The evaluator writes 0.0 for every metric (its safe division), which
        # passes an empty export for a run that scored nothing; FEVER's stops.
        raise ScorerError(f"{path}: no gold claims; the scores are undefined without claims")
    return claims


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
        evidence = obj.get("evidence")
        if isinstance(evidence, dict) and evidence:
            first = next(iter(evidence.values()))
            return (SETS if isinstance(first, list) else LEADERBOARD), line
    labelled = [(line, obj["label"]) for line, obj in objects if "label" in obj]
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
    if any(at == line and isinstance(obj.get("evidence"), dict) and obj["evidence"]
           for at, obj in objects):
        return f"line {line} of this file is in the {name} shape"
    return (f"line {line} has a top-level 'label' and no line predicts an abstract, so the "
            f"file is read in the evidence-sets shape (id, label, evidence sets)")


def read_predictions(path: str) -> tuple:
    """The predictions, their shape, and the lines whose top-level ``label``
    that shape does not read (leaderboard shape)."""
    objects = read_objects(path)
    shape, first_line = detect_shape(objects)
    claims, unread_labels = [], []
    for line, obj in objects:
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
                joined = tuple(s for sentences in sentence_lists for s in sentences)
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
        claims.append(PredictedClaim(line, claim_id, tuple(abstracts), claim_label,
                                     tuple(dropped)))
    return claims, shape, tuple(unread_labels)


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


def evaluate(inputs: Inputs, policy: Policy, problems: Problems) -> Evaluation:
    """Score every claim; the counts table and outcomes in gold order."""
    check_order(inputs)
    names = claim_names([g.id for g in inputs.gold])
    keys, key_source = gold_keys(inputs.gold, names)
    allowed = tuple(policy.labels)
    outcomes = [score_claim(key, name, g, p, inputs, allowed, policy.max_evidence)
                for key, name, g, p in zip(keys, names, inputs.gold, inputs.predictions)]
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
    table = claim_columns([o.counts for o in outcomes], COLUMNS)
    return Evaluation("scifact", (inputs.gold_path, inputs.predictions_path), keys, table,
                      outcomes, full_data("scifact", table), policy.max_evidence, key_source)


def score_claim(key: str, name: str, gold: GoldClaim, predicted: PredictedClaim,
                inputs: Inputs, allowed: tuple, max_evidence: int | None) -> ClaimOutcome:
    if predicted.label is not None and predicted.label not in allowed + (NEI,):
        raise ScorerError(f"{inputs.predictions_path} line {predicted.line}: claim label "
                          f"{show(predicted.label)} is not allowed; allowed: "
                          f"{', '.join(allowed + (NEI,))}")
    abstracts = []
    retrieved = label_only = rationalized = selection = label_and_selection = 0
    for abstract in predicted.abstracts:
        if abstract.label not in allowed:
            raise ScorerError(f"{inputs.predictions_path} line {predicted.line}: abstract "
                              f"{show(abstract.doc)} is predicted with label "
                              f"{show(abstract.label)}; allowed: {', '.join(allowed)}")
        outcome = score_abstract(abstract, gold.abstracts.get(abstract.doc), max_evidence,
                                 inputs, predicted.line, gold.line)
        abstracts.append(outcome)
        retrieved += len(abstract.sentences)
        right = sum([s.verdict == CORRECT for s in outcome.sentences])
        selection += right
        if outcome.label_right:
            label_only += 1
            rationalized += outcome.rationale is not None
            label_and_selection += right
    gold_label = claim_label(a.label for a in gold.abstracts.values())
    predicted_label = (predicted.label if predicted.label is not None
                       else claim_label(a.label for a in predicted.abstracts))
    predicted_docs = {a.doc for a in predicted.abstracts}
    missed = tuple(a for doc, a in gold.abstracts.items() if doc not in predicted_docs)
    counts = Counts(1, len(gold.abstracts), len(abstracts), label_only, rationalized,
                    sum([len(r) for a in gold.abstracts.values() for r in a.rationales]),
                    retrieved, selection, label_and_selection, int(gold_label == predicted_label))
    return ClaimOutcome(key, name, gold, predicted, gold_label, predicted_label,
                        tuple(abstracts), missed, counts)


def score_abstract(predicted: PredictedAbstract, gold: GoldAbstract | None,
                   max_evidence: int | None, inputs: Inputs, line: int,
                   gold_line: int) -> AbstractOutcome:
    if gold is None:
        return AbstractOutcome(predicted, None, False, None, None,
                               tuple([_record(SentenceOutcome, (s, ABSTRACT_NOT_IN_GOLD, None, ()))
                                      for s in predicted.sentences]))
    rationale_sets = [set(r) for r in gold.rationales]
    label_right = predicted.label == gold.label
    cap, found = None, None
    if label_right:
        if max_evidence is not None:
            cap = max(max_evidence, min(len(s) for s in rationale_sets))
        head = set(predicted.sentences[:cap])
        found = next((r for r, s in zip(gold.rationales, rationale_sets) if s <= head), None)
    chosen = set(predicted.sentences)
    outcomes, seen = [], set()
    for sentence in predicted.sentences:
        if sentence in seen:
            outcomes.append(_record(SentenceOutcome, (sentence, REPEATED, None, ())))
            continue
        seen.add(sentence)
        holders = [i for i, s in enumerate(rationale_sets) if sentence in s]
        if len(holders) > 1:
            raise ScorerError(
                f"{inputs.predictions_path} line {line}: sentence {show(sentence)} of abstract "
                f"{show(predicted.doc)} lies in {len(holders)} gold rationales "
                f"({inputs.gold_path} line {gold_line}); a sentence may belong to one "
                f"rationale of an abstract only")
        if not holders:
            outcomes.append(_record(SentenceOutcome, (sentence, NOT_IN_RATIONALE, None, ())))
            continue
        rationale = gold.rationales[holders[0]]
        missing = tuple(dict.fromkeys(s for s in rationale if s not in chosen))
        outcomes.append(_record(SentenceOutcome, (sentence, INCOMPLETE if missing else CORRECT,
                                                  rationale, missing)))
    return AbstractOutcome(predicted, gold, label_right, cap, found, tuple(outcomes))
