"""scorer/claims/task.py: what the claim tasks' records share.  A gold and a
predictions file told apart by their first lines, and a hint when they come
swapped; a track's runs found from files and folders; a leaderboard's
reference is the gold alone; a predictions file given as the gold refused."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from scorer import tasks
from scorer.policy import build_policy
from scorer.problems import Problems, ScorerError

from places import FIXTURES

FEVER = tasks.get("fever")
BLIND = FIXTURES / "fever" / "blind"
GOLD, PREDICTIONS = str(BLIND / "actual.jsonl"), str(BLIND / "predictions.jsonl")


def test_gold_and_predictions_told_apart_by_their_first_line(tmp_path):
    assert FEVER.looks_like(GOLD) == "gold" and FEVER.looks_like(PREDICTIONS) == "predictions"
    for name, text in (("both.jsonl", '{"label": "SUPPORTS", "predicted_label": "SUPPORTS"}\n'),
                       ("list.jsonl", "[1]\n"), ("broken.jsonl", "{oops\n")):
        (tmp_path / name).write_text(text)
        assert FEVER.looks_like(str(tmp_path / name)) is None, name
    assert FEVER.looks_like(str(tmp_path / "missing.jsonl")) is None


def test_swapped_files_get_a_hint():
    policy = build_policy({"task": "fever"}, {})
    with pytest.raises(ScorerError) as error:
        FEVER.evaluate(policy, (PREDICTIONS, GOLD), Problems())
    assert str(error.value).endswith(
        f" (gold and predictions swapped? {PREDICTIONS} looks like predictions and {GOLD} like "
        f"gold; the gold file comes first)")


def test_a_predictions_file_is_no_gold():
    assert FEVER.gold_keys(GOLD)[0]
    with pytest.raises(ScorerError, match=r"looks like predictions, not the gold \(its first "
                                          r"line has predicted_label or predicted_evidence and "
                                          r"no label or evidence\)"):
        FEVER.gold_keys(PREDICTIONS)


def test_a_tracks_runs_from_files_and_folders(tmp_path):
    runs = tmp_path / "runs"
    runs.mkdir()
    for name in ("b.jsonl", "a.jsonl", "notes.txt"):
        (runs / name).write_text("{}\n")
    shared, found = FEVER.track.find_runs([GOLD, str(runs), PREDICTIONS])
    assert shared == [GOLD]
    assert [(run.name, run.files) for run in found] == [
        ("a", (str(runs / "a.jsonl"),)), ("b", (str(runs / "b.jsonl"),)),
        ("predictions", (PREDICTIONS,))]
    with pytest.raises(ScorerError, match="^a FEVER track needs the gold file, then one "
                                          "predictions file per run$"):
        FEVER.track.find_runs([GOLD])


def test_a_leaderboards_reference_is_the_gold_alone():
    request = SimpleNamespace(samples=None)
    with pytest.raises(ScorerError, match=r"^a fever leaderboard's reference is the gold file "
                                          r"alone .* 2 files given"):
        FEVER.leaderboard.check_references(request, [GOLD, PREDICTIONS])
    FEVER.leaderboard.check_references(request, [GOLD])
