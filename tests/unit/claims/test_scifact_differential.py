"""SciFact's one-step scorer gives what scoring by records gave, read either
way, and the leaderboard evaluator's numbers, on generated files.

- ``scifactinputs.read_inputs`` reads through msgspec's typed Structs where it is
  installed and through the standard library where it is not, and takes a line
  of the common form without the checks' messages (``_common_gold``,
  ``_common_prediction``): every report, warning and refusal of a run is the
  same every way ("msgspec", "stdlib", and "checked", every line through the
  general rules), on files of every shape the readers handle differently (odd
  kinds of ids, sentences and labels, both prediction shapes, missing keys,
  empty or conflicting sets);
- the scorer, which writes each claim's ``.debug`` text as it scores it,
  gives the counts, text and refusals of the record-based scorer it replaced
  (``tests/helpers/scifact_records.py``), claim by claim;
- on well-formed files the twelve numbers equal ``evaluator/eval.py``'s of
  allenai/scifact-evaluator exactly, where a checkout is beside the project
  (``../scifact-evaluator``).
"""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from contextlib import ExitStack
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorer.claims import scifact, scifactinputs
from scorer.countstable import jsonl
from scorer.countstable.driver import run
from scorer.policy import build_policy
from scorer.problems import Problems, ScorerError
from scorer.request import Request

from places import PARITY, SCIFACT_EVALUATOR as EVALUATOR
import scifact_records

LABELS = ["SUPPORT", "CONTRADICT"]
docs = st.sampled_from(["11", "12", "13", "7 7", "é"])
#: Odd values, each drawn now and then: sentences compared as Python compares
#: them (4.0 equals 4, true equals 1) or refused (a list); labels not allowed
#: or not strings; ids of every kind.
odd_sentences = st.sampled_from([4.0, True, False, None, "3", -1, 2 ** 70, [1]])
odd_labels = st.sampled_from(["NOT_ENOUGH_INFO", "support", "MAYBE", 3, None])
odd_ids = st.sampled_from(["c1", "c 2", "", 1.5, True, None, [1], 2 ** 70, -3])


def _rarely(draw, odds: int) -> bool:
    return draw(st.integers(0, odds)) == 0


def _sentences(draw, well_formed: bool) -> list:
    sentences = draw(st.lists(st.integers(0, 6), max_size=6))
    if not well_formed and sentences and _rarely(draw, 12):
        sentences[draw(st.integers(0, len(sentences) - 1))] = draw(odd_sentences)
    return sentences


def _label(draw, well_formed: bool):
    if not well_formed and _rarely(draw, 25):
        return draw(odd_labels)
    return draw(st.sampled_from(LABELS))


@st.composite
def claim_files(draw, well_formed: bool = False):
    """(gold lines, prediction lines, max_evidence): JSON texts."""
    odd_ids_here = not well_formed and _rarely(draw, 4)
    n = draw(st.integers(1, 6))
    gold, predictions = [], []
    sets_shape = not well_formed and _rarely(draw, 3)
    for number in range(n):
        claim_id = draw(odd_ids | st.integers(0, 40)) if odd_ids_here else number * 3 + 1
        evidence = {}
        for doc in draw(st.lists(docs, max_size=3, unique=True)):
            label = _label(draw, well_formed)
            sets = []
            used: set = set()
            for _ in range(draw(st.integers(1, 3))):
                sentences = _sentences(draw, well_formed)
                if well_formed:     # the evaluator's own rule: one rationale a sentence
                    sentences = [s for s in dict.fromkeys(sentences) if s not in used]
                    used.update(sentences)
                    if not sentences:
                        continue
                conflicting = not well_formed and _rarely(draw, 20)
                sets.append({"sentences": sentences,
                             "label": _label(draw, False) if conflicting else label})
            if not well_formed and _rarely(draw, 30):
                sets = []                           # refused: no set, no label
            if sets or not well_formed:
                evidence[doc] = sets
        line = {"id": claim_id, "claim": "Synthetic claim.", "evidence": evidence,
                "cited_doc_ids": [int(d) for d in evidence if d.isdigit()]}
        if not well_formed and _rarely(draw, 40):
            del line[draw(st.sampled_from(["id", "evidence"]))]
        gold.append(line)
        predicted_id = claim_id if well_formed or not _rarely(draw, 25) else draw(odd_ids)
        predicted: dict = {}
        for doc in draw(st.lists(docs, max_size=3, unique=True)):
            label = _label(draw, well_formed)
            if sets_shape != (not well_formed and _rarely(draw, 40)):   # (now and then
                predicted[doc] = [                                    # the other shape)
                    {"sentences": _sentences(draw, well_formed),
                     "label": label if not _rarely(draw, 4) else
                     draw(st.sampled_from(["NOT_ENOUGH_INFO"] + LABELS))}
                    for _ in range(draw(st.integers(0 if _rarely(draw, 30) else 1, 2)))]
            else:
                predicted[doc] = {"sentences": _sentences(draw, well_formed), "label": label}
        prediction = {"id": predicted_id, "evidence": predicted}
        if sets_shape != (not well_formed and _rarely(draw, 8)):
            prediction["label"] = draw(st.sampled_from(LABELS + ["NOT_ENOUGH_INFO"])) \
                if well_formed or not _rarely(draw, 20) else draw(odd_labels)
        predictions.append(prediction)
    if not well_formed and _rarely(draw, 15):
        predictions = predictions[:-1]
    max_evidence = 3 if well_formed else draw(st.sampled_from([3, 1, None]))
    return ([json.dumps(g, ensure_ascii=draw(st.booleans())) for g in gold],
            [json.dumps(p) for p in predictions], max_evidence)


def _write(folder: Path, gold: list, predictions: list) -> tuple:
    paths = (folder / "gold.jsonl", folder / "predictions.jsonl")
    for path, lines in zip(paths, (gold, predictions)):
        path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return tuple(map(str, paths))


def _policy(max_evidence):
    return build_policy({"task": "scifact", "max_evidence": "all" if max_evidence is None
                         else max_evidence}, {})


#: The ways a file is read: msgspec's Structs, the standard library's values
#: (common lines taken whole), every line through the general rules.
WAYS = ("msgspec", "stdlib", "checked")


def _reading(way: str):
    if way == "msgspec":
        return mock.patch.object(jsonl, "FAST_MIN_BYTES", 0)
    stack = ExitStack()
    stack.enter_context(mock.patch.object(jsonl, "FAST", False))
    if way == "checked":
        for shortcut in ("_common_gold", "_common_prediction"):
            stack.enter_context(mock.patch.object(scifactinputs, shortcut,
                                                  lambda *args: None))
    return stack


def _reports(files: tuple, max_evidence, way: str):
    problems = Problems()
    with _reading(way):
        try:
            reports = dict(run(Request(policy=_policy(max_evidence), files=files), problems))
        except ScorerError as error:
            return ("refused", str(error), problems.report_fatal(str(error)))
    reports.pop("params")       # (the fingerprints: the same files)
    return ("scored", reports, problems.report())


def _scored(files: tuple, max_evidence, way: str, scorer) -> tuple:
    """(rows, .debug text of the claims) of ``scorer``, or its refusal."""
    with _reading(way):
        try:
            inputs = scifactinputs.read_inputs(*files)
            return scorer(inputs)
        except ScorerError as error:
            return ("refused", str(error))


def _one_step(max_evidence):
    def score(inputs):
        evaluation = scifact.evaluate(inputs, _policy(max_evidence), Problems())
        rows = list(zip(*evaluation.columns.values()))
        return rows, "".join(evaluation.debug.pieces())
    return score


def _by_records(max_evidence):
    def score(inputs):
        scifactinputs.check_order(inputs)
        return scifact_records.score_claims(inputs, tuple(LABELS), max_evidence)
    return score


@pytest.mark.slow
@pytest.mark.skipif(jsonl.fast_json() is None, reason="msgspec is not installed")
@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(claim_files())
def test_reports_are_the_same_read_either_way(tmp_path_factory, case):
    gold, predictions, max_evidence = case
    files = _write(tmp_path_factory.mktemp("scifact"), gold, predictions)
    reports = _reports(files, max_evidence, "msgspec")
    assert reports == _reports(files, max_evidence, "stdlib")
    assert reports == _reports(files, max_evidence, "checked")


@pytest.mark.slow
@settings(max_examples=400, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(claim_files(), st.sampled_from(WAYS))
def test_the_scorer_gives_what_scoring_by_records_gave(tmp_path_factory, case, way):
    if way == "msgspec" and jsonl.fast_json() is None:
        pytest.skip("msgspec is not installed")
    gold, predictions, max_evidence = case
    files = _write(tmp_path_factory.mktemp("scifact"), gold, predictions)
    assert _scored(files, max_evidence, way, _one_step(max_evidence)) == \
        _scored(files, max_evidence, way, _by_records(max_evidence))


@pytest.mark.slow
def test_the_scorer_gives_what_scoring_by_records_gave_on_the_parity_data():
    folder = PARITY / "scifact" / "synthetic"
    if not folder.is_dir():
        pytest.skip(f"no parity data at {folder}")
    for predictions in ("predictions.jsonl", "predictions_sets.jsonl"):
        files = (str(folder / "gold.jsonl"), str(folder / predictions))
        for max_evidence in (3, 1, None):
            for way in WAYS:
                one_step = _scored(files, max_evidence, way, _one_step(max_evidence))
                assert one_step == _scored(files, max_evidence, way, _by_records(max_evidence))
                assert one_step[1].count("\nCLAIM ") + one_step[1].startswith("=") > 0


@pytest.mark.skipif(jsonl.fast_json() is None, reason="msgspec is not installed")
def test_the_shortcuts_are_taken_on_common_lines(tmp_path):
    """(So that the comparisons above compare three ways of reading.)"""
    files = _write(tmp_path, [json.dumps({"id": 1, "evidence": {"5": [
        {"sentences": [1, 2], "label": "SUPPORT"}]}})],
        [json.dumps({"id": 1, "evidence": {"5": {"sentences": [2, 1], "label": "SUPPORT"}}})])
    with _reading("msgspec"):
        inputs = scifactinputs.read_inputs(*files)
    assert type(inputs.gold[0].abstracts["5"].rationales[0]) is list
    with _reading("msgspec"), mock.patch.object(scifactinputs, "_gold_claim") as general:
        scifactinputs.read_inputs(*files)
        assert not general.called
    with _reading("stdlib"), mock.patch.object(scifactinputs, "_gold_claim") as general, \
            mock.patch.object(scifactinputs, "_prediction_claim") as general_prediction:
        common = scifactinputs.read_inputs(*files)
        assert not general.called and not general_prediction.called
    assert common == inputs
    with _reading("checked"), mock.patch.object(scifactinputs, "_gold_claim",
                                                wraps=scifactinputs._gold_claim) as general:
        assert scifactinputs.read_inputs(*files) == inputs
        assert general.called


def _evaluator():
    path = EVALUATOR / "evaluator" / "eval.py"
    if not path.is_file():
        pytest.skip(f"no checkout of allenai/scifact-evaluator at {EVALUATOR}")
    spec = importlib.util.spec_from_file_location("scifact_eval", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
@settings(max_examples=200, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(claim_files(well_formed=True), st.sampled_from(["stdlib", "msgspec"]))
def test_numbers_are_the_evaluators_on_generated_files(tmp_path_factory, case, way):
    evaluator = _evaluator()
    if way == "msgspec" and jsonl.fast_json() is None:
        pytest.skip("msgspec is not installed")
    gold, predictions, max_evidence = case
    files = _write(tmp_path_factory.mktemp("scifact"), gold, predictions)
    golds = [evaluator.unify_label(json.loads(line)) for line in gold]
    expected = evaluator.Evaluator(verbose=True).evaluate(golds, [json.loads(p)
                                                                  for p in predictions])
    kind, reports, _problems = _reports(files, max_evidence, way)
    assert kind == "scored"
    metrics = json.loads(reports["json"])["metrics"]
    assert {name: metrics[name] for name in expected} == expected
