"""scorer/tasks/scifact.py: SciFact's record: two files (gold, predictions),
the leaderboard's twelve columns, the ``.debug`` layout the diff reads with."""
from __future__ import annotations

import pytest

from scorer import tasks
from scorer.diff import debugfile
from scorer.problems import ScorerError

from places import FIXTURES

RECORD = tasks.get("scifact")


@pytest.mark.parametrize("files", [("gold.jsonl",), ("a", "b", "c")])
def test_two_files_are_needed(files):
    with pytest.raises(ScorerError) as error:
        RECORD.read_and_score(None, files, None)
    assert str(error.value) == (f"scifact needs two files, the gold claims then the "
                                f"predictions; {len(files)} given")


def test_leaderboard_columns():
    columns = RECORD.leaderboard.columns(None)
    assert len(columns) == 12 and columns[-1] == "sentence_label_f1" == RECORD.headline
    assert columns[:3] == ("abstract_label_only_precision", "abstract_label_only_recall",
                           "abstract_label_only_f1")


def test_the_debug_layout_reads_the_fixtures_debug():
    layout = RECORD.debug_layout()
    assert (layout.head, layout.last_fact) == ("CLAIM", "SENTENCE COUNTS")
    debug = debugfile.read(str(FIXTURES / "scifact" / "basic" / "expected" / "run.debug"))
    assert debug.layout == layout and len(debug.claims) == 4
    assert debug.claims[0].evidence == frozenset({"10:0", "10:1", "10:7", "10:8"})
