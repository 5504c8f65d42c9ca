"""scorer/coldstart/options.py: Cold Start's own switches of a request, typed
(what the driver and the reports read)."""
from __future__ import annotations

from scorer.policy import Policy
from scorer.request import build
from scorer.coldstart.options import options


def test_the_switches_typed():
    given = options(build(["q.xml", "qrel.txt", "run.tab"], expand="CSSF17",
                                   runids="A:B", tabs=True, queries="qids.txt"))
    assert given == ("CSSF17", "qids.txt", ("A", "B"), True, False)
    assert (given.expand, given.queries, given.runids, given.tabs, given.kb) == given
    assert options(build(["q.xml"])) == (None, None, None, False, False)


def test_kb_input_from_the_switch_or_the_policy():
    assert options(build(["q.xml", "qrel.txt", "team.kb.tac"], kb=True)).kb is True
    policy = build(["q.xml"]).policy
    kb_policy = Policy(policy.task, {**dict(policy.items()[1:]), "input": "kb"})
    assert options(build(["q.xml", "qrel.txt", "team.kb.tac"], kb_policy)).kb is True
    sf_policy = Policy(policy.task, {**dict(policy.items()[1:]), "input": "sf"})
    assert options(build(["q.xml", "qrel.txt", "run.tab"], sf_policy)).kb is False
