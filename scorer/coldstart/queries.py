"""Cold Start queries: the query XML files, ``-expand`` (one SF query per entry
point), generated hop-1 queries, and the ``-queries`` selection with hop
limits (spec §2.1-§2.4).
"""
from __future__ import annotations

import math
import os
import re
from typing import Optional

from scorer.coldstart import ids, slots
from scorer.limits import is_short_number, shorten
from scorer.problems import Problems, ScorerError, Where
from scorer.textfile import read_text

LANGUAGE_CODES = {"ENGLISH": "ENG", "SPANISH": "SPA", "CHINESE": "CMN"}

# The query file is scanned with str.find, not with the lazy patterns the
# Perl uses (``<query .*?>.*?</query>``, ``<(.*?)>(.*?)</(.*?)>``): they find
# the same text, but a pattern that fails to close backtracks over the rest
# of the file at every start, which is quadratic or worse on damaged files.
_QUERY_HEAD = re.compile(r"<query\s+id=\"(.*?)\">", re.S)
_MENTION_TAGS = re.compile(r"</?mentions?>")
_SINGLE_TAGS = ("ENTTYPE", "NODEID", "SLOT", "SLOT0", "SLOT1", "SLOT2")
_ENTRY_POINT_TAGS = {"NAME": "NAME", "DOCID": "DOCID", "BEG": "START", "END": "END",
                     "OFFSET": "OFFSET"}
_ENTITIES = {"quot": '"', "amp": "&", "apos": "'", "lt": "<", "gt": ">"}


def infer_language(docid: str, problems: Problems, where: Optional[Where]) -> str:
    """The language of a document from its id (spec §2.1 item 7)."""
    upper = docid.upper()
    if upper.startswith("CMN"):
        return "CHINESE"
    if upper.startswith("SPA"):
        return "SPANISH"
    if upper.startswith("ENG_") or "_ENG_" in upper:
        return "ENGLISH"
    problems.record("FAILED_LANG_INFERENCE", docid, "ENGLISH", where=where)
    return "ENGLISH"


class EntryPoint:
    __slots__ = ("docid", "start", "end", "name", "language")

    def __init__(self, docid, start, end, name, language):
        self.docid, self.start, self.end, self.name, self.language = docid, start, end, name, language


class Query:
    """One query: an LDC query, an expanded SF query, or a generated hop-1 query."""

    __slots__ = ("short_id", "prefix", "level", "parent", "slots", "entry_points",
                 "expanded_ids", "generated", "was_expanded", "full_id")

    def __init__(self, short_id, prefix, level=0, parent=None, slot_names=(), entry_points=(),
                 generated=False, was_expanded=False):
        self.short_id = short_id
        self.prefix = prefix
        self.level = level
        self.parent = parent
        self.slots = list(slot_names)
        self.entry_points = list(entry_points)
        self.expanded_ids: list = []
        self.generated = generated
        #: True once the query has been expanded into SF queries (or was read
        #: with an SF-style id): such queries can be the LDC side of the index.
        self.was_expanded = was_expanded
        if parent is None:
            self.full_id = f"{prefix}_{short_id}" if prefix is not None else f"_{short_id}"
        else:
            self.full_id = f"{parent.full_id}_{short_id}"

    def slot(self, n: int) -> Optional[str]:
        return self.slots[n] if n < len(self.slots) else None

    def slot_quantity(self, n: int) -> Optional[str]:
        return slots.quantity(self.slot(n))

    @property
    def quantity(self) -> Optional[str]:
        return self.slot_quantity(0)

    @property
    def max_level(self) -> int:
        """The highest hop this query asks for (number of slots - 1)."""
        return len(self.slots) - 1


class QuerySet:
    """Queries by short id, plus the SF -> LDC index made by expansion."""

    def __init__(self):
        self.queries: dict = {}
        self.query_files: list = []

    def get(self, short_id: str) -> Optional[Query]:
        return self.queries.get(short_id)

    def add(self, query: Query) -> None:
        existing = self.queries.get(query.short_id)
        # A query read or expanded wins over one generated from a response.
        if existing is None or not query.generated:
            self.queries[query.short_id] = query

    def expand(self, base: str) -> None:
        """Add one SF query per entry point of every query (``-expand``); an SF
        query with the same id as an existing one replaces it (spec §2.3)."""
        for query in list(self.queries.values()):
            for sf_query in expand_query(query, base):
                query.expanded_ids.append(sf_query.short_id)
                self.add(sf_query)
            query.was_expanded = True

    def index(self) -> dict:
        """SF short id -> LDC short id, for queries that were expanded and are
        still in the set (later LDC ids in string order win on collisions)."""
        result = {}
        for short_id in sorted(self.queries):
            query = self.queries[short_id]
            if query.was_expanded:
                for expanded_id in query.expanded_ids:
                    result[expanded_id] = short_id
        return result

    def top_level_ids(self) -> list:
        return sorted(q.short_id for q in self.queries.values() if not q.generated)


def expand_query(query: Query, base: str) -> list:
    """One single-entry-point SF query per entry point of ``query`` (spec §2.3)."""
    result = []
    for entry_point in query.entry_points:
        short_id = ids.expanded_query_short_id(entry_point.docid or "", entry_point.start or "",
                                               entry_point.end or "", query.slots)
        code = LANGUAGE_CODES[entry_point.language]
        sf_query = Query(short_id, f"{base}_{code}", level=query.level, slot_names=query.slots,
                         entry_points=[entry_point])
        result.append(sf_query)
    return result


def generate_query(parent: Query, short_id: str, value: str, docid: str,
                   problems: Problems) -> Query:
    """The follow-up query of a response: the parent's slots but the first."""
    language = infer_language(docid, problems, None)
    return Query(short_id, parent.prefix, level=parent.level + 1, parent=parent,
                 slot_names=parent.slots[1:],
                 entry_points=(EntryPoint(docid, None, None, value, language),),
                 generated=True)


def read_query_files(paths, problems: Problems) -> QuerySet:
    queries = QuerySet()
    for path in paths:
        # Universal newlines, as the file was read in text mode before.
        text = read_text(path).replace("\r\n", "\n").replace("\r", "\n")
        queries.query_files.append(path)
        for line_number, block in _query_blocks(text):
            query = parse_query(block, path, problems, line_number)
            if query is not None and query.slots:
                queries.add(query)
    if paths and not queries.queries:
        problems.record("NO_QUERIES_LOADED", where=Where(detail=f"files({', '.join(paths)})"))
    return queries


def _query_blocks(text: str) -> list:
    """``(line number, block)`` for every ``<query ...>...</query>`` block, as
    ``<query .*?>.*?</query>`` finds them; a start that cannot be closed ends
    the search (no later one can)."""
    blocks = []
    position = 0
    line_number = 1
    while True:
        start = text.find("<query ", position)
        head_end = text.find(">", start + 7) if start >= 0 else -1
        end = text.find("</query>", head_end + 1) if head_end >= 0 else -1
        if end < 0:
            return blocks
        line_number += text.count("\n", position, start)
        blocks.append((line_number, text[start:end + len("</query>")]))
        line_number += text.count("\n", start, end)
        position = end + len("</query>")


def _tag_pairs(body: str) -> list:
    """``(tag, value, closing tag)`` as ``<(.*?)>(.*?)</(.*?)>`` finds them."""
    pairs = []
    position = 0
    while True:
        start = body.find("<", position)
        tag_end = body.find(">", start + 1) if start >= 0 else -1
        closer = body.find("</", tag_end + 1) if tag_end >= 0 else -1
        closer_end = body.find(">", closer + 2) if closer >= 0 else -1
        if closer_end < 0:
            return pairs
        pairs.append((body[start + 1:tag_end], body[tag_end + 1:closer],
                      body[closer + 2:closer_end]))
        position = closer_end + 1


def _replace_entities(value: str) -> str:
    """``&NAME;`` replaced as ``s/&(.+?);/.../g`` does (unknown names vanish)."""
    pieces = []
    position = 0
    while True:
        amp = value.find("&", position)
        semicolon = value.find(";", amp + 2) if amp >= 0 else -1
        if semicolon < 0:
            pieces.append(value[position:])
            return "".join(pieces)
        pieces += [value[position:amp], _ENTITIES.get(value[amp + 1:semicolon], "")]
        position = semicolon + 1


def parse_query(text: str, path: str, problems: Problems, line_number: int = 0) -> Optional[Query]:
    """One ``<query id="...">...</query>`` block (spec §2.1)."""
    match = _QUERY_HEAD.match(text)
    if not match:
        head = text[:25]
        # The Perl's location is this literal text (spec §7.32), not the file name.
        problems.record("MALFORMED_QUERY",
                        f'Query starting with "{head}" in text beginning <<{head}>>',
                        where=Where(detail="In file $filename"))
        return None
    query_id = match.group(1)
    body = text[match.end():-len("</query>")].strip()
    parsed = _parse_id(query_id, f"{path} line {line_number}")
    where = Where(file=path, detail=f"In query {query_id}")
    body = _MENTION_TAGS.sub("", body)
    single: dict = {}
    entry_points: list = []
    current: dict = {}
    slot_values: dict = {}
    for tag, value, closer in _tag_pairs(body):
        tag, closer = tag.upper(), closer.upper()
        if tag != closer:
            problems.record("MISMATCHED_TAGS", tag, closer, where=where)
        if tag in _ENTRY_POINT_TAGS:
            key = _ENTRY_POINT_TAGS[tag]
            if tag == "NAME":
                value = _replace_entities(value)
            if key in current:
                entry_points.append(current)
                current = {}
            current[key] = value
        elif tag in _SINGLE_TAGS:
            if tag in single:
                problems.record("DUPLICATE_QUERY_FIELD", tag, where=where)
                continue
            single[tag] = value
            slot_match = re.fullmatch(r"SLOT(\d)", tag)
            if slot_match:
                slot_values[int(slot_match.group(1))] = value
                if slots.quantity(value) is None:
                    problems.record("UNKNOWN_SLOT_NAME", value)
        else:
            problems.record("UNKNOWN_QUERY_FIELD", tag, where=where)
    if current:
        entry_points.append(current)
    slot_names = [slot_values.get(n) for n in range(max(slot_values) + 1)] if slot_values else []
    if None in slot_names:
        # Every hop needs its slot; the Perl fails later, deep inside the id hashing.
        raise ScorerError(f"{path}: query {query_id} has <slot{max(slot_values)}> but no "
                          f"<slot{slot_names.index(None)}>; a query's slots are numbered "
                          f"from <slot0>, one per hop")
    query = Query(parsed.short_id, parsed.prefix, level=parsed.level, slot_names=slot_names,
                  was_expanded=parsed.hashed)
    for fields in entry_points:
        docid = fields.get("DOCID", "")
        check_entry_point_offsets(fields.get("START"), fields.get("END"), problems, where)
        language = infer_language(docid, problems, where)
        query.entry_points.append(EntryPoint(docid, fields.get("START"), fields.get("END"),
                                             fields.get("NAME"), language))
    return query


def check_entry_point_offsets(start, end, problems: Problems, where: Where) -> None:
    """An entry point's offsets are checked like a one-span provenance (messages only)."""
    bad = False
    for offset in (start, end):
        if offset is None or not re.fullmatch(r"\d+", offset) or not is_short_number(offset):
            problems.record("ILLEGAL_OFFSET", "" if offset is None else offset, where=where)
            bad = True
    if bad:
        return
    if int(end) < int(start):
        problems.record("ILLEGAL_OFFSET_PAIR", start, end, where=where)
    elif int(end) - int(start) + 1 > 200:
        problems.record("TOO_MANY_CHARS", 200, where=where)


def resolve_queries_to_score(spec: Optional[str], queries: QuerySet,
                             problems: Problems) -> dict:
    """SF short id -> hop limit (None: undefined, which the Perl treats as 0).

    ``spec`` is None (every query), a file of ``LDCID SFID [LIMIT]`` lines, or
    a colon-separated list of ids (spec §2.4).
    """
    limits: dict = {}
    if spec is None:
        for short_id in queries.top_level_ids():
            limits[short_id] = queries.get(short_id).max_level
    elif os.path.isfile(spec):
        limits = _read_queries_file(spec, queries, problems)
    else:
        for full_id in spec.split(":"):
            if full_id == "":
                continue
            short_id = _parse_id(full_id, f"-queries {spec}").short_id
            query = queries.get(short_id)
            if query is None:
                problems.record("UNKNOWN_QUERY_ID_WARNING", short_id)
                continue
            limits[short_id] = query.max_level
    result: dict = {}
    for short_id in sorted(limits):
        query = queries.get(short_id)
        root = _root(query)
        if not root.expanded_ids:
            result[root.short_id] = limits[short_id]
        for expanded_id in root.expanded_ids:
            result[expanded_id] = limits.get(expanded_id)
    return result


def _parse_id(full_id: str, place: str) -> ids.ParsedId:
    try:
        return ids.parse_query_id(full_id)
    except ScorerError as error:
        raise ScorerError(f"{place}: {error}")


def _root(query: Query) -> Query:
    while query.parent is not None:
        query = query.parent
    return query


#: A hop limit as a -queries file (or an ids file) gives it: a whole number,
#: also written as a decimal ("0.0", which the Perl reads as 0); a sign is
#: let through for the range check's message.  Anything else the Perl reads
#: by its leading number ("one" as 0, "1x" as 1), so it is refused.
_HOP_LIMIT = re.compile(r"[-+]?[0-9]+(?:\.0*)?")


def is_hop_limit_text(text: str) -> bool:
    """True when ``text`` is a hop limit written as a whole number (range unchecked)."""
    return _HOP_LIMIT.fullmatch(text) is not None


def _read_queries_file(path: str, queries: QuerySet, problems: Problems) -> dict:
    limits: dict = {}
    declared: dict = {}
    index = queries.index()
    lines = read_text(path).split("\n")
    if lines[-1] == "":
        lines.pop()
    for line_number, line in enumerate(lines, 1):
        if not line.strip():
            raise ScorerError(f"{path} line {line_number}: blank line; expected "
                              f"'LDC_QUERY_ID SF_QUERY_ID [HOP]'")
        fields = line.split()
        if line[:1].isspace():
            raise ScorerError(f"{path} line {line_number}: the line starts with white space; "
                              f"expected 'LDC_QUERY_ID SF_QUERY_ID [HOP]'")
        if len(fields) == 2 and line != line.rstrip():
            # The Perl reads the empty text after the SF id as hop limit 0 (it
            # splits with a limit, so the empty last field stays), spec §7.33.
            raise ScorerError(f"{path} line {line_number}: white space (or a carriage "
                              f"return) after the SF query id; remove it or give the hop "
                              f"limit: 'LDC_QUERY_ID SF_QUERY_ID [HOP]'")
        if len(fields) < 2:
            raise ScorerError(f"{path} line {line_number}: expected "
                              f"'LDC_QUERY_ID SF_QUERY_ID [HOP]', got '{line}'")
        if len(fields) > 3:
            raise ScorerError(f"{path} line {line_number}: {len(fields)} columns; expected "
                              f"'LDC_QUERY_ID SF_QUERY_ID [HOP]'")
        ldc_id, sf_full_id = fields[0], fields[1]
        limit_text = fields[2] if len(fields) > 2 else None
        if limit_text is not None and not is_hop_limit_text(limit_text):
            raise ScorerError(f"{path} line {line_number}: the hop limit '{shorten(limit_text)}' "
                              f"is not a whole number; expected 'LDC_QUERY_ID SF_QUERY_ID [HOP]'")
        limit = _number(limit_text) if limit_text is not None else None
        wanted = limit if limit is not None else -1
        if ldc_id in declared and declared[ldc_id] != wanted:
            raise ScorerError(f"{ldc_id} has multiple/conflicting num_slots in {path} "
                              f"line {line_number}")
        declared.setdefault(ldc_id, wanted)
        short_id = _parse_id(sf_full_id.replace("\r", ""), f"{path} line {line_number}").short_id
        query = queries.get(short_id)
        if query is None:
            problems.record("UNKNOWN_QUERY_ID_WARNING", short_id)
            continue
        _check_ldc_column(ldc_id, short_id, sf_full_id, queries, index,
                          f"{path} line {line_number}")
        if limit is None:
            limit = query.max_level
        if limit > query.max_level or limit < 0:
            raise ScorerError(f"Unexpected num_slots value {shorten(limit_text)} for {ldc_id} in "
                              f"{path} line {line_number} (hop limits of this query: 0 to "
                              f"{query.max_level})")
        limits[short_id] = int(limit)
    return limits


def _check_ldc_column(ldc_id: str, short_id: str, sf_full_id: str, queries: QuerySet,
                      index: dict, place: str) -> None:
    """The LDC column must name the LDC query the SF query was expanded from
    (or, for an LDC query named in the SF column, that query): the Perl does
    not read the column, so a line of another query set would pass unseen.
    Queries read with SF-style ids have no LDC query loaded to check against."""
    owner = index.get(short_id)
    if owner is None and not ids.parse_query_id(sf_full_id).hashed:
        owner = short_id
    if owner is None:
        return
    expected = queries.get(owner).full_id
    if ldc_id != expected:
        raise ScorerError(f"{place}: the query {sf_full_id} belongs to the LDC query "
                          f"{expected}, not to '{shorten(ldc_id)}'")


def _number(text: str) -> float:
    """Perl's numeric value of a string: its leading number, else 0."""
    match = re.match(r"\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?", text)
    if not match:
        return 0
    value = float(match.group(0))
    if math.isinf(value):
        return value  # out of range for any query; refused by the caller
    return int(value) if value == int(value) else value
