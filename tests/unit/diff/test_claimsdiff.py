"""scorer/diff/claimsdiff.py: two claim report sets aligned by claim id.  The
FEVER fixture's ``.debug`` against itself with hand-made changes (a label and
its evidence, a gold label, a claim left out): each change is told as what
it is, and scores only where it changes the claim's counts."""
from __future__ import annotations

import dataclasses
from collections import Counter

from scorer.diff import debugfile
from scorer.diff.changes import NOT_LISTED, Side
from scorer.diff.claimsdiff import diff_claims

from places import FIXTURES

FEVER = FIXTURES / "fever" / "inline" / "expected" / "run.debug"


def _sides():
    a = debugfile.read(str(FEVER))
    claims = list(a.claims)
    first = claims[0]
    claims[0] = dataclasses.replace(
        first, predicted="REFUTES", label="WRONG", strict=("NO",),
        evidence=first.evidence - {'["Rome", 2]'} | {'["Oslo", 1]'},
        scores=(("precision", "0.0000"), ("recall", "0")))
    claims[2] = dataclasses.replace(claims[2], gold="SUPPORTS")
    del claims[4]
    return Side("A", a), Side("B", dataclasses.replace(a, claims=claims))


def test_an_unchanged_set_is_an_empty_diff():
    a, _b = _sides()
    diff = diff_claims(a, a)
    assert diff.changes == [] and not diff.scoring and diff.queries_total == 5
    assert set(diff.verdicts) <= {("RIGHT", "RIGHT"), ("WRONG", "WRONG")}


def test_each_change_told_and_scoring_where_the_counts_change():
    a, b = _sides()
    diff = diff_claims(a, b)
    assert diff.task == "fever" and diff.scoring and diff.queries_total == 5
    assert diff.queries_touched == ["1", "3", "5"]
    assert diff.verdicts[("RIGHT", "WRONG")] == 1 and diff.verdicts[("WRONG", NOT_LISTED)] == 1
    assert diff.transitions[("SUPPORTS", "REFUTES")] == 1
    assert sum(diff.transitions.values()) == 5
    label, gold, gone = diff.changes
    assert (label.id, label.side, label.counts) == ("1", "both", True)
    assert label.change == ("label SUPPORTS -> REFUTES (RIGHT -> WRONG), strict YES -> NO, "
                            "evidence -1 +1, counts")
    assert label.detail == ['evidence only in A: ["Rome", 2]', 'evidence only in B: ["Oslo", 1]',
                            "precision 0.5000 -> 0.0000", "recall 1 -> 0"]
    assert label.before == ("label SUPPORTS (RIGHT, gold SUPPORTS); strict YES; "
                            "precision=0.5000 recall=1")
    assert label.after == ("label REFUTES (WRONG, gold SUPPORTS); strict NO; "
                           "precision=0.0000 recall=0")
    # a gold label told, but the claim's verdict and counts are the same: no score moves
    assert (gold.id, gold.change, gold.counts) == ("3", "gold label NOT ENOUGH INFO -> SUPPORTS",
                                                   False)
    assert (gone.id, gone.side, gone.change, gone.after, gone.counts) == \
        ("5", "A", "only in A", NOT_LISTED, True)


def test_selected_claims_only():
    a, b = _sides()
    diff = diff_claims(a, b, frozenset({"3", "4"}))
    assert [c.id for c in diff.changes] == ["3"] and diff.queries_total == 2
    assert not diff.scoring
