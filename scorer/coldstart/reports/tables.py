"""The layout of the Perl scorer's tables (spec §5.1, §5.2): field catalogue,
cell texts, column widths and line printing.

Quirk kept on purpose (spec §7.23): one set of column widths per run, raised
by every line prepared so far and never reset, so the ``.ldcmax``,
``.ldcmean`` and ``.summary`` columns are as wide as the widest cell of any
table prepared before them.
"""
from __future__ import annotations

import dataclasses
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

    def widen(self, cells: dict) -> None:
        widths = self.widths
        for name, text in cells.items():
            if len(text) > widths.get(name, 0):
                widths[name] = len(text)

    def snapshot(self) -> dict:
        return dict(self.widths)


def data_cells(fields, name: str, runid: str, level, counts: Optional[dict],
               ground_truth, p: float, r: float, f: float) -> dict:
    """Cells of a data or ALL-Micro line; a missing count shows as 0."""
    cells = {}
    for field in fields:
        fmt = FIELDS[field][1]
        if field == "EC":
            value = name
        elif field == "RUNID":
            value = runid
        elif field == "LEVEL":
            value = str(level)
        elif field == "GT":
            value = ground_truth
        elif field in ("P", "R", "F", "AP"):
            value = {"P": p, "R": r, "F": f, "AP": p}[field]
        else:
            value = counts.get(field, 0) if counts is not None else 0
        cells[field] = fmt % value
    return cells


def macro_cells(fields, runid: str, level: str, p: float, r: float, f: float) -> dict:
    """Cells of an ALL-Macro line: only the scores; other columns blank."""
    cells = {}
    for field in fields:
        fmt = FIELDS[field][1]
        if field == "EC":
            cells[field] = "ALL-Macro"
        elif field == "RUNID":
            cells[field] = runid
        elif field == "LEVEL":
            cells[field] = level
        elif field in ("P", "R", "F", "AP"):
            cells[field] = fmt % {"P": p, "R": r, "F": f, "AP": p}[field]
        else:
            cells[field] = _blank_format(fmt) % ""
    return cells


def render_line(cells: Optional[dict], fields, widths: dict, tabs: bool,
                prefix: Optional[str] = None) -> str:
    """One printed line; ``cells`` None prints the header."""
    parts = []
    for field in fields:
        header, _fmt, justify, _help = FIELDS[field]
        text = header if cells is None else cells.get(field, "")
        if field == "EC" and prefix:
            text = f"{prefix}-{text}"
        if tabs:
            parts.append(text)
        elif justify == "R":
            parts.append(text.rjust(widths.get(field, 0)))
        else:
            parts.append(text.ljust(widths.get(field, 0)))
    return ("\t" if tabs else " ").join(parts) + "\n"


@dataclasses.dataclass
class Section:
    """A prepared table: its lines' cells, and the widths when it is printed."""

    lines: list
    widths: dict
    fields: tuple


def render_section(section: Section, tabs: bool) -> str:
    text = []
    if section.lines:
        text.append(render_line(None, section.fields, section.widths, tabs))
        text.extend(render_line(cells, section.fields, section.widths, tabs)
                    for cells in section.lines)
    return "".join(text)


def counts_dict(counts_row) -> dict:
    return {field: int(value) for field, value in zip(_COUNT_FIELDS, counts_row)}
