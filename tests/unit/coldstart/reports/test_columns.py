"""scorer/coldstart/reports/columns.py and prepare.py: the demo's ``.sf`` laid
out with any -fields list (in its order) holds the golden ``.sf``'s cells of
those columns, and with -tabs the same cells separated by tabs."""
from __future__ import annotations

import pytest

from scorer.coldstart.reports import prepare, sf

from coldstart_demo import RUNID, expected, scored

#: -fields name -> the .sf column it shows
HEADER = {"EC": "QID/EC", "RUNID": "RunID", "LEVEL": "Hop", "GT": "GT",
          "SUBMITTED": "Submitted", "CORRECT": "Correct", "INCORRECT": "Incorrect",
          "INEXACT": "Inexact", "INCORRECT_PARENT": "PIncorrect", "UNASSESSED": "Unassessed",
          "REDUNDANT": "Dup", "RIGHT": "Right", "WRONG": "Wrong", "IGNORED": "Ignored",
          "P": "Prec", "R": "Recall", "F": "F1"}


def _rows(text: str, split) -> list:
    lines = text.split("\n")
    return [split(line) for line in lines[:lines.index("")]]


def _golden() -> dict:
    header, *rows = _rows(expected("sf"), str.split)
    # a row with blank middle cells (ALL-Macro) has its last cells, aligned on the right
    return {(row[0], row[2]): {**dict(zip(header[:3], row)),
                               **dict(zip(header[len(header) - len(row) + 3:], row[3:]))}
            for row in rows}


@pytest.mark.parametrize("fields", [("EC", "RUNID", "LEVEL", "F", "GT"),
                                    ("LEVEL", "EC", "P", "R", "F"),
                                    ("RIGHT", "EC", "LEVEL", "WRONG", "IGNORED")])
def test_any_fields_show_the_golden_cells_in_their_order(fields):
    tables = prepare.prepare(scored().structure, RUNID, fields)
    header, *rows = _rows(sf.render(tables, False), str.split)
    assert header == [HEADER[f] for f in fields]
    golden = _golden()
    shown = {}
    short = [row for row in rows if len(row) < len(fields)]
    # the ALL-Macro rows have blank count cells (they are shown by the summary's test)
    assert len(short) == (3 if set(fields) & {"GT", "RIGHT", "WRONG", "IGNORED"} else 0)
    for row in rows:
        if len(row) < len(fields):
            assert "ALL-Macro" in row
            continue
        key = (row[fields.index("EC")], row[fields.index("LEVEL")])
        cells = golden[key]
        assert row == [cells[HEADER[f]] for f in fields], key
        shown[key] = row
    assert len(shown) + len(short) == len(rows)
    assert shown.keys() == {key for key, cells in golden.items()
                            if all(HEADER[f] in cells for f in fields)}


def test_tabs_separate_the_same_cells():
    tables = prepare.prepare(scored().structure, RUNID, scored().policy.fields)
    spaced = _rows(sf.render(tables, False), str.split)
    tabbed = _rows(sf.render(tables, True), lambda line: [c.strip() for c in line.split("\t")])
    assert [[c for c in row if c] for row in tabbed] == spaced
    assert sf.render(tables, False) == expected("sf")
