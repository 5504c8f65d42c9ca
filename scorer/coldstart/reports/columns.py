"""The layout of the Perl scorer's tables (spec §5.1, §5.2): field catalogue,
cell texts, column widths and line printing.

Quirk kept on purpose (spec §7.23): one set of column widths per run, raised
by every line prepared so far and never reset, so the ``.ldcmax``,
``.ldcmean`` and ``.summary`` columns are as wide as the widest cell of any
table prepared before them.
"""
from __future__ import annotations

import dataclasses
import functools
import operator
from typing import Optional

#: -fields name -> (header, format, justification, what the cell shows)
FIELDS = {
    "EC": ("QID/EC", "%s", "L", "Query or equivalence class name"),
    "RUNID": ("RunID", "%s", "L", "Run ID"),
    "LEVEL": ("Hop", "%s", "L", "Hop level"),
    "GT": ("GT", "%4d", "R", "Number of ground truth values"),
    "SUBMITTED": ("Submitted", "%4d", "R", "Total number of submitted entries"),
    "CORRECT": ("Correct", "%4d", "R", "Number of assessed correct responses (pre-policy)"),
    "INCORRECT": ("Incorrect", "%4d", "R", "Number of assessed incorrect responses (pre-policy)"),
    "INEXACT": ("Inexact", "%4d", "R", "Number of assessed inexact responses (pre-policy)"),
    "INCORRECT_PARENT": ("PIncorrect", "%4d", "R",
                         "Total number of submitted entries with parents incorrect"),
    "UNASSESSED": ("Unassessed", "%4d", "R", "Total number of unassessed submitted entries"),
    "REDUNDANT": ("Dup", "%4d", "R",
                  "Number of duplicate submitted values in equivalence class (post-policy)"),
    "RIGHT": ("Right", "%4d", "R", "Number of submitted values counted as right (post-policy)"),
    "WRONG": ("Wrong", "%4d", "R", "Number of submitted values counted as wrong (post-policy)"),
    "IGNORED": ("Ignored", "%4d", "R", "Number of responses that were ignored (post-policy)"),
    "P": ("Prec", "%6.4f", "L", "Precision"),
    "R": ("Recall", "%6.4f", "L", "Recall"),
    "F": ("F1", "%6.4f", "L", "F1 = 2PR/(P+R)"),
    "AP": ("AP", "%6.4f", "L", "Average Precision"),
}

#: Fields of the LDC-MEAN table and of the summary (fixed, whatever -fields says).
LDC_MEAN_FIELDS = ("EC", "RUNID", "LEVEL", "P", "R", "F")
AP_FIELDS = ("EC", "RUNID", "LEVEL", "AP")
MACRO_FOOTNOTE = "\n*ALL-Macro Prec, Recall and F1 refer to mean-precision, mean-recall and mean-F1.\n"

_COUNT_FIELDS = ("GT", "SUBMITTED", "CORRECT", "INCORRECT", "INEXACT", "INCORRECT_PARENT",
                 "UNASSESSED", "REDUNDANT", "RIGHT", "WRONG", "IGNORED")


def _blank_format(fmt: str) -> str:
    """The format of an empty macro cell: ``%4d`` -> ``%4s``, ``%6.4f`` -> ``%6s``."""
    for letter in "df":
        if letter in fmt:
            fmt = fmt.replace(letter, "s", 1)
            break
    head, dot, tail = fmt.partition(".")
    if dot and tail[:1].isdigit():
        fmt = head + tail[1:]
    return fmt


class Widths:
    """Column widths of one printer: start at the header lengths, only grow."""

    def __init__(self, fields):
        self.widths = {name: len(FIELDS[name][0]) for name in fields}

    def widen_all(self, lines, fields) -> None:
        """Widen by every line of ``lines`` (cells in ``fields`` order), a
        column at a time."""
        widths = self.widths
        if not lines:
            return
        for name, column in zip(fields, zip(*lines)):
            longest = max(map(len, column))
            if longest > widths.get(name, 0):
                widths[name] = longest

    def snapshot(self) -> dict:
        return dict(self.widths)


#: Where a numeric cell takes its value in data_cells' ``numbers`` list: GT,
#: the other counts in _COUNT_FIELDS order, then P, R, F (an AP line's AP is its P).
_NUMBER_SOURCE = {**{field: i for i, field in enumerate(_COUNT_FIELDS)},
                  "P": len(_COUNT_FIELDS), "R": len(_COUNT_FIELDS) + 1,
                  "F": len(_COUNT_FIELDS) + 2, "AP": len(_COUNT_FIELDS)}
_TEXT_FIELDS = ("EC", "RUNID", "LEVEL")
_NO_COUNTS = (0,) * len(_COUNT_FIELDS)


@functools.lru_cache(maxsize=None)
def _number_layout(fields: tuple) -> tuple:
    """How data_cells fills a line of ``fields``: one %-format for all the
    numeric cells (tab-separated: no formatted number holds a tab), where
    each takes its value from (a getter of _NUMBER_SOURCE's positions), and
    the order of the text cells (EC, RUNID, LEVEL as present) followed by the
    numeric ones, as positions in ``fields`` (None: already in that order)."""
    numeric = tuple(field for field in fields if field not in _TEXT_FIELDS)
    fmt = "\t".join(FIELDS[field][1] for field in numeric)
    positions = [_NUMBER_SOURCE[field] for field in numeric]
    texts = tuple(field for field in _TEXT_FIELDS if field in fields)
    made = texts + numeric
    order = None if made == tuple(fields) else tuple(made.index(field) for field in fields)
    # (one number alone comes out bare, which % takes as well as a 1-tuple)
    return (texts, bool(numeric), fmt, operator.itemgetter(*positions) if positions else None,
            order)


def data_cells(fields: tuple, name: str, runid: str, level, counts, ground_truth,
               p: float, r: float, f: float) -> list:
    """Cells of a data or ALL-Micro line, in ``fields`` order.  ``counts``: a
    counts-table row (values in _COUNT_FIELDS order; None shows every count
    as 0), its GT replaced by ``ground_truth``.

    Thousands of lines go through here, so a line's numbers are formatted by
    one %-operation; give Python ints and floats (numpy scalars format
    several times slower)."""
    texts, has_numbers, fmt, pick, order = _number_layout(fields)
    if len(texts) == 3:
        cells = [name, runid, str(level)]
    else:
        text_of = {"EC": name, "RUNID": runid}
        cells = [text_of[field] if field in text_of else str(level) for field in texts]
    if has_numbers:
        numbers = [ground_truth, *(counts if counts is not None else _NO_COUNTS)[1:], p, r, f]
        cells += (fmt % pick(numbers)).split("\t")
    if order is not None:
        cells = [cells[i] for i in order]
    return cells


def macro_cells(fields, runid: str, level: str, p: float, r: float, f: float) -> list:
    """Cells of an ALL-Macro line, in ``fields`` order: only the scores;
    other columns blank."""
    cells = []
    for field in fields:
        fmt = FIELDS[field][1]
        if field == "EC":
            cells.append("ALL-Macro")
        elif field == "RUNID":
            cells.append(runid)
        elif field == "LEVEL":
            cells.append(level)
        elif field in ("P", "R", "F", "AP"):
            cells.append(fmt % {"P": p, "R": r, "F": f, "AP": p}[field])
        else:
            cells.append(_blank_format(fmt) % "")
    return cells


def line_format(fields, widths: dict, tabs: bool) -> str:
    """A ``%``-format printing one line's cells (in ``fields`` order): each
    padded to its column's width, left or right as the field says, separated
    by a space; with ``tabs``, unpadded and separated by tabs."""
    if tabs:
        return "\t".join("%s" for _ in fields) + "\n"
    columns = []
    for field in fields:
        width = widths.get(field, 0)
        flag = "" if FIELDS[field][2] == "R" else "-"
        columns.append(f"%{flag}{width}s" if width else "%s")
    return " ".join(columns) + "\n"


def render_line(cells: Optional[list], fields, widths: dict, tabs: bool,
                prefix: Optional[str] = None, cell_fields=None) -> str:
    """One printed line; ``cells`` None prints the header."""
    return render_lines([cells], fields, widths, tabs, prefix, cell_fields)


def render_lines(lines, fields, widths: dict, tabs: bool, prefix: Optional[str] = None,
                 cell_fields=None) -> str:
    """Printed lines (each its cells in ``cell_fields`` order, ``fields`` by
    default; None for the header) through one format, showing the cells of
    ``fields`` (blank where a line has none)."""
    fields = tuple(fields)
    cell_fields = fields if cell_fields is None else tuple(cell_fields)
    fmt = line_format(fields, widths, tabs)
    header = tuple(FIELDS[field][0] for field in fields)
    if cell_fields == fields:
        pick = tuple
    elif all(field in cell_fields for field in fields):
        getter = operator.itemgetter(*(cell_fields.index(field) for field in fields))
        pick = (lambda cells: (getter(cells),)) if len(fields) == 1 else getter
    else:
        positions = [cell_fields.index(field) if field in cell_fields else None
                     for field in fields]
        pick = lambda cells: tuple("" if i is None else cells[i] for i in positions)  # noqa: E731
    position = fields.index("EC") if prefix and "EC" in fields else None
    text = []
    for cells in lines:
        values = header if cells is None else pick(cells)
        if position is not None:
            values = list(values)
            values[position] = f"{prefix}-{values[position]}"
            values = tuple(values)
        text.append(fmt % values)
    return "".join(text)


@dataclasses.dataclass
class Section:
    """A prepared table: its lines' cells (in ``cell_fields`` order), the
    widths when it is printed, and the fields it prints."""

    lines: list
    widths: dict
    fields: tuple
    cell_fields: tuple


def render_section(section: Section, tabs: bool) -> str:
    if not section.lines:
        return ""
    return render_lines([None, *section.lines], section.fields, section.widths, tabs,
                        cell_fields=section.cell_fields)
