"""scorer/coldstart/reports/ap.py: the demo's ``.ap`` is the Perl's, byte for byte."""
from __future__ import annotations

from scorer.coldstart.reports import ap

from coldstart_demo import RUNID, expected, scored


def test_the_demo_ap_is_the_golden_file():
    demo = scored()
    text = ap.render(demo.ap_rows, RUNID, demo.index, lambda ldc: demo.queries.get(ldc).full_id,
                     True, False)
    assert text == expected("ap")
