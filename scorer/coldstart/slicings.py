"""Cold Start's built-in slicings (``python -m scorer.track -slices``), which
its track declares (``scorer/tasks/coldstart.py``): the LDC queries by the
slot their hop 0 asks for (``slot``), by their entry points' languages
(``language``), and the hops (``hop``: every query in both slices, each
scored on its own hop's statistics, ``Slicing.levels``)."""
from __future__ import annotations

import dataclasses

from scorer.coldstart.metrics import BY_NAME
from scorer.coldstart.queries import _query_blocks, parse_query
from scorer.problems import Problems, ScorerError
from scorer.slicing import Slicing, made
from scorer.textfile import read_text

#: Cold Start's languages, in the order the slices take (the documents' prefixes).
LANGUAGES = ("ENGLISH", "CHINESE", "SPANISH")
#: Cold Start's hop slices and the level of the statistics each takes.
HOPS = {"hop0": "0", "hop1": "1"}


def query_slicing(spec: str, shared: list) -> Slicing:
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
    slices: dict = {name: [] for name in LANGUAGES} if spec == "language" else {}
    lines: dict = {}
    for unit in sorted(found):
        path, line, query = found[unit]
        if spec == "slot":
            names = [query.slot(0)]
        else:
            names = [language for language in LANGUAGES
                     if any(e.language == language for e in query.entry_points)]
        for name in names:
            slices.setdefault(name, []).append(unit)
        lines.setdefault(unit, line)
    slices = {name: units for name, units in (sorted(slices.items()) if spec == "slot"
                                              else slices.items()) if units}
    slicing = made(spec, ", ".join(paths), slices, lines)
    return dataclasses.replace(slicing, hint="; Cold Start's built-in slicings slice LDC "
                                             "queries: give -expand")


def _is_xml(path: str) -> bool:
    try:
        with open(path, "rb") as f:
            return f.read(256).lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<")
    except OSError:
        return False


def hop_slicing(spec: str, shared: list) -> Slicing:
    """Cold Start's hops: every query is a unit of each hop's slice, scored on
    its hop-0 (hop-1) responses and assessments alone, as the runs' ``.ap``
    reports score each hop; the bootstrap draws a query for both hops at once."""
    queries = query_slicing("slot", shared)
    units = sorted(queries.lines)
    return dataclasses.replace(queries, spec=spec,
                               slices={name: tuple(units) for name in HOPS},
                               levels=dict(HOPS))


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
