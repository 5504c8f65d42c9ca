"""A counts-table task needs four hooks: a toy exact-match task, scored, run as
a track and diffed through the real machinery, one file."""
import json

import pytest

from scorer import api, registry
from scorer.countstable.debugblocks import BlockLayout, Claim, fact
from scorer.countstable.evaluation import Evaluation, claim_keys
from scorer.countstable.jsonl import read_objects
from scorer.countstable.metrics import Ratio, full_data
from scorer.countstable.task import TableTask
from scorer.cli import main as scorer_main
from scorer.diff.__main__ import main as diff_main
from scorer.problems import ScorerError


class ExactMatch(TableTask):
    name, title = "toymatch", "Toy match"
    metrics = (Ratio("exact", "Answers equal to the gold / items", "right", "items"),)
    headline = "exact"

    def evaluate(self, policy, files, problems):                                # 1
        gold, predicted = ({o["id"]: o["answer"] for _l, o in read_objects(f)} for f in files)
        outcomes = [(key, answer, predicted.get(key, "")) for key, answer in gold.items()]
        columns = {"items": [1] * len(outcomes), "right": [int(g == p) for _, g, p in outcomes]}
        keys, source = self.gold_keys(files[0])
        return Evaluation(self.name, files, keys, columns, outcomes,
                          full_data(self.metrics, columns), key_source=source,
                          declared=self.metrics)

    def debug_pieces(self, evaluation):                                         # 2
        yield f"#{self.name}: {len(evaluation.keys)} item(s)\n"
        for key, gold, answer in evaluation.outcomes:
            yield f"{'=' * 80}\nITEM {key}\n\tGOLD LABEL:\t{gold}\n\tANSWER:\t{answer}\n"

    def debug_layout(self):                                                     # 3
        return BlockLayout("ITEM", "ANSWER", lambda key, facts, line: Claim(
            key, "RIGHT" if fact(facts, "ANSWER") == fact(facts, "GOLD LABEL") else "WRONG",
            (), frozenset(), (), line, fact(facts, "ANSWER")[0], fact(facts, "GOLD LABEL")[0]))

    def gold_keys(self, path):                                                  # 4
        lines = read_objects(path)
        return claim_keys([o["id"] for _l, o in lines], [line for line, _o in lines])


@pytest.fixture
def files(tmp_path):
    registry.add(ExactMatch())
    (tmp_path / "policy.yaml").write_text("task: toymatch\n")
    for name, answers in (("gold", "abcd"), ("good", "abcx"), ("poor", "axyz")):
        (tmp_path / f"{name}.jsonl").write_text("".join(
            json.dumps({"id": f"q{i}", "answer": a}) + "\n" for i, a in enumerate(answers)))
    yield tmp_path
    registry.remove("toymatch")


def test_the_toy_task_scores_tracks_and_diffs(files, capsys):
    policy = str(files / "policy.yaml")
    for run in ("good", "poor"):
        assert scorer_main(["-policy", policy, "-output_file", str(files / run),
                            str(files / "gold.jsonl"), str(files / f"{run}.jsonl")]) == 0
    assert (files / "good.summary").read_text().splitlines()[-1].split() == ["exact", "0.7500"]
    track = api.score_track([files / "gold.jsonl", files / "good.jsonl", files / "poor.jsonl"],
                            policy, output_dir=str(files / "track"), bootstrap=50, seed=1)
    assert track.exit_status == 0 and list(track.leaderboard["run"]) == ["good", "poor"]
    rows = (files / "track" / "leaderboard.csv").read_text().splitlines()
    assert [row.split(",")[:4] for row in rows[1:]] == [["1", "good", "exact", "0.75"],
                                                      ["2", "poor", "exact", "0.25"]]
    assert diff_main([str(files / "good"), str(files / "poor")]) == 1     # (they differ)
    text = capsys.readouterr().out
    assert "  exact Score: 0.7500 -> 0.2500\n" in text and "ITEM q0" not in text
    assert "ITEM q1\n  ~ label b -> x (RIGHT -> WRONG)\n" in text


def test_a_capability_the_task_lacks_is_a_clear_error():
    record = type("NoDiff", (ExactMatch,), {"name": "nodiff", "diff": None})()
    with pytest.raises(ScorerError, match="^task nodiff has no diff$"):
        record.diff.read("x.debug", [])
    assert not record.diff and record.track
