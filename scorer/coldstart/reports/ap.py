"""The ``.ap`` report: AP per SF query and level, its LDC-MEAN variant, and the
macro averages (spec §5.3)."""
from __future__ import annotations

from scorer.coldstart.counts import ec_sort_key
from scorer.coldstart.reports.tables import AP_FIELDS, Widths, data_cells, macro_cells, render_line

SF_DESCRIPTION = "SF: Slot-filling score variant considering all entrypoints as a separate query"
LDC_MEAN_DESCRIPTION = ("LDC-MEAN: LDC level score variant considering averaging scores for all "
                        "coressponding entrypoints")
FOOTNOTE = "\n*ALL-Macro AP refer to mean of corresponding AP values.\n"
LEVEL_ORDER = ("0", "1", "ALL")


class _Line:
    def __init__(self, name, runid, level, ap, ground_truth):
        self.name, self.runid, self.level, self.ap, self.ground_truth = (
            name, runid, level, ap, ground_truth)


def _macro_lines(lines, runid):
    """ALL-Macro per level: Σ AP over rows / rows whose ground truth is not 0."""
    result = []
    for level in LEVEL_ORDER:
        members = [line for line in sorted(lines, key=lambda l: ec_sort_key(l.name))
                   if line.level == level]
        if not members:
            continue
        total = 0.0
        for line in members:
            total += line.ap
        counted = sum(1 for line in members if line.ground_truth)
        result.append((level, total / counted if counted else 0.0))
    return [macro_cells(AP_FIELDS, runid, level, value, 0.0, 0.0) for level, value in result]


def ldc_mean_lines(sf_lines, sf_to_ldc, ldc_full_id_of):
    """Per level and LDC query: the mean AP of its entry points, the largest
    ground truth of any of them."""
    groups: dict = {}
    for line in sorted(sf_lines, key=lambda l: l.name):
        ldc = ldc_full_id_of(sf_to_ldc[line.query_id])
        groups.setdefault((line.level, ldc), []).append(line)
    result = []
    for level in LEVEL_ORDER:
        for (group_level, ldc) in sorted(k for k in groups if k[0] == level):
            members = groups[(group_level, ldc)]
            total = 0.0
            for line in members:
                total += line.ap
            ground_truth = max((m.ground_truth or 0) for m in members)
            result.append(_Line(ldc, members[0].runid, level, total / len(members), ground_truth))
    result.sort(key=lambda l: ec_sort_key(l.name))
    return result


def render(ap_rows, runid, sf_to_ldc, ldc_full_id_of, has_index: bool, tabs: bool) -> str:
    sf_lines = []
    for row in sorted(ap_rows, key=lambda r: r.query_full_id):
        line = _Line(row.query_full_id, row.runid, row.level, row.ap, row.ground_truth)
        line.query_id = row.query_id
        sf_lines.append(line)
    widths = Widths(AP_FIELDS)
    sections = [(SF_DESCRIPTION, sf_lines)]
    if has_index:
        sections.append((LDC_MEAN_DESCRIPTION, ldc_mean_lines(sf_lines, sf_to_ldc, ldc_full_id_of)))
    out = []
    summary = []
    for description, lines in sections:
        cells = [data_cells(AP_FIELDS, l.name, l.runid, l.level, None, 0, l.ap, 0.0, 0.0)
                 for l in lines]
        macro = _macro_lines(lines, runid)
        for line_cells in cells + macro:
            widths.widen(line_cells)
        snapshot = widths.snapshot()
        out.append(description + "\n\n")
        if cells or macro:
            out.append(render_line(None, AP_FIELDS, snapshot, tabs))
        out.extend(render_line(c, AP_FIELDS, snapshot, tabs) for c in cells + macro)
        out.append("\n")
        prefix = "SF" if description is SF_DESCRIPTION else "LDC-MEAN"
        summary.extend((prefix, m) for m in macro)
    final = widths.snapshot()
    out.append("SUMMARY: This section provides summary of AP scores\n\n")
    out.append(render_line(None, AP_FIELDS, final, tabs))
    out.extend(render_line(c, AP_FIELDS, final, tabs, prefix=p) for p, c in summary)
    out.append(FOOTNOTE)
    return "".join(out)
