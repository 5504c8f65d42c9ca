"""FEVER scoring: parity with fever-scorer 2.0.39, hand-made cases, errors,
and properties.

Parity cases live in ``../shared/parity/fever`` (see its README); the tests
that need them are skipped when that folder is absent.  The 9,999-claim real
set is parsed once per module.
"""
from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorer.claims import fever, feverpass
from scorer.countstable.driver import run
from scorer.policy import build_policy
from scorer.problems import Problems, ScorerError
from scorer.request import Request

import places

PARITY = places.PARITY / "fever"
FIXTURES = places.FIXTURES / "fever"
KEYS = ["strict_score", "label_accuracy", "precision", "recall", "f1"]

needs_parity = pytest.mark.skipif(
    not PARITY.is_dir(), reason=f"reference cases not found at {PARITY} (../shared is absent)")


def policy(max_evidence=5):
    return build_policy({"task": "fever", "max_evidence": max_evidence}, {})


def write_jsonl(path: Path, rows) -> Path:
    path.write_text("".join((row if isinstance(row, str) else json.dumps(row)) + "\n"
                            for row in rows), encoding="utf-8")
    return path


def run_json(files, max_evidence=5, problems=None):
    request = Request(policy=policy(max_evidence), files=tuple(str(f) for f in files))
    return json.loads(dict(run(request, problems or Problems()))["json"])


def parity_settings(case: Path):
    expected = json.loads((case / "expected.json").read_text())
    return [(case, result) for result in expected["results"]]


# ---------------------------------------------------------------- parity

@pytest.fixture(scope="module")
def real_inputs():
    """The real dev set, read once for the module."""
    if not PARITY.is_dir():
        pytest.skip(f"reference cases not found at {PARITY}")
    case = PARITY / "real"
    return fever.read_inputs((str(case / "actual.jsonl"), str(case / "predictions.jsonl")))


@pytest.fixture(scope="module")
def synthetic_inputs():
    if not PARITY.is_dir():
        pytest.skip(f"reference cases not found at {PARITY}")
    case = PARITY / "synthetic"
    return fever.read_inputs((str(case / "actual.jsonl"), str(case / "predictions.jsonl")))


def _results(name):
    if not PARITY.is_dir():
        return [None]
    return json.loads((PARITY / name / "expected.json").read_text())["results"]


def _check_metrics(evaluation, result):
    assert list(evaluation.metrics) == KEYS
    assert evaluation.metrics == {k: result[k] for k in KEYS}


@pytest.mark.slow
@needs_parity
@pytest.mark.parity
@pytest.mark.parametrize("result", _results("real"),
                         ids=lambda r: f"max_evidence={r and r['max_evidence']}")
def test_parity_real(real_inputs, result):
    _check_metrics(feverpass.evaluate(real_inputs, policy(result["max_evidence"]), Problems()),
                   result)


@needs_parity
@pytest.mark.parity
@pytest.mark.parametrize("result", _results("synthetic"),
                         ids=lambda r: f"max_evidence={r and r['max_evidence']}")
def test_parity_synthetic(synthetic_inputs, result):
    _check_metrics(feverpass.evaluate(synthetic_inputs, policy(result["max_evidence"]),
                                  Problems()), result)


@needs_parity
@pytest.mark.parity
@pytest.mark.parametrize("name", ["real", "synthetic"])
def test_parity_per_instance(request, name):
    inputs = request.getfixturevalue(f"{name}_inputs")
    rows = [json.loads(line) for line in
            (PARITY / name / "expected_per_instance.jsonl").read_text().splitlines()]
    settings_seen = sorted({str(row["max_evidence"]) for row in rows})
    assert settings_seen  # real: 5; synthetic: 5 and null
    for setting in {row["max_evidence"] for row in rows}:
        table = feverpass.evaluate(inputs, policy(setting), Problems()).counts
        expected = [row for row in rows if row["max_evidence"] == setting]
        assert len(expected) == len(table)
        for position, row in enumerate(expected):
            got = table.iloc[position]
            assert row["line"] == position + 1
            assert bool(got["label_correct"]) == row["label_correct"]
            assert bool(got["strict"]) == row["strict"]
            assert [got["precision"], got["precision_counted"]] == row["precision"]
            assert [got["recall"], got["recall_counted"]] == row["recall"]


@needs_parity
@pytest.mark.parity
def test_parity_real_through_the_driver():
    """run.json carries the reference numbers at full precision (json round trip)."""
    case = PARITY / "real"
    got = run_json((case / "actual.jsonl", case / "predictions.jsonl"))
    assert got["task"] == "fever"
    assert got["metrics"] == {k: _results("real")[0][k] for k in KEYS}


def quirk_settings():
    if not PARITY.is_dir():
        return []
    return [item for case in sorted((PARITY / "quirks").iterdir())
            for item in parity_settings(case)]


@needs_parity
@pytest.mark.parity
@pytest.mark.parametrize("case, result", quirk_settings(),
                         ids=lambda x: x.name if isinstance(x, Path) else
                         f"max_evidence={x['max_evidence']}")
def test_parity_quirks(case, result):
    files = (case / "actual.jsonl", case / "predictions.jsonl")
    if "error" in result:
        with pytest.raises(ScorerError) as caught:
            run_json(files, result["max_evidence"])
        message = str(caught.value)
        assert "Traceback" not in message
        assert str(case) in message
        return
    got = run_json(files, result["max_evidence"])["metrics"]
    assert got == {k: result[k] for k in KEYS}


@needs_parity
@pytest.mark.parity
def test_float_sums_are_left_to_right(real_inputs):
    """The README's warning: a compensated or pairwise sum gives another last digit."""
    import math
    evaluation = feverpass.evaluate(real_inputs, policy(5), Problems())
    table = evaluation.counts
    exact = math.fsum(table["precision"]) / table["precision_counted"].sum()
    assert exact != evaluation.metrics["precision"]
    assert evaluation.metrics["precision"] == 0.1043804380438068


# ---------------------------------------------------------------- hand-made cases

def fixture_cases():
    return sorted(p for p in FIXTURES.iterdir() if (p / "case.json").exists())


@pytest.mark.parametrize("case", fixture_cases(), ids=lambda p: p.name)
def test_fixture_per_claim_and_metrics(case):
    spec = json.loads((case / "case.json").read_text())
    files = tuple(str(case / f) for f in spec["files"])
    evaluation = feverpass.evaluate(fever.read_inputs(files),
                                build_policy(spec["policy"], {}), Problems())
    table = evaluation.counts
    expected = spec["expected_per_claim"]
    assert table["label_correct"].tolist() == expected["label_correct"]
    assert table["strict"].tolist() == expected["strict"]
    assert [list(x) for x in zip(table["precision"], table["precision_counted"])] == \
        expected["precision"]
    assert [list(x) for x in zip(table["recall"], table["recall_counted"])] == expected["recall"]
    # The reference's aggregation, written out here: left-to-right sums, its zero rules.
    n = len(expected["strict"])
    precision_sum, precision_hits, recall_sum, recall_hits = 0, 0, 0, 0
    for (p, ph), (r, rh) in zip(expected["precision"], expected["recall"]):
        precision_sum += p
        precision_hits += ph
        recall_sum += r
        recall_hits += rh
    p = precision_sum / precision_hits if precision_hits > 0 else 1.0
    r = recall_sum / recall_hits if recall_hits > 0 else 0.0
    assert evaluation.metrics == {
        "strict_score": sum(expected["strict"]) / n,
        "label_accuracy": sum(expected["label_correct"]) / n,
        "precision": p, "recall": r,
        "f1": 2.0 * p * r / (p + r) if p + r else 0.0}


# ---------------------------------------------------------------- errors and warnings

INLINE = {"label": "SUPPORTS", "evidence": [[[1, 2, "Page", 0]]], "predicted_label": "SUPPORTS",
          "predicted_evidence": [["Page", 0]]}


@pytest.mark.parametrize("rows, words", [
    ([{"predicted_label": "SUPPORTS", "predicted_evidence": []}],
     ["predictions.jsonl line 1", "no gold file"]),
    ([{**INLINE, "predicted_evidence": [["Page", "0"]]}],
     ["predictions.jsonl line 1", "item 1", "not a whole number"]),
    ([{**INLINE, "predicted_evidence": [["Page", 0, 1]]}], ["not a [page, line] pair"]),
    ([{**INLINE, "predicted_evidence": None}], ["must be a list"]),
    ([{k: v for k, v in INLINE.items() if k != "predicted_label"}], ["'predicted_label'"]),
    ([{**INLINE, "evidence": [[["Page", 0]]]}], ["[annotation, id, page, line]"]),
    ([{**INLINE, "label": None}], ["gold 'label' must be a string"]),
    (["[1, 2]"], ["expected a JSON object"]),
    ([], ["no predictions"]),
])
def test_bad_input_gives_a_clear_error(tmp_path, rows, words):
    predictions = write_jsonl(tmp_path / "predictions.jsonl", rows)
    with pytest.raises(ScorerError) as caught:
        run_json((predictions,))
    for word in words:
        assert word in str(caught.value)


def test_a_gold_file_without_claims_is_refused_as_scifact_refuses_it(tmp_path):
    """Even beside predictions that carry their own gold (scored against it, with a
    warning that the empty gold was not used)."""
    empty = write_jsonl(tmp_path / "actual.jsonl", [])
    predictions = write_jsonl(tmp_path / "predictions.jsonl", [INLINE])
    with pytest.raises(ScorerError) as caught:
        run_json((empty, predictions))
    assert str(caught.value).startswith(f"{empty}: no gold claims")


def test_three_files_are_refused(tmp_path):
    path = write_jsonl(tmp_path / "p.jsonl", [INLINE])
    with pytest.raises(ScorerError, match="3 files"):
        run_json((path, path, path))


def test_blind_length_mismatch_names_both_files(tmp_path):
    gold = write_jsonl(tmp_path / "gold.jsonl", [{"label": "SUPPORTS", "evidence": []}])
    predictions = write_jsonl(tmp_path / "predictions.jsonl", [
        {"predicted_label": "SUPPORTS", "predicted_evidence": []}] * 2)
    with pytest.raises(ScorerError) as caught:
        run_json((gold, predictions))
    assert "gold.jsonl has 1 line(s) for 2 prediction(s)" in str(caught.value)


def test_unknown_label_is_a_warning_not_an_error(tmp_path):
    predictions = write_jsonl(tmp_path / "predictions.jsonl", [
        {**INLINE, "label": "NOT_ENOUGH_INFO", "predicted_label": "NOT_ENOUGH_INFO"}])
    problems = Problems()
    metrics = run_json((predictions,), problems=problems)["metrics"]
    assert set(problems.names()) == {"CLAIM_WARNING"}
    assert 'label "NOT_ENOUGH_INFO" is not one of' in problems.report()
    assert problems.error_count == 0
    # scored as verifiable, as the reference does: Page 0 is gold
    assert metrics["strict_score"] == 1.0 and metrics["precision"] == 1.0


def test_inline_predictions_beside_a_gold_file_are_reported(tmp_path):
    gold = write_jsonl(tmp_path / "gold.jsonl", [{"label": "REFUTES", "evidence": []}])
    predictions = write_jsonl(tmp_path / "predictions.jsonl", [INLINE])
    problems = Problems()
    metrics = run_json((gold, predictions), problems=problems)["metrics"]
    assert "carry their own 'label' and 'evidence'" in problems.report()
    assert metrics["label_accuracy"] == 1.0  # the inline gold, not the file's REFUTES


def test_claims_without_unique_ids_are_keyed_by_line(tmp_path):
    predictions = write_jsonl(tmp_path / "predictions.jsonl", [
        {**INLINE, "id": 0}, {**INLINE, "id": 0}])
    evaluation = feverpass.evaluate(fever.read_inputs((str(predictions),)), policy(), Problems())
    assert evaluation.keys == ["line1", "line2"]


def _blind_fixture(tmp_path, reorder=None, rename=None) -> tuple:
    """The blind fixture's gold, and its predictions reordered or with other ids."""
    gold = FIXTURES / "blind" / "actual.jsonl"
    rows = [json.loads(line) for line in
            (FIXTURES / "blind" / "predictions.jsonl").read_text().splitlines()]
    rows = reorder(rows) if reorder else rows
    for row in rows:
        row["id"] = rename(row["id"]) if rename else row["id"]
    return gold, write_jsonl(tmp_path / "predictions.jsonl", rows)


@pytest.mark.parametrize("reorder, rename, line, ids, why", [
    (lambda rows: rows[::-1], None, 1, "id 13, the gold at its position", "the same ids in "
     "another order"),
    (None, lambda i: 900 + i, 1, "id 911, the gold at its position", "3 of the predictions' "
     "ids are not in"),
    (lambda rows: [rows[0], rows[2], rows[1]], None, 2, "id 13, the gold at its position",
     "the same ids in another order"),
])
def test_ids_that_do_not_pair_up_are_an_error_with_the_references_numbers(
        tmp_path, reorder, rename, line, ids, why):
    gold, predictions = _blind_fixture(tmp_path, reorder, rename)
    problems = Problems()
    got = run_json((gold, predictions), problems=problems)["metrics"]
    # The reference pairs by position whatever the ids: so do the numbers.
    assert got == run_json((gold, predictions), problems=Problems())["metrics"]
    assert problems.error_count == 1
    report = problems.report()
    assert f"ERROR: claim ids do not pair up: the prediction has {ids} ({gold} line {line})" \
        in report
    assert why in report and f"({predictions} line {line})" in report


def test_ids_that_pair_up_or_identify_nothing_are_silent(tmp_path):
    gold, predictions = _blind_fixture(tmp_path)
    problems = Problems()
    assert run_json((gold, predictions), problems=problems)["metrics"]["strict_score"] == \
        pytest.approx(2 / 3)
    assert problems.report() == "No warnings encountered\n"
    # Gold ids all 0 (the official dev set's, redacted): they identify no claim.
    rows = [dict(json.loads(line), id=0) for line in gold.read_text().splitlines()]
    redacted = write_jsonl(tmp_path / "gold.jsonl", rows)
    problems = Problems()
    run_json((redacted, predictions), problems=problems)
    assert problems.error_count == 0


@needs_parity
@pytest.mark.parity
def test_the_real_gold_with_redacted_ids_is_silent():
    case = PARITY / "real"
    problems = Problems()
    run_json((case / "actual.jsonl", case / "predictions.jsonl"), problems=problems)
    assert problems.report() == "No warnings encountered\n"


def test_blind_claims_are_named_by_their_gold_line(real_inputs):
    """Samples draw a blind prediction's claim by the gold line it is paired
    with: the gold's id when its ids are unique, else line<N> (the real gold's
    ids are all 0); the predictions' own ids (91198, ...) only name claims in
    the reports, and a run without them names its claims alike."""
    evaluation = feverpass.evaluate(real_inputs, policy(5), Problems())
    assert evaluation.keys[:2] == ["line1", "line2"] and evaluation.key_source == "line"
    first_claim = next(line for line in "".join(evaluation.debug.pieces()).splitlines()
                       if line.startswith("CLAIM "))
    assert first_claim == "CLAIM 91198\tpredictions line 1"
    without_ids = real_inputs._replace(predictions=[
        (line, {k: v for k, v in p.items() if k != "id"}) for line, p in real_inputs.predictions])
    assert feverpass.evaluate(without_ids, policy(5), Problems()).keys == evaluation.keys


# ---------------------------------------------------------------- properties

pages = st.sampled_from(["A", "B", "C", "D"])
sentence = st.tuples(pages, st.integers(0, 4)).map(list)


@st.composite
def gold_rows(draw):
    rows = []
    for i in range(draw(st.integers(1, 8))):
        label = draw(st.sampled_from(["SUPPORTS", "REFUTES", "NOT ENOUGH INFO"]))
        if label == "NOT ENOUGH INFO":
            evidence = [[[i, None, None, None]]]
        else:
            groups = draw(st.lists(st.lists(sentence, min_size=1, max_size=3, unique_by=tuple),
                                   min_size=1, max_size=3))
            evidence = [[[i, j, page, line] for page, line in group] for j, group in
                        enumerate(groups)]
        rows.append({"id": i + 1, "label": label, "evidence": evidence})
    return rows


@pytest.mark.slow
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(gold_rows(), st.data(), st.sampled_from([None, 0, 1, 3, 5]))
def test_scores_stay_within_0_and_1(gold, data, max_evidence):
    predictions = [{"id": row["id"],
                    "predicted_label": data.draw(st.sampled_from(
                        ["SUPPORTS", "REFUTES", "NOT ENOUGH INFO", "supports"])),
                    "predicted_evidence": data.draw(st.lists(sentence, max_size=7))}
                   for row in gold]
    metrics = _score(gold, predictions, max_evidence)
    for name, value in metrics.items():
        assert 0.0 <= value <= 1.0, name


@pytest.mark.slow
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(gold_rows(), st.sampled_from([None, 3, 5]))
def test_perfect_prediction_scores_one(gold, max_evidence):
    predictions = []
    for row in gold:
        first = [[page, line] for _a, _b, page, line in row["evidence"][0]]
        verifiable = row["label"] != "NOT ENOUGH INFO"
        predictions.append({"id": row["id"], "predicted_label": row["label"],
                            "predicted_evidence": first if verifiable else []})
    metrics = _score(gold, predictions, max_evidence)
    assert metrics["strict_score"] == 1.0
    assert metrics["label_accuracy"] == 1.0
    assert metrics["precision"] == 1.0
    if any(row["label"] != "NOT ENOUGH INFO" for row in gold):
        assert metrics["recall"] == 1.0 and metrics["f1"] == 1.0
    else:  # recall is undefined without verifiable claims: the reference's 0.0
        assert metrics["recall"] == 0.0


def _score(gold, predictions, max_evidence):
    with tempfile.TemporaryDirectory() as directory:
        gold_path = write_jsonl(Path(directory) / "gold.jsonl", gold)
        predictions_path = write_jsonl(Path(directory) / "predictions.jsonl", predictions)
        inputs = fever.read_inputs((str(gold_path), str(predictions_path)))
        return feverpass.evaluate(inputs, policy(max_evidence), Problems()).metrics
