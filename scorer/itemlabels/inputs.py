"""A gold or predictions file read into items, ``(line, id, label)`` in file
order, every refusal naming the file and the line; and the keys the gold's
items are drawn by (samples files, a track).

Each file is either JSON Lines, one ``{"id": ..., "label": ...}`` object a
line (an id a string or a whole number; ``1`` and ``"1"`` are one id), or two
tab-separated columns ``id<TAB>label`` (a first line ``id<TAB>label``, in any
case, is a header).  Blank lines and a UTF-8 byte-order mark opening the file
are skipped in both.  A file whose first non-blank line starts with ``{`` is
JSON Lines.
"""
from __future__ import annotations

import unicodedata

from scorer.countstable.evaluation import claim_keys
from scorer.countstable.jsonl import read_objects, type_name
from scorer.itemlabels.labels import CONTROL
from scorer.limits import shorten
from scorer.problems import ScorerError
from scorer.textfile import read_text

#: The UTF-8 byte-order mark, as text.
BOM = "\ufeff"


def read_items(path: str, role: str, labels: tuple | None = None) -> list:
    """``(line, id, label)`` of every item of a gold or predictions file, in
    file order; an id given twice, a line that is not an item, or (given the
    policy's ``labels``) a label not among them is an error naming the file
    and line.  A UTF-8 byte-order mark at the start (as
    spreadsheet programs and some Windows editors write) is not part of the
    first line."""
    text = read_text(path)
    bom = text.startswith(BOM)
    first = next((line for line in text.splitlines() if line.strip()), "")
    tsv = not first.lstrip(BOM + " \t").startswith("{")
    items = _tsv_items(path, text[1:] if bom else text) if tsv else _json_items(path)
    if labels is not None:
        _check_labels(items, path, labels, tsv)
    seen: dict = {}
    for line, item_id, _label in items:
        earlier = seen.setdefault(item_id, line)
        if earlier != line:
            raise ScorerError(f"{path} line {line}: id {shown(item_id)} is on line {earlier} "
                              f"too; each item of the {role} is given once")
    return items


def read_gold(path: str, labels: tuple | None = None) -> list:
    """:func:`read_items` of a gold file, which has an item at least."""
    items = read_items(path, "gold", labels)
    if not items:
        raise ScorerError(f"{path}: no item; a gold file gives each item its label")
    return items


def gold_keys(items: list) -> tuple:
    """``(unit keys, key source)`` of the gold's items, as samples files and a
    track's runs name them."""
    return claim_keys([item_id for _line, item_id, _label in items],
                      [line for line, _id, _label in items])


def starts_json_lines(path: str) -> bool:
    """Whether a gold file is JSON lines (its first byte past a BOM and blanks a '{')."""
    with open(path, "rb") as f:
        return f.read(64).lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{")


def shown(text: str) -> str:
    """An id or label as a message quotes it (shortened)."""
    return repr(shorten(text))


def _json_items(path: str) -> list:
    items = []
    for line, item in read_objects(path, lenient=True):
        for key in ("id", "label"):
            if key not in item:
                raise ScorerError(f"{path} line {line}: no '{key}'; an item is "
                                  f'{{"id": ..., "label": ...}}')
        item_id, label = item["id"], item["label"]
        if isinstance(item_id, bool) or not isinstance(item_id, (str, int)):
            raise ScorerError(f"{path} line {line}: 'id' must be a string or a whole number, "
                              f"not {type_name(item_id)}")
        if not isinstance(label, str):
            raise ScorerError(f"{path} line {line}: 'label' must be a string, not "
                              f"{type_name(label)}")
        item_id = item_id if isinstance(item_id, str) else str(item_id)
        if not item_id.strip():
            raise ScorerError(f"{path} line {line}: an empty id ({shown(item_id)})")
        if CONTROL.search(item_id):
            raise ScorerError(f"{path} line {line}: id {shown(item_id)} holds a tab, a line "
                              f"break or another control character")
        items.append((line, item_id, label))
    return items


def _tsv_items(path: str, text: str) -> list:
    items = []
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        if BOM in line:
            # (invisible: the id or label would look right in every message)
            raise ScorerError(f"{path} line {number}: a byte-order mark (U+FEFF, invisible) "
                              f"inside the line; save the file as UTF-8 (one mark at the "
                              f"start, or none, is read)")
        cells = line.split("\t")
        if number == 1 and [cell.strip().lower() for cell in cells] == ["id", "label"]:
            continue                                   # the header
        if len(cells) != 2:
            raise ScorerError(f"{path} line {number}: {len(cells)} tab-separated column(s); "
                              f"an item is id<TAB>label (or a JSON line "
                              f'{{"id": ..., "label": ...}})')
        if not cells[0].strip():
            raise ScorerError(f"{path} line {number}: an empty id ({shown(cells[0])})")
        items.append((number, cells[0], cells[1]))
    return items


def _check_labels(items: list, path: str, labels: tuple, tsv: bool) -> None:
    known = set(labels)
    for line, _item_id, label in items:
        if label not in known:
            raise ScorerError(f"{path} line {line}: label {shown(label)} is not one of the "
                              f"policy's labels ({', '.join(map(repr, labels))})"
                              f"{_label_hint(label, labels, tsv and line == 1)}")


def _label_hint(label: str, labels: tuple, first_tsv_line: bool) -> str:
    """Why a label that is not the policy's may look as if it were one."""
    for known in labels:
        if unicodedata.normalize("NFC", label) == unicodedata.normalize("NFC", known):
            return (f"; it differs from {known!r} only in its Unicode normalization (NFC, "
                    f"NFD), so it looks the same but is not")
    for known in labels:
        if label.strip() == known:
            return f"; it is {known!r} with white space around it"
    for known in labels:
        if label.casefold() == known.casefold():
            return f"; labels differ by case: the policy has {known!r}"
    if first_tsv_line:
        return "; a header line, if this is one, is id<TAB>label"
    return ""
