"""scorer/coldstart/reports/summary.py: the demo's ``.summary`` is the Perl's,
byte for byte."""
from __future__ import annotations

from scorer.coldstart.reports import summary

from coldstart_demo import expected, scored


def test_the_demo_summary_is_the_golden_file():
    assert summary.render(scored().tables, False) == expected("summary")
