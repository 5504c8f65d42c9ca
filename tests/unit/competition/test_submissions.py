"""scorer/competition/submissions.py: a leaderboard's column titles."""
from __future__ import annotations

import pytest

from scorer import registry
from scorer.competition.submissions import column_title


@pytest.mark.parametrize("name", registry.names())
def test_every_metric_has_a_column_title_codabench_takes(name):
    record = registry.get(name)
    for _heading, catalogue in record.scoring.catalogues():
        for metric, _title in catalogue:
            title = column_title(metric, record)
            assert title and len(title) <= 36 and title[0].isupper(), (metric, title)


@pytest.mark.parametrize("name, key, title", [
    ("coldstart", "ldcmean_ap", "LDC-MEAN AP"), ("coldstart", "sf_macro_f1", "SF macro F1"),
    ("coldstart", "ldcmax_micro_p", "LDC-MAX micro P"), ("fever", "strict_score", "Strict score"),
    ("scifact", "sentence_label_f1", "Sentence label F1"),
    ("classification", "macro_f1", "Macro F1"),
    # a task's own words are its own: a label named sf is not Cold Start's SF
    ("classification", "f1_sf", "F1 sf")])
def test_a_title_writes_the_tasks_words_as_people_do(name, key, title):
    assert column_title(key, registry.get(name)) == title
