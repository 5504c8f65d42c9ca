"""scorer/tasks/coldstart.py: Cold Start's record.  What it answers the
shared code: its metrics with and without -expand (the official score first),
the leaderboard's columns, a submission of one run, the policy digest's
layout, the requests it refuses, the per-hop key of its interval codes."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from scorer.request import build
from scorer import tasks
from scorer.problems import ScorerError

RECORD = tasks.get("coldstart")


def _request(**switches):
    return build(["q.xml", "qrel.txt", "run.tab"], **switches)


def test_the_official_score_comes_first_and_needs_expand():
    with_index = [name for name, _title in RECORD.scoring.catalogue(_request(expand="CSSF17"))]
    without = [name for name, _title in RECORD.scoring.catalogue(_request())]
    assert with_index[0] == "ldcmean_ap" and without[0] == "sf_ap"
    assert set(without) < set(with_index) and len(with_index) == 17
    assert RECORD.leaderboard.columns(_request(expand="CSSF17")) == (
        "ldcmean_ap", "ldcmean_macro_p", "ldcmean_macro_r", "ldcmean_macro_f1")
    assert RECORD.leaderboard.columns(_request()) == ("sf_ap", "sf_macro_p", "sf_macro_r", "sf_macro_f1")
    assert RECORD.leaderboard.missing_metrics_hint(_request()) == " (they need -expand)"
    assert RECORD.leaderboard.missing_metrics_hint(_request(expand="X")) == ""


@pytest.mark.parametrize("run_ids, problem", [
    (("A",), None),
    (("A", "B"), "sub.txt: holds runs A, B; a submission is one run (one run id)"),
    ((), "sub.txt: holds no run; a submission is one run (one run id)")])
def test_a_submission_is_one_run(run_ids, problem):
    assert RECORD.leaderboard.submission_problem(SimpleNamespace(run_ids=run_ids), "sub.txt") == problem


def test_the_policy_digest_keeps_the_layout_of_earlier_versions():
    policy = _request().policy
    assert RECORD.digest_values(policy) == (
        "coldstart", ("CORRECT",), ("INCORRECT", "INCORRECT_PARENT", "INEXACT"),
        ("UNASSESSED", "DUPLICATE"), "1:3", "ASSESSED", (), None, ())


def test_samples_need_expand():
    with pytest.raises(ScorerError, match="^-samples and -bootstrap need -expand: bootstrap "
                                          "samples are drawn over LDC queries$"):
        _request(bootstrap=5, seed=1)
    with pytest.raises(ScorerError, match="^-samples and -bootstrap need -expand"):
        _request(samples="boot.txt")


def test_signature_and_interval_keys():
    assert RECORD.track.signature_parts(_request(expand="X")) == ["expand:X", "queries:all",
                                                          "validate:none"]
    assert RECORD.picture.interval_key("ALLEP_SLOTFLG_Mi_A_F") == ("SF", "micro", "ALL", "F1")
    assert RECORD.picture.interval_key("ONEEP_SLOTFLG_Mi_A_F") is None
    assert RECORD.picture.variant_order == ("SF", "LDCMAX", "LDCMEAN")
