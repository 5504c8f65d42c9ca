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
from typing import NamedTuple, Optional

from scorer.claims.jsonl import read_objects, show, type_name
from scorer.claims.metrics import CLAIMS, Evaluation, claim_columns, claim_keys, full_data
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


# Outcomes are named tuples: a run makes one per claim and one per predicted
# sentence, tens of thousands, and a tuple is the cheapest record to make.

class SentenceOutcome(NamedTuple):
    sentence: object
    #: 1-based position among the predicted sentences.
    position: int
    #: False: beyond max_evidence, not read.
    read: bool
    #: 1-based numbers of the gold groups holding it (verifiable claims).
    groups: tuple
    #: Counted as right by precision (in a gold group entry with a line).
    in_gold: bool


#: ``SentenceOutcome(*fields)`` without the generated ``__new__``'s Python call.
_sentence = tuple.__new__


class ClaimOutcome(NamedTuple):
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
        sentences = []
        for entry in group:
            if not isinstance(entry, list) or len(entry) < 4:
                raise ScorerError(f"{where}: gold evidence entry {show(entry)} is not an "
                                  f"[annotation, id, page, line] list")
            sentences.append([entry[2], entry[3]])
        groups.append(tuple(sentences))
    return tuple(groups)


def _check_format(evidence: list, path: str, line: int) -> None:
    """The reference's format check of predicted evidence, in its order: every
    item a list, then every item of length 2, then every page a string, then
    every line an integer (``true``/``false`` pass, as in Python)."""
    for item in evidence:
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], str)
                and isinstance(item[1], int)):
            break
    else:
        return
    where = f"{path} line {line}"
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
    if inputs.gold is None:
        raise ScorerError(f"{inputs.predictions_path} line {line}: the prediction has no "
                          f"'label' and 'evidence' of its own and no gold file was given "
                          f"(give the gold file first, then the predictions)")
    if len(inputs.gold) != len(inputs.predictions):
        raise ScorerError(f"{inputs.predictions_path} line {line}: blind prediction, but "
                          f"{inputs.gold_path} has {len(inputs.gold)} line(s) for "
                          f"{len(inputs.predictions)} prediction(s); gold and predictions "
                          f"are paired by line")
    gold_line, gold = inputs.gold[index]
    if "evidence" not in gold or "label" not in gold:
        key = "evidence" if "evidence" not in gold else "label"
        raise ScorerError(f"{inputs.gold_path} line {gold_line}: the gold claim has no "
                          f"'{key}' (needed by the prediction on {inputs.predictions_path} "
                          f"line {line})")
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
        if outcome.label.upper() not in known:
            _unknown_label(problems, policy, outcome.label, outcome.gold_source)
        if outcome.predicted_label.upper() not in known:
            _unknown_label(problems, policy, outcome.predicted_label,
                           (inputs.predictions_path, line))
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
    table = claim_columns([o.counts for o in outcomes], COLUMNS)
    files = tuple(f for f in (inputs.gold_path, inputs.predictions_path) if f is not None)
    return Evaluation("fever", files, keys, table, outcomes, full_data("fever", table),
                      max_evidence, key_source)


def _unknown_label(problems: Problems, policy: Policy, label: str, source: tuple) -> None:
    problems.record("CLAIM_WARNING",
                    f"label {show(label)} is not one of {', '.join(policy.labels)}; scored as "
                    f"the reference does (labels compared case-insensitively, every label but "
                    f"{NEI} verifiable)", where=Where(*source))


def score_claim(key: str, index: int, line: int, prediction: dict, inputs: Inputs,
                max_evidence: Optional[int]) -> ClaimOutcome:
    if "predicted_evidence" not in prediction:
        raise ScorerError(f"{inputs.predictions_path} line {line}: the prediction has no "
                          f"'predicted_evidence'")
    label, evidence, source, inline = _resolve_gold(index, line, prediction, inputs)
    if not isinstance(label, str):
        _string(label, f"{source[0]} line {source[1]}", "the gold 'label'")
    if "predicted_label" not in prediction:
        raise ScorerError(f"{inputs.predictions_path} line {line}: the prediction has no "
                          f"'predicted_label'")
    predicted_label = prediction["predicted_label"]
    if not isinstance(predicted_label, str):
        _string(predicted_label, f"{inputs.predictions_path} line {line}", "'predicted_label'")
    predicted = prediction["predicted_evidence"]
    if not isinstance(predicted, list):
        raise ScorerError(f"{inputs.predictions_path} line {line}: 'predicted_evidence' must "
                          f"be a list of [page, line] pairs, not {type_name(predicted)}")
    gold_label = label.upper()
    label_right = gold_label == predicted_label.upper()
    verifiable = gold_label != NEI
    if label_right:
        _check_format(predicted, inputs.predictions_path, line)
    read = predicted if max_evidence is None else predicted[:max_evidence]
    n_read = len(read)
    if not verifiable:
        strict = label_right
        sentences = tuple([_sentence(SentenceOutcome, (sentence, position, position <= n_read,
                                                       (), False))
                           for position, sentence in enumerate(predicted, 1)])
        counts = {CLAIMS: 1, "label_correct": int(label_right), "strict": int(strict),
                  "precision": 0.0, "precision_counted": 0, "recall": 0, "recall_counted": 0,
                  "evidence_read": 0, "evidence_in_gold": 0}
        return ClaimOutcome(key, line, prediction.get("id"), source, inline, label,
                            predicted_label, label_right, False, (), sentences, strict, None,
                            counts)

    groups = _gold_groups(evidence, f"{source[0]} line {source[1]}")
    complete = None
    for number, group in enumerate(groups, 1):
        for sentence in group:
            if sentence not in read:
                break
        else:
            complete = number
            break
    strict = label_right and complete is not None
    # Every sentence of any gold group, and those precision counts (line not null).
    anywhere = [e for group in groups for e in group]
    scored = [e for e in anywhere if e[1] is not None]
    sentences, hits = [], 0
    for position, sentence in enumerate(predicted, 1):
        if sentence not in anywhere:
            sentences.append(_sentence(SentenceOutcome, (sentence, position, position <= n_read,
                                                         (), False)))
            continue
        holders = tuple([number for number, group in enumerate(groups, 1) if sentence in group])
        in_gold = sentence in scored
        if in_gold and position <= n_read:
            hits += 1
        sentences.append(_sentence(SentenceOutcome, (sentence, position, position <= n_read,
                                                     holders, in_gold)))
    counts = {CLAIMS: 1, "label_correct": int(label_right), "strict": int(strict),
              "precision": hits / n_read if read else 1.0, "precision_counted": 1,
              "recall": int(len(groups) == 0 or complete is not None), "recall_counted": 1,
              "evidence_read": n_read, "evidence_in_gold": hits}
    return ClaimOutcome(key, line, prediction.get("id"), source, inline, label, predicted_label,
                        label_right, True, groups, tuple(sentences), strict, complete, counts)
