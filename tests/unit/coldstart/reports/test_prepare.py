"""scorer/coldstart/reports/prepare.py: a run's P/R/F1 tables prepared in the
Perl's order (SF, LDC-MAX, LDC-MEAN), each printed with the column widths
reached by then, and the aggregate lines the ``.summary`` gathers, in order.
(The tables' text against the golden files: test_sf.py, test_ldc.py,
test_summary.py, test_columns.py.)"""
from __future__ import annotations

from scorer.coldstart.reports import prepare
from scorer.coldstart.reports.columns import LDC_MEAN_FIELDS

from coldstart_demo import RUNID, expected, scored


def test_sections_in_the_perls_order_with_widths_that_only_grow():
    tables = scored().tables
    assert list(tables.sections) == ["SF", "LDCMAX", "LDCMEAN"]
    widths = [tables.sections[variant].widths for variant in tables.sections]
    for earlier, later in zip(widths, widths[1:]):
        assert all(later[name] >= width for name, width in earlier.items())
    assert tables.summary_widths == widths[-1]
    # the SF EC names are the longest: the LDC tables print at their width
    assert widths[0]["EC"] == len("CSSF17_ENG_47a114c77c:1") == widths[-1]["EC"]
    assert tables.sections["LDCMEAN"].fields == LDC_MEAN_FIELDS
    assert tables.sections["SF"].fields == tables.fields == scored().policy.fields


def test_the_summary_lines_are_the_aggregates_in_print_order():
    tables = scored().tables
    golden = [line.split()[0] for line in expected("summary").splitlines()[1:] if line.strip()
              and not line.startswith("*")]
    assert [f"{prefix}-{cells[0]}" for prefix, cells in tables.summary] == golden


def test_fields_set_the_cells_of_every_line():
    tables = prepare.prepare(scored().structure, RUNID, ("F", "EC"))
    assert tables.fields == ("F", "EC")
    first = tables.sections["SF"].lines[0]
    assert first == ["1.0000", "CSSF17_ENG_3f0bc7c062"]
