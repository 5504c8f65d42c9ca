"""Prepare the P/R/F1 tables of one run in the Perl's order (SF, LDC-MAX,
LDC-MEAN), so each is printed with the column widths reached by then
(spec §5.2)."""
from __future__ import annotations

import dataclasses

from scorer.coldstart import projections
from scorer.coldstart.projections import LEVELS, MACRO, MICRO
from scorer.coldstart.reports.columns import (LDC_MEAN_FIELDS, Section, Widths, data_cells,
                                              macro_cells)

SUMMARY_PREFIXES = {"SF": "SF", "LDCMAX": "LDC-MAX", "LDCMEAN": "LDC-MEAN"}


@dataclasses.dataclass
class ScoreTables:
    sections: dict          # variant -> Section
    summary: list           # (prefix, cells) in print order
    summary_widths: dict
    fields: tuple           # the order of every line's cells


def _line_cells(fields, line) -> dict:
    return data_cells(fields, line.name, line.runid, line.level, line.counts,
                      line.ground_truth, line.p, line.r, line.f)


def _aggregate_cells(fields, runid, aggregates, variant, with_micro: bool):
    """ALL-Micro lines then ALL-Macro lines, for the levels that exist."""
    lines = []
    kinds = (MICRO, MACRO) if with_micro else (MACRO,)
    for kind in kinds:
        for level in LEVELS:
            aggregate = aggregates.get((variant, kind, level))
            if aggregate is None or not aggregate.exists[0]:
                continue
            if kind == MICRO:
                cells = data_cells(fields, "ALL-Micro", runid, level,
                                   aggregate.counts[0].tolist(), int(aggregate.counts[0][0]),
                                   aggregate.p[0], aggregate.r[0], aggregate.f[0])
            else:
                cells = macro_cells(fields, runid, level, aggregate.p[0], aggregate.r[0],
                                    aggregate.f[0])
            lines.append(cells)
    return lines


def prepare(structure, runid: str, fields) -> ScoreTables:
    fields = tuple(fields)
    multiplicity = projections.full_data(structure)
    aggregates = projections.all_aggregates(structure, multiplicity)
    widths = Widths(fields)
    sections = {}
    summary = []
    variants = [("SF", projections.sf_lines(structure), True)]
    if structure.has_index:
        choice = projections.ldc_max_choice(structure, multiplicity)
        variants.append(("LDCMAX", projections.ldc_max_lines(structure, choice), True))
        variants.append(("LDCMEAN", projections.ldc_mean_lines(structure), False))
    for variant, lines, with_micro in variants:
        cells = [_line_cells(fields, line) for line in lines]
        aggregate_cells = _aggregate_cells(fields, runid, aggregates, variant, with_micro)
        widths.widen_all(cells + aggregate_cells, fields)
        print_fields = LDC_MEAN_FIELDS if variant == "LDCMEAN" else fields
        sections[variant] = Section(cells + aggregate_cells, widths.snapshot(), print_fields,
                                    fields)
        summary.extend((SUMMARY_PREFIXES[variant], line) for line in aggregate_cells)
    return ScoreTables(sections, summary, widths.snapshot(), fields)
