"""scorer/coldstart/evaluation.py: the evaluation model.  The demo run's rows
(every count, each query and hop) equal the golden ``.sf`` the Perl wrote;
a policy moves responses between RIGHT, WRONG and IGNORE as it says; the
equivalence-class tree's names; the queries a selected query is scored as."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from scorer.coldstart import driver
from scorer.coldstart.evaluation import ECTree, Evaluator, _duplicate_list, scored_queries
from scorer.coldstart.runs import read_run_files
from scorer.policy import build_policy
from scorer.problems import Problems

from places import DEMO, FIXTURES

#: .sf column -> the count of a row it shows
SF_COLUMNS = {"GT": None, "Submitted": "SUBMITTED", "Correct": "CORRECT",
              "Incorrect": "INCORRECT", "Inexact": "INEXACT", "PIncorrect": "INCORRECT_PARENT",
              "Unassessed": "UNASSESSED", "Dup": "REDUNDANT", "Right": "RIGHT", "Wrong": "WRONG",
              "Ignored": "IGNORE"}


def _evaluate(switches=None, expand="CSSF17"):
    problems = Problems()
    asked = SimpleNamespace(expand=expand, queries=None)
    queries, _index, to_score = driver._read_queries([str(DEMO / "ldc-query.xml")], asked,
                                                     problems)
    run_files = read_run_files([str(DEMO / "qrel.txt"), str(DEMO / "DEMORUN.tab.txt")],
                               queries, problems)
    policy = build_policy({}, switches or {})
    evaluation = Evaluator(run_files, queries, policy, problems).evaluate_run(
        "DEMORUN", to_score, expand)
    return {(row.name, row.level): row for row in evaluation.rows}, evaluation


def _golden_sf() -> dict:
    lines = (FIXTURES / "coldstart" / "demo" / "expected" / "run.sf").read_text().splitlines()
    header = lines[0].split()
    rows = {}
    for line in lines[1:lines.index("")]:          # (the table ends at a blank line)
        cells = dict(zip(header, line.split()))
        if not cells["QID/EC"].startswith("ALL-"):
            rows[(cells["QID/EC"], int(cells["Hop"]))] = cells
    return rows


def test_the_demo_rows_are_the_golden_sf_rows():
    rows, evaluation = _evaluate()
    golden = _golden_sf()
    assert set(rows) == set(golden) and len(rows) == 8
    for key, row in rows.items():
        cells = golden[key]
        assert (row.runid, row.query_id) == ("DEMORUN", key[0].split(":")[0][-10:])
        for column, count in SF_COLUMNS.items():
            value = row.ground_truth if count is None else row.counts[count]
            assert str(value) == cells[column], (key, column)
    # The .debug lists: every submission a row counts is listed under its label
    top = rows[("CSSF17_ENG_47a114c77c", 0)]
    assert {label: len(top.lists[label]) for label in ("RIGHT", "WRONG", "IGNORE")} == \
        {"RIGHT": 1, "WRONG": 1, "IGNORE": 3}
    assert evaluation.runid == "DEMORUN"


def test_inexact_counted_right_moves_it_from_wrong_to_right():
    default, _ = _evaluate()
    lenient, _ = _evaluate({"right": "CORRECT:INEXACT", "wrong": "INCORRECT:INCORRECT_PARENT"})
    assert default.keys() == lenient.keys()
    for key in default:
        before, after = default[key].counts, lenient[key].counts
        moved = before["INEXACT"]
        assert after["RIGHT"] == before["RIGHT"] + moved, key
        assert after["WRONG"] == before["WRONG"] - moved, key
        for label in ("SUBMITTED", "CORRECT", "INCORRECT", "INEXACT", "UNASSESSED", "IGNORE"):
            assert after[label] == before[label], (key, label)
    assert lenient[("CSSF17_ENG_d8c8ecef3e:1", 1)].counts["RIGHT"] == 1


def test_unassessed_counted_wrong_leaves_ignore_to_the_duplicates():
    default, _ = _evaluate()
    strict, _ = _evaluate({"wrong": "INCORRECT:INCORRECT_PARENT:INEXACT:UNASSESSED",
                           "ignore": "DUPLICATE"})
    top = ("CSSF17_ENG_47a114c77c", 0)
    assert default[top].counts["UNASSESSED"] == 1
    assert strict[top].counts["WRONG"] == default[top].counts["WRONG"] + 1
    assert strict[top].counts["IGNORE"] == default[top].counts["IGNORE"] - 1


def test_the_tree_makes_each_node_once_with_its_ancestors():
    tree = ECTree()
    leaf = tree.get("Q:1:0:2", quantity="single")
    assert list(tree.roots) == ["Q"] and tree.roots["Q"].quantity == "single"
    assert tree.get("Q:1:0:2") is leaf
    one = tree.roots["Q"].children["Q:1"]
    incorrect = one.children["Q:1:0"]
    assert (one.incorrect_bin, incorrect.incorrect_bin, leaf.incorrect_bin) == \
        (False, True, True)
    assert incorrect.children == {"Q:1:0:2": leaf}
    assert tree.get("Q:1") is one and tree.get("R").name == "R"


@pytest.mark.parametrize("switches, chosen", [
    ({}, "IGNORE"),
    ({"wrong": "INCORRECT:DUPLICATE", "ignore": "UNASSESSED"}, "WRONG"),
    ({"right": "CORRECT:DUPLICATE", "ignore": "UNASSESSED"}, "RIGHT"),
    ({"ignore": "UNASSESSED"}, ""),
])
def test_redundant_responses_join_the_list_that_names_duplicate(switches, chosen):
    assert _duplicate_list(build_policy({}, switches)) == chosen


def test_a_selected_query_is_scored_as_itself_or_as_its_expansion():
    problems = Problems()
    asked = SimpleNamespace(expand=None, queries=None)
    queries, _index, _to_score = driver._read_queries([str(DEMO / "ldc-query.xml")], asked,
                                                      problems)
    ldc = sorted(queries.top_level_ids())[0]
    assert [q.short_id for q in scored_queries(queries, ldc, None)] == [ldc]
    assert scored_queries(queries, "not-a-query", None) == []
    expanded = scored_queries(queries, ldc, "CSSF17")
    assert expanded and all(q.full_id.startswith("CSSF17_") for q in expanded)
