"""``python -m scorer.coldstart validatequeries``: CS-ValidateQueries-MASTER.pl
2017.2.0.  Checks an LDC query file, repairs what it is asked to (slots whose
types or subtypes do not chain, with -types and -subtypes; queries that share
an entry point, with -dups) and, with -expand, makes one SF query of each
entry point: the SF query file the validator and the scorer read, with
-index_file the map from SF query to LDC query.

    python -m scorer.coldstart validatequeries -expand -query_base CSSF17 \\
        ldc-query.xml sf-query.xml

:func:`validate_queries` is the same as data.  Where the Perl visits queries
in its hash order (which LDC query an SF query comes from when two expand to
the same one; the index file's order), queries are visited in string order of
their ids.
"""
from __future__ import annotations

import re
from collections import namedtuple

from scorer.coldstart.toolkit import toolrun
from scorer.coldstart.toolkit.catalogue import FORMATS
from scorer.coldstart.toolkit.problemlog import Fatal, ProblemLog
from scorer.coldstart.toolkit.queryfile import (ALL_LANGUAGES, QuerySet, expand,
                                                 is_event_or_sentiment_slot, perl_true,
                                                 read_query_file)
from scorer.switches import Switch

TYPE_REPAIRS = {
    "none": "Do not repair mismatched slots",
    "delete-slot": "Delete second (and all subsequent) slots",
    "delete-query": "Delete the entire query",
}
SUBTYPE_REPAIRS = {
    "none": "Do not repair mismatched slots",
    "repair": "Modify second slot to match first",
    "delete-slot": "Delete second (and all subsequent) slots",
    "delete-query": "Delete the entire query",
}
DUPLICATE_REPAIRS = {
    "none": "Do not check for duplicates",
    "ignore": "Check for duplicates but do not repair",
    "delete": "Delete the later (orthographically) query",
}

#: A geographic subtype as a slot names it -> its normal name, and the name
#: a slot of this form takes for each other subtype.
_SUBTYPES = {
    "city": {"NORMAL": "city", "stateorprovince": "stateorprovince", "country": "country"},
    "cities": {"NORMAL": "city", "stateorprovince": "statesorprovinces", "country": "countries"},
    "stateorprovince": {"NORMAL": "stateorprovince", "city": "city", "country": "country"},
    "statesorprovinces": {"NORMAL": "stateorprovince", "city": "cities",
                          "country": "countries"},
    "country": {"NORMAL": "country", "city": "city", "stateorprovince": "stateorprovince"},
    "countries": {"NORMAL": "country", "city": "cities", "stateorprovince": "statesorprovinces"},
}


def _choices(repairs: dict) -> str:
    return "{" + "; ".join(f"{name}: {repairs[name]}" for name in sorted(repairs)) + "}"


SWITCHES = {switch.name: switch for switch in (
    Switch("dups", default="none",
           help="Check whether different queries with the same slots share one or more entry "
                f"points (choices are {_choices(DUPLICATE_REPAIRS)})"),
    toolrun.ERROR_FILE,
    Switch("expand", False, help="Expand single queries with multiple entry points into "
                                 "multiple queries with single entry points"),
    Switch("index_file", help="Filename into which to place mapping from output query name to "
                              "original LDC query name"),
    Switch("languages", default=ALL_LANGUAGES,
           help="Select the languages to be considered for output."),
    Switch("query_base", default="TAC2015CS", help="Base name for generated queries"),
    Switch("retain_sf", False, help="Retain queries with hop-0 SF slots; remove hop-1 non-SF "
                                    "slots"),
    Switch("subtypes", default="none", help="Repair queries with subtype mismatches (choices "
                                            f"are {_choices(SUBTYPE_REPAIRS)})"),
    Switch("types", default="none", help="Repair queries with type mismatches (choices are "
                                         f"{_choices(TYPE_REPAIRS)})"),
) + toolrun.HELP_SWITCHES}

PARAMS = (
    ("queryfile", True, "File containing queries used to generate the file being validated. "
                        "Only the original query file needs to be specified here"),
    ("outputfile", True, "File into which to place combined output"),
)

USAGE = toolrun.usage_text(
    "validatequeries", "Validates query files, correcting various problems. Converts queries "
                       "containing multiple entry points to multiple queries with single entry "
                       "points.", SWITCHES, PARAMS)


class QueryValidation(toolrun.LoggedResult,
                      namedtuple("QueryValidation", ("text", "index", "queries", "log"))):
    """What validatequeries makes: the query file's text, the index (pairs of
    SF query id and the LDC query id it was expanded from, with -expand), the
    queries kept (a :class:`~scorer.coldstart.toolkit.queryfile.QuerySet`) and
    the problems found (a :class:`~scorer.coldstart.toolkit.problemlog.ProblemLog`)."""

    __slots__ = ()

    def index_text(self) -> str:
        return "".join(f"{sf_id}\t{ldc_id}\n" for sf_id, ldc_id in self.index)


def _choice(value: str, repairs: dict, switch: str) -> str:
    choice = value.lower()
    if choice not in repairs:
        raise Fatal(f"Unknown -{switch} argument: {choice}")
    return choice


def fix_queries(queries: QuerySet, fix_types: str, fix_subtypes: str, log) -> QuerySet:
    """-types and -subtypes: each slot's domain must hold the previous slot's
    range (or the entity type, for the first); a geographic slot must follow
    one of the same subtype (``city_of_birth`` then ``residents_of_city``)."""
    fixed = QuerySet(queries.files)
    for query in queries.in_id_order():
        repairs = []
        last = len(query.slots) - 1
        deleted = False
        if fix_types != "none":
            domains = frozenset((query.fields.get("ENTTYPE") or "",))
            for number in range(last + 1):
                predicate = query.predicate(number)
                if predicate is not None and domains & predicate.domain:
                    domains = predicate.range
                    continue
                log.record("MISMATCHED_HOP_TYPES", query.short_id, ":".join(sorted(domains)),
                           query.fields.get(f"SLOT{number}") or "")
                deleted = fix_types == "delete-query"
                last = number - 1
                break
        if deleted:
            continue
        if fix_subtypes != "none":
            for number in range(last):
                first = query.predicate(number)
                match = re.match(r"(.*?)_of_.*$", first.name) if first is not None else None
                first_subtype = _SUBTYPES.get(match.group(1), {}).get("NORMAL") if match else None
                if first_subtype is None:
                    continue
                second = query.fields.get(f"SLOT{number + 1}")
                match = (re.match(r"(.*_of_)(.*)$", second) or re.search(r"(.*_in_)(.*)$", second)) \
                    if second is not None else None
                second_subtype = _SUBTYPES.get(match.group(2), {}).get("NORMAL") if match else None
                if second_subtype is None or second_subtype == first_subtype:
                    continue
                following = query.predicate(number + 1)
                log.record("MISMATCHED_HOP_SUBTYPES", query.short_id, first.name,
                           following.name if following is not None else "")
                if fix_subtypes == "delete-query":
                    deleted = True
                    break
                if fix_subtypes == "delete-slot":
                    # (the Perl dies here: its "last num" names a loop it is not in)
                    last = number
                    break
                repairs.append((f"SLOT{number + 1}",
                                match.group(1) + _SUBTYPES[second_subtype][first_subtype]))
        if deleted:
            continue
        new = query.copy(log)
        for tag, value in repairs:
            new.put(tag, value, log)
        new.truncate_slots(last)
        fixed.add(new)
    return fixed


def check_for_duplication(queries: QuerySet, fix_dups: str, log) -> QuerySet:
    """-dups: queries with the same slots and an entry point at the same
    place (DUPLICATE_QUERY: the later in id order is dropped with ``delete``),
    or with the same name (POSSIBLE_DUPLICATE_QUERY: kept)."""
    kept = QuerySet(queries.files)
    exact: dict = {}
    named: dict = {}
    pairs: set = set()
    for query in queries.in_id_order():
        slots = ":".join(slot or "" for slot in query.slots)
        duplicate = False
        for entry_point in query.entry_points:
            key = f"{entry_point.docid or ''}:{entry_point.start or ''}:{entry_point.end or ''}:" \
                  f"{slots}"
            if key in exact:
                pair = (exact[key], query.short_id)
                if pair not in pairs:
                    pairs.add(pair)
                    if fix_dups == "ignore":
                        kept.add(query)
                    log.record("DUPLICATE_QUERY", exact[key], query.short_id)
                duplicate = True
                break
            exact[key] = query.short_id
        if duplicate:
            continue
        possible = False
        for entry_point in query.entry_points:
            key = f"{entry_point.name or ''}:{slots}"
            earlier = named.get(key)
            if earlier is not None and earlier != query.short_id and \
                    (earlier, query.short_id) not in pairs:
                pairs.add((earlier, query.short_id))
                log.record("POSSIBLE_DUPLICATE_QUERY", earlier, query.short_id,
                           entry_point.name or "")
                possible = True
                break
            named[key] = query.short_id
        kept.add(query)
    return kept


def expand_queries(queries: QuerySet, base: str, languages, retain_sf: bool, log) -> tuple:
    """-expand: one SF query per entry point (an SF query made twice is the
    one of the later LDC query in id order); the index of those written."""
    expanded = QuerySet(queries.files)
    for query in queries.in_id_order():
        expand(query, base, expanded, log)
    selected = set(languages.split(":")) if perl_true(languages) else None
    index = []
    for query in expanded.in_id_order():
        if selected is not None and not selected.intersection(query.languages):
            continue
        if retain_sf and is_event_or_sentiment_slot(query.fields.get("SLOT0")):
            continue
        index.append((query.full_id, query.original_query_id))
    return expanded, index


def validate_queries(query_file: str, *, expand: bool = False, query_base: str = "TAC2015CS",
                     types: str = "none", subtypes: str = "none", dups: str = "none",
                     languages: str = ALL_LANGUAGES, retain_sf: bool = False) -> QueryValidation:
    """CS-ValidateQueries on ``query_file``, as data (nothing is written).

    ``expand``, ``query_base``, ``types``, ``subtypes``, ``dups``,
    ``languages`` and ``retain_sf`` are the switches of the same names.  A
    problem that stops the Perl (a file that cannot be read, an id of neither
    form, a query that lacks a required field) raises
    :class:`~scorer.coldstart.toolkit.problemlog.Fatal`; the others are in the
    result's log."""
    fix_types = _choice(types, TYPE_REPAIRS, "types")
    fix_subtypes = _choice(subtypes, SUBTYPE_REPAIRS, "subtypes")
    fix_dups = _choice(dups, DUPLICATE_REPAIRS, "dups")
    log = ProblemLog(FORMATS)
    return _validate(query_file, log, expand, query_base, fix_types, fix_subtypes, fix_dups,
                     languages, retain_sf)


def _validate(query_file, log, expand, query_base, fix_types, fix_subtypes, fix_dups,
              languages, retain_sf) -> QueryValidation:
    queries = read_query_file(query_file, log)
    if fix_types != "none" or fix_subtypes != "none":
        queries = fix_queries(queries, fix_types, fix_subtypes, log)
    if fix_dups != "none":
        queries = check_for_duplication(queries, fix_dups, log)
    index = []
    if expand:
        queries, index = expand_queries(queries, query_base, languages, retain_sf, log)
    text = queries.text(omit=("SLOT", "NODEID"), languages=languages, retain_sf=retain_sf)
    return QueryValidation(text, index, queries, log)


def main(argv) -> int:
    return toolrun.run(argv, SWITCHES, PARAMS, USAGE, _command)


def _command(given: dict, params: dict, errors) -> int:
    fix_types = _choice(given.get("types", "none"), TYPE_REPAIRS, "types")
    fix_subtypes = _choice(given.get("subtypes", "none"), SUBTYPE_REPAIRS, "subtypes")
    fix_dups = _choice(given.get("dups", "none"), DUPLICATE_REPAIRS, "dups")
    errors.open()
    output_file = params["outputfile"]
    index_file = given.get("index_file")
    for path in (output_file, index_file):
        if path is not None:
            toolrun.refuse_if_exists(path)
            toolrun.check_writable(path)
    log = ProblemLog(FORMATS)
    result = _validate(params["queryfile"], log, bool(given.get("expand")),
                       given.get("query_base", "TAC2015CS"), fix_types, fix_subtypes, fix_dups,
                       given.get("languages", ALL_LANGUAGES), bool(given.get("retain_sf")))
    outputs = {output_file: result.text}
    if index_file is not None:
        outputs[index_file] = result.index_text()
    return toolrun.finish(errors, log, outputs)
