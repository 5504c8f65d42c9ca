"""scorer/coldstart/metrics.py: Cold Start's metrics, what each run has, the
headline, and the record that carries them."""
from __future__ import annotations

from scorer import tasks
from scorer.coldstart.metrics import METRICS, available, catalogue, headline


def test_the_metrics_on_offer_and_the_headline():
    assert headline(True) == "ldcmean_ap" and headline(False) == "sf_ap"
    without_index = [m.name for m in available(False)]
    assert without_index == ["sf_ap", "sf_micro_p", "sf_micro_r", "sf_micro_f1",
                             "sf_macro_p", "sf_macro_r", "sf_macro_f1"]
    assert len(available(True)) == len(METRICS) == 17
    assert len({m.name for m in METRICS}) == len(METRICS)


def test_the_record_carries_the_declarations_and_ranks_by_the_headline_first():
    record = tasks.get("coldstart")
    assert record.metrics is METRICS
    assert record.explanations()[0] == (
        "ldcmean_ap", "LDC-MEAN ALL-Macro AP, hop ALL (the official 2017 score)")
    assert [name for name, _title in catalogue(False)][:2] == ["sf_ap", "sf_micro_p"]
    assert [name for name, _title in catalogue(True)][:2] == ["ldcmean_ap", "sf_ap"]
