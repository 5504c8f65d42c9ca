"""scorer/coldstart/reports/ldc.py: the demo's ``.ldcmax`` and ``.ldcmean``
are the Perl's, byte for byte."""
from __future__ import annotations

from scorer.coldstart.reports import ldc

from coldstart_demo import expected, scored


def test_the_demo_ldcmax_is_the_golden_file():
    assert ldc.render_ldcmax(scored().tables, False) == expected("ldcmax")


def test_the_demo_ldcmean_is_the_golden_file():
    assert ldc.render_ldcmean(scored().tables, False) == expected("ldcmean")
