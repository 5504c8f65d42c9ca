"""Reading the score tables beside a ``.debug`` (``.sf`` and ``.summary``) back
into numbers keyed by row, so the diff can show per-query F1 and the
aggregates with both scores.

Both are column tables under a header line (``QID/EC ...`` for Cold Start,
``Metric Score`` for the claim tasks).  Rows whose middle cells are blank
(``ALL-Macro``) are aligned on the right, where their numbers are.
"""
from __future__ import annotations

from scorer.problems import ScorerError
from scorer.textfile import read_text

#: Header first cell -> how many leading cells name a row.
KEY_WIDTH = {"QID/EC": 3, "Metric": 1}


def read_table(path: str) -> dict:
    """{row key (tuple of names): {column: value text}}, in file order."""
    table: dict = {}
    header = None
    for number, line in enumerate(read_text(path).split("\n"), 1):
        cells = line.split()
        if not cells or line.startswith("*"):
            continue
        if cells[0] in KEY_WIDTH:
            header = cells
            continue
        if header is None or cells[0].endswith(":"):
            # A title after a table ("SF: ...", "LDC-MEAN: ..."): no row of it.
            header = None
            continue
        width = KEY_WIDTH[header[0]]
        if len(cells) < width + 1 or len(cells) > len(header):
            raise ScorerError(f"{path} line {number}: expected a row of the table "
                              f"'{' '.join(header)}', found '{line.strip()}'")
        key = tuple(cells[:width])
        values = dict(zip(header[len(header) - (len(cells) - width):], cells[width:]))
        if key in table:
            table[key].update(values)
        else:
            table[key] = values
    return table


def number(text) -> float:
    """A table cell as a number (NaN when it is not one)."""
    try:
        return float(text)
    except (TypeError, ValueError):
        return float("nan")
