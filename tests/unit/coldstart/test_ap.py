"""AP (spec §4.7): the README-Scoring examples, node confidence, the V cap,
and runs scored independently."""
from __future__ import annotations

import pytest

from scorer.coldstart.ap import Ranking, RankedNode, average_precision, node_confidence

from coldstart_cases import PERSON, score, two_children_case
from world import Case


def ranking(values, ground_truth):
    nodes = {f"n{i}": RankedNode(f"n{i}", 1.0 - i / 100, None, v, i)
             for i, v in enumerate(values)}
    return Ranking(ecs=[], ground_truth=ground_truth, nodes=nodes)


def test_readme_example_right_wrong_pattern():
    # R N R R N R with 5 known answers: (1/1 + 2/3 + 3/4 + 4/6) / 5
    assert round(average_precision(ranking([1, 0, 1, 1, 0, 1], 5)), 4) == 0.6167


def test_readme_graded_example():
    # V = 2/3, 1, 0, 0, 0, 0 with 4 known answers: (0.6667 + 1.6667/2) / 4
    ap = average_precision(ranking([2 / 3, 1, 0, 0, 0, 0], 4))
    assert ap == pytest.approx((2 / 3 + (5 / 3) / 2) / 4)
    assert "%0.4f" % ap == "0.3750"


def test_no_ground_truth_gives_zero():
    assert average_precision(ranking([1, 1], 0)) == 0.0
    assert average_precision(ranking([1, 1], None)) == 0.0


class _Line:
    def __init__(self, confidence):
        self.confidence = confidence


def test_node_confidence_example_of_the_spec():
    # spec §4.7.2, K = 3: (0.9999 + 0.9651/2 + 0.8116/3) / (1 + 1/2 + 1/3) = 0.9562
    lines = [_Line(0.9651), _Line(0.8116), _Line(0.9999)]
    assert "%0.4f" % node_confidence(lines, 3) == "0.9562"


def test_node_confidence_denominator_does_not_depend_on_the_number_of_lines():
    assert node_confidence([_Line(1.0)], 3) == pytest.approx(1 / (1 + 1 / 2 + 1 / 3))
    assert node_confidence([_Line(1.0)], None) == 1.0


def test_v_is_capped_at_one_with_a_warning(tmp_path):
    # Two justifications of one node in the one assessed document: V = 2 / min(N=1, K*1) = 2;
    # the Perl dies with "AP is greater than 1.0"; scorer caps V at 1.0.
    case = Case(PERSON)
    q = case.sf("CS17_0100")
    case.assess(q, "per:children", "Ivo Quist", "ENG_NW_0101:1-50", "ENG_NW_0101:10-18",
                "C", "NAM", f"{q}:1")
    case.assess(q, "per:children", "Ivo", "ENG_NW_0101:51-90", "ENG_NW_0101:60-62",
                "C", "NAM", f"{q}:1")
    case.submit("R", q, "per:children", "Ivo Quist", "PER", "ENG_NW_0101:1-50",
                "ENG_NW_0101:10-18", "0.9", ":E1")
    case.submit("R", q, "per:children", "Ivo", "PER", "ENG_NW_0101:51-90",
                "ENG_NW_0101:60-62", "0.8", ":E1")
    status, texts, _ = score(str(tmp_path), case.write(str(tmp_path)), "-justifications", "M:3")
    assert status == 0
    assert "1 CSSF17_ENG_" in texts["debug"]
    ranking_line = [l for l in texts["debug"].splitlines() if l.startswith("1 ")][0]
    assert ranking_line.endswith(f" {q}:1 1.0000")
    assert f"WARNING: Query {q}: the AP value V of node {q}:E1 was 2.0000 and is capped at 1.0" \
        in texts["errlog"]
    assert f"{q} R     0   1.0000" in texts["ap"]


def ap_section_of(ap_text: str, run: str) -> list:
    return [line for line in ap_text.splitlines() if f" {run} " in line]


def test_a_second_run_does_not_change_the_first_runs_ap(tmp_path):
    alone = tmp_path / "alone"
    both = tmp_path / "both"
    status, first, _ = score(str(alone), two_children_case(("A",)).write(str(alone)))
    assert status == 0
    # Run B has the same node ids: the Perl would pool them into A's nodes (spec §7.17).
    status, pooled, _ = score(str(both), two_children_case(("A", "B")).write(str(both)))
    assert status == 0
    assert ap_section_of(pooled["ap"], "A") == ap_section_of(first["ap"], "A")
    status, only_a, _ = score(str(both), two_children_case(("A", "B")).write(str(both)),
                              "-runids", "A")
    assert only_a["ap"] == first["ap"]
    assert "1.0000" in ap_section_of(pooled["ap"], "B")[0]
