"""scorer/coldstart/reports/sf.py: the demo's ``.sf`` is the Perl's, byte for byte."""
from __future__ import annotations

from scorer.coldstart.reports import sf

from coldstart_demo import expected, scored


def test_the_demo_sf_is_the_golden_file():
    assert sf.render(scored().tables, False) == expected("sf")
