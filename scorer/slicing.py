"""A slicing of a track's units (``python -m scorer.track -slices SPEC``):
which units make up each slice (:class:`~scorer.slicing.Slicing`), and the
slicing every task with a gold of lines shares, by a key's value or by the
label (:func:`~scorer.slicing.gold_slicing`).  The reader of ``SPEC`` is
``scorer/track/slicespec.py``; a task's own slicings are its track's
(``scorer/capabilities.py``, ``Track``): its ``slicings``, made by its
``slicing``."""
from __future__ import annotations

import dataclasses
import hashlib

from scorer.problems import ScorerError

#: Names no slice may take: the run x slice table's own columns.
RESERVED = ("run", "rank", "all")


@dataclasses.dataclass(frozen=True)
class Slicing:
    spec: str                 # as given on the command line
    source: str               # the file the slices were read from
    #: slice name -> its units, in the order the file first names them; the
    #: slices themselves in that order too (built-in labels: the task's order)
    slices: dict
    #: unit -> the line of the file that first placed it
    lines: dict
    #: said after an unknown unit (what the slicing's units are)
    hint: str = ""
    #: slice -> the level of the per-unit statistics it takes (Cold Start's
    #: hops: every query sits in each, scored at that hop alone); None: the
    #: slices take the track's own statistics of their units
    levels: object = None

    def digest(self) -> str:
        """SHA-256 (first 16 hex digits) of the slices and their units, in order."""
        text = "\n".join(f"{name}\t" + "\t".join(units) for name, units in self.slices.items())
        return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]

    def check_units(self, units, units_word: str = "units") -> None:
        """Every unit named is one of the track's, and every slice keeps one."""
        known = set(units)
        for unit, line in self.lines.items():
            if unit not in known:
                raise ScorerError(f"{self.source} line {line}: unit '{unit}' is not one of the "
                                  f"track's {len(known):,} {units_word} (-slices {self.spec})"
                                  + self.hint)
        for name, members in self.slices.items():
            if not any(unit in known for unit in members):
                raise ScorerError(f"{self.source}: slice '{name}' has no unit of the track "
                                  f"(-slices {self.spec})")


def made(spec: str, path: str, slices: dict, lines: dict) -> Slicing:
    """The slicing ``spec`` of the units ``slices`` names (read from ``path``,
    each unit first placed at its line of ``lines``); a slice named as a
    column of the run x slice table is refused."""
    for name, members in slices.items():
        if name in RESERVED:
            raise ScorerError(f"{path} line {lines[members[0]]}: unit '{members[0]}': slice "
                              f"'{name}' takes the name of a column of the run x slice table "
                              f"({', '.join(RESERVED)}); name it otherwise")
    return Slicing(spec, path, {name: tuple(units) for name, units in slices.items()}, lines)


def gold_slicing(spec: str, track, shared: list, key=None) -> Slicing:
    """Slices of the gold's lines (the first of the ``shared`` files), as
    ``track`` (a task's Track) reads them (``slice_records``): by ``key``'s
    value (``field:KEY``), or (None) by the label (``slice_labels``, the
    slices in ``slice_label_order``, any other label after them)."""
    if not shared:
        raise ScorerError(f"-slices {spec}: the track has no gold file")
    path = shared[0]
    records = track.slice_records(path)
    if key is not None and not any(key in record for _line, _unit, record in records):
        raise ScorerError(f"{path}: no line has the key '{key}' (-slices {spec})")
    slices: dict = {name: [] for name in track.slice_label_order()} if key is None else {}
    lines: dict = {}
    for line, unit, record in records:
        if key is None:
            names = track.slice_labels(record)
        else:
            if key not in record:
                raise ScorerError(f"{path} line {line}: unit '{unit}' has no '{key}' "
                                  f"(-slices {spec})")
            names = _field_names(record[key], path, line, unit, key)
        for name in names:
            slices.setdefault(name, []).append(unit)
        lines.setdefault(unit, line)
    slices = {name: units for name, units in slices.items() if units}
    if not slices:
        raise ScorerError(f"{path}: no unit to slice (-slices {spec})")
    return made(spec, path, slices, lines)


def _field_names(value, path: str, line: int, unit: str, key: str) -> list:
    """A field's value as slice names: text or a number as it reads, a list
    of them as each one (the unit sits in every slice it names)."""
    values = value if isinstance(value, list) else [value]
    names = []
    for item in values:
        if isinstance(item, bool) or item is None or isinstance(item, (dict, list)):
            raise ScorerError(f"{path} line {line}: unit '{unit}': '{key}' must be text, a "
                              f"number or a list of them to name a slice")
        name = str(item)
        if name not in names:
            names.append(name)
    if not names:
        raise ScorerError(f"{path} line {line}: unit '{unit}': '{key}' is an empty list")
    return names
