"""The provenance of a KB assertion as CS-ValidateKB reads it (ColdStartLib.pm
2017.2.0's ``ProvenanceList``): up to four parts separated by semicolons,

    [FILLER_STRING;]PREDICATE_JUSTIFICATION[;BASE_FILLER;ADDITIONAL_JUSTIFICATION]

the filler string first only when the object is a ``:String`` node, each part
a list of ``DOCID:START-END`` spans (``toolkit/provenance.py`` reads them: at
most 1 filler span, 3 justification spans, 1 base filler span, any number of
additional spans) or ``NIL``.  The expected number of parts follows from the
assertion: 1, plus 1 for a string object, plus 2 when an event is involved;
a mention has one.

Reading gives the parts and the problems found, ``(name, arguments)`` in the
Perl's order.  The Perl reads an assertion's provenance again each time a
check looks at it, recording its problems each time (they count again in the
``N errors encountered`` line): the caller records a reading's problems at
each such look (:meth:`ProvenanceReader.read` reads each distinct text once).
"""
from __future__ import annotations

import re

from scorer.coldstart.provenance import MAX_CHARS_PER_SPAN, perl_split
from scorer.coldstart.toolkit.provenance import NO_DOCUMENT, Spans, read_spans

#: The most spans of each part after the filler string (None: any number).
_PART_SPANS = (3, 1, None)


class KBProvenance:
    """A provenance column once read: its text (``original``, what the
    validated KB writes again), its parts (``toolkit.provenance.Spans``, or
    None for a part absent or ``NIL``) and its document (that of its first
    part present; ``NO DOCUMENT`` without one)."""

    __slots__ = ("original", "filler", "justification", "base_filler", "additional", "docid",
                 "_text")

    def __init__(self, original=None, filler=None, justification=None, base_filler=None,
                 additional=None, docid=None):
        self.original = original
        self.filler = filler
        self.justification = justification
        self.base_filler = base_filler
        self.additional = additional
        self.docid = docid
        self._text = None

    @property
    def document(self) -> str:
        return self.docid or NO_DOCUMENT

    def original_text(self) -> str:
        return self.original or ""

    def text(self) -> str:
        """The normalised form (each part's spans sorted, ``NIL`` for a part
        absent): what tells duplicates apart."""
        if self._text is None:
            self._text = ";".join(part.normalised() if part is not None else "NIL" for part in
                                  (self.filler, self.justification, self.base_filler,
                                   self.additional))
        return self._text

    def start(self) -> int:
        return self.justification.start() if self.justification is not None else 0

    def end(self) -> int:
        return self.justification.end() if self.justification is not None else 0

    def justification_count(self) -> int:
        return len(self.justification) if self.justification is not None else 0


#: The provenance of an assertion without one (``type``, ``link``).
EMPTY = KBProvenance()


def expected_parts(subject: str, obj: str, verb: str) -> int:
    """How many parts the Perl expects (its message says so even of a
    mention, which must have one)."""
    if "mention" in verb:
        return 1
    return 2 * (subject.startswith(":Event") or obj.startswith(":Event")) \
        + obj.startswith(":String") + 1


#: One span and nothing else (most provenance columns): read without the full parse
#: when its offsets need no repair.
_ONE_SPAN = re.compile(r"([^:,;\s]+):([0-9]{1,18})-([0-9]{1,18})")


def _one_span(text: str, documents):
    match = _ONE_SPAN.fullmatch(text)
    if match is None:
        return None
    docid, start, end = match.groups()
    first, last = int(start), int(end)
    if last < first or last - first + 1 > MAX_CHARS_PER_SPAN:
        return None
    if documents is not None and (docid not in documents or last > documents.length(docid)):
        return None
    return KBProvenance(text, None, Spans(docid, ((start, end),)), docid=docid)


def read_kb_provenance(text, subject: str, obj: str, verb: str, documents=None) -> tuple:
    """``(KBProvenance, problems)`` of the column ``text`` of an assertion
    ``verb(subject, obj)``; ``documents``: ``-docs`` (or None).  A DOCID that
    ``-docs`` lacks is the fatal ILLEGAL_DOCID: the last problem given."""
    if not text or text == "0":
        return KBProvenance(original=text or None), ()
    if ";" not in text and "," not in text and not obj.startswith(":String") and \
            ("mention" in verb or not (subject.startswith(":Event")
                                       or obj.startswith(":Event"))):
        found = _one_span(text, documents)
        if found is not None:
            return found, ()
    found: list = []
    parts = perl_split(text, ";")
    expected = expected_parts(subject, obj, "")
    if "mention" in verb:
        if len(parts) != 1:
            found.append(("TOO_MANY_PROVENANCES_IN_LIST", (text, len(parts), expected)))
    elif len(parts) != expected:
        found.append(("TOO_MANY_PROVENANCES_IN_LIST", (text, len(parts), expected)))

    def part(piece, max_spans):
        if piece == "NIL":
            return None
        spans, problems = read_spans(piece, max_spans, documents)
        found.extend(problems)
        return spans

    def fatal() -> bool:
        return bool(found) and found[-1][0] == "ILLEGAL_DOCID"

    filler = None
    if obj.startswith(":String"):
        filler = part(parts.pop(0) if parts else "", 1)
        if fatal():
            return KBProvenance(text), tuple(found)
    read = []
    for index, piece in enumerate(parts[:3]):
        read.append(part(piece, _PART_SPANS[index]))
        if fatal():
            return KBProvenance(text), tuple(found)
    read += [None] * (3 - len(read))
    documents_of = [p.document for p in (filler, *read) if p is not None]
    if len(set(documents_of)) != 1:
        found.append(("MULTIPLE_DOCIDS_IN_PROV", (text,)))
    provenance = KBProvenance(text, filler, *read,
                              docid=documents_of[0] if documents_of else None)
    return provenance, tuple(found)


class ProvenanceReader:
    """:func:`read_kb_provenance` with one set of documents, each distinct
    (text, kind of assertion) read once."""

    def __init__(self, documents=None):
        self.documents = documents
        self._read: dict = {}

    def read(self, text, subject: str, obj: str, verb: str) -> tuple:
        if not text or text == "0":
            return (EMPTY if text is None else KBProvenance(original=text or None)), ()
        key = (text, subject.startswith(":Event") or obj.startswith(":Event"),
               obj.startswith(":String"), "mention" in verb)
        found = self._read.get(key)
        if found is None:
            found = self._read[key] = read_kb_provenance(text, subject, obj, verb,
                                                         self.documents)
        return found
