"""The ``.ldcmax`` and ``.ldcmean`` reports: the LDC-level projections."""
from scorer.coldstart.reports.columns import MACRO_FOOTNOTE, render_section


def render_ldcmax(tables, tabs: bool) -> str:
    return render_section(tables.sections["LDCMAX"], tabs) + MACRO_FOOTNOTE


def render_ldcmean(tables, tabs: bool) -> str:
    return render_section(tables.sections["LDCMEAN"], tabs) + MACRO_FOOTNOTE
