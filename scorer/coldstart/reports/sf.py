"""The ``.sf`` report: one row per SF query and EC, then the aggregates."""
from scorer.coldstart.reports.columns import MACRO_FOOTNOTE, render_section


def render(tables, tabs: bool) -> str:
    return render_section(tables.sections["SF"], tabs) + MACRO_FOOTNOTE
