"""scorer/diff/align.py: the ids ``-query`` names, as the sides spell them: a
full id, a row split at its ':', a short id standing for its full id, an LDC
query of the .ldcmax; an id in neither side is an error that shows what the
sides' ids look like."""
from __future__ import annotations

import pytest

from scorer.diff import debugfile
from scorer.diff.align import select_queries
from scorer.diff.changes import Side
from scorer.diff.scoretables import read_table
from scorer.problems import ScorerError

from places import FIXTURES

DEMO = FIXTURES / "coldstart" / "demo" / "expected"
FEVER = FIXTURES / "fever" / "inline" / "expected" / "run.debug"


def _coldstart_sides():
    a = Side("A", debugfile.read(str(DEMO / "run.debug")), read_table(str(DEMO / "run.sf")),
             read_table(str(DEMO / "run.ldcmax")))
    return a, Side("B", debugfile.read(str(DEMO / "run.debug")))


@pytest.mark.parametrize("wanted, selected", [
    (None, None),
    (("CSSF17_ENG_47a114c77c",), {"CSSF17_ENG_47a114c77c"}),
    (("CSSF17_ENG_47a114c77c", "1"), {"CSSF17_ENG_47a114c77c:1"}),     # Q:1 split at ':'
    (("CSSF17_ENG_47a114c77c:2",), {"CSSF17_ENG_47a114c77c:2"}),
    (("47a114c77c", "d8c8ecef3e"), {"CSSF17_ENG_47a114c77c", "CSSF17_ENG_d8c8ecef3e"}),
    (("CS17_0001",), {"CS17_0001"}),                                     # an .ldcmax row
])
def test_the_ids_as_the_sides_spell_them(wanted, selected):
    a, b = _coldstart_sides()
    found = select_queries(a, b, wanted)
    assert found == (None if selected is None else frozenset(selected))


@pytest.mark.parametrize("wanted, unit", [(("nosuch",), "query nosuch"),
                                          (("x", "47a114c77c", "y"), "queries x, y")])
def test_an_id_in_neither_side_is_an_error_showing_ids_there(wanted, unit):
    a, b = _coldstart_sides()
    with pytest.raises(ScorerError) as error:
        select_queries(a, b, wanted)
    assert str(error.value) == (f"-query: neither A nor B holds {unit} (ids there are like "
                                f"CSSF17_ENG_3f0bc7c062, CSSF17_ENG_3f0bc7c062:1, CS17_0001)")


def test_claims_are_named_as_claims():
    side = Side("A", debugfile.read(str(FEVER)))
    other = Side("B", debugfile.read(str(FEVER)))
    assert select_queries(side, other, ("1", "2")) == frozenset({"1", "2"})
    with pytest.raises(ScorerError) as error:
        select_queries(side, other, ("99",))
    assert str(error.value) == ("-query: neither A nor B holds claim 99 (claim ids there are "
                                "like 1, 2, 3)")
