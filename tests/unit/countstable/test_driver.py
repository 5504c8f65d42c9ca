"""scorer/countstable/driver.py: a request in, the reports out.  The FEVER blind
fixture's ``.summary`` and ``.debug`` are its golden files; the reports come
in write order; a Request built by hand (scorer.score_request) is still
refused an unseeded or negative bootstrap, or samples and a bootstrap at once;
a samples file must draw claims of the gold."""
from __future__ import annotations

import pytest

from scorer.request import build
from scorer.countstable import driver
from scorer.problems import Problems, ScorerError

from places import FIXTURES, ROOT

BLIND = FIXTURES / "fever" / "blind"


def _request(**switches):
    return build([str(BLIND / "actual.jsonl"), str(BLIND / "predictions.jsonl")],
                          str(ROOT / "configs" / "fever.yaml"), max_evidence=1, **switches)


def test_the_blind_fixture_gives_its_golden_reports_in_write_order():
    outcome = driver.score(_request(), Problems())
    assert outcome.reports.extensions == ["summary", "debug", "json", "params"]
    for extension in ("summary", "debug"):
        expected = (BLIND / "expected" / f"run.{extension}").read_text(encoding="utf-8")
        assert outcome.reports.text(extension) == expected, extension
    assert outcome.samples is None and len(outcome.evaluation.keys) == 3


def test_a_seeded_bootstrap_adds_its_reports():
    outcome = driver.score(_request(bootstrap=20, seed=4), Problems())
    assert outcome.reports.extensions == ["summary", "debug", "json", "params", "samplescores",
                                          "confidence", "bootsamples"]
    assert len(outcome.reports.text("samplescores").splitlines()) == 21
    assert outcome.reports.text("bootsamples") == outcome.samples.text()


@pytest.mark.parametrize("changes, message", [
    (dict(bootstrap=5), "-bootstrap needs -seed S, so that the samples can be drawn again"),
    (dict(bootstrap=-1, seed=1), "the number of bootstrap samples must not be negative"),
    (dict(bootstrap=5, seed=1, samples="boot.txt"), "give -samples FILE or -bootstrap N, not both"),
])
def test_a_hand_built_request_is_still_checked(changes, message):
    with pytest.raises(ScorerError) as error:
        driver.score(_request()._replace(**changes), Problems())
    assert str(error.value) == message


@pytest.mark.parametrize("text, message", [
    ("", "{path}: no samples; expected lines 'NUMBER CLAIM_ID CLAIM_ID ...'"),
    ("1 11 19\n", "{path} line 1: '19' is not a claim of the gold ({gold}), whose claims a "
                  "samples file names as 11, 12, 13"),
])
def test_samples_must_draw_claims_of_the_gold(tmp_path, text, message):
    path = tmp_path / "boot.txt"
    path.write_text(text)
    with pytest.raises(ScorerError) as error:
        driver.score(_request(samples=str(path)), Problems())
    assert str(error.value).startswith(
        message.format(path=path, gold=BLIND / "actual.jsonl")), str(error.value)
