"""``-slices SPEC``: which units of a track make up each slice.

A task's built-in slicing (``label`` for the claim tasks and the label
tasks, which declare theirs: a task's ``track.slicings`` and ``track.slice_records``),
``field:KEY`` (a key of every gold line), or ``file:PATH`` (two columns, unit
id then slice name; a unit may sit in several slices).  Cold Start's ``hop``
puts every query in both slices, each scored on its own hop's statistics
(``Slicing.levels``).  Read and checked
before any run is scored; the units are checked against the track's own
after (``Slicing.check_units``).  Every problem names the file, the line and
the unit, and stops the track with nothing written.
"""
from __future__ import annotations

import dataclasses
import hashlib

from scorer.coldstart.metrics import BY_NAME
from scorer.coldstart.queries import _query_blocks, parse_query
from scorer.countstable.jsonl import read_objects
from scorer.problems import Problems, ScorerError
from scorer.textfile import read_text

#: The built-in slicings of the tasks that do not declare theirs (``track.slicings``).
BUILT_IN = {"scifact": ("label",), "fever": ("label",),
            "coldstart": ("slot", "language", "hop")}
#: Cold Start's hop slices and the level of the statistics each takes.
COLDSTART_HOPS = {"hop0": "0", "hop1": "1"}


def built_in(task) -> tuple:
    """A task's built-in slicings: its own declaration, else :data:`BUILT_IN`'s."""
    return tuple(task.track.slicings or BUILT_IN.get(task.name, ()))
#: Cold Start's languages, in the order the slices take (the documents' prefixes).
COLDSTART_LANGUAGES = ("ENGLISH", "CHINESE", "SPANISH")
#: SciFact's claims without evidence (the dataset's own name for the label).
SCIFACT_NO_EVIDENCE = "NOT_ENOUGH_INFO"
SCIFACT_LABELS = ("SUPPORT", "CONTRADICT", SCIFACT_NO_EVIDENCE)
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


def read(spec: str, task, shared: list) -> Slicing:
    """The slicing ``spec`` names, for ``task`` (a task record) whose shared
    files are ``shared`` (the gold first)."""
    if spec.startswith("file:"):
        return _read_file(spec, spec[len("file:"):])
    if spec.startswith("field:"):
        key = spec[len("field:"):]
        if not key:
            raise ScorerError("-slices field:KEY needs a key of the gold, such as field:domain")
        return _gold_slicing(spec, task, shared, key)
    if task.name == "coldstart" and spec == "hop":
        return _hop_slicing(spec, shared)
    if task.name == "coldstart" and spec in BUILT_IN["coldstart"]:
        return _query_slicing(spec, shared)
    if spec in built_in(task):
        return _gold_slicing(spec, task, shared, None)
    known = ", ".join(built_in(task) + ("field:KEY", "file:PATH"))
    raise ScorerError(f"-slices {spec}: not a slicing of {task.title}; give {known}")


def _read_file(spec: str, path: str) -> Slicing:
    if not path:
        raise ScorerError("-slices file:PATH needs a file of two columns, unit id and slice")
    try:
        text = read_text(path)
    except OSError as error:
        raise ScorerError(f"Could not open {path}: {error.strerror or error}")
    slices: dict = {}
    lines: dict = {}
    placed: dict = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if number == 1:
            line = line.lstrip("\ufeff")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        columns = line.split("\t") if "\t" in line else line.split()
        columns = [column.strip() for column in columns]
        if len(columns) != 2 or not all(columns):
            raise ScorerError(f"{path} line {number}: expected two columns, a unit id and a "
                              f"slice name (tab or blank between), not '{_shown(line)}'")
        unit, name = columns
        earlier = placed.setdefault((unit, name), number)
        if earlier != number:
            raise ScorerError(f"{path} line {number}: unit '{unit}' is in slice '{name}' "
                              f"already (line {earlier})")
        slices.setdefault(name, []).append(unit)
        lines.setdefault(unit, number)
    if not slices:
        raise ScorerError(f"{path}: no slice; each line holds a unit id and a slice name")
    return _made(spec, path, slices, lines)


def _made(spec: str, path: str, slices: dict, lines: dict) -> Slicing:
    for name, members in slices.items():
        if name in RESERVED:
            raise ScorerError(f"{path} line {lines[members[0]]}: unit '{members[0]}': slice "
                              f"'{name}' takes the name of a column of the run x slice table "
                              f"({', '.join(RESERVED)}); name it otherwise")
    return Slicing(spec, path, {name: tuple(units) for name, units in slices.items()}, lines)


def _shown(text: str, most: int = 60) -> str:
    return text if len(text) <= most else text[:most] + "..."


def _gold_slicing(spec: str, task, shared: list, key) -> Slicing:
    """Slices of the gold's lines: by ``key``'s value, or (None) by the label."""
    if not shared:
        raise ScorerError(f"-slices {spec}: the track has no gold file")
    path = shared[0]
    records = _gold_records(task, path)
    if key is not None and not any(key in record for _line, _unit, record in records):
        raise ScorerError(f"{path}: no line has the key '{key}' (-slices {spec})")
    slices: dict = {name: [] for name in _label_order(task)} if key is None else {}
    lines: dict = {}
    for line, unit, record in records:
        if key is None:
            names = _labels(task, record)
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
    return _made(spec, path, slices, lines)


def _label_order(task) -> tuple:
    if task.name == "scifact":
        return SCIFACT_LABELS
    return tuple(getattr(task, "labels", ()) or ())


def _gold_records(task, path: str) -> list:
    """``(line, unit id as the track names it, record)`` of every gold line."""
    if task.track.slicings:
        return task.track.slice_records(path)
    objects = read_objects(path, lenient=True)
    keys, _source = task.read_gold_keys(path)
    if len(keys) != len(objects):
        raise ScorerError(f"{path}: {len(objects)} lines but {len(keys)} claims; cannot tell "
                          f"which line is which claim for -slices")
    return [(line, unit, record) for (line, record), unit in zip(objects, keys)]


def _labels(task, record: dict) -> list:
    """A gold line's label(s): SciFact's claims the labels of their evidence
    (NOT_ENOUGH_INFO without any), the others their ``label``."""
    if task.name == "scifact":
        found = []
        evidence = record.get("evidence") or {}
        if isinstance(evidence, dict):
            for rationales in evidence.values():
                for rationale in rationales if isinstance(rationales, list) else []:
                    label = rationale.get("label") if isinstance(rationale, dict) else None
                    if isinstance(label, str) and label not in found:
                        found.append(label)
        return found or [SCIFACT_NO_EVIDENCE]
    return [str(record.get("label"))]


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


def _query_slicing(spec: str, shared: list) -> Slicing:
    """Cold Start's LDC queries by the slot their hop 0 asks for (``slot``, the
    slices in the slots' order), or
    by the language of their entry points' documents (``language``: a query
    with entry points in several languages sits in each; the query is scored
    whole, every entry point, in each)."""
    found: dict = {}              # full id -> (path, line, query); a later one wins
    paths = [path for path in shared if _is_xml(path)]
    for path in paths:
        text = read_text(path).replace("\r\n", "\n").replace("\r", "\n")
        for line, block in _query_blocks(text):
            query = parse_query(block, path, Problems(), line)
            if query is not None and query.slots:
                found[query.full_id] = (path, line, query)
    if not found:
        raise ScorerError(f"-slices {spec}: no query in the track's query files "
                          f"({', '.join(paths) or 'none given'})")
    slices: dict = {name: [] for name in COLDSTART_LANGUAGES} if spec == "language" else {}
    lines: dict = {}
    for unit in sorted(found):
        path, line, query = found[unit]
        if spec == "slot":
            names = [query.slot(0)]
        else:
            names = [language for language in COLDSTART_LANGUAGES
                     if any(e.language == language for e in query.entry_points)]
        for name in names:
            slices.setdefault(name, []).append(unit)
        lines.setdefault(unit, line)
    slices = {name: units for name, units in (sorted(slices.items()) if spec == "slot"
                                              else slices.items()) if units}
    made = _made(spec, ", ".join(paths), slices, lines)
    return dataclasses.replace(made, hint="; Cold Start's built-in slicings slice LDC "
                                          "queries: give -expand")


def _is_xml(path: str) -> bool:
    try:
        with open(path, "rb") as f:
            return f.read(256).lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<")
    except OSError:
        return False


def check_metric(slicing: Slicing, metric: str) -> None:
    """The hop slices score each hop as the runs' ``.ap`` reports do: the AP
    metrics only (the .summary's per-hop P/R/F1 lines are not per-unit sums
    of the statistics the track draws)."""
    if slicing.levels is None:
        return
    if metric not in BY_NAME or BY_NAME[metric].aggregate != "AP":
        ranked = ", ".join(name for name, m in BY_NAME.items() if m.aggregate == "AP")
        raise ScorerError(f"-slices {slicing.spec} scores each hop as the runs' .ap reports "
                          f"do: rank by {ranked} (-metric), not {metric}")


def _hop_slicing(spec: str, shared: list) -> Slicing:
    """Cold Start's hops: every query is a unit of each hop's slice, scored on
    its hop-0 (hop-1) responses and assessments alone, as the runs' ``.ap``
    reports score each hop; the bootstrap draws a query for both hops at once."""
    queries = _query_slicing("slot", shared)
    units = sorted(queries.lines)
    return dataclasses.replace(queries, spec=spec,
                               slices={name: tuple(units) for name in COLDSTART_HOPS},
                               levels=dict(COLDSTART_HOPS))
