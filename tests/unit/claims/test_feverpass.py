"""scorer/claims/feverpass.py: FEVER scored in one pass gives the same
reports whichever way its files are read, and the reference's numbers, on
generated files.

- ``jsonl`` reads through msgspec where it is installed (FEVER lines into
  typed Structs, scored by ``feverpass``'s own path) and through the
  standard library where it is not: every report, warning and refusal of
  ``python -m scorer`` is the same both ways, on files of every shape the
  readers handle differently (odd kinds of ids, labels, sentences and gold
  entries; missing keys; lines msgspec refuses);
- on well-formed files the five numbers equal ``fever.scorer.fever_score``'s
  exactly, where a checkout of sheffieldnlp/fever-scorer is beside the
  project (``../fever-scorer``).
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorer.countstable import jsonl
from scorer.countstable.driver import run
from scorer.policy import build_policy
from scorer.problems import Problems, ScorerError
from scorer.request import Request

from places import ROOT

FEVER_SCORER = Path(os.environ.get("FEVER_SCORER_DIR") or ROOT.parent / "fever-scorer")

pages = st.sampled_from(["Telemundo", "Anne_Rice", "Beyonc\u00e9", 'a "quoted" page', "tab\there",
                         "100%", ""])
lines = st.integers(0, 3)
#: A predicted sentence: nearly always a [page, line] pair; else a shape the
#: general rules judge (only claims with the right label are checked).
sentence = st.one_of(
    st.tuples(pages, lines).map(list), st.tuples(pages, lines).map(list),
    st.sampled_from([["Telemundo", 0.0], ["Telemundo", True], ["Telemundo"], [None, 1],
                     ["Telemundo", 1, 2], ["Telemundo", None], "Telemundo", 3]))
gold_entry = st.one_of(
    st.tuples(st.integers(1, 9), st.integers(1, 9) | st.none(), pages, lines).map(list),
    st.tuples(st.integers(1, 9), st.integers(1, 9) | st.none(), pages, lines).map(list),
    st.just([7, None, None, None]),
    st.sampled_from([[7, 8, "Telemundo", 0.0], [7, 8, "Telemundo", 0, "extra"],
                     ["a", 8, "Telemundo", 1], [7, 8, "Telemundo"], [7, 8, None, 2]]))
evidence = st.lists(st.lists(gold_entry, max_size=3), max_size=3)
labels = st.sampled_from(["SUPPORTS", "REFUTES", "NOT ENOUGH INFO", "supports",
                          "Not Enough Info", "NOT_ENOUGH_INFO", "MAYBE"])
ids = st.one_of(st.integers(0, 30), st.integers(0, 30), st.sampled_from(["c1", "c 2", "", None,
                                                                         1.5, True, [1]]))
#: Lines the readers treat differently: msgspec refuses them (NaN, a lone
#: surrogate, a number too large) or may not read them (nesting, long numbers).
odd_text = st.sampled_from(['NaN', '"\\ud800"', '1e400', '1' + '0' * 4300, '"\\ud83d\\ude00"',
                            '[' * 70 + ']' * 70, '[' * 40 + ']' * 40])


@st.composite
def claim_files(draw, well_formed: bool = False):
    """(gold lines or None, prediction lines, max_evidence): JSON texts."""
    n = draw(st.integers(1, 8))
    sentences = st.lists(st.tuples(pages, lines).map(list) if well_formed else sentence,
                         max_size=7)
    gold = []
    for _ in range(n):
        label = draw(labels if not well_formed else
                     st.sampled_from(["SUPPORTS", "REFUTES", "NOT ENOUGH INFO"]))
        claim = {"id": draw(ids), "label": label}
        if well_formed:
            claim["evidence"] = draw(st.lists(st.lists(
                st.tuples(st.integers(1, 9), st.integers(1, 9) | st.none(), pages, lines)
                .map(list), min_size=1, max_size=3), min_size=1, max_size=3)) \
                if label != "NOT ENOUGH INFO" else [[[1, None, None, None]]]
        else:
            claim["evidence"] = draw(evidence)
            if draw(st.integers(0, 30)) == 0:
                del claim[draw(st.sampled_from(["id", "label", "evidence"]))]
        if draw(st.booleans()):
            claim["claim"] = "Synthetic claim."
        gold.append(claim)
    predictions = []
    for position in range(n):
        prediction = {"id": draw(ids), "predicted_label": draw(labels),
                      "predicted_evidence": draw(sentences)}
        if not well_formed:
            if draw(st.integers(0, 8)) == 0:           # carries its own gold
                prediction["label"] = draw(labels)
                prediction["evidence"] = draw(evidence)
            if draw(st.integers(0, 30)) == 0:
                del prediction[draw(st.sampled_from(["id", "predicted_label",
                                                     "predicted_evidence"]))]
            if draw(st.integers(0, 15)) == 0:
                prediction["note"] = draw(st.just("x") | odd_text)
        predictions.append(prediction)
    texts = [json.dumps(p, ensure_ascii=draw(st.booleans())) for p in predictions]
    gold_texts = [json.dumps(g) for g in gold]
    if not well_formed:
        for which in (texts, gold_texts):
            if draw(st.integers(0, 10)) == 0:
                at = draw(st.integers(0, len(which) - 1))
                which[at] = which[at][:-1] + ', "odd": ' + draw(odd_text) + "}"
        if draw(st.integers(0, 12)) == 0:
            gold_texts = gold_texts[:-1]                # gold and predictions of two lengths
    with_gold = well_formed or draw(st.integers(0, 5)) > 0
    max_evidence = draw(st.sampled_from([5, 1, 2, None]))
    return (gold_texts if with_gold else None), texts, max_evidence


def _write(folder: Path, gold, predictions) -> tuple:
    files = []
    if gold is not None:
        path = folder / "actual.jsonl"
        path.write_bytes("".join(line + "\n" for line in gold).encode("utf-8", "surrogatepass"))
        files.append(str(path))
    path = folder / "predictions.jsonl"
    path.write_bytes("".join(line + "\n" for line in predictions).encode("utf-8",
                                                                          "surrogatepass"))
    files.append(str(path))
    return tuple(files)


def _policy(max_evidence):
    return build_policy({"task": "fever", "max_evidence": "all" if max_evidence is None
                         else max_evidence}, {})


def _reports(files: tuple, max_evidence, way: str):
    from unittest import mock
    patch = mock.patch.object(jsonl, "FAST", False) if way == "stdlib" else \
        mock.patch.object(jsonl, "FAST_MIN_BYTES", 0)
    problems = Problems()
    with patch:
        try:
            reports = dict(run(Request(policy=_policy(max_evidence), files=files), problems))
        except ScorerError as error:
            return ("refused", str(error), problems.report_fatal(str(error)))
    reports.pop("params")       # (the time and the fingerprints: the same files)
    return ("scored", reports, problems.report())


@pytest.mark.slow
@pytest.mark.skipif(jsonl.fast_json() is None, reason="msgspec is not installed")
@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(claim_files())
def test_fever_reports_are_the_same_read_either_way(tmp_path_factory, case):
    gold, predictions, max_evidence = case
    files = _write(tmp_path_factory.mktemp("fever"), gold, predictions)
    assert _reports(files, max_evidence, "msgspec") == _reports(files, max_evidence, "stdlib")


@pytest.mark.skipif(jsonl.fast_json() is None, reason="msgspec is not installed")
def test_the_typed_path_is_taken_on_common_lines(tmp_path):
    """(So that the comparison above compares two paths.)"""
    from unittest import mock
    from scorer.claims import feverpass
    files = _write(tmp_path, [json.dumps({"id": 1, "label": "SUPPORTS",
                                          "evidence": [[[1, 2, "A", 0]]]})],
                   [json.dumps({"id": 1, "predicted_label": "SUPPORTS",
                                "predicted_evidence": [["A", 0]]})])
    calls = []
    original = feverpass._Pass.typed_claim

    def spy(self, *args):
        calls.append(args[0])
        return original(self, *args)

    with mock.patch.object(feverpass._Pass, "typed_claim", spy):
        assert _reports(files, 5, "msgspec")[0] == "scored"
        assert calls == [1]
        _reports(files, 5, "stdlib")
        assert calls == [1]


def _fever_score():
    if not (FEVER_SCORER / "src" / "fever" / "scorer.py").is_file():
        pytest.skip(f"no checkout of sheffieldnlp/fever-scorer at {FEVER_SCORER}")
    if "six" not in sys.modules:
        try:
            import six  # noqa: F401
        except ImportError:        # the reference uses six.string_types alone
            import types
            sys.modules["six"] = types.SimpleNamespace(string_types=(str,))
    sys.path.insert(0, str(FEVER_SCORER / "src"))
    try:
        from fever.scorer import fever_score
    finally:
        sys.path.remove(str(FEVER_SCORER / "src"))
    return fever_score


@pytest.mark.slow
@settings(max_examples=200, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(claim_files(well_formed=True), st.sampled_from(["stdlib", "msgspec"]))
def test_fever_numbers_are_the_references_on_generated_files(tmp_path_factory, case, way):
    fever_score = _fever_score()
    if way == "msgspec" and jsonl.fast_json() is None:
        pytest.skip("msgspec is not installed")
    gold, predictions, max_evidence = case
    files = _write(tmp_path_factory.mktemp("fever"), gold, predictions)
    outcome = _reports(files, max_evidence, way)
    assert outcome[0] == "scored", outcome
    ours = json.loads(outcome[1]["json"])["metrics"]
    actual = [json.loads(line) for line in gold]
    instances = [json.loads(line) for line in predictions]
    try:
        theirs = fever_score(instances, actual, max_evidence=max_evidence)
    except ZeroDivisionError:      # F1 of precision and recall both 0 (see docs/parity.md)
        assert ours["precision"] == ours["recall"] == ours["f1"] == 0.0
        return
    assert [ours[name] for name in ("strict_score", "label_accuracy", "precision", "recall",
                                    "f1")] == list(theirs)
