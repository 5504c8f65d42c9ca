"""Slot-filling response files and assessment files as the toolkit's tools
read and write them (the Perl library's EvaluationQueryOutput): every format
the 2017.2.0 library knows, told apart by the file's first line; each line
checked and given its derived fields (its query, the hop-1 query it
generates, its node); the lines the validator keeps; and the validated file
written as the 2017 SF format.

The scorer reads runs with ``scorer.coldstart.runs``, which knows the 2017
formats only and refuses what would make scores wrong; this reader follows
the Perl line by line, for the tools whose output is a file (``validatesf``,
``validateqrel``, and those that read SF runs).  Both share the provenance,
id, slot and query modules of ``scorer.coldstart``, and the -justifications
checks (``scorer.coldstart.justifications``), which here drop lines.
"""
from __future__ import annotations

import hashlib
import os
import re
import sys
from collections import namedtuple
from typing import Optional

from scorer.coldstart import ids, slots
from scorer.coldstart.justifications import check_justifications
from scorer.coldstart.policy import justification_limits
from scorer.coldstart.provenance import perl_split
from scorer.coldstart.runs import normalised_confidence
from scorer.coldstart.toolkit.documents import WHITE_SPACE, checked_text
from scorer.coldstart.toolkit.pooling import keep_best_nodes
from scorer.coldstart.toolkit.provenance import read_spans
from scorer.coldstart.toolkit.queryfile import EntryPoint, Query, infer_language
from scorer.limits import shorten
from scorer.problems import ScorerError, Where
from scorer.textfile import read_bytes

SUBMISSION = "SUBMISSION"
ASSESSMENT = "ASSESSMENT"

#: Assessment codes and the names the library maps them to.
ASSESSMENT_CODES = {"C": "CORRECT", "W": "INCORRECT", "X": "INEXACT", "I": "IGNORE",
                    "S": "INEXACT_SHORT", "L": "INEXACT_LONG"}
#: ... and back, for writing assessments again.
ASSESSMENT_LETTERS = {name: code for code, name in ASSESSMENT_CODES.items()}

_ANYTHING = ".+"
_TRIPLES = r"(?:[^:]+:\d+-\d+,){0,3}[^:]+:\d+-\d+"
_CODE = "(?:" + "|".join(ASSESSMENT_CODES) + ")"
_MENTION_TYPE = "(?i:NAM|NOM|0)"
#: The first-line pattern of each column (the Perl's PATTERN), matched whole.
COLUMN_PATTERNS = {
    "ASSESSMENT_ID": _ANYTHING, "CONFIDENCE": r"\d+(?:\.\d+(e[-+]?\d\d)?)?",
    "EC_MENTION_TYPE": _MENTION_TYPE, "FULL_QUERY_ID": _ANYTHING, "LDC_QUERY_ID": _ANYTHING,
    "NODEID": _ANYTHING, "PROVENANCE_ASSESSMENT": _CODE, "QUERY_AND_SLOT_NAME": ".+:.+:.+",
    "QUERY_ID": _ANYTHING, "RELATION_PROVENANCE_TRIPLES": _TRIPLES, "RUNID": _ANYTHING,
    "SLOT_NAME": "[^:]+:[^:]+", "SUBJECT": _ANYTHING,
    "SUBJECT_PROVENANCE_TRIPLE": r"[^:]+:\d+-\d+", "VALUE": _ANYTHING,
    "VALUE_ASSESSMENT": _CODE, "VALUE_EC": _ANYTHING, "VALUE_MENTION_TYPE": _MENTION_TYPE,
    "VALUE_PROVENANCE_TRIPLES": _TRIPLES, "VALUE_TYPE": _ANYTHING,
}


class Schema(namedtuple("Schema", ("name", "kind", "columns", "justified"))):
    """A file format: its name (the Perl's), SUBMISSION or ASSESSMENT, its
    columns, and whether the -justifications checks apply to it."""

    __slots__ = ()

    @property
    def patterns(self):
        return [re.compile(COLUMN_PATTERNS[column]) for column in self.columns]


#: The formats, as the library lists them.  No two of the same width can
#: both fit one line (a slot name has one colon, QUERY:SLOT two), so the
#: order in which they are tried (the Perl's hash order) decides nothing.
SCHEMAS = {schema.name: schema for schema in (
    Schema("2014SFsubmissions", SUBMISSION,
           ("QUERY_ID", "SLOT_NAME", "RUNID", "RELATION_PROVENANCE_TRIPLES", "VALUE",
            "VALUE_PROVENANCE_TRIPLES", "CONFIDENCE"), False),
    Schema("2014-2015assessments", ASSESSMENT,
           ("ASSESSMENT_ID", "QUERY_AND_SLOT_NAME", "RELATION_PROVENANCE_TRIPLES", "VALUE",
            "VALUE_PROVENANCE_TRIPLES", "VALUE_ASSESSMENT", "PROVENANCE_ASSESSMENT",
            "VALUE_EC"), False),
    Schema("2014-2015-expanded-assessments", ASSESSMENT,
           ("ASSESSMENT_ID", "LDC_QUERY_ID", "QUERY_AND_SLOT_NAME", "SUBJECT",
            "SUBJECT_PROVENANCE_TRIPLE", "RELATION_PROVENANCE_TRIPLES", "VALUE",
            "VALUE_PROVENANCE_TRIPLES", "VALUE_ASSESSMENT", "PROVENANCE_ASSESSMENT",
            "VALUE_EC"), False),
    Schema("2016assessments", ASSESSMENT,
           ("ASSESSMENT_ID", "QUERY_AND_SLOT_NAME", "RELATION_PROVENANCE_TRIPLES", "VALUE",
            "VALUE_PROVENANCE_TRIPLES", "VALUE_ASSESSMENT", "VALUE_MENTION_TYPE",
            "PROVENANCE_ASSESSMENT", "VALUE_EC", "EC_MENTION_TYPE"), False),
    Schema("2015SFsubmissions", SUBMISSION,
           ("FULL_QUERY_ID", "SLOT_NAME", "RUNID", "RELATION_PROVENANCE_TRIPLES", "VALUE",
            "VALUE_TYPE", "VALUE_PROVENANCE_TRIPLES", "CONFIDENCE"), False),
    Schema("2017SFsubmissions", SUBMISSION,
           ("FULL_QUERY_ID", "SLOT_NAME", "RUNID", "RELATION_PROVENANCE_TRIPLES", "VALUE",
            "VALUE_TYPE", "VALUE_PROVENANCE_TRIPLES", "CONFIDENCE", "NODEID"), True),
)}
#: The format validated SF runs are written in.
OUTPUT_SCHEMA = SCHEMAS["2017SFsubmissions"]
_PATTERNS = {name: schema.patterns for name, schema in SCHEMAS.items()}


class Entry:
    """One line of a response or assessment file: its columns (``values``,
    after the Perl's normalisation of CONFIDENCE and VALUE_TYPE) and the
    fields derived from them."""

    __slots__ = ("schema", "file", "line_number", "line", "full_query_id", "slot_name",
                 "runid", "value", "value_type", "confidence_text", "confidence", "nodeid",
                 "query", "query_id", "level", "relation_text", "value_text", "docid",
                 "target_query_id", "target_full_id", "fqnodeid", "assessment", "value_ec",
                 "discarded")

    def __init__(self):
        self.fqnodeid = self.nodeid = self.runid = self.value_type = None
        self.confidence = self.confidence_text = self.assessment = self.value_ec = None
        self.discarded = False

    @property
    def kind(self) -> str:
        return self.schema.kind

    @property
    def where(self) -> Where:
        return Where(self.file, self.line_number)

    def values(self) -> list:
        """The line's columns as the library keeps them (CONFIDENCE and
        VALUE_TYPE normalised); made again when asked for, so that a large run
        does not hold every column twice."""
        values = split_columns(self.line)
        columns = self.schema.columns
        if self.confidence_text is not None:
            values[columns.index("CONFIDENCE")] = self.confidence_text
        if self.value_type is not None:
            values[columns.index("VALUE_TYPE")] = self.value_type
        return values

    def column(self, name: str) -> str:
        return self.values()[self.schema.columns.index(name)]



class Responses:
    """What was read from the response and assessment files (the Perl's
    EvaluationQueryOutput): every accepted line in load order, by type and by
    node; the run id of the first line that has one (the validated file's);
    the queries whose answers are not written (BAD_QUERIES: the hop-1 queries
    of lines refused for an empty column or a wrong slot)."""

    def __init__(self):
        self.entries: list = []
        self.submissions: list = []
        self.assessments: list = []
        #: FQNODEID -> submissions with that node, in load order
        self.submissions_by_node: dict = {}
        self.runid: Optional[str] = None
        #: run id -> lines with it (the Perl's RUNIDS)
        self.runids: dict = {}
        self.bad_queries: set = set()
        #: target query short id -> the first submission generating it
        self.first_by_target: dict = {}
        #: hop-1 query short id -> the line's query, value and document that
        #: generated it, until a line answers it (``find_query``)
        self.generated: dict = {}
        #: the files read (a folder's ``*.tab.txt`` files in its place), their bytes
        self.files: list = []
        self.digest = hashlib.md5()

    def kept(self) -> list:
        """The submissions the validated file holds, in its order: by hop,
        query, confidence (highest first), then line (the Perl's sort)."""
        ordered = sorted(self.submissions,
                         key=lambda e: (e.query.level, e.query_id, -e.confidence,
                                        e.line_number))
        return [entry for entry in ordered
                if entry.query.short_id not in self.bad_queries and not entry.discarded]


# -- reading ----------------------------------------------------------------------

def run_paths(path: str) -> list:
    """The files a run argument stands for: a folder's ``*.tab.txt`` files (in
    name order, as the Perl's glob), else the file itself."""
    if not os.path.isdir(path):
        return [path]
    found = sorted(name for name in os.listdir(path)
                   if name.endswith(".tab.txt") and not name.startswith("."))
    if not found:
        # The Perl reads nothing and validates an empty run.
        raise ScorerError(f"{path} is a folder without *.tab.txt files: give the run file, or "
                          f"a folder of run files named *.tab.txt")
    return [os.path.join(path, name) for name in found]


def clean_line(raw: str, comments: bool) -> str:
    """A line as the Perl reads it: CRs removed, a line whose first non-blank
    character is ``#`` emptied; with ``comments`` (-allow_comments), a ``#``
    outside double quotes ends the line.  A line with nothing but white space
    left is empty."""
    line = raw.replace("\r", "") if "\r" in raw else raw
    if "#" in line:
        if _COMMENT_LINE.match(line):
            return ""
        if comments:
            line = _before_comment(line)
    return line if _NOT_BLANK.search(line) else ""


#: A line that is a comment, and a character that is not white space (the
#: Perl's ``\s``: Python's also takes U+001C..U+001F).
_COMMENT_LINE = re.compile(f"[{WHITE_SPACE}]*#")
_NOT_BLANK = re.compile(f"[^{WHITE_SPACE}]")


def perl_true(text) -> bool:
    """The Perl's truth of a column: "" and "0" (and none) are false."""
    return bool(text) and text != "0"


def _before_comment(line: str) -> str:
    """The text before the first ``#`` that is not inside a double-quoted
    string (backslash escapes in strings); the whole line when a string is
    left open before any ``#`` (the Perl's comment pattern then fails)."""
    i, n = 0, len(line)
    while i < n:
        c = line[i]
        if c == "#":
            return line[:i]
        if c == '"':
            j = i + 1
            while j < n and line[j] != '"':
                j += 2 if line[j] == "\\" else 1
            if j >= n:
                return line
            i = j + 1
            continue
        i += 1
    return line


def read_lines(path: str, data: bytes) -> list:
    """The lines of a response file, refused with its file and line when they
    are not text (a NUL byte; a byte order mark, which the Perl reads as part
    of the first query id)."""
    text = checked_text(path, data, "tab-separated columns")
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


def identify_schema(path: str, lines: list, comments: bool) -> Schema:
    """The format of a file, from its first line that is not blank: the one
    whose columns all fit (the Perl dies when none does)."""
    for raw in lines:
        line = clean_line(raw, comments)
        if not line:
            continue
        columns = perl_split(line, "\t")
        for name, schema in SCHEMAS.items():
            if len(columns) == len(schema.columns) and all(
                    p.fullmatch(c) for p, c in zip(_PATTERNS[name], columns)):
                return schema
        raise ScorerError(f"Unknown file type: {path} (its first line, {shorten(line)!r}, has "
                          f"{len(columns)} tab-separated columns that fit none of the formats: "
                          f"2017 SF responses have 9 ({' '.join(OUTPUT_SCHEMA.columns)}))")
    raise ScorerError(f"Empty file: {path} (no line but blank ones and comments)")


def split_columns(line: str) -> list:
    """A line's tab-separated columns, as the Perl's ``split`` makes them
    (empty columns at the end dropped)."""
    values = line.split("\t")
    return values if values[-1] else perl_split(line, "\t")


def read_responses(paths, queries, log, justifications: str = "1:3", depth=None,
                   documents=None, comments: bool = False, data=None) -> Responses:
    """Read the response (or assessment) files ``paths`` against ``queries``
    (``scorer.coldstart.queries.QuerySet``), recording problems in ``log``
    (``toolkit.problemlog.ProblemLog``), as the Perl's EvaluationQueryOutput
    does: after each file of the 2017 format, the -justifications checks drop
    lines (with warnings), and with ``depth`` (``(scheme, d)``, NIST's pooling)
    the nodes beyond the best d.  ``data``: path -> the bytes to read for it
    instead of the file's (the scorer's -validate of one run id of a file)."""
    per_document, total = justification_limits(justifications)
    responses = Responses()
    for argument in paths:
        for path in run_paths(argument):
            lines = _read_file(path, responses, data)
            if lines is None:
                log.record("EMPTY_FILE", path)
                continue
            schema = identify_schema(path, lines, comments)
            _load(path, lines, schema, queries, responses, log, documents, comments)
            del lines
            if schema.justified:
                check_justifications(responses, per_document, total, log)
            if depth is not None:
                keep_best_nodes(responses, depth, total, log)
    return responses


def _read_file(path: str, responses: Responses, given=None):
    """A file's lines (None for an empty file), its bytes added to the run's digest."""
    data = given[path] if given is not None and path in given else read_bytes(path)
    responses.files.append(path)
    responses.digest.update(data)
    return read_lines(path, data) if data else None


def _load(path, lines, schema, queries, responses, log, documents, comments) -> None:
    width = len(schema.columns)
    seen: set = set()
    for line_number, raw in enumerate(lines, 1):
        line = clean_line(raw, comments)
        if not line:
            continue
        where = Where(path, line_number)
        if line in seen:
            log.record("DUPLICATE_LINE", "\n" + line, where=where)
            continue
        seen.add(line)
        values = split_columns(line)
        if len(values) != width:
            log.record("WRONG_NUM_ENTRIES", width, len(values), where=where)
            continue
        found = _entry(schema, values, path, line_number, line, where, queries, responses, log,
                       documents)
        if found is not None:
            _accept(*found, responses, log, documents)


def _entry(schema, values, path, line_number, line, where, queries, responses, log,
           documents):
    """``(entry, its value provenance's spans)`` of one line, or None when the
    line is refused (its hop-1 query is then one whose answers are not
    written)."""
    entry = Entry()
    entry.schema, entry.file, entry.line_number, entry.line = schema, path, line_number, line
    fields = dict(zip(schema.columns, values))
    if "CONFIDENCE" in fields:
        fields["CONFIDENCE"] = normalised_confidence(fields["CONFIDENCE"], log, where)
        entry.confidence_text = fields["CONFIDENCE"]
        entry.confidence = float(entry.confidence_text)
    if "VALUE_TYPE" in fields:
        if not slots.is_node_type(fields["VALUE_TYPE"]):
            log.record("ILLEGAL_VALUE_TYPE", fields["VALUE_TYPE"], where=where)
        fields["VALUE_TYPE"] = entry.value_type = sys.intern(fields["VALUE_TYPE"].upper())
    runid = fields.get("RUNID")
    entry.runid = sys.intern(runid) if runid is not None else None
    entry.value = fields["VALUE"]
    entry.nodeid = fields.get("NODEID")
    if "QUERY_AND_SLOT_NAME" in fields:
        query_and_slot = fields["QUERY_AND_SLOT_NAME"]
        if ":" not in query_and_slot:
            raise ScorerError(f"{path} line {line_number}: column QUERY_AND_SLOT_NAME must be "
                              f"QUERYID:domain:slot, not '{shorten(query_and_slot)}'")
        full_query_id, slot_name = query_and_slot.split(":", 1)
    else:
        full_query_id, slot_name = fields.get("FULL_QUERY_ID"), fields["SLOT_NAME"]
    entry.full_query_id, entry.slot_name = full_query_id, sys.intern(slot_name)

    query = _query_of(entry, fields, path, line_number, queries, responses.generated, log,
                      where)
    entry.full_query_id = sys.intern(full_query_id)
    entry.query, entry.query_id = query, query.short_id
    entry.level = ids.parse_query_id(full_query_id).level
    if slots.quantity(slot_name) is None:
        log.record("UNKNOWN_SLOT_NAME", slot_name, where=where)

    relation_column = fields["RELATION_PROVENANCE_TRIPLES"]
    value_column = fields["VALUE_PROVENANCE_TRIPLES"]
    relation = _provenance(relation_column, 4, documents, log, where)
    value_spans = _provenance(value_column, 2, documents, log, where)
    if relation.document != value_spans.document:
        log.record("MULTIPLE_DOCIDS_IN_RESPONSE", "\n" + line, where=where)
    entry.relation_text = _normalised(relation, relation_column)
    entry.value_text = _normalised(value_spans, value_column)
    entry.docid = value_spans.document

    entry.target_query_id = ids.target_query_short_id(query.full_id, entry.value,
                                                      entry.value_text)
    entry.target_full_id = _target_query(entry, query, value_spans, queries,
                                         responses.generated, log, path, line_number)

    if schema.kind == ASSESSMENT:
        _judge(entry, fields, path, line_number)

    for column in schema.columns:
        if not _NOT_BLANK.search(fields[column]):
            log.record("EMPTY_FIELD", column, where=where)
            responses.bad_queries.add(entry.target_query_id)
            return None
    expected = query_slot(query)
    if slot_name != expected:
        log.record("WRONG_SLOT_NAME", slot_name, full_query_id,
                   "" if expected is None else expected, where=where)
        responses.bad_queries.add(entry.target_query_id)
        return None
    if schema.kind == ASSESSMENT:
        for column in ("VALUE_ASSESSMENT", "PROVENANCE_ASSESSMENT"):
            if column in fields and fields[column] not in ASSESSMENT_CODES:
                raise ScorerError(f"Unknown assessment code: {shorten(fields[column])} in file: "
                                  f"{path} at line: {line_number}")
    return entry, value_spans


def _provenance(text, max_spans, documents, log, where):
    """A provenance column's spans, its problems recorded at ``where`` (each
    time: the Perl counts them again on every line)."""
    found, problems = read_spans(text, max_spans, documents)
    for name, args in problems:
        log.record(name, *args, where=where)
    return found


def _normalised(spans, column: str) -> str:
    """The spans' normalised text: the column itself when it is written so
    (most are: one string kept, not two)."""
    text = spans.normalised()
    return column if text == column else text


def _query_of(entry, fields, path, line_number, queries, generated, log, where):
    """The query a line answers: loaded (read or generated) under exactly its
    full id, else UNLOADED_QUERY and the end (the Perl dies there)."""
    if entry.full_query_id is None:
        # 2014 responses name the query by its short id only, which the
        # library never finds (it compares full ids): it dies at the first line.
        query_id = fields["QUERY_ID"]
        log.record("UNLOADED_QUERY", query_id, where=where)
        raise ScorerError(f"{path} line {line_number}: Query {query_id} not loaded (a 2014 "
                          f"response file names its queries by short id; validate the 2017 "
                          f"format: {' '.join(OUTPUT_SCHEMA.columns)})")
    try:
        parsed = ids.parse_query_id(entry.full_query_id)
    except ScorerError as error:
        raise ScorerError(f"{path} line {line_number}: {error}")
    query = find_query(queries, generated, parsed.short_id)
    if query is None or query.full_id != entry.full_query_id:
        log.record("UNLOADED_QUERY", parsed.short_id, where=where)
        raise ScorerError(f"{path} line {line_number}: Query {entry.full_query_id} not loaded "
                          f"(it is neither in the query file nor the hop-1 query of an earlier "
                          f"line)")
    return query


def query_slot(query) -> Optional[str]:
    """The slot a query asks for (the Perl's SLOT): a query read from the file
    asks for its first slot when that is a known slot name, else for none
    (every answer is then to the wrong slot); a hop-1 query made from a line
    asks for the next slot of its parent, known or not."""
    return query.fields.get("SLOT")


def query_language(query) -> Optional[str]:
    """The language of a query's first entry point (ENGLISH, SPANISH,
    CHINESE), or None for a query without one."""
    return query.languages[0] if query.languages else None


class _Generated(namedtuple("_Generated", ("parent", "value", "docid"))):
    """A hop-1 query a line generated, not made yet: most are never answered
    (a large run would hold a query per line); it is made when a line answers
    it (:func:`find_query`).  Its problems were recorded when it was
    generated, as the Perl records them."""

    __slots__ = ()


def find_query(queries, generated: dict, short_id: str):
    """The query of a short id: read, or generated by a line (made now;
    ``generated``: short id -> a ``_Generated``)."""
    query = queries.get(short_id)
    if query is None:
        pending = generated.pop(short_id, None)
        if pending is not None:
            query = _made(short_id, pending)
            queries.add(query)
    return query


def _made(short_id: str, pending: "_Generated") -> Query:
    """The hop-1 query of a line (the Perl's generate_query): the parent's
    slots but the first, the value in the document of its provenance as the
    entry point; named PARENT_<short id>."""
    query = Query(short_id)
    query.parent, query.level, query.generated = pending.parent, pending.parent.level + 1, True
    rest = (pending.parent.slots or [])[1:]
    if rest:
        query.put_slots(list(rest), _UNRECORDED)
    query.add_entry_point(EntryPoint(name=pending.value, docid=pending.docid), _UNRECORDED)
    return query


class _Unrecorded:
    """A log that keeps nothing: a generated query's problems were recorded
    when the line generated it."""

    @staticmethod
    def record(*_args, **_place) -> None:
        pass


_UNRECORDED = _Unrecorded()


def _target_query(entry, query, value_spans, queries, generated, log, path,
                  line_number) -> str:
    """The full id of the hop-1 query a line generates: one read or generated
    before, or a new one (parent: the line's query; slots: its slots but the
    first; the value as entry point), with the problems the Perl records as
    it makes it (an unknown slot, a document of no known language)."""
    target = queries.get(entry.target_query_id)
    if target is not None:
        return target.full_id
    pending = generated.get(entry.target_query_id)
    if pending is None:
        if not ids.parse_query_id(query.full_id).hashed:
            # The library names it QUERYID_<12 hex digits> and cannot parse
            # that back when the query has an LDC id (digits): it dies.
            raise ScorerError(f"{path} line {line_number}: the line answers {query.full_id}, "
                              f"an LDC query id; responses answer the SF queries "
                              f"(CS-ValidateQueries -expand, python -m scorer.coldstart "
                              f"validatequeries -expand, writes their query file)")
        for slot in (query.slots or [])[1:]:
            if slots.quantity(slot) is None:
                log.record("UNKNOWN_SLOT_NAME", slot if slot is not None else "")
        infer_language(value_spans.docid or "", log, None)
        pending = generated[entry.target_query_id] = _Generated(
            query, entry.value, value_spans.docid)
    return f"{pending.parent.full_id}_{entry.target_query_id}"


def _judge(entry, fields, path, line_number) -> None:
    """An assessment's judgement and equivalence class, checked together as
    the library checks them (it dies on a mismatch)."""
    entry.value_ec = fields.get("VALUE_EC")
    entry.assessment = ASSESSMENT_CODES.get(fields["VALUE_ASSESSMENT"])
    has_ec = entry.value_ec not in (None, "", "0")
    if entry.assessment in ("CORRECT", "INEXACT") and not has_ec:
        raise ScorerError(f"{path} line {line_number}: Correct entry without equivalence "
                          f"class, query = {entry.query_id} at line {line_number}")
    if entry.assessment not in ("CORRECT", "INEXACT") and has_ec:
        raise ScorerError(f"{path} line {line_number}: Equivalence class without correct "
                          f"entry, query = {entry.query_id}, judgment = , ec = "
                          f"{shorten(entry.value_ec)}")


def _accept(entry: Entry, value_spans, responses: Responses, log, documents) -> None:
    if entry.runid is not None:
        responses.runids[entry.runid] = responses.runids.get(entry.runid, 0) + 1
    if responses.runid is None:
        responses.runid = entry.runid
    elif entry.runid is not None and entry.runid != responses.runid:
        log.record("MULTIPLE_RUNIDS", responses.runid, entry.runid, where=entry.where)
    if perl_true(entry.nodeid):
        if entry.query.level == 1:
            first = responses.first_by_target.get(entry.query_id)
            prefix = first.fqnodeid if first is not None and first.fqnodeid else ""
        else:
            prefix = entry.query.full_id
        entry.fqnodeid = prefix + entry.nodeid
    if documents is not None and value_spans.spans and documents.file(value_spans.docid):
        # The filler string against the document's text at its first span.
        if documents.mention_differs(entry.value, value_spans.docid, value_spans.start(),
                                     value_spans.end()):
            log.record("INACCURACTE_MENTION_STRING", entry.value, entry.value_text,
                       where=entry.where)
    responses.entries.append(entry)
    if entry.kind == SUBMISSION:
        responses.first_by_target.setdefault(entry.target_query_id, entry)
        responses.submissions.append(entry)
        if entry.fqnodeid is not None:
            responses.submissions_by_node.setdefault(entry.fqnodeid, []).append(entry)
    else:
        responses.assessments.append(entry)


# -- writing ----------------------------------------------------------------------

#: The letters of a ``:NIL_`` node id's prefix.
_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def nil_prefix(digest: bytes) -> str:
    """The four letters of the ``:NIL_`` node ids of a validated file.  The Perl
    draws them at random; here they come from the MD5 of the run's files
    (``Responses.digest``), so the same run validates to the same file."""
    return "".join(_LETTERS[byte % len(_LETTERS)] for byte in digest[:4])


def validated_lines(responses: Responses, prefix: Optional[str] = None):
    """The validated file's lines (each ending in a newline), in the 2017 SF
    format: the kept submissions in the Perl's order, provenance normalised,
    the run id that of the first line, a line without a node id given
    ``:NIL_<prefix><number>`` (the number counts the lines written, from
    000000001); a line equal to the one before it is written once."""
    if prefix is None:
        prefix = nil_prefix(responses.digest.digest())
    runid = responses.runid
    previous = None
    count = 1
    for entry in responses.kept():
        nodeid = entry.query.fields.get("NODEID")
        if nodeid is None:
            nodeid = entry.nodeid if perl_true(entry.nodeid) else f":NIL_{prefix}{count:09d}"
        text = "\t".join((entry.full_query_id, entry.slot_name, runid, entry.relation_text,
                          entry.value, entry.value_type, entry.value_text,
                          entry.confidence_text, nodeid))
        count += 1
        if text != previous:
            yield text + "\n"
        previous = text
