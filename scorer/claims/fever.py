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

from collections import namedtuple

from scorer.countstable.jsonl import FileLines, read_objects, show, type_name
from scorer.countstable.metrics import CLAIMS
from scorer.countstable.evaluation import claim_keys, claim_names
from scorer.policy import Policy
from scorer.problems import Problems, ScorerError, Where

NEI = "NOT ENOUGH INFO"

COLUMNS = (CLAIMS, "label_correct", "strict", "precision", "precision_counted", "recall",
           "recall_counted", "evidence_read", "evidence_in_gold")

# Records are collections.namedtuple classes (typing.NamedTuple and dataclasses
# cost a plain run more start-up time than scoring a thousand claims), and a
# run makes one outcome per claim: they are made with ``_record`` (tuple.__new__:
# no Python-level __new__ call per record).
_record = tuple.__new__

#: gold_path: the gold ("actual") file for blind predictions, or None;
#: gold, predictions: ``(line, object)`` pairs, or a ``jsonl.FileLines``
#: that reads them as they are scored (gold: None without a gold file).
Inputs = namedtuple("Inputs", "gold_path predictions_path gold predictions")

#: One row of the counts table (``COLUMNS``).
Counts = namedtuple("Counts", COLUMNS)

#: One claim scored, for the .debug report:
#:
#: - key: the claim's key (resampling); line: the prediction's line; name: its
#:   id as the report shows it;
#: - gold_source: where the gold came from, ``(path, line)`` (the prediction's
#:   own line when inline); inline: True when the prediction carries its own
#:   label and evidence;
#: - label, predicted_label, label_right, verifiable;
#: - groups: gold groups as tuples of ``[page, line]`` lists (verifiable claims), else ();
#: - predicted: the predicted evidence as given; read: how many of it are read;
#: - matched: ``(position, groups, in_gold)`` of every sentence read that is in a
#:   gold group (verifiable claims; position 1-based, groups their 1-based
#:   numbers, in_gold: counted by precision, in a group entry with a line);
#:   every other sentence read is in no gold group;
#: - strict; group: the 1-based number of the gold group that made the claim
#:   strict or recalled, else None; counts: its :class:`Counts` row.
ClaimOutcome = namedtuple("ClaimOutcome", (
    "key", "line", "name", "gold_source", "inline", "label", "predicted_label", "label_right",
    "verifiable", "groups", "predicted", "read", "matched", "strict", "group", "counts"))


def read_gold(path: str) -> list:
    """The gold file's ``(line, object)`` pairs; a file without claims is
    refused (as SciFact's): an empty export given as the gold is a mistake,
    even when predictions that carry their own gold would not read it."""
    gold = read_objects(path)
    if not gold:
        raise ScorerError(f"{path}: no gold claims; give the gold file with its claims, or the "
                          f"predictions alone when they carry their own 'label' and "
                          f"'evidence'")
    return gold


def gold_keys(gold: list) -> tuple:
    """``(claim keys, key source)`` of blind predictions paired with ``gold``
    (its ``(line, object)`` pairs): the gold's ids when they are unique (and
    fit a samples file), else line<N>; what samples files draw."""
    return claim_keys(_gold_names(gold), [line for line, _claim in gold])


def _gold_names(gold: list) -> list | None:
    """The gold's claim ids as text, or None when a claim has none."""
    if not all("id" in claim for _line, claim in gold):
        return None
    return claim_names([claim["id"] for _line, claim in gold])


def reference_gold_keys(path: str) -> tuple:
    """A leaderboard's gold file, read as every submission's run reads it (a
    problem is a ScorerError naming the file and line); its ``(claim keys,
    key source)``."""
    gold = read_gold(path)
    inputs = Inputs(path, path, gold, gold)
    # A blind prediction, scored against each gold line as a submission's
    # is: the gold line's label and evidence are checked by fever's rules.
    blind = {"predicted_label": "", "predicted_evidence": []}
    for line, claim in gold:
        missing = [key for key in ("label", "evidence") if key not in claim]
        if missing:
            raise ScorerError(f"{path} line {line}: the gold claim has no '{missing[0]}' "
                              f"(a gold file gives each claim its label and evidence)")
        score_claim(str(line), str(line), line, blind, (line, claim), inputs, None)
    return gold_keys(gold)


def read_inputs(files: tuple) -> Inputs:
    """One file (predictions with their own gold) or two (gold, then
    predictions), to be read as they are scored (``feverpass.evaluate``)."""
    if len(files) == 1:
        return Inputs(None, files[0], None, FileLines(files[0]))
    if len(files) == 2:
        return Inputs(files[0], files[1], FileLines(files[0]), FileLines(files[1]))
    raise ScorerError(f"fever needs the predictions file, or the gold file then the "
                      f"predictions file; {len(files)} files were given")


def _string(value, where: str, what: str) -> str:
    if not isinstance(value, str):
        raise ScorerError(f"{where}: {what} must be a string, not {type_name(value)}")
    return value


def _gold_groups(evidence, source: tuple) -> tuple:
    """Verifiable gold evidence: a list of groups, each a list of
    ``[annotation, evidence id, page, line]`` entries -> ``(groups, anywhere)``:
    the groups as tuples of ``[page, line]`` lists, and all their sentences in one list."""
    if type(evidence) is not list:
        _bad_evidence(evidence, source)
    groups, anywhere = [], []
    for group in evidence:
        # Checked by exact type (JSON makes no subclass of list): a cheap test
        # per entry, whose failure is explained by _bad_evidence.
        if type(group) is not list:
            _bad_evidence(evidence, source)
        for entry in group:
            if type(entry) is not list or len(entry) < 4:
                _bad_evidence(evidence, source)
        sentences = [entry[2:4] for entry in group]     # [page, line] in one step
        groups.append(tuple(sentences))
        anywhere += sentences
    return tuple(groups), anywhere


def _bad_evidence(evidence, source: tuple):
    """Raise the error that says what is wrong with gold ``evidence``."""
    where = f"{source[0]} line {source[1]}"
    if not isinstance(evidence, list):
        raise ScorerError(f"{where}: gold 'evidence' must be a list of evidence groups, not "
                          f"{type_name(evidence)}")
    for group in evidence:
        if not isinstance(group, list):
            raise ScorerError(f"{where}: a gold evidence group must be a list of [annotation, "
                              f"id, page, line] entries, not {show(group)}")
        for entry in group:
            if not isinstance(entry, list) or len(entry) < 4:
                raise ScorerError(f"{where}: gold evidence entry {show(entry)} is not an "
                                  f"[annotation, id, page, line] list")


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


def _no_gold(line: int, gold_row, inputs: Inputs) -> ScorerError:
    """Why a prediction without its own label and evidence has no gold:
    ``gold_row``, the gold line at its position, is None or lacks them."""
    if gold_row is None and inputs.gold is None:
        return ScorerError(f"{inputs.predictions_path} line {line}: the prediction has no "
                           f"'label' and 'evidence' of its own and no gold file was given "
                           f"(give the gold file first, then the predictions)")
    if gold_row is None:
        return ScorerError(f"{inputs.predictions_path} line {line}: blind prediction, but "
                           f"{inputs.gold_path} has {len(inputs.gold)} line(s) for "
                           f"{len(inputs.predictions)} prediction(s); gold and predictions "
                           f"are paired by line")
    gold_line, gold = gold_row
    key = "evidence" if "evidence" not in gold else "label"
    return ScorerError(f"{inputs.gold_path} line {gold_line}: the gold claim has no "
                       f"'{key}' (needed by the prediction on {inputs.predictions_path} "
                       f"line {line})")


def _check_pairing(names: list, gold_names: list, inline, lines, inputs: Inputs,
                   problems: Problems) -> None:
    """An ERROR when both files' ids identify claims (each unique in its file)
    and a blind prediction's id is not that of the gold line at its position
    (``inline``: 1 for each prediction carrying its own gold; ``lines``: the
    predictions' lines): the reference pairs them by position all the same,
    and so do the numbers here; but they are then another claim's.  Ids that
    identify nothing (the official gold's, all 0) pass in silence."""
    if len(set(names)) != len(names) or len(set(gold_names)) != len(gold_names):
        return
    differing = [number for number, (name, gold_name, own)
                 in enumerate(zip(names, gold_names, inline))
                 if name != gold_name and not own]
    if not differing:
        return
    first = differing[0]
    # Gold and predictions pair up line for line: the gold line is the position's.
    line, gold_line = lines[first], first + 1
    unknown = len(set(names) - set(gold_names))
    why = (f"{unknown} of the predictions' ids are not in {inputs.gold_path}" if unknown
           else "the same ids in another order")
    problems.record("BAD_CLAIM_INPUT",
                    f"claim ids do not pair up: the prediction has id {names[first]}, the gold "
                    f"at its position ({inputs.gold_path} line {gold_line}) id "
                    f"{gold_names[first]} ({why}); blind predictions are scored against the "
                    f"gold line at their position, as the reference does, so "
                    f"{len(differing)} of {len(names)} claim(s) were scored against another "
                    f"claim's gold", where=Where(inputs.predictions_path, line))


def _unknown_label(problems: Problems, policy: Policy, label: str, source: tuple) -> None:
    problems.record("CLAIM_WARNING",
                    f"label {show(label)} is not one of {', '.join(policy.labels)}; scored as "
                    f"the reference does (labels compared case-insensitively, every label but "
                    f"{NEI} verifiable)", where=Where(*source))


def score_claim(key: str, name: str, line: int, prediction: dict, gold_row: tuple | None,
                inputs: Inputs, max_evidence: int | None) -> ClaimOutcome:
    """One prediction scored against its own label and evidence when it has both,
    else against ``gold_row``, the ``(line, object)`` of the gold file at its
    position (None: no gold file, or one of another length)."""
    if "predicted_evidence" not in prediction:
        raise ScorerError(f"{inputs.predictions_path} line {line}: the prediction has no "
                          f"'predicted_evidence'")
    if "evidence" in prediction and "label" in prediction:
        label, evidence, source, inline = (prediction["label"], prediction["evidence"],
                                           (inputs.predictions_path, line), True)
    elif gold_row is not None and "evidence" in gold_row[1] and "label" in gold_row[1]:
        gold = gold_row[1]
        label, evidence, source, inline = (gold["label"], gold["evidence"],
                                           (inputs.gold_path, gold_row[0]), False)
    else:
        raise _no_gold(line, gold_row, inputs)
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
    if label_right:
        _check_format(predicted, inputs.predictions_path, line)
    read = predicted if max_evidence is None else predicted[:max_evidence]
    n_read = len(read)
    if gold_label == NEI:
        # Not verifiable: the label alone decides; no sentence is looked at.
        return _record(ClaimOutcome, (
            key, line, name, source, inline, label, predicted_label, label_right, False, (),
            predicted, n_read, (), label_right, None,
            _record(Counts, (1, int(label_right), int(label_right), 0.0, 0, 0, 0, 0, 0))))

    groups, anywhere = _gold_groups(evidence, source)
    complete = None
    for number, group in enumerate(groups, 1):
        if all(map(read.__contains__, group)):
            complete = number
            break
    matched, hits = (), 0
    if any(map(anywhere.__contains__, read)):
        # Precision counts only gold entries with a line (not null).
        scored = [sentence for sentence in anywhere if sentence[1] is not None]
        matched = tuple([(position,
                          tuple([number for number, group in enumerate(groups, 1)
                                 if sentence in group]),
                          sentence in scored)
                         for position, sentence in enumerate(read, 1) if sentence in anywhere])
        hits = sum([in_gold for _position, _groups, in_gold in matched])
    strict = label_right and complete is not None
    recall = int(not groups or complete is not None)
    counts = _record(Counts, (1, int(label_right), int(strict), hits / n_read if read else 1.0,
                              1, recall, 1, n_read, hits))
    return _record(ClaimOutcome, (key, line, name, source, inline, label, predicted_label,
                                  label_right, True, groups, predicted, n_read, matched, strict,
                                  complete, counts))
