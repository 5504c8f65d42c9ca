"""scorer/claims/scifact.py and scifactinputs.py, through files: SciFact's
files read and scored, parity with the leaderboard evaluator, hand-made
cases, errors, and properties.

Parity cases live in ``../shared/parity/scifact`` (see its README); the tests
that need them are skipped when that folder is absent.
"""
from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorer.claims import scifact, scifactinputs
from scorer.countstable.driver import run
from scorer.policy import build_policy
from scorer.problems import Problems, ScorerError
from scorer.request import Request

import places

PARITY = places.PARITY / "scifact"
FIXTURES = places.FIXTURES / "scifact"

#: The leaderboard evaluator's twelve verbose keys.
LEADERBOARD_KEYS = [f"{title}_{measure}"
                    for title in ("abstract_label_only", "abstract_rationalized",
                                  "sentence_selection", "sentence_label")
                    for measure in ("precision", "recall", "f1")]

needs_parity = pytest.mark.skipif(
    not PARITY.is_dir(), reason=f"reference cases not found at {PARITY} (../shared is absent)")


def policy(max_evidence=3):
    return build_policy({"task": "scifact", "max_evidence": max_evidence}, {})


def score(gold, predictions, max_evidence=3, problems=None):
    inputs = scifactinputs.read_inputs(str(gold), str(predictions))
    return scifact.evaluate(inputs, policy(max_evidence), problems or Problems())


def run_json(gold, predictions, max_evidence=3):
    """The numbers of run.json, through the driver."""
    request = Request(policy=policy(max_evidence), files=(str(gold), str(predictions)))
    reports = dict(run(request, Problems()))
    return json.loads(reports["json"])


def write_jsonl(path: Path, rows) -> Path:
    path.write_text("".join((row if isinstance(row, str) else json.dumps(row)) + "\n"
                            for row in rows), encoding="utf-8")
    return path


def metrics_from_counts(abstract: dict, sentence: dict) -> dict:
    """The leaderboard evaluator's formulas, written out independently of scorer."""
    def divide(a, b):
        return a / b if b else 0.0

    result = {}
    for title, counts, right in (("abstract_label_only", abstract, "correct_label_only"),
                                 ("abstract_rationalized", abstract, "correct_rationalized"),
                                 ("sentence_selection", sentence, "correct_selection"),
                                 ("sentence_label", sentence, "correct_label")):
        p = divide(counts[right], counts["retrieved"])
        r = divide(counts[right], counts["relevant"])
        result[f"{title}_precision"] = p
        result[f"{title}_recall"] = r
        result[f"{title}_f1"] = divide(2 * p * r, p + r)
    return result


# ---------------------------------------------------------------- parity

#: Parity cases whose input scorer refuses although the evaluator scores it
#: (README, "Mistakes and hostile input"): case -> words of the refusal.
REFUSED_CASES = {"empty_files": ["gold.jsonl", "no gold claims"]}


def parity_cases_with_numbers():
    if not PARITY.is_dir():
        return []
    cases = [PARITY / "official_small", PARITY / "synthetic"]
    cases += sorted(p for p in (PARITY / "cases").iterdir()
                    if (p / "expected_metrics.json").exists() and p.name not in REFUSED_CASES)
    return cases


def parity_error_cases():
    if not PARITY.is_dir():
        return []
    return sorted(p for p in (PARITY / "cases").iterdir() if (p / "expected_error.json").exists())


@needs_parity
@pytest.mark.parity
@pytest.mark.parametrize("case", parity_cases_with_numbers(), ids=lambda p: p.name)
def test_parity_metrics_equal_reference_exactly(case):
    expected = json.loads((case / "expected_metrics.json").read_text())
    got = run_json(case / "gold.jsonl", case / "predictions.jsonl")
    assert list(expected) == LEADERBOARD_KEYS
    assert {k: got["metrics"][k] for k in expected} == expected
    assert list(got["metrics"]) == LEADERBOARD_KEYS + ["label_accuracy"]


@needs_parity
@pytest.mark.parity
@pytest.mark.parametrize("name", sorted(REFUSED_CASES))
def test_parity_cases_refused_on_purpose_still_count_as_the_evaluator(name):
    """A gold without claims is refused (the evaluator's all-0.0 report passed an
    empty export for a scored run), but the counting itself, given the same
    (empty) claims, still gives the evaluator's numbers."""
    case = PARITY / "cases" / name
    with pytest.raises(ScorerError) as caught:
        run_json(case / "gold.jsonl", case / "predictions.jsonl")
    for word in REFUSED_CASES[name]:
        assert word in str(caught.value)
    expected = json.loads((case / "expected_metrics.json").read_text())
    inputs = scifactinputs.Inputs(str(case / "gold.jsonl"), str(case / "predictions.jsonl"), [], [],
                            scifactinputs.LEADERBOARD)
    got = scifact.evaluate(inputs, policy(), Problems()).metrics
    assert {k: got[k] for k in expected} == expected


@needs_parity
@pytest.mark.parity
def test_parity_synthetic_counts_per_claim():
    case = PARITY / "synthetic"
    evaluation = score(case / "gold.jsonl", case / "predictions.jsonl")
    table = evaluation.counts
    expected_rows = [json.loads(line) for line in
                     (case / "expected_counts_per_claim.jsonl").read_text().splitlines()]
    assert len(expected_rows) == len(table)
    for (key, row), expected in zip(table.iterrows(), expected_rows):
        assert key == str(expected["id"])
        for level in ("abstract", "sentence"):
            for name, value in expected[level].items():
                assert row[f"{level}_{name}"] == value, (key, level, name)
    totals = json.loads((case / "expected_counts.json").read_text())
    for level in ("abstract", "sentence"):
        for name, value in totals[level].items():
            assert int(table[f"{level}_{name}"].sum()) == value


@needs_parity
@pytest.mark.parity
def test_parity_sets_shape_equals_leaderboard_shape():
    """predictions_sets.jsonl joins to predictions.jsonl: the same twelve numbers, and the
    generator's top-level labels follow the same claim-label rule, so the same accuracy."""
    case = PARITY / "synthetic"
    expected = json.loads((case / "expected_metrics.json").read_text())
    sets = run_json(case / "gold.jsonl", case / "predictions_sets.jsonl")
    board = run_json(case / "gold.jsonl", case / "predictions.jsonl")
    assert {k: sets["metrics"][k] for k in expected} == expected
    assert sets["metrics"]["label_accuracy"] == board["metrics"]["label_accuracy"]


@needs_parity
@pytest.mark.parity
def test_parity_synthetic_label_accuracy_independent():
    """Label accuracy recomputed here from the files with the documented rule."""
    case = PARITY / "synthetic"
    gold = [json.loads(x) for x in (case / "gold.jsonl").read_text().splitlines()]
    sets = [json.loads(x) for x in (case / "predictions_sets.jsonl").read_text().splitlines()]

    def majority(labels):
        if not labels:
            return "NOT_ENOUGH_INFO"
        return max(sorted(set(labels)), key=lambda lab: (labels.count(lab), lab))

    right = 0
    for g, p in zip(gold, sets):
        gold_label = majority([sets_[0]["label"] for sets_ in g["evidence"].values()])
        right += gold_label == p["label"]
    got = run_json(case / "gold.jsonl", case / "predictions.jsonl")["metrics"]
    assert got["label_accuracy"] == right / len(gold)
    assert 0 < right < len(gold)


@needs_parity
@pytest.mark.parity
# The reference refuses the evidence-sets shape; scorer reads it (the next test).
@pytest.mark.parametrize("case", [c for c in parity_error_cases()
                                  if c.name != "error_sets_format_prediction"],
                         ids=lambda p: p.name)
def test_parity_error_cases_give_a_clear_error(case):
    with pytest.raises(ScorerError) as caught:
        run_json(case / "gold.jsonl", case / "predictions.jsonl")
    message = str(caught.value)
    assert "Traceback" not in message
    assert "line " in message
    assert str(case) in message  # names the file


@needs_parity
@pytest.mark.parity
def test_sets_shape_case_is_scored_like_its_joined_form(tmp_path):
    """The reference cannot read the evidence-sets shape; scorer reads it, and gives
    the numbers of the same prediction written in the leaderboard shape."""
    case = PARITY / "cases" / "error_sets_format_prediction"
    joined = write_jsonl(tmp_path / "joined.jsonl", [
        {"id": 1, "evidence": {"201": {"sentences": [1, 2], "label": "SUPPORT"}}},
        {"id": 2, "evidence": {}}])
    sets = run_json(case / "gold.jsonl", case / "predictions.jsonl")["metrics"]
    board = run_json(case / "gold.jsonl", joined)["metrics"]
    assert sets == board
    assert board["abstract_rationalized_f1"] == 1.0


# ---------------------------------------------------------------- hand-made cases

def fixture_cases():
    return sorted(p for p in FIXTURES.iterdir() if (p / "case.json").exists())


@pytest.mark.parametrize("case", fixture_cases(), ids=lambda p: p.name)
def test_fixture_counts_and_metrics(case):
    spec = json.loads((case / "case.json").read_text())
    files = [case / f for f in spec["files"]]
    evaluation = score(*files, max_evidence=spec["policy"]["max_evidence"])
    counts = spec["expected_counts"]
    for level in ("abstract", "sentence"):
        for name, value in counts[level].items():
            assert int(evaluation.counts[f"{level}_{name}"].sum()) == value, (level, name)
    expected = metrics_from_counts(counts["abstract"], counts["sentence"])
    expected["label_accuracy"] = counts["label_correct"] / counts["claims"]
    assert evaluation.metrics == expected


def test_cap_is_max_of_max_evidence_and_shortest_rationale(tmp_path):
    gold = write_jsonl(tmp_path / "gold.jsonl", [
        {"id": 1, "evidence": {"5": [{"sentences": [0, 1, 2, 3], "label": "SUPPORT"},
                                     {"sentences": [4, 5, 6, 7, 8], "label": "SUPPORT"}]}}])
    front = write_jsonl(tmp_path / "front.jsonl", [
        {"id": 1, "evidence": {"5": {"sentences": [0, 1, 2, 3, 9], "label": "SUPPORT"}}}])
    late = write_jsonl(tmp_path / "late.jsonl", [
        {"id": 1, "evidence": {"5": {"sentences": [9, 0, 1, 2, 3], "label": "SUPPORT"}}}])
    assert score(gold, front).counts["abstract_correct_rationalized"].sum() == 1
    assert score(gold, late).counts["abstract_correct_rationalized"].sum() == 0
    assert score(gold, late, max_evidence=5).counts["abstract_correct_rationalized"].sum() == 1
    assert score(gold, late, max_evidence=None).counts["abstract_correct_rationalized"].sum() == 1


# ---------------------------------------------------------------- errors (no ../shared needed)

GOLD = {"id": 1, "evidence": {"7": [{"sentences": [1, 2], "label": "SUPPORT"}]}}


@pytest.mark.parametrize("gold_rows, prediction_rows, words", [
    ([{"id": 1, "evidence": {"7": [{"sentences": [1], "label": "SUPPORT"},
                                   {"sentences": [2], "label": "CONTRADICT"}]}}],
     [{"id": 1, "evidence": {}}], ["gold.jsonl line 1", "conflicting labels"]),
    ([GOLD], [{"id": 1, "evidence": {"7": {"sentences": [1], "label": "NOT_ENOUGH_INFO"}}}],
     ["predictions.jsonl line 1", "NOT_ENOUGH_INFO", "allowed"]),
    ([GOLD, {"id": 2, "evidence": {}}], [{"id": 2, "evidence": {}}, {"id": 1, "evidence": {}}],
     ["predictions.jsonl line 1", "gold order"]),
    ([GOLD], [{"id": 1, "evidence": {}}, {"id": 2, "evidence": {}}],
     ["predictions.jsonl line 2", "after the last gold claim"]),
    ([GOLD], ['{"id": 1, "evidence": {}'], ["predictions.jsonl line 1", "not valid JSON"]),
    ([GOLD], ["", '{"id": 1, "evidence": {}}'], ["predictions.jsonl line 1", "empty line"]),
    ([{"evidence": {}}], [{"id": 1, "evidence": {}}], ["gold.jsonl line 1", "'id'"]),
    ([GOLD], [{"id": 1}], ["predictions.jsonl line 1", "'evidence'"]),
    ([GOLD], [{"id": 1, "evidence": {"7": {"label": "SUPPORT"}}}], ["'sentences'"]),
    ([GOLD], [{"id": 1, "evidence": {"7": {"sentences": [[1]], "label": "SUPPORT"}}}],
     ["a sentence must be a number"]),
    ([{"id": 1, "evidence": {"7": [{"sentences": [1, 2], "label": "SUPPORT"},
                                   {"sentences": [2, 3], "label": "SUPPORT"}]}}],
     [{"id": 1, "evidence": {"7": {"sentences": [2], "label": "SUPPORT"}}}],
     ["predictions.jsonl line 1", "2 gold rationales"]),
    ([GOLD], [{"id": 1, "label": "MAYBE", "evidence": {}}], ["claim label", "MAYBE"]),
    ([GOLD], [{"id": 1, "label": "SUPPORT", "evidence": {"7": [{"sentences": [1], "label": "SUPPORT"}]}},
              {"id": 1, "evidence": {"7": {"sentences": [1], "label": "SUPPORT"}}}],
     ["predictions.jsonl line 2", "one file must use one shape"]),
])
def test_bad_input_gives_a_clear_error(tmp_path, gold_rows, prediction_rows, words):
    gold = write_jsonl(tmp_path / "gold.jsonl", gold_rows)
    predictions = write_jsonl(tmp_path / "predictions.jsonl", prediction_rows)
    with pytest.raises(ScorerError) as caught:
        run_json(gold, predictions)
    for word in words:
        assert word in str(caught.value)


def test_empty_gold_or_predictions_are_refused_naming_the_file(tmp_path):
    """As FEVER refuses predictions without claims: no all-zero report of nothing."""
    empty = write_jsonl(tmp_path / "empty.jsonl", [])
    gold = write_jsonl(tmp_path / "gold.jsonl", [GOLD])
    with pytest.raises(ScorerError, match=r"empty\.jsonl: no gold claims"):
        run_json(empty, empty)
    with pytest.raises(ScorerError) as caught:
        run_json(gold, empty)
    assert str(caught.value).startswith(f"{empty}: no predictions, for 1 gold claim(s)")


# ---------------------------------------------------------------- prediction shapes

#: Gold labels of fixtures/scifact/basic: SUPPORT, CONTRADICT, NOT_ENOUGH_INFO, SUPPORT.
BASIC_LABELS = ["SUPPORT", "CONTRADICT", "NOT_ENOUGH_INFO", "CONTRADICT"]


def labelled_rows(labels, evidence=None):
    """Predictions of the basic fixture's claims 1-4 with these top-level labels
    (None: no label key); every evidence empty unless given per claim."""
    evidence = evidence or {}
    rows = []
    for claim_id, label in enumerate(labels, 1):
        row = {"id": claim_id}
        if label is not None:
            row["label"] = label
        row["evidence"] = evidence.get(claim_id, {})
        rows.append(row)
    return rows


def test_empty_evidence_file_with_labels_is_read_in_the_sets_shape(tmp_path):
    predictions = write_jsonl(tmp_path / "p.jsonl", labelled_rows(BASIC_LABELS))
    problems = Problems()
    evaluation = score(FIXTURES / "basic" / "gold.jsonl", predictions, problems=problems)
    assert evaluation.metrics["label_accuracy"] == 0.75
    assert problems.names() == []


def test_a_line_without_the_label_others_have_is_an_error_naming_it(tmp_path):
    """It made the whole file leaderboard-shaped: every other label dropped without a word
    (label accuracy 0.75 -> 0.25)."""
    rows = labelled_rows(["SUPPORT", "CONTRADICT", None, "CONTRADICT"])
    predictions = write_jsonl(tmp_path / "p.jsonl", rows)
    with pytest.raises(ScorerError) as caught:
        run_json(FIXTURES / "basic" / "gold.jsonl", predictions)
    message = str(caught.value)
    assert message.startswith(f"{predictions} line 3: the prediction has no top-level 'label'")
    assert "line 1 has a top-level 'label'" in message
    # the same when an abstract in the sets shape decided the shape
    rows = labelled_rows(["SUPPORT", None, "NOT_ENOUGH_INFO", "CONTRADICT"],
                         {1: {"10": [{"sentences": [0, 1], "label": "SUPPORT"}]}})
    write_jsonl(predictions, rows)
    with pytest.raises(ScorerError) as caught:
        run_json(FIXTURES / "basic" / "gold.jsonl", predictions)
    assert str(caught.value).startswith(
        f"{predictions} line 2: the prediction has no top-level 'label', but line 1 of this "
        f"file is in the evidence-sets shape")


def test_top_level_label_in_the_leaderboard_shape_is_a_warning(tmp_path):
    """The evaluator reads no top-level label (nor does scorer in that shape): the numbers
    stay those of the file without it, and a WARNING names the file and lines."""
    abstract = {1: {"10": {"sentences": [0, 1], "label": "SUPPORT"}}}
    plain = write_jsonl(tmp_path / "plain.jsonl", labelled_rows([None] * 4, abstract))
    labelled = write_jsonl(tmp_path / "labelled.jsonl",
                           labelled_rows(["CONTRADICT", None, "SUPPORT", "CONTRADICT"], abstract))
    gold = FIXTURES / "basic" / "gold.jsonl"
    problems = Problems()
    assert score(gold, labelled, problems=problems).metrics == score(gold, plain).metrics
    report = problems.report()
    assert report.startswith("WARNING: a top-level 'label' is not read in the leaderboard shape")
    assert f"({labelled} line 1 and 2 other places)" in report
    assert problems.error_count == 0


def test_not_enough_info_on_some_lines_of_empty_predictions_reads_as_the_evaluator_does(
        tmp_path):
    """Every evidence empty and every top-level label there NOT_ENOUGH_INFO: both shapes
    read the same labels, so the file is read in the leaderboard shape, which needs no
    label on the other lines, as the evaluator reads it (a WARNING names the labels it
    does not read), not refused for the lines without one."""
    gold = FIXTURES / "basic" / "gold.jsonl"
    plain = write_jsonl(tmp_path / "plain.jsonl", labelled_rows([None] * 4))
    some = write_jsonl(tmp_path / "some.jsonl",
                       labelled_rows(["NOT_ENOUGH_INFO", None, "NOT_ENOUGH_INFO", None]))
    problems = Problems()
    assert score(gold, some, problems=problems).metrics == score(gold, plain).metrics
    assert problems.report().startswith("WARNING: a top-level 'label' is not read")
    assert problems.error_count == 0


def test_driver_needs_two_files(tmp_path):
    gold = write_jsonl(tmp_path / "gold.jsonl", [GOLD])
    with pytest.raises(ScorerError, match="two files"):
        run(Request(policy=policy(), files=(str(gold),)), Problems())


def test_missing_file_is_a_clear_error(tmp_path):
    with pytest.raises(ScorerError, match="Could not open"):
        run_json(tmp_path / "nope.jsonl", tmp_path / "nope2.jsonl")


# ---------------------------------------------------------------- properties

sentence_ids = st.integers(min_value=0, max_value=12)


@st.composite
def gold_claims(draw):
    """Gold claims with disjoint, non-empty rationales of distinct sentences."""
    claims = []
    for claim_id in range(1, draw(st.integers(1, 6)) + 1):
        evidence = {}
        for doc in draw(st.lists(st.sampled_from(["11", "12", "13"]), unique=True, max_size=2)):
            pool = draw(st.permutations(list(range(10))))
            sizes = draw(st.lists(st.integers(1, 4), min_size=1, max_size=2))
            rationales, start = [], 0
            for size in sizes:
                rationales.append(pool[start:start + size])
                start += size
            label = draw(st.sampled_from(["SUPPORT", "CONTRADICT"]))
            evidence[doc] = [{"sentences": r, "label": label} for r in rationales]
        claims.append({"id": claim_id, "evidence": evidence})
    return claims


@st.composite
def gold_and_any_predictions(draw):
    gold = draw(gold_claims())
    predictions = []
    for claim in gold:
        evidence = {}
        for doc in draw(st.lists(st.sampled_from(["11", "12", "13", "14"]), unique=True,
                                 max_size=3)):
            evidence[doc] = {"sentences": draw(st.lists(sentence_ids, max_size=6)),
                             "label": draw(st.sampled_from(["SUPPORT", "CONTRADICT"]))}
        predictions.append({"id": claim["id"], "evidence": evidence})
    return gold, predictions


def perfect(gold):
    """Every gold abstract with its label, the shortest rationale first."""
    rows = []
    for claim in gold:
        evidence = {}
        for doc, sets in claim["evidence"].items():
            ordered = sorted(sets, key=lambda s: len(s["sentences"]))
            evidence[doc] = {"sentences": [x for s in ordered for x in s["sentences"]],
                             "label": sets[0]["label"]}
        rows.append({"id": claim["id"], "evidence": evidence})
    return rows


def _score_rows(gold_rows, prediction_rows, max_evidence):
    with tempfile.TemporaryDirectory() as directory:
        gold = write_jsonl(Path(directory) / "gold.jsonl", gold_rows)
        predictions = write_jsonl(Path(directory) / "predictions.jsonl", prediction_rows)
        return score(gold, predictions, max_evidence)


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(gold_and_any_predictions(), st.sampled_from([None, 0, 1, 3]))
def test_scores_stay_within_0_and_1(data, max_evidence):
    gold, predictions = data
    try:
        evaluation = _score_rows(gold, predictions, max_evidence)
    except ScorerError as error:
        # A random prediction may hit a sentence in two rationales: impossible here,
        # since the gold rationales are disjoint.
        raise AssertionError(f"unexpected refusal: {error}")
    for name, value in evaluation.metrics.items():
        assert 0.0 <= value <= 1.0, name


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(gold_claims(), st.sampled_from([None, 0, 1, 3]))
def test_perfect_prediction_scores_one(gold, max_evidence):
    evaluation = _score_rows(gold, perfect(gold), max_evidence)
    assert evaluation.metrics["label_accuracy"] == 1.0
    if any(claim["evidence"] for claim in gold):
        for name in LEADERBOARD_KEYS:
            assert evaluation.metrics[name] == 1.0, name
    else:  # nothing relevant or retrieved: the evaluator's 0.0 convention
        for name in LEADERBOARD_KEYS:
            assert evaluation.metrics[name] == 0.0, name
