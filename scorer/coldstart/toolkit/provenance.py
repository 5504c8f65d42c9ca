"""Provenance as the toolkit's validators read it (ColdStartLib.pm 2017.2.0's
``Provenance``): a list of ``DOCID:START-END`` spans, each checked, with the
document's length when the tool was given ``-docs``.

A span is refused (and left out) when it cannot be read, when its end comes
before its start, and with ``-docs`` when an offset lies past the end of its
document; one longer than 200 characters is cut to 200 with a warning.  The
spans kept are in column order; the list's document is that of the first one
kept (another document in the list is an error, and its spans are written with
the first's).  Its three texts are the Perl's: ``normalised()`` (the spans
sorted by start, numerically, ties by end compared as text, each with the
document: what the tools compare), ``short()`` (the same without the
document) and ``original()`` (column order).  Offsets keep the digits as
written (``0010`` stays ``0010``); a cut end is written as a number.

Reading returns the spans and the problems found, ``(name, arguments)`` in the
Perl's order, for the caller to record where it likes (a KB validator records
a provenance's problems again each time the Perl reads it again).  A document
the ``-docs`` file lacks is the Perl's fatal ILLEGAL_DOCID: it is the last
problem returned, and reading stops there.

Deliberately unlike the Perl: an offset of more than 18 digits, or of digits
other than 0-9, is ILLEGAL_OFFSET (the Perl reads ``١٢`` as 0 and 25 nines as
an imprecise float).
"""
from __future__ import annotations

from scorer.coldstart.provenance import (MAX_CHARS_PER_SPAN, MAX_TOTAL_CHARS,
                                         _REPAIRABLE_SEMICOLONS, _match_span, perl_split)
from scorer.limits import MAX_DIGITS

#: The document of a list with no span kept (the Perl's ``get_docid``).
NO_DOCUMENT = "NO DOCUMENT"


class Spans:
    """A provenance once read: ``docid`` (the first kept span's document, None
    if none was kept) and ``spans``, the kept ``(start, end)`` texts in column
    order."""

    __slots__ = ("docid", "spans")

    def __init__(self, docid, spans):
        self.docid = docid
        self.spans = tuple(spans)

    @property
    def document(self) -> str:
        """The document, or ``NO DOCUMENT`` when no span was kept."""
        return self.docid if self.spans else NO_DOCUMENT

    def _sorted(self):
        if len(self.spans) < 2:
            return self.spans
        return sorted(self.spans, key=lambda span: (int(span[0]), span[1]))

    def normalised(self) -> str:
        return ",".join(f"{self.docid}:{start}-{end}" for start, end in self._sorted())

    def short(self) -> str:
        return ",".join(f"{start}-{end}" for start, end in self._sorted())

    def original(self) -> str:
        return ",".join(f"{self.docid}:{start}-{end}" for start, end in self.spans)

    def start(self) -> int:
        """The first span's start (0 without spans), as a number."""
        return int(self.spans[0][0]) if self.spans else 0

    def end(self) -> int:
        return int(self.spans[0][1]) if self.spans else 0

    def __len__(self) -> int:
        return len(self.spans)

    def __repr__(self) -> str:
        return f"Spans({self.original()!r})"


def _is_offset(text: str) -> bool:
    return text.isascii() and text.isdigit() and len(text) <= MAX_DIGITS


def _check_span(docid, start, end, documents, found):
    """The Perl's check of one span: ``(start, end)`` to keep (the end cut to
    200 characters), or None; problems are appended to ``found``.  Returns
    False after the fatal ILLEGAL_DOCID (reading stops)."""
    failed = False
    good_start = _is_offset(start)
    if not good_start:
        found.append(("ILLEGAL_OFFSET", (start,)))
        failed = True
    good_end = _is_offset(end)
    if not good_end:
        found.append(("ILLEGAL_OFFSET", (end,)))
        failed = True
    if documents is not None and docid not in documents:
        found.append(("ILLEGAL_DOCID", (docid,)))
        return False
    if good_start and good_end:
        if int(end) < int(start):
            found.append(("ILLEGAL_OFFSET_PAIR", (start, end)))
            failed = True
        elif int(end) - int(start) + 1 > MAX_CHARS_PER_SPAN:
            found.append(("TOO_MANY_CHARS", (MAX_CHARS_PER_SPAN,)))
            end = str(int(start) + MAX_CHARS_PER_SPAN - 1)
    if documents is not None:
        length = documents.length(docid)
        if good_start and int(start) > length:
            found.append(("ILLEGAL_OFFSET_IN_DOC", (start, docid)))
            failed = True
        if good_end and int(end) > length:
            found.append(("ILLEGAL_OFFSET_IN_DOC", (end, docid)))
            failed = True
    return None if failed else (start, end)


def read_spans(text, max_spans, documents=None) -> tuple:
    """``(Spans, problems)`` of a provenance column (the Perl's
    PROVENANCETRIPLELIST): spans separated by commas (semicolons between
    well-formed spans are repaired with a warning), at most ``max_spans`` of
    them (None: any number).  ``documents``: the ``-docs`` documents
    (``documents.Documents``), or None."""
    found: list = []
    text = "" if text is None else text
    if ";" in text:
        if _REPAIRABLE_SEMICOLONS.match(text):
            found.append(("SEMICOLON_AS_SEPARATOR", (text,)))
            text = text.replace(";", ",")
        else:
            found.append(("SEMICOLON_IN_PROVENANCE_E", (text,)))
    pieces = perl_split(text, ",")
    if max_spans is not None and len(pieces) > max_spans:
        found.append(("TOO_MANY_PROVENANCE_TRIPLES_E", (len(pieces), max_spans)))
        del pieces[max_spans:]
    docid = None
    spans = []
    total = 0
    for piece in pieces:
        match = _match_span(piece)
        if match is None:
            found.append(("ILLEGAL_OFFSET_TRIPLE_STRING", (piece,)))
            continue
        kept = _check_span(*match, documents, found)
        if kept is False:
            return Spans(docid, spans), tuple(found)
        if kept is None:
            continue
        if docid is None:
            docid = match[0]
        elif match[0] != docid:
            found.append(("MULTIPLE_DOCIDS_IN_PROV", (text,)))
        spans.append(kept)
        total += int(kept[1]) - int(kept[0]) + 1
    if total > MAX_TOTAL_CHARS:
        found.append(("TOO_MANY_TOTAL_CHARS", (MAX_TOTAL_CHARS,)))
    return Spans(docid, spans), tuple(found)


def read_offsets(docid, start, end, documents=None) -> tuple:
    """``(Spans, problems)`` of one span given as its three parts (a query's
    entry point: the Perl's DOCID_OFFSET_OFFSET)."""
    found: list = []
    kept = _check_span(docid, start, end, documents, found)
    spans = [kept] if kept else []
    return Spans(docid if kept else None, spans), tuple(found)


class SpansReader:
    """:func:`read_spans` with one set of documents, each distinct column read
    once (KBs and runs repeat their provenance strings)."""

    def __init__(self, documents=None):
        self.documents = documents
        self._read: dict = {}

    def read(self, text, max_spans) -> tuple:
        key = (text, max_spans)
        found = self._read.get(key)
        if found is None:
            found = self._read[key] = read_spans(text, max_spans, self.documents)
        return found
