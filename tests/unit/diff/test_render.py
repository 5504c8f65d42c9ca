"""scorer/diff/render.py (with coldstartdiff.py, which makes the Diff it
writes): the golden diff cases, each a demo run and the same run with one
hand-made change, give the golden ``.diff`` and ``.diff.csv`` byte for byte,
in process, from the sides loaded and aligned as the command does."""
from __future__ import annotations

import os

import pytest

from scorer.diff import align, render
from scorer.diff.__main__ import DEFAULT_TOP, load_side

from diff_cases import find_cases, score_side


@pytest.mark.parametrize("case", find_cases(), ids=os.path.basename)
def test_a_golden_case_renders_its_golden_files(case, tmp_path, monkeypatch):
    score_side(str(tmp_path), "A")
    score_side(str(tmp_path), "B", os.path.join(case, "b"))
    monkeypatch.chdir(tmp_path)
    a, b = load_side("A/run"), load_side("B/run")
    diff = align.diff_sides(a, b, align.select_queries(a, b, None))
    expected = os.path.join(case, "expected")
    with open(os.path.join(expected, "diff.diff"), encoding="utf-8", newline="") as f:
        assert render.diff_text(diff, DEFAULT_TOP) == f.read()
    with open(os.path.join(expected, "diff.diff.csv"), encoding="utf-8", newline="") as f:
        assert render.csv_text(diff) == f.read()
    with open(os.path.join(expected, "status"), encoding="utf-8") as f:
        assert int(diff.scoring) == int(f.read())
