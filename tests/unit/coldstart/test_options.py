"""scorer/coldstart/options.py: Cold Start's own switches of a request, typed
(what the driver and the reports read)."""
from __future__ import annotations

from scorer.request import build
from scorer.coldstart.options import options


def test_the_switches_typed():
    given = options(build(["q.xml", "qrel.txt", "run.tab"], expand="CSSF17",
                                   runids="A:B", tabs=True, queries="qids.txt"))
    assert given == ("CSSF17", "qids.txt", ("A", "B"), True)
    assert (given.expand, given.queries, given.runids, given.tabs) == given
    assert options(build(["q.xml"])) == (None, None, None, False)
