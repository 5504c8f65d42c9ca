"""Reading the score tables beside a ``.debug`` (``.sf``, ``.ldcmax`` and
``.summary``) back into numbers keyed by row, so the diff can show per-query
F1 and the aggregates with both scores.

Each holds a column table per run: a header line (``QID/EC RunID Hop ...``
for Cold Start, ``Metric Score`` for the claim tasks), its rows, and for Cold
Start a blank line and a ``*`` footnote.  Rows whose middle cells are blank
(``ALL-Macro``) are aligned on the right, where their numbers are.  Every cell
is checked as the .debug is: a file cut short, a damaged number or an unknown
layout is an error naming the file and line, never a row read as missing.
"""
from __future__ import annotations

import re

from scorer import prf
from scorer.problems import ScorerError
from scorer.textfile import read_text

#: Header first cell -> the header cells that name a row.
KEY_COLUMNS = {"QID/EC": ("QID/EC", "RunID", "Hop"), "Metric": ("Metric",)}
#: Value columns holding counts (``%4d``) and scores (``%6.4f``).
COUNT_COLUMNS = frozenset(("GT", "Submitted", "Correct", "Incorrect", "Inexact", "PIncorrect",
                           "Unassessed", "Dup", "Right", "Wrong", "Ignored"))
SCORE_COLUMNS = frozenset(("Prec", "Recall", "F1", "AP", "Score"))
WHOLE_NUMBER = re.compile(r"\d+")
DECIMAL = re.compile(r"-?\d+\.\d+|[-+]?(nan|inf)", re.IGNORECASE)
HOP = re.compile(r"\d+|ALL")


def read_table(path: str) -> dict:
    """{row key (tuple of names): {column: value text}}, in file order."""
    text = read_text(path)
    if not text:
        return {}  # the reports of a run without responses are empty
    lines = text.split("\n")
    if lines[-1] != "":
        # Every table ends with a newline: a missing one means a cut file.
        raise ScorerError(f"{path} line {len(lines)}: the file is truncated "
                          f"(its last line does not end)")
    lines.pop()
    table: dict = {}
    first_line: dict = {}
    header, keys, values = None, (), []
    start = 0
    in_footnote = True  # what a table's rows end with; a header starts the next table
    footnote_seen = False
    for number, line in enumerate(lines, 1):
        cells = line.split()
        if in_footnote:
            # Between tables (one a run): blank lines, the footnote ('*ALL-Macro ...'),
            # then the next table's header.
            if cells and not line.startswith("*"):
                _check_ended(path, number, keys, start, footnote_seen)
                header, start = cells, number
                keys, values = _columns(path, number, header)
                in_footnote = footnote_seen = False
            elif header is None:
                raise _bad_header(path, number, cells)
            footnote_seen = footnote_seen or line.startswith("*")
            continue
        if not cells:
            in_footnote = True
            continue
        if len(cells) < len(keys) + 1 or len(cells) > len(header):
            raise ScorerError(f"{path} line {number}: expected a row of the table "
                              f"'{' '.join(header)}', found '{_clip(line)}'")
        key = tuple(cells[:len(keys)])
        if len(keys) == 3 and not HOP.fullmatch(key[2]):
            raise ScorerError(f"{path} line {number}: expected a hop (0, 1, ... or ALL) in "
                              f"column Hop, found '{key[2]}'")
        row = dict(zip(values[len(values) - (len(cells) - len(keys)):], cells[len(keys):]))
        for column, value in row.items():
            wanted = WHOLE_NUMBER if column in COUNT_COLUMNS else DECIMAL
            if not wanted.fullmatch(value):
                kind = "a whole number" if column in COUNT_COLUMNS else "a decimal number"
                raise ScorerError(f"{path} line {number}: expected {kind} in column {column} "
                                  f"of row {' '.join(key)}, found '{_clip(value)}'")
        if key in table:
            raise ScorerError(f"{path} line {number}: a second row {' '.join(key)} "
                              f"(the first is on line {first_line[key]})")
        table[key] = row
        first_line[key] = number
    _check_ended(path, len(lines), keys, start, footnote_seen)
    return table


def _check_ended(path: str, number: int, keys: tuple, start: int, footnote_seen: bool) -> None:
    """A Cold Start table ends with its footnote (ours and the Perl's, every
    run's table): without it, the file was cut at the end of a line."""
    if len(keys) == 3 and not footnote_seen:
        raise ScorerError(f"{path} line {number}: the file is truncated: the table from "
                          f"line {start} ends without its footnote ('*ALL-Macro ...')")


def _columns(path: str, number: int, header: list) -> tuple:
    """(key columns, value columns) of a table's header line; an error for a
    layout the diff cannot read back."""
    keys = KEY_COLUMNS.get(header[0])
    values = header[len(keys):] if keys else []
    # Rows with blank cells are aligned on the right: counts must come first.
    scores = [i for i, name in enumerate(values) if name in SCORE_COLUMNS]
    counts_after = [name for name in values[scores[0]:] if name in COUNT_COLUMNS] \
        if scores else []
    if keys is None or tuple(header[:len(keys)]) != keys or not values or counts_after \
            or any(name not in COUNT_COLUMNS | SCORE_COLUMNS or values.count(name) > 1
                   for name in values):
        raise _bad_header(path, number, header)
    return keys, values


def _bad_header(path: str, number: int, cells: list) -> ScorerError:
    return ScorerError(f"{path} line {number}: expected a table header of 'QID/EC RunID Hop', "
                       f"counts, then scores (Cold Start, in the default -fields order) or "
                       f"'Metric Score' (SciFact, FEVER), found '{_clip(' '.join(cells))}'")


def _clip(text: str, width: int = 60) -> str:
    return text if len(text) <= width else text[:width] + "..."


def number(text) -> float:
    """A table cell as a number (NaN when it is not one)."""
    try:
        return float(text)
    except (TypeError, ValueError):
        return float("nan")


def exact_f1(row: dict):
    """The F1 of a ``.sf``/``.ldcmax`` row at full precision, from its counts
    (P = Right / (Submitted - Ignored), R = Right / GT, computed as the scorer
    computes them, so the very same double), or None when the row lacks a
    count (a -fields list left it out) or its printed scores are not what its
    counts give (then only the printed 4 decimals are known)."""
    try:
        right, gt = int(row["Right"]), int(row["GT"])
        denominator = int(row["Submitted"]) - int(row["Ignored"])
    except (KeyError, ValueError):
        return None
    p = prf.precision(right, denominator)
    r = prf.recall(right, gt)
    f = prf.f1(p, r)
    for column, value in (("Prec", p), ("Recall", r), ("F1", f)):
        if column in row and row[column] != "%0.4f" % value:
            return None
    return f if "F1" in row else None
