"""scorer/coldstart/justifications.py: the ``-justifications A:B`` checks on
the demo run with a line or two added: A justifications of a node per
document, B per node, one child of a single-valued slot; each discarded line
warned about with its place (scoring still reads them, as the Perl does)."""
from __future__ import annotations

import pytest

from scorer.coldstart.justifications import check_justifications
from scorer.coldstart.runs import read_run_files
from scorer.problems import Problems

from coldstart_cases import demo_queries, write
from places import DEMO

LINES = (DEMO / "DEMORUN.tab.txt").read_text(encoding="utf-8").splitlines()
#: Lena Brandt again, in the same document as line 1, more confident
SAME_DOCUMENT = ("CSSF17_ENG_47a114c77c\tper:children\tDEMORUN\tENG_NW_0001:121-200\tLena Brandt"
                 "\tPER\tENG_NW_0001:130-140\t0.95\t:Entity1")
#: a second city of birth (a single-valued slot), more confident than line 13's
SECOND_CITY = ("CSSF17_SPA_9aae9b619c\tper:city_of_birth\tDEMORUN\tSPA_NW_0004:1-80\tSantiago"
               "\tGPE\tSPA_NW_0004:10-17\t0.7\t:Entity9")
DISCARDED = "Following line has been discarded due to constraints on multiple justifications: "


def _checked(tmp_path, lines, per_document, total):
    problems = Problems()
    run = write(tmp_path / "run.tab.txt", "\n".join(lines) + "\n")
    run_files = read_run_files([str(DEMO / "qrel.txt"), run], demo_queries(problems), problems)
    check_justifications(run_files, per_document, total, problems)
    return [e.line_number for e in run_files.submissions if e.discarded], problems, run


def test_the_demo_keeps_every_line_under_the_default_limits(tmp_path):
    discarded, problems, _run = _checked(tmp_path, LINES, 1, 3)
    assert discarded == [] and problems.report() == "No warnings encountered\n"


def test_one_justification_a_node_keeps_the_most_confident(tmp_path):
    # node :Entity1 of 47a114c77c has lines 1 (0.9) and 2 (0.8), in two documents
    discarded, problems, run = _checked(tmp_path, LINES, 1, 1)
    assert discarded == [2]
    assert problems.report() == (f"WARNING: {DISCARDED}\n{LINES[1]}\n ({run} line 2)\n\n"
                                 f"1 warning encountered\n")


@pytest.mark.parametrize("per_document, discarded", [(1, [1, 6, 7]), (2, []), (None, [])])
def test_justifications_per_document(tmp_path, per_document, discarded):
    """One a document: line 1 (0.9) gives way to the new line (0.95) in its
    document; the hop-1 lines 6 and 7 answer the query line 1 generated, which
    no kept line generates now: they are discarded as its dependents."""
    found, problems, _run = _checked(tmp_path, LINES + [SAME_DOCUMENT], per_document, None)
    assert found == discarded
    expected = ["DISCARDED_ENTRY", "DISCARDED_DEPENDENT", "DISCARDED_DEPENDENT"]
    assert problems.names() == (expected if discarded else [])


def test_a_single_valued_slot_keeps_its_most_confident_answer(tmp_path):
    discarded, problems, run = _checked(tmp_path, LINES + [SECOND_CITY], 1, 3)
    assert discarded == [13]
    # (this check's message has no newline after the line, as the Perl's)
    assert problems.report() == (f"WARNING: {DISCARDED}\n{LINES[12]} ({run} line 13)\n\n"
                                 f"1 warning encountered\n")


@pytest.mark.parametrize("fqnodeid, parent", [
    ("CSSF17_ENG_47a114c77c:Entity1", "CSSF17_ENG_47a114c77c"),
    ("CSSF17_ENG_47a114c77c:Entity1:Entity5", "CSSF17_ENG_47a114c77c:Entity1"),
    (":Entity5", ""),                      # a hop-1 node whose parent line had no node id
    ("CSSF17_ENG_47a114c77cEntity1", ""),  # a node id without its colon
    ("", ""),                              # lines without a node id
])
def test_a_nodes_parent_is_what_the_perls_pattern_finds(fqnodeid, parent):
    from scorer.coldstart.justifications import node_parent
    assert node_parent(fqnodeid) == parent
