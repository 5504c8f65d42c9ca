"""The ``.summary`` report: every aggregate line, prefixed by its variant."""
from scorer.coldstart.reports.columns import LDC_MEAN_FIELDS, MACRO_FOOTNOTE, render_line


def render(tables, tabs: bool) -> str:
    widths = tables.summary_widths
    text = [render_line(None, LDC_MEAN_FIELDS, widths, tabs)]
    text.extend(render_line(cells, LDC_MEAN_FIELDS, widths, tabs, prefix=prefix,
                            cell_fields=tables.fields)
                for prefix, cells in tables.summary)
    return "".join(text) + MACRO_FOOTNOTE
