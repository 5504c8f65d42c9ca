"""scorer/diff/changes.py: the scores a diff compares, recomputed from a
report's counts and rankings where they give the printed numbers, kept at the
report's 4 decimals where they do not, and the change written from them."""
from __future__ import annotations

from scorer.diff.changes import Score, ap_score, delta_text, f1_score
from scorer.diff.debugfile import APComputation, RankEntry


def test_scores_known_to_four_decimals_only_keep_them_and_say_so_in_the_change():
    counted = {"GT": "3", "Submitted": "4", "Ignored": "1", "Right": "1",
               "Prec": "0.3333", "Recall": "0.3333", "F1": "0.3333"}
    assert f1_score(counted) == Score(1 / 3, True, "0.3333333333333333")
    # A -fields list without the counts, or counts that do not give the printed scores
    assert f1_score({"Prec": "0.3333", "Recall": "0.3333", "F1": "0.3333"}) == \
        Score(0.3333, False, "0.3333")
    assert f1_score(dict(counted, Right="2")) == Score(0.3333, False, "0.3333")

    def computation(ap, *vs):
        return APComputation("Q", "0", ap, "3", (), tuple(
            RankEntry(rank, f"N{rank}", "0.5000", "-", v) for rank, v in enumerate(vs, 1)), 1)
    assert ap_score(computation("0.5556", "1.0000", "0.0000", "1.0000")) == \
        Score((1 + 2 / 3) / 3, True, repr((1 + 2 / 3) / 3))
    # A fractional V is printed to 4 decimals: the AP is known to 4 decimals only
    assert ap_score(computation("0.2778", "0.5000", "0.0000", "1.0000")) == \
        Score(0.2778, False, "0.2778")
    exact, printed = f1_score(counted), f1_score({"F1": "0.6667"})
    assert delta_text(exact, exact) == "+0.0"
    assert delta_text(exact, printed) == "+0.3334"
    assert delta_text(printed, Score(float("nan"), False, "")) == ""
