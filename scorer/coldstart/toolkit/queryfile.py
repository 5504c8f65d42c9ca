"""Query files as the toolkit's tools read and write them: the LDC and SF query
XML of Cold Start, read as ColdStartLib.pm 2017.2.0's Query and QuerySet read
it and written as they write it (the SF query file of CS-ValidateQueries, the
round-1 and round-2 query files of CS-GenerateQueries), byte for byte.

A query keeps what the Perl keeps of it: its id (prefix, short id, level),
the single fields as given (``<enttype>``, ``<nodeid>``, ``<slot>``,
``<slot0>``...), its slots and their predicates, and its entry points (the
name as written and as decoded, the document, the offsets), in the order
read.  Problems are recorded in a :class:`~scorer.coldstart.toolkit.problemlog.ProblemLog`
with the Perl's names, texts and places (``FILE line In query ID``); a query
the Perl cannot read or write raises :class:`~scorer.coldstart.toolkit.problemlog.Fatal`.

The scorer reads query files too (``scorer/coldstart/queries.py``, which keeps
only what scoring needs); this module reuses its scanning of the XML, which
finds what the Perl's patterns find without their backtracking.
"""
from __future__ import annotations

import re
from typing import Optional

from scorer.coldstart import ids
from scorer.coldstart.queries import LANGUAGE_CODES, _query_blocks, _tag_pairs, infer_language
from scorer.coldstart.toolkit.predicates import EVENT_TYPES, SENTIMENT_SLOTS, predicates
from scorer.coldstart.toolkit.problemlog import NO_SOURCE, Fatal, place
from scorer.problems import ScorerError
from scorer.textfile import read_bytes

#: Perl's ``\s`` on text (Unicode white space; not the separators U+001C-U+001F
#: that Python's ``str.isspace`` also counts).
PERL_SPACE = "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006" \
             "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
_SPACE = f"[{PERL_SPACE}]"
_QUERY_HEAD = re.compile(f'<query{_SPACE}+id="(.*?)">', re.S)
_MENTION_TAGS = re.compile(r"</?mentions?>")
_ENTITY = re.compile(r"&([^\n]+?);")
_ENTITIES = {"quot": '"', "amp": "&", "apos": "'", "lt": "<", "gt": ">"}
#: An offset as the Perl checks it: digits (``$`` lets a final line end through).
_OFFSET = re.compile(r"\d+\n?\Z")
_SLOT_TAG = re.compile(r"SLOT(\d+)\Z")

#: The single fields a query may have, in the order they are written.
SINGLE_FIELDS = ("ENTTYPE", "NODEID", "SLOT", "SLOT0", "SLOT1", "SLOT2")
REQUIRED_FIELDS = ("ENTTYPE", "SLOT0")
#: An entry point's fields, tag -> key, in the order they are written
#: (``<beg>`` is kept as START); the first four are required.
ENTRY_POINT_FIELDS = {"NAME": "name", "DOCID": "docid", "BEG": "start", "END": "end",
                      "OFFSET": "offset"}
REQUIRED_ENTRY_POINT_FIELDS = ("NAME", "DOCID", "BEG", "END")

#: The longest span an offset pair may cover (the Perl's bound from the 2014
#: slot-filling task description).
MAX_CHARS_PER_SPAN = 200

#: The languages -languages selects by default.
ALL_LANGUAGES = "ENGLISH:CHINESE:SPANISH"


def perl_number(text) -> float:
    """Perl's numeric value of a string of digits (``007`` is 7): its leading
    ASCII digits, else 0."""
    match = re.match(r"[0-9]+", text or "")
    return int(match.group(0)) if match else 0


def perl_true(value) -> bool:
    """Perl's truth of a field's value: not undefined, not empty, not "0"."""
    return value is not None and value != "" and value != "0"


def strip_perl_space(text: str) -> str:
    return text.strip(PERL_SPACE)


def decode_entities(value: str) -> str:
    """``&NAME;`` replaced as the Perl replaces it (an unknown name vanishes;
    a reference never runs over a line end)."""
    return _ENTITY.sub(lambda match: _ENTITIES.get(match.group(1), ""), value)


def check_span(log, where, docid, start, end, documents=None):
    """An entry point's offsets checked as a one-span provenance is: the
    problems recorded; the span (start, end as numbers, the end cut to 200
    characters) or None when it is not one.  ``documents`` is -docs
    (``toolkit.documents.Documents``: ``docid in documents``,
    ``documents.length(docid)``), for the tools given it (an unknown document
    is fatal)."""
    if docid == "NO_DOCUMENT":
        return None
    bad_start = start is None or not _OFFSET.match(start)
    bad_end = end is None or not _OFFSET.match(end)
    if bad_start:
        log.record("ILLEGAL_OFFSET", start or "", where=where)
    if bad_end:
        log.record("ILLEGAL_OFFSET", end or "", where=where)
    if documents is not None and (docid or "") not in documents:
        log.record("ILLEGAL_DOCID", docid or "", where=where)
    bad = bad_start or bad_end
    first = perl_number(start) if not bad_start else None
    last = perl_number(end) if not bad_end else None
    end_text = end
    if not bad:
        if last < first:
            log.record("ILLEGAL_OFFSET_PAIR", start, end, where=where)
            bad = True
        elif last - first + 1 > MAX_CHARS_PER_SPAN:
            log.record("TOO_MANY_CHARS", MAX_CHARS_PER_SPAN, where=where)
            last = first + MAX_CHARS_PER_SPAN - 1
            end_text = str(last)
    if documents is not None:
        length = documents.length(docid or "")
        if not bad_start and first > length:
            log.record("ILLEGAL_OFFSET_IN_DOC", start, docid, where=where)
            bad = True
        if not bad_end and last > length:
            log.record("ILLEGAL_OFFSET_IN_DOC", end_text, docid, where=where)
            bad = True
    return None if bad else (first, last)


class EntryPoint:
    """One entry point: the name as written (``original_name``, None when the
    entry point was made, not read) and decoded, its document and offsets as
    written (None: not given), and the language inferred from the document."""

    __slots__ = ("name", "original_name", "docid", "start", "end", "offset", "language",
                 "where")

    def __init__(self, name=None, original_name=None, docid=None, start=None, end=None,
                 offset=None, language=None, where=NO_SOURCE):
        self.name, self.original_name = name, original_name
        self.docid, self.start, self.end, self.offset = docid, start, end, offset
        self.language, self.where = language, where

    def written_name(self):
        return self.original_name if self.original_name is not None else self.name

    def field(self, tag: str):
        """The value written for ``tag`` (``NAME``, ``DOCID``, ``BEG``...)."""
        if tag == "NAME":
            return self.written_name()
        return getattr(self, ENTRY_POINT_FIELDS[tag])

    def copy(self) -> "EntryPoint":
        return EntryPoint(self.name, self.original_name, self.docid, self.start, self.end,
                          self.offset, self.language, self.where)


class Query:
    """One query as the toolkit holds it."""

    __slots__ = ("short_id", "prefix", "base", "level", "expanded", "file", "fields", "slots",
                 "predicates", "entry_points", "languages", "mentions_tagged", "parent",
                 "generated", "original_query_id", "expanded_ids")

    def __init__(self, short_id=None, prefix=None, file=None):
        self.short_id, self.prefix, self.file = short_id, prefix, file
        self.base = short_id
        self.level = 0
        #: True: read with an SF-style (hashed) id; False: made by expansion;
        #: None: an LDC query not yet expanded.
        self.expanded = None
        self.fields: dict = {}
        self.slots: Optional[list] = None
        self.predicates: list = []
        self.entry_points: list = []
        self.languages: list = []
        self.mentions_tagged = False
        self.parent: Optional[Query] = None
        self.generated = False
        self.original_query_id: Optional[str] = None
        self.expanded_ids: list = []

    @property
    def full_id(self) -> str:
        if self.parent is not None:
            return f"{self.parent.full_id}_{self.short_id}"
        return f"{self.prefix or ''}_{self.short_id}"

    def slot(self, n: int):
        return self.slots[n] if self.slots is not None and n < len(self.slots) else None

    def predicate(self, n: int):
        return self.predicates[n] if n < len(self.predicates) else None

    @property
    def quantity(self):
        predicate = self.predicate(0)
        return predicate.quantity if predicate is not None else None

    def set_id(self, full_id: str, where: str = "") -> None:
        """The query's id from a full id, parsed as the Perl parses it."""
        parsed = parse_id(full_id, where)
        self.prefix, self.base, self.short_id = parsed.prefix, parsed.base, parsed.short_id
        self.level, self.expanded = parsed.level, True if parsed.hashed else None

    def put(self, tag: str, value, log) -> None:
        """Set the single field ``tag`` (upper case); a slot ``SLOTn`` is looked
        up among the predicates (UNKNOWN_SLOT_NAME when it is none), and
        ``SLOT0`` is the query's slot."""
        self.fields[tag] = value
        match = _SLOT_TAG.match(tag)
        if not match:
            return
        level = int(match.group(1))
        if self.slots is None:
            self.slots = []
        while len(self.slots) <= level:
            self.slots.append(None)
        self.slots[level] = value
        predicate = predicates().slot(value)
        if predicate is None:
            log.record("UNKNOWN_SLOT_NAME", value if value is not None else "")
            return
        while len(self.predicates) <= level:
            self.predicates.append(None)
        self.predicates[level] = predicate
        if level == 0:
            self.fields["SLOT"] = value

    def put_slots(self, values, log) -> None:
        """Set every slot at once (the query's slot is the first, known or not)."""
        self.fields["SLOT"] = values[0] if values else None
        for level, value in enumerate(values):
            self.put(f"SLOT{level}", value, log)
        if self.slots is None:
            self.slots = []

    def truncate_slots(self, last: int) -> None:
        """Keep the slots up to ``last`` (-1: none)."""
        self.slots = (self.slots or [])[:last + 1]
        level = last + 1
        while f"SLOT{level}" in self.fields:
            del self.fields[f"SLOT{level}"]
            level += 1

    def add_entry_point(self, entry_point: EntryPoint, log) -> EntryPoint:
        entry_point.language = infer_language(entry_point.docid or "", log, entry_point.where)
        if entry_point.language not in self.languages:
            self.languages.append(entry_point.language)
        self.entry_points.append(entry_point)
        return entry_point

    def copy(self, log, keep=True) -> "Query":
        """A copy as the Perl's duplicate makes it (its slots set again, so an
        unknown one is recorded again).  ``keep=False`` leaves out what
        expansion does not carry over: the entry points, the languages, the
        prefix, the mentions layout, the original id and the expanded ids."""
        new = Query(self.short_id, self.prefix if keep else None, self.file)
        new.base = self.base if keep else None
        new.level, new.expanded = self.level, self.expanded
        new.fields = {tag: value for tag, value in self.fields.items()
                      if tag != "SLOT" and not _SLOT_TAG.match(tag)}
        new.predicates = list(self.predicates)
        if self.slots is not None:
            new.put_slots(list(self.slots), log)
        new.generated, new.parent = self.generated, self.parent
        if keep:
            new.entry_points = self.entry_points
            new.languages = self.languages
            new.mentions_tagged = self.mentions_tagged
            new.original_query_id = self.original_query_id
            new.expanded_ids = self.expanded_ids
        return new

    def text(self, indent: str = "", omit=()) -> str:
        """The query as the Perl writes it (``omit``: single fields left out)."""
        tagged = self.mentions_tagged
        deeper = "      " if tagged else ""
        pieces = [f'{indent}<query id="{self.full_id}">\n']
        if tagged:
            pieces.append(f"{indent}  <mentions>\n")
        for entry_point in self.entry_points:
            if tagged:
                pieces.append(f"{indent}    <mention>\n")
            for tag in ENTRY_POINT_FIELDS:
                value = entry_point.field(tag)
                if value is not None:
                    pieces.append(f"{indent}{deeper}  <{tag.lower()}>{value}</{tag.lower()}>\n")
                elif tag in REQUIRED_ENTRY_POINT_FIELDS:
                    raise Fatal(f"Missing query field: <{tag}>{self._place()}")
            if tagged:
                pieces.append(f"{indent}    </mention>\n")
        if tagged:
            pieces.append(f"{indent}  </mentions>\n")
        for tag in SINGLE_FIELDS:
            if tag in omit:
                continue
            value = self.fields.get(tag)
            if value is None:
                if tag in REQUIRED_FIELDS:
                    raise Fatal(f"Missing query field: {tag}{self._place()}")
                continue
            pieces.append(f"{indent}  <{tag.lower()}>{value}</{tag.lower()}>\n")
        pieces.append(f"{indent}</query>\n")
        return "".join(pieces)

    def _place(self) -> str:
        return f" (query {self.full_id}" + (f" of {self.file})" if self.file else ")")


def parse_id(full_id: str, where: str = ""):
    """A query id parsed (:func:`scorer.coldstart.ids.parse_query_id`); one of
    neither form is fatal, as in the Perl (which dies there)."""
    try:
        return ids.parse_query_id(full_id)
    except ScorerError as error:
        raise Fatal(f"{where}: {error}" if where else str(error))


def parse_query(text: str, path: str, log, documents=None) -> Query:
    """One ``<query id="...">...</query>`` block."""
    query = Query(file=path)
    head = _QUERY_HEAD.match(text)
    if head is None:
        start = text[:25]
        # The Perl's place is this literal text, not the file's name.
        log.record("MALFORMED_QUERY", f'Query starting with "{start}" in text beginning '
                                      f'<<{start}>>', where="In file $filename")
        return query
    query_id = head.group(1)
    query.set_id(query_id, path)
    where = place(path, f"In query {query_id}")
    body = strip_perl_space(text[head.end():-len("</query>")])
    if _MENTION_TAGS.search(body):
        query.mentions_tagged = True
        body = _MENTION_TAGS.sub("", body)
    current: dict = {}
    for tag, value, closer in _tag_pairs(body):
        tag, closer = tag.upper(), closer.upper()
        if tag != closer:
            log.record("MISMATCHED_TAGS", tag, closer, where=where)
        if tag in ENTRY_POINT_FIELDS:
            key = ENTRY_POINT_FIELDS[tag]
            if key in current:
                _add_read_entry_point(query, current, where, log, documents)
                current = {}
            if tag == "NAME":
                current["original_name"] = value
                value = decode_entities(value)
            current[key] = value
        elif tag in SINGLE_FIELDS or tag == "ENTRYPOINTS":
            # (<entrypoints> names the Perl's list of entry points, which is
            # always there: a duplicate)
            if tag == "ENTRYPOINTS" or query.fields.get(tag) is not None:
                log.record("DUPLICATE_QUERY_FIELD", tag, where=where)
            else:
                query.put(tag, value, log)
        else:
            log.record("UNKNOWN_QUERY_FIELD", tag, where=where)
    if current:
        _add_read_entry_point(query, current, where, log, documents)
    return query


def _add_read_entry_point(query, fields: dict, where, log, documents) -> None:
    entry_point = EntryPoint(where=where, **fields)
    check_span(log, where, entry_point.docid, entry_point.start, entry_point.end, documents)
    query.add_entry_point(entry_point, log)


class QuerySet:
    """Queries by short id, in the order first added; a query read or made
    by expansion replaces one of the same id, a generated one does not."""

    def __init__(self, files=()):
        self.files = list(files)
        self.queries: dict = {}

    def __len__(self) -> int:
        return len(self.queries)

    def get(self, short_id: str) -> Optional[Query]:
        return self.queries.get(short_id)

    def add(self, query: Query) -> None:
        if query.short_id not in self.queries or not query.generated:
            self.queries[query.short_id] = query

    def in_id_order(self) -> list:
        """The queries in string order of short id: the order the tools visit
        them where the Perl visits them in its hash order (deterministic, and
        one of the orders the Perl can take)."""
        return [self.queries[short_id] for short_id in sorted(self.queries)]

    def text(self, omit=(), languages: Optional[str] = None, retain_sf: bool = False) -> str:
        """The query file, queries in string order of short id (generated ones
        left out); ``languages``: only queries with an entry point in one of
        them (colon-separated); ``retain_sf``: without queries whose first
        slot is an event or sentiment slot, and without a second slot that is."""
        selected = set(languages.split(":")) if perl_true(languages) else None
        pieces = ['<?xml version="1.0" encoding="UTF-8"?>\n<query_set>\n']
        for query in self.in_id_order():
            if query.generated:
                continue
            if selected is not None and not selected.intersection(query.languages):
                continue
            local_omit = tuple(omit)
            if retain_sf:
                if is_event_or_sentiment_slot(query.fields.get("SLOT0")):
                    continue
                if perl_true(query.fields.get("SLOT1")) and \
                        is_event_or_sentiment_slot(query.fields["SLOT1"]):
                    local_omit += ("SLOT1",)
            pieces.append(query.text("  ", local_omit))
        pieces.append("</query_set>\n")
        return "".join(pieces)


def is_event_or_sentiment_slot(slot) -> bool:
    """A slot of an event role (``per:conflict.attack_attacker``) or a
    sentiment slot (``per:likes``), as -retain_sf finds them."""
    if slot is None:
        return False
    match = re.match(r".*?:(.*?)_", slot)
    if match and match.group(1) in EVENT_TYPES:
        return True
    match = re.match(r".*?:(.*?)$", slot)
    return bool(match) and match.group(1) in SENTIMENT_SLOTS


def read_query_text(text: str, path: str, queries: QuerySet, log, documents=None) -> None:
    """Add the queries of one file's text (those with at least one slot)."""
    for _line, block in _query_blocks(text):
        query = parse_query(block, path, log, documents)
        if query.slots is not None:
            queries.add(query)


def expand(query: Query, base: str, queries: QuerySet, log) -> None:
    """One query per entry point of ``query``, added to ``queries`` (the
    Perl's Query->expand): its id the hash of the entry point and the slots,
    its prefix ``BASE_LANG``."""
    for entry_point in query.entry_points:
        new = query.copy(log, keep=False)
        new.add_entry_point(entry_point.copy(), log)
        new.short_id = ids.expanded_query_short_id(
            entry_point.docid or "", entry_point.start or "", entry_point.end or "",
            [slot or "" for slot in (new.slots or [])])
        new.prefix = f"{base}_{LANGUAGE_CODES[entry_point.language]}"
        new.original_query_id = query.full_id
        query.expanded_ids.append(new.short_id)
        new.base = new.short_id
        new.expanded = False
        queries.add(new)
    query.expanded = True


def read_query_file(path: str, log, documents=None) -> QuerySet:
    """The queries of one file, read as the Perl's QuerySet reads them; a
    file that cannot be read, or is not text, is refused naming it (and the
    line at fault)."""
    queries = QuerySet([path])
    read_query_text(query_file_text(path), path, queries, log, documents)
    if not len(queries):
        log.record("NO_QUERIES_LOADED", where=f"files({path})")
    return queries


def query_file_text(path: str) -> str:
    """A query file's text; refused (naming the file and line) when it is not
    UTF-8 text: UTF-16, bytes that are not UTF-8, a NUL byte."""
    try:
        data = read_bytes(path)
    except ScorerError as error:
        raise Fatal(str(error))
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        raise Fatal(f"{path}: the file is UTF-16 text; save it as UTF-8")
    nul = data.find(b"\x00")
    if nul >= 0:
        line = data.count(b"\n", 0, nul) + 1
        raise Fatal(f"{path} line {line}: a NUL byte; a query file is XML text, not binary")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise Fatal(f"{path} line {line}: not valid UTF-8 (byte 0x{data[error.start]:02x})")
