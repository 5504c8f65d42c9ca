"""toolkit/pooling.py: -depth, NIST's pooling of the best nodes (schemes A and B)."""
from __future__ import annotations

import pytest

from scorer.coldstart.toolkit.pooling import DEPTH_PATTERN, parse_depth
from scorer.coldstart.toolkit.validatesf import validate_sf

from places import FIXTURES

CLEAN = FIXTURES / "coldstart" / "toolkit" / "validatesf-clean-nodocs" / "input"


@pytest.mark.parametrize("text, depth", [("A:1", ("A", 1)), ("B:12", ("B", 12)),
                                         ("B:3x", ("B", 3)), ("A:2:9", ("A", 2))])
def test_depth(text, depth):
    assert DEPTH_PATTERN.match(text) and parse_depth(text) == depth


@pytest.mark.parametrize("text", ["a:1", "C:1", "A1", "A:", ":1"])
def test_a_depth_the_perl_refuses(text):
    assert not DEPTH_PATTERN.match(text)


def _kept(depth):
    result = validate_sf(str(CLEAN / "sf-query.xml"), str(CLEAN / "run.tab.txt"), depth=depth)
    return [line.split("\t")[0] for line in result.lines], result


def test_scheme_b_keeps_the_best_d_nodes_of_each_query_and_their_parents():
    kept, result = _kept("B:1")
    hop0 = [query for query in kept if query.count("_") == 2]
    assert sorted(set(hop0)) == sorted(set(q for q in kept if q.count("_") == 2))
    # one node a query at hop 0 (a node may have several lines)
    nodes = {(line.split("\t")[0], line.rstrip("\n").split("\t")[8]) for line in result.lines
             if line.split("\t")[0].count("_") == 2}
    assert len(nodes) == len({query for query, _ in nodes})
    assert "DISCARDED_ENTRY_DEPTH" in {name for name, _, _ in result.problems}


def test_scheme_a_keeps_d_hop0_nodes_in_all_without_a_warning_for_the_others():
    kept, result = _kept("A:1")
    assert len({q for q in kept if q.count("_") == 2}) == 1
    assert "DISCARDED_ENTRY_DEPTH" not in {name for name, _, _ in result.problems}
