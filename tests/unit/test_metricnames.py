"""scorer/metricnames.py: a metric named once, and which metrics are a
precision or a recall beside an F1 (their family: the name without it)."""
from __future__ import annotations

import pytest

from scorer.metricnames import is_precision_or_recall, metric_named, precision_recall_family


def test_a_metric_is_named_once():
    assert metric_named("FEVER strict_score", "strict_score") == "FEVER strict_score"
    assert metric_named("Label accuracy", "label_accuracy") == "Label accuracy (label_accuracy)"


@pytest.mark.parametrize("name, family", [
    ("precision", ""), ("recall", ""), ("sentence_selection_precision", "sentence_selection_"),
    ("ldcmean_macro_r", "ldcmean_macro_"), ("sf_micro_p", "sf_micro_"), ("p", ""),
    ("f1", None), ("ldcmean_macro_f", None), ("strict_score", None), ("map", None),
    ("recall_at_5", None), ("sf_micro_ap", None), ("mp", None)])
def test_precision_and_recall_and_their_family(name, family):
    assert precision_recall_family(name) == family
    assert is_precision_or_recall(name) == (family is not None)
