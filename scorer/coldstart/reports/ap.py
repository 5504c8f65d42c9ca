"""The ``.ap`` report: AP per SF query and level, its LDC-MEAN variant, and the
macro averages (spec §5.3)."""
from __future__ import annotations

from scorer.coldstart.ap import ldc_mean_ap_lines, macro_ap, sf_ap_lines
from scorer.coldstart.reports.columns import (AP_FIELDS, Widths, data_cells, macro_cells,
                                              render_line, render_lines)

SF_DESCRIPTION = "SF: Slot-filling score variant considering all entrypoints as a separate query"
LDC_MEAN_DESCRIPTION = ("LDC-MEAN: LDC level score variant considering averaging scores for all "
                        "coressponding entrypoints")
FOOTNOTE = "\n*ALL-Macro AP refer to mean of corresponding AP values.\n"


def render(ap_rows, runid, sf_to_ldc, ldc_full_id_of, has_index: bool, tabs: bool) -> str:
    sf_lines = sf_ap_lines(ap_rows)
    widths = Widths(AP_FIELDS)
    sections = [(SF_DESCRIPTION, sf_lines)]
    if has_index:
        sections.append((LDC_MEAN_DESCRIPTION,
                         ldc_mean_ap_lines(sf_lines, sf_to_ldc, ldc_full_id_of)))
    out = []
    summary = []
    for description, lines in sections:
        cells = [data_cells(AP_FIELDS, l.name, l.runid, l.level, None, 0, l.ap, 0.0, 0.0)
                 for l in lines]
        macro = [macro_cells(AP_FIELDS, runid, level, value, 0.0, 0.0)
                 for level, value in macro_ap(lines).items()]
        widths.widen_all(cells + macro, AP_FIELDS)
        snapshot = widths.snapshot()
        out.append(description + "\n\n")
        if cells or macro:
            out.append(render_lines([None, *cells, *macro], AP_FIELDS, snapshot, tabs))
        out.append("\n")
        prefix = "SF" if description is SF_DESCRIPTION else "LDC-MEAN"
        summary.extend((prefix, m) for m in macro)
    final = widths.snapshot()
    out.append("SUMMARY: This section provides summary of AP scores\n\n")
    out.append(render_line(None, AP_FIELDS, final, tabs))
    out.extend(render_line(c, AP_FIELDS, final, tabs, prefix=p) for p, c in summary)
    out.append(FOOTNOTE)
    return "".join(out)
