"""Task classification (scorer/tasks/classification.py): every number equal to
scikit-learn's (accuracy_score, precision_recall_fscore_support with
zero_division=0), on the fixtures and on generated label sequences; the
refusals, naming file and line, with nothing written; and the task in every
command: the track, the diff, the pictures, the leaderboard program."""
from __future__ import annotations

import json
import os
import zipfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import accuracy_score, precision_recall_fscore_support

import scorer
from scorer.cli import main
from scorer.competition.__main__ import main as competition_main
from scorer.diff.__main__ import main as diff_main
from scorer.track.__main__ import main as track_main

from places import ROOT

POLICY = ROOT / "configs" / "classification.yaml"
CASE = ROOT / "fixtures" / "classification" / "semeval" / "input"
LABELS = ["positive", "negative", "neutral"]
AVERAGED = ["positive", "negative"]


def sklearn_metrics(gold: list, predicted: list, labels: list, averaged: list) -> dict:
    """Every metric of the task, as scikit-learn computes it."""
    found = {"accuracy": accuracy_score(gold, predicted)}
    p, r, f, _support = precision_recall_fscore_support(gold, predicted, labels=labels,
                                                        average=None, zero_division=0)
    for label, values in zip(labels, zip(p, r, f)):
        name = "".join(c if c.isalnum() or c in "_.-" else "_" for c in label)
        for metric, value in zip(("precision", "recall", "f1"), values):
            found[f"{metric}_{name}"] = float(value)
    p, r, f, _ = precision_recall_fscore_support(gold, predicted, labels=averaged,
                                                 average="macro", zero_division=0)
    found.update(macro_precision=p, macro_recall=r, macro_f1=f)
    found["micro_f1"] = precision_recall_fscore_support(gold, predicted, labels=averaged,
                                                        average="micro", zero_division=0)[2]
    return {name: float(value) for name, value in found.items()}


def write_run(folder: Path, gold: list, predicted: list, labels: list, averaged=None) -> list:
    """Gold as JSON lines, predictions as id<TAB>label lines, a policy; the files."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "gold.jsonl").write_text("".join(json.dumps({"id": f"i{n}", "label": label}) + "\n"
                                               for n, label in enumerate(gold)))
    (folder / "predictions.tsv").write_text("".join(f"i{n}\t{label}\n"
                                                    for n, label in enumerate(predicted)))
    policy = {"task": "classification", "labels": labels}
    if averaged is not None:
        policy["average_labels"] = averaged
    (folder / "policy.yaml").write_text(json.dumps(policy))
    return [str(folder / "gold.jsonl"), str(folder / "predictions.tsv")]


def test_the_fixture_equals_scikit_learn():
    result = scorer.score([str(CASE / "gold.jsonl"), str(CASE / "predictions.tsv")],
                          policy=str(POLICY))
    gold = {json.loads(line)["id"]: json.loads(line)["label"]
            for line in (CASE / "gold.jsonl").read_text().splitlines()}
    predicted = dict(line.split("\t") for line in
                     (CASE / "predictions.tsv").read_text().splitlines()[1:])
    ids = sorted(gold)
    expected = sklearn_metrics([gold[i] for i in ids], [predicted[i] for i in ids],
                               LABELS, AVERAGED)
    assert result.values == expected
    # as worked out by hand (fixtures/classification/README.md)
    assert result.values["macro_f1"] == 4 / 7 and result.values["accuracy"] == 8 / 12
    assert json.loads(result.reports["json"])["metrics"] == expected


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(st.data())
def test_generated_runs_equal_scikit_learn(tmp_path_factory, data):
    """Any label sequences, any label set (with labels absent from both sides),
    any averaged subset: every number exactly scikit-learn's."""
    labels = data.draw(st.lists(st.sampled_from(["a", "b", "c", "d", "e", "f", "g", "h", "i",
                                                 "NOT ENOUGH INFO"]),
                                min_size=1, max_size=10, unique=True))
    n = data.draw(st.integers(1, 40))
    gold = data.draw(st.lists(st.sampled_from(labels), min_size=n, max_size=n))
    predicted = data.draw(st.lists(st.sampled_from(labels), min_size=n, max_size=n))
    averaged = data.draw(st.one_of(st.none(), st.lists(st.sampled_from(labels), min_size=1,
                                                       unique=True)))
    folder = tmp_path_factory.mktemp("run")
    files = write_run(folder, gold, predicted, labels, averaged)
    result = scorer.score(files, policy=str(folder / "policy.yaml"))
    assert result.values == sklearn_metrics(gold, predicted, labels, averaged or labels)


def test_the_full_data_as_one_sample_gives_the_full_data_values(tmp_path):
    """The bootstrap computes each sample as the full data is computed: the
    sample that draws every item once gives the reported numbers exactly."""
    from scorer.countstable import resample
    from scorer.policy import build_policy
    from scorer.tasks.classification import TASK
    labels = [f"l{k}" for k in range(11)]     # more than 8: numpy's pairwise sum
    rng = np.random.default_rng(3)
    gold = list(rng.choice(labels, 200))
    predicted = list(rng.choice(labels, 200))
    files = write_run(tmp_path, gold, predicted, labels)
    evaluation = TASK.evaluate(build_policy({"task": "classification", "labels": labels}, {}),
                               tuple(files), None)
    values = resample.sample_values(evaluation.declared, evaluation.counts,
                                    np.ones((1, len(evaluation.keys))))
    assert values.iloc[0].to_dict() == evaluation.metrics


@pytest.mark.parametrize("name, gold, predictions, message", [
    ("missing", '{"id": 1, "label": "positive"}\n{"id": 2, "label": "negative"}\n',
     "1\tpositive\n", "predictions.tsv: no prediction for id '2' (gold.jsonl line 2)"),
    ("unknown id", '{"id": 1, "label": "positive"}\n', "1\tpositive\n7\tnegative\n",
     "predictions.tsv line 2: id '7' is not an item of the gold (gold.jsonl)"),
    ("twice in the predictions", '{"id": 1, "label": "positive"}\n',
     "1\tpositive\n1\tnegative\n",
     "predictions.tsv line 2: id '1' is on line 1 too; each item of the predictions is "
     "given once"),
    ("twice in the gold", '{"id": 1, "label": "positive"}\n{"id": "1", "label": "neutral"}\n',
     "1\tpositive\n", "gold.jsonl line 2: id '1' is on line 1 too; each item of the gold is "
     "given once"),
    ("unknown predicted label", '{"id": 1, "label": "positive"}\n', "1\tPositive\n",
     "predictions.tsv line 1: label 'Positive' is not one of the policy's labels "
     "('positive', 'negative', 'neutral')"),
    ("unknown gold label", '{"id": 1, "label": "mixed"}\n', "1\tpositive\n",
     "gold.jsonl line 1: label 'mixed' is not one of the policy's labels"),
    ("no label", '{"id": 1}\n', "1\tpositive\n",
     "gold.jsonl line 1: no 'label'; an item is {\"id\": ..., \"label\": ...}"),
    ("a number for a label", '{"id": 1, "label": 1}\n', "1\tpositive\n",
     "gold.jsonl line 1: 'label' must be a string, not a number"),
    ("a list for an id", '{"id": [1], "label": "positive"}\n', "1\tpositive\n",
     "gold.jsonl line 1: 'id' must be a string or a whole number, not a list"),
    ("three columns", '{"id": 1, "label": "positive"}\n', "1\tpositive\t0.9\n",
     "predictions.tsv line 1: 3 tab-separated column(s); an item is id<TAB>label"),
    ("empty gold", "\n", "1\tpositive\n", "gold.jsonl: no item; a gold file gives each item"),
    ("not JSON", '{"id": 1, "label": "positive"\n', "1\tpositive\n", "gold.jsonl line 1:"),
    ("a tab in an id", '{"id": "a\\tb", "label": "positive"}\n', "1\tpositive\n",
     "gold.jsonl line 1: id 'a\\tb' holds a tab, a line break or another control character"),
])
def test_bad_input_is_refused_naming_file_and_line(tmp_path, capsys, monkeypatch, name, gold,
                                                   predictions, message):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "gold.jsonl").write_text(gold)
    (tmp_path / "predictions.tsv").write_text(predictions)
    status = main(["-policy", str(POLICY), "-output_file", "run", "-error_file", "run.errlog",
                   "gold.jsonl", "predictions.tsv"])
    assert status == 255
    errlog = (tmp_path / "run.errlog").read_text()
    assert errlog.startswith("FATAL_ERROR: " + message), errlog
    assert "Traceback" not in capsys.readouterr().err
    assert sorted(os.listdir(tmp_path)) == ["gold.jsonl", "predictions.tsv", "run.errlog"]


@pytest.mark.parametrize("policy, message", [
    ("task: classification\n", "p.yaml: no label is given; a classification policy names "
                                "its labels"),
    ("task: classification\nlabels: [a, \"b\\tc\"]\n",
     "key 'labels': 'b\\tc' holds a tab, a line break or another control character"),
    ("task: classification\nlabels: [a, b, a]\n", "key 'labels': 'a' named twice"),
    ("task: classification\nlabels: [a, b]\naverage_labels: [a, c]\n",
     "key 'average_labels': 'c' is not among the labels ('a', 'b')"),
    ("task: classification\nlabels: [a b, a_b]\n",
     "key 'labels': 'a b' and 'a_b' give their metrics one name (a_b"),
    ("task: classification\nlabels: [a, b]\nmax_evidence: 3\n",
     "policy key(s) max_evidence do not apply to the task classification"),
])
def test_bad_policies_are_refused(tmp_path, policy, message):
    path = tmp_path / "p.yaml"
    path.write_text(policy)
    with pytest.raises(scorer.ScorerError) as raised:
        scorer.score([str(CASE / "gold.jsonl"), str(CASE / "predictions.tsv")],
                     policy=str(path))
    assert message in str(raised.value)


def test_switches_of_other_tasks_are_refused():
    with pytest.raises(scorer.ScorerError, match="-expand does not apply to the task "
                                                 "classification"):
        scorer.score([str(CASE / "gold.jsonl"), str(CASE / "predictions.tsv")],
                     policy=str(POLICY), expand="CSSF17")


@pytest.mark.slow
def test_a_track_ranks_runs_with_intervals_equal_to_each_run(tmp_path):
    gold = [json.loads(line)["label"] for line in (CASE / "gold.jsonl").read_text().splitlines()]
    runs = tmp_path / "runs"
    runs.mkdir()
    for name, flips in (("good", 1), ("fair", 4), ("poor", 8)):
        predicted = list(gold)
        for i in range(flips):
            predicted[i] = "neutral" if predicted[i] != "neutral" else "positive"
        (runs / f"{name}.jsonl").write_text("".join(
            json.dumps({"id": f"t{n + 1:02d}", "label": label}) + "\n"
            for n, label in enumerate(predicted)))
    out = tmp_path / "track"
    assert track_main(["-policy", str(POLICY), "-bootstrap", "200", "-seed", "5", "-jobs", "1",
                       "-output_dir", str(out), str(CASE / "gold.jsonl"), str(runs)]) == 0
    board = json.loads((out / "leaderboard.json").read_text())
    assert [row["run"] for row in board] == ["good", "fair", "poor"]
    for row in board:
        single = json.loads((out / "runs" / row["run"] / "run.json").read_text())["metrics"]
        assert row["score"] == single["macro_f1"] and row["accuracy"] == single["accuracy"]
        assert row["ci95_low"] <= row["score"] <= row["ci95_high"]
    assert (out / "significance.csv").read_text().count("\n") == 4
    assert "items" in (out / "index.html").read_text()
    assert (out / "leaderboard.png").stat().st_size > 0


def test_the_diff_shows_the_items_whose_label_changed(tmp_path, capsys):
    for name, label in (("a", "positive"), ("b", "negative")):
        (tmp_path / f"{name}.tsv").write_text((CASE / "predictions.tsv").read_text()
                                              .replace("t01\tpositive", f"t01\t{label}"))
        assert main(["-policy", str(POLICY), "-output_file", str(tmp_path / name),
                     "-error_file", str(tmp_path / f"{name}.errlog"), str(CASE / "gold.jsonl"),
                     str(tmp_path / f"{name}.tsv")]) == 0
    capsys.readouterr()
    assert diff_main([str(tmp_path / "a"), str(tmp_path / "b")]) == 1
    text = capsys.readouterr().out
    assert "ITEM t01\n  ~ label positive -> negative (RIGHT -> WRONG)\n" in text
    assert "Items touched: 1 of 12 (1 with a scoring difference)" in text
    assert "macro_f1 Score: 0.5714 -> " in text
    assert diff_main(["-query", "t01", str(tmp_path / "a"), str(tmp_path / "b")]) == 1
    text = capsys.readouterr().out
    assert "\nitems: t01 (aggregates not compared)\n" in text and "ITEM t01\n" in text


def test_plot_draws_every_metric_with_its_interval(tmp_path):
    assert main(["-policy", str(POLICY), "-bootstrap", "50", "-seed", "1", "-plot",
                 "-output_file", str(tmp_path / "run"), "-error_file",
                 str(tmp_path / "run.errlog"), str(CASE / "gold.jsonl"),
                 str(CASE / "predictions.tsv")]) == 0
    assert (tmp_path / "run.png").read_bytes().startswith(b"\x89PNG")


def test_the_leaderboard_program_scores_as_a_direct_run(tmp_path, capsys):
    bundle = tmp_path / "bundle.zip"
    assert competition_main(["-bundle", str(bundle), "-start", "2026-12-01", "-policy",
                             str(POLICY), str(CASE / "gold.jsonl")]) == 0
    with zipfile.ZipFile(bundle) as z:
        z.extractall(tmp_path / "unpacked")
    (tmp_path / "input").mkdir()
    os.rename(tmp_path / "unpacked" / "reference_data", tmp_path / "input" / "ref")
    (tmp_path / "input" / "res").mkdir()
    (tmp_path / "input" / "res" / "mine.tsv").write_text((CASE / "predictions.tsv").read_text())
    assert competition_main([str(tmp_path / "input"), str(tmp_path / "output")]) == 0
    scores = json.loads((tmp_path / "output" / "scores.json").read_text())
    direct = scorer.score([str(CASE / "gold.jsonl"), str(CASE / "predictions.tsv")],
                          policy=str(POLICY))
    assert list(scores) == ["macro_f1", "accuracy", "micro_f1", "macro_precision",
                            "macro_recall"]
    assert scores == {key: direct.values[key] for key in scores}
    page = (tmp_path / "output" / "detailed_results.html").read_text()
    assert "One row per item" in page and "For each item, what was submitted" in page
    capsys.readouterr()
    assert competition_main(["-validate", str(CASE / "predictions.tsv"), "-policy",
                             str(POLICY), str(CASE / "gold.jsonl")]) == 0
    assert "macro_f1: 0.5714285714285714" in capsys.readouterr().out


def test_no_other_module_names_the_task():
    """A task is its module: the shared code never names it."""
    named = [str(path.relative_to(ROOT)) for path in (ROOT / "scorer").rglob("*.py")
             if "classification" in path.read_text(encoding="utf-8")
             and path.name != "classification.py"]
    assert named == []
