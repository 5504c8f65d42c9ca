"""scorer/tasks/fever.py: FEVER's record: the leaderboard's columns, a
submission carrying its own gold refused, the ``.debug`` layout the diff
reads with."""
from __future__ import annotations

from types import SimpleNamespace

from scorer import tasks
from scorer.diff import debugfile

from places import FIXTURES

RECORD = tasks.get("fever")


def test_leaderboard_and_labels():
    assert RECORD.leaderboard.columns(None) == ("strict_score", "label_accuracy", "precision", "recall",
                                        "f1")
    assert RECORD.headline == "strict_score" and RECORD.max_evidence == 5
    assert RECORD.labels == ("SUPPORTS", "REFUTES", "NOT ENOUGH INFO")


def test_predictions_with_their_own_gold_are_no_submission():
    own = SimpleNamespace(problem_names=["CLAIM_OWN_GOLD"])
    assert RECORD.leaderboard.submission_problem(own, "p.jsonl") == (
        "p.jsonl: predictions carry their own 'label' and 'evidence'; the leaderboard scores "
        "every prediction against its own gold only: remove those keys (a prediction holds "
        "'id', 'predicted_label' and 'predicted_evidence')")
    assert RECORD.leaderboard.submission_problem(SimpleNamespace(problem_names=[]), "p.jsonl") is None


def test_the_debug_layout_reads_the_fixtures_debug():
    layout = RECORD.debug_layout()
    assert (layout.head, layout.last_fact, layout.strict) == ("CLAIM", "RECALL",
                                                              ("strict", "strict", "-"))
    debug = debugfile.read(str(FIXTURES / "fever" / "inline" / "expected" / "run.debug"))
    assert debug.layout == layout and [c.id for c in debug.claims] == ["1", "2", "3", "4", "5"]
