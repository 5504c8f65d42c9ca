"""FEVER: predictions (+ gold inline or in a separate file) -> per-claim counts.

The rules are those of ``fever.scorer.fever_score`` (PyPI ``fever-scorer``
2.0.39, repository ``sheffieldnlp/fever-scorer``):

* a prediction carrying both ``label`` and ``evidence`` is scored against
  them; one lacking either takes both from the gold file's line at the same
  position (blind mode, which needs as many gold lines as predictions);
* labels are compared case-insensitively; a gold label other than
  ``NOT ENOUGH INFO`` (in any case) is *verifiable*;
* only the first ``max_evidence`` predicted sentences are read (all of them
  when max_evidence is None);
* **strict**: right label and, for a verifiable claim, some gold evidence
  group wholly among the sentences read;
* **precision** (verifiable claims only): sentences read that appear in any
  gold group (entries with a null line left out) / sentences read, 1 when none
  is read;
* **recall** (verifiable claims only): 1 when the gold evidence is empty or
  some group is wholly among the sentences read, else 0.

Sentences are compared as the JSON values they are (``[page, line]`` lists,
Python equality: line ``0.0`` equals ``0``, ``true`` equals ``1``).  The
format of the predicted evidence is checked only for claims with the right
label, as the reference does.
"""
from __future__ import annotations

import dataclasses
from typing import Optional

from scorer.claims.jsonl import read_objects, show, type_name
from scorer.claims.metrics import CLAIMS, Evaluation, claim_keys, claim_table, full_data
from scorer.policy import Policy
from scorer.problems import Problems, ScorerError, Where

NEI = "NOT ENOUGH INFO"

COLUMNS = (CLAIMS, "label_correct", "strict", "precision", "precision_counted", "recall",
           "recall_counted", "evidence_read", "evidence_in_gold")


@dataclasses.dataclass(frozen=True)
class Inputs:
    #: The gold ("actual") file for blind predictions, or None.
    gold_path: Optional[str]
    predictions_path: str
    #: ``(line, object)`` pairs; None without a gold file.
    gold: Optional[list]
    predictions: list


@dataclasses.dataclass(frozen=True)
class SentenceOutcome:
    sentence: object
    #: 1-based position among the predicted sentences.
    position: int
    #: False: beyond max_evidence, not read.
    read: bool
    #: 1-based numbers of the gold groups holding it (verifiable claims).
    groups: tuple
    #: Counted as right by precision (in a gold group entry with a line).
    in_gold: bool


@dataclasses.dataclass(frozen=True)
class ClaimOutcome:
    key: str
    line: int
    id: object
    #: Where the gold came from: ``(path, line)``; the prediction's own line when inline.
    gold_source: tuple
    #: True when the prediction carries its own label and evidence.
    inline: bool
    label: str
    predicted_label: str
    label_right: bool
    verifiable: bool
    #: Gold groups as ``[page, line]`` lists (verifiable claims), else ().
    groups: tuple
    sentences: tuple  # SentenceOutcome, predicted order
    strict: bool
    #: 1-based number of the gold group that made the claim strict or recalled.
    group: Optional[int]
    counts: dict


def read_inputs(files: tuple) -> Inputs:
    """One file (predictions with their own gold) or two (gold, then predictions)."""
    if len(files) == 1:
        return Inputs(None, files[0], None, read_objects(files[0]))
    if len(files) == 2:
        return Inputs(files[0], files[1], read_objects(files[0]), read_objects(files[1]))
    raise ScorerError(f"fever needs the predictions file, or the gold file then the "
                      f"predictions file; {len(files)} files were given")


def _string(value, where: str, what: str) -> str:
    if not isinstance(value, str):
        raise ScorerError(f"{where}: {what} must be a string, not {type_name(value)}")
    return value


def _gold_groups(evidence, where: str) -> tuple:
    """Verifiable gold evidence: a list of groups, each a list of
    ``[annotation, evidence id, page, line]`` entries -> groups of ``[page, line]``."""
    if not isinstance(evidence, list):
        raise ScorerError(f"{where}: gold 'evidence' must be a list of evidence groups, "
                          f"not {type_name(evidence)}")
    groups = []
    for group in evidence:
        if not isinstance(group, list):
            raise ScorerError(f"{where}: a gold evidence group must be a list of "
                              f"[annotation, id, page, line] entries, not {show(group)}")
        for entry in group:
            if not isinstance(entry, list) or len(entry) < 4:
                raise ScorerError(f"{where}: gold evidence entry {show(entry)} is not an "
                                  f"[annotation, id, page, line] list")
        groups.append(tuple([entry[2], entry[3]] for entry in group))
    return tuple(groups)


def _check_format(evidence: list, where: str) -> None:
    """The reference's format check of predicted evidence, in its order: every
    item a list, then every item of length 2, then every page a string, then
    every line an integer (``true``/``false`` pass, as in Python)."""
    if all(isinstance(item, list) and len(item) == 2 and isinstance(item[0], str)
           and isinstance(item[1], int) for item in evidence):
        return
    checks = (
        (lambda item: isinstance(item, list), "is not a [page, line] list"),
        (lambda item: len(item) == 2, "is not a [page, line] pair"),
        (lambda item: isinstance(item[0], str), "has a page that is not a string"),
        (lambda item: isinstance(item[1], int), "has a line that is not a whole number"),
    )
    for test, problem in checks:
        for position, item in enumerate(evidence, 1):
            if not test(item):
                raise ScorerError(f"{where}: predicted evidence item {position} {show(item)} "
                                  f"{problem}; predicted_evidence must be a list of "
                                  f"[page (string), line (integer)] pairs")


def _resolve_gold(index: int, line: int, prediction: dict, inputs: Inputs) -> tuple:
    """``(label, evidence, source, inline)`` of one prediction, inline or blind."""
    if "evidence" in prediction and "label" in prediction:
        return prediction["label"], prediction["evidence"], (inputs.predictions_path, line), True
    where = f"{inputs.predictions_path} line {line}"
    if inputs.gold is None:
        raise ScorerError(f"{where}: the prediction has no 'label' and 'evidence' of its own "
                          f"and no gold file was given (give the gold file first, then the "
                          f"predictions)")
    if len(inputs.gold) != len(inputs.predictions):
        raise ScorerError(f"{where}: blind prediction, but {inputs.gold_path} has "
                          f"{len(inputs.gold)} line(s) for {len(inputs.predictions)} "
                          f"prediction(s); gold and predictions are paired by line")
    gold_line, gold = inputs.gold[index]
    gold_where = f"{inputs.gold_path} line {gold_line}"
    for key in ("evidence", "label"):
        if key not in gold:
            raise ScorerError(f"{gold_where}: the gold claim has no '{key}' "
                              f"(needed by the prediction on {where})")
    return gold["label"], gold["evidence"], (inputs.gold_path, gold_line), False


def evaluate(inputs: Inputs, policy: Policy, problems: Problems) -> Evaluation:
    predictions = inputs.predictions
    if not predictions:
        raise ScorerError(f"{inputs.predictions_path}: no predictions; strict score and "
                          f"label accuracy are undefined without claims")
    max_evidence = policy.max_evidence
    known = {label.upper() for label in policy.labels}
    lines = [line for line, _ in predictions]
    ids = [p.get("id") for _, p in predictions]
    if all("id" in p for _, p in predictions):
        keys, key_source = claim_keys(ids, lines)
    elif inputs.gold is not None and len(inputs.gold) == len(predictions) and \
            all("id" in g for _, g in inputs.gold):
        keys, key_source = claim_keys([g["id"] for _, g in inputs.gold], lines)
    else:
        keys, key_source = claim_keys(None, lines)
    outcomes, inline = [], 0
    for index, (line, prediction) in enumerate(predictions):
        outcome = score_claim(keys[index], index, line, prediction, inputs, max_evidence)
        inline += outcome.inline
        for label, source in ((outcome.label, outcome.gold_source),
                              (outcome.predicted_label, (inputs.predictions_path, line))):
            if label.upper() not in known:
                problems.record("CLAIM_WARNING",
                                f"label {show(label)} is not one of "
                                f"{', '.join(policy.labels)}; scored as the reference does "
                                f"(labels compared case-insensitively, every label but "
                                f"{NEI} verifiable)", where=Where(*source))
        outcomes.append(outcome)
    if inputs.gold is not None and inline:
        problems.record("CLAIM_WARNING",
                        f"{inline} of {len(predictions)} prediction(s) carry their own "
                        f"'label' and 'evidence', which are used instead of "
                        f"{inputs.gold_path}", where=Where(detail=inputs.predictions_path))
    if key_source == "line":
        problems.record("CLAIM_WARNING",
                        "claim ids are missing, not unique or hold a blank, ':' or ','; "
                        "claims are identified by prediction line number (line<N>) in "
                        "samples files", where=Where(detail=inputs.predictions_path))
    table = claim_table([o.counts for o in outcomes], COLUMNS, keys)
    files = tuple(f for f in (inputs.gold_path, inputs.predictions_path) if f is not None)
    return Evaluation("fever", files, keys, table, outcomes, full_data("fever", table),
                      max_evidence, key_source)


def score_claim(key: str, index: int, line: int, prediction: dict, inputs: Inputs,
                max_evidence: Optional[int]) -> ClaimOutcome:
    where = f"{inputs.predictions_path} line {line}"
    if "predicted_evidence" not in prediction:
        raise ScorerError(f"{where}: the prediction has no 'predicted_evidence'")
    label, evidence, source, inline = _resolve_gold(index, line, prediction, inputs)
    gold_where = f"{source[0]} line {source[1]}"
    label = _string(label, gold_where, "the gold 'label'")
    if "predicted_label" not in prediction:
        raise ScorerError(f"{where}: the prediction has no 'predicted_label'")
    predicted_label = _string(prediction["predicted_label"], where, "'predicted_label'")
    predicted = prediction["predicted_evidence"]
    if not isinstance(predicted, list):
        raise ScorerError(f"{where}: 'predicted_evidence' must be a list of [page, line] "
                          f"pairs, not {type_name(predicted)}")
    label_right = label.upper() == predicted_label.upper()
    verifiable = label.upper() != NEI
    if label_right:
        _check_format(predicted, where)
    groups = _gold_groups(evidence, gold_where) if verifiable else ()
    read = predicted if max_evidence is None else predicted[:max_evidence]

    complete = next((number for number, group in enumerate(groups, 1)
                     if all(sentence in read for sentence in group)), None)
    strict = label_right and (not verifiable or complete is not None)

    counts = dict.fromkeys(COLUMNS, 0)
    counts[CLAIMS] = 1
    counts["label_correct"] = int(label_right)
    counts["strict"] = int(strict)
    counts["precision"] = 0.0
    scored = [e for group in groups for e in group if e[1] is not None]
    sentences = []
    for position, sentence in enumerate(predicted, 1):
        is_read = position <= len(read)
        holders = tuple(number for number, group in enumerate(groups, 1) if sentence in group)
        in_gold = verifiable and sentence in scored
        sentences.append(SentenceOutcome(sentence, position, is_read, holders, in_gold))
    if verifiable:
        hits = sum(1 for s in sentences if s.read and s.in_gold)
        counts["evidence_read"], counts["evidence_in_gold"] = len(read), hits
        counts["precision"] = hits / len(read) if read else 1.0
        counts["precision_counted"] = 1
        counts["recall"] = int(len(groups) == 0 or complete is not None)
        counts["recall_counted"] = 1
    return ClaimOutcome(key, line, prediction.get("id"), source, inline, label, predicted_label,
                        label_right, verifiable, groups, tuple(sentences), strict, complete,
                        counts)
