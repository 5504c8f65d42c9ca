"""scorer/coldstart/reports/debug.py: the demo's ``.debug`` (the categories of
each row's responses, then the AP computations) is the Perl's, byte for byte."""
from __future__ import annotations

from scorer.coldstart.reports import debug

from coldstart_demo import expected, scored


def test_the_demo_debug_is_the_golden_file():
    demo = scored()
    text = (debug.render_categories(demo.evaluation.rows, demo.evaluation.assessment_of)
            + debug.render_ap(demo.ap_rows))
    assert text == expected("debug")
