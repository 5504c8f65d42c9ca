"""scorer/scoring.py: a request scored by its task's record, with the cyclic
collector paused only while it is scored; the outcome the same whichever
task module is asked directly."""
from __future__ import annotations

import gc

from scorer.request import build
from scorer import scoring, tasks
from scorer.problems import Problems

from places import FIXTURES, ROOT

BLIND = FIXTURES / "fever" / "blind"


def test_a_request_is_scored_by_its_tasks_record(monkeypatch):
    request = build([str(BLIND / "actual.jsonl"), str(BLIND / "predictions.jsonl")],
                             str(ROOT / "configs" / "fever.yaml"), max_evidence=1)
    seen = []
    record = tasks.get("fever")
    original = type(record.scoring).score

    def score(self, request_, problems, samples=None):
        seen.append(gc.isenabled())
        return original(self, request_, problems, samples)

    monkeypatch.setattr(type(record.scoring), "score", score)
    outcome = scoring.score(request, Problems())
    monkeypatch.undo()
    assert seen == [False] and gc.isenabled()
    direct = tasks.get("fever").scoring.score(request, Problems())
    assert outcome.reports.text("summary") == direct.reports.text("summary") == \
        (BLIND / "expected" / "run.summary").read_text(encoding="utf-8")
    gc.unfreeze()
