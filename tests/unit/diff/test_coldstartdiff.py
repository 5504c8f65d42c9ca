"""scorer/diff/coldstartdiff.py: two Cold Start report sets aligned by
submission line.  The demo against itself is no difference; against the
demo without one wrong hop-1 response (the golden case response_removed),
that response is the one change, only in A, moving its row's F1 (2/3 -> 1)
and no AP; the transitions count every other response as unchanged.  (The
whole text of each golden case: test_render.py.)"""
from __future__ import annotations

import os

import pytest

from scorer.diff.__main__ import load_side
from scorer.diff.changes import NOT_LISTED
from scorer.diff.coldstartdiff import diff_coldstart

from diff_cases import CASES_ROOT, score_side
from places import DEMO


@pytest.fixture
def sides(tmp_path, monkeypatch):
    score_side(str(tmp_path), "A")
    score_side(str(tmp_path), "B", os.path.join(CASES_ROOT, "response_removed", "b"))
    monkeypatch.chdir(tmp_path)
    return load_side("A/run"), load_side("B/run")


def test_a_report_set_against_itself_differs_in_nothing(sides):
    a, _b = sides
    diff = diff_coldstart(a, a)
    assert (diff.changes, diff.f1_moves, diff.ap_moves, diff.aggregates) == ([], [], [], [])
    assert not diff.scoring and diff.queries_touched == [] and diff.queries_total == 4


def test_a_removed_response_is_the_one_change(sides):
    a, b = sides
    diff = diff_coldstart(a, b)
    yale = next(line for line in (DEMO / "DEMORUN.tab.txt").read_text().splitlines()
                if "\tYale\t" in line)
    [change] = diff.changes
    assert (change.id, change.row, change.side, change.change) == (
        yale, "CSSF17_ENG_47a114c77c:1", "A", "only in A")
    assert (change.before, change.after, change.counts) == ("INCORRECT/WRONG", NOT_LISTED, True)
    [move] = diff.f1_moves
    assert move.key == ("CSSF17_ENG_47a114c77c:1", "DEMORUN", "1")
    assert (move.a.value, move.b.value) == (2 / 3, 1.0) and move.a.exact and move.b.exact
    assert diff.ap_moves == [] and diff.scoring
    assert diff.queries_touched == ["CSSF17_ENG_47a114c77c"]
    assert diff.transitions[("WRONG", NOT_LISTED)] == 1
    assert sum(diff.transitions.values()) == len(
        (DEMO / "DEMORUN.tab.txt").read_text().splitlines())
    selected = diff_coldstart(a, b, frozenset({"CSSF17_ENG_d8c8ecef3e"}))
    assert selected.changes == [] and not selected.f1_moves
