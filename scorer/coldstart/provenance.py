"""Provenance strings ``DOCID:START-END[,DOCID:START-END...]``: their checks and
their normalised form, which matching and the target-query hash use
(spec §2.6).
"""
from __future__ import annotations

import re

from scorer.limits import is_short_number
from scorer.problems import Problems, Where

MAX_CHARS_PER_SPAN = 200
MAX_TOTAL_CHARS = 800

_REPAIRABLE_SEMICOLONS = re.compile(r"^(?:[^:;]+:\d+-\d+[,;]){0,3}[^:;]+:\d+-\d+$")
_OFFSETS = re.compile(r"(\d+)-(\d+)\s*")


def _match_span(piece: str):
    """``(docid, start, end)`` as ``^\\s*([^:]+):(\\d+)-(\\d+)\\s*$`` finds them,
    or None.  Split at the first colon instead: the pattern's leading
    ``\\s*[^:]+`` backtracks quadratically over a long run of spaces."""
    colon = piece.find(":")
    if colon < 0:
        return None
    offsets = _OFFSETS.fullmatch(piece, colon + 1)
    if offsets is None:
        return None
    head = piece[:colon]
    docid = head.lstrip()
    if not docid:
        if not head:
            return None
        docid = head[-1]    # the pattern gives [^:]+ the last white space character
    return docid, offsets.group(1), offsets.group(2)


def perl_split(text: str, separator: str) -> list:
    """``split`` as Perl does it: trailing empty fields are dropped."""
    fields = text.split(separator)
    while fields and fields[-1] == "":
        fields.pop()
    return fields


class Provenance:
    """A provenance column once checked: ``docid``, the first kept span's
    document (None if no span was kept), and ``text``, the normalised string
    matching and hashing use: the kept spans sorted by start (numerically),
    ties by end compared as strings (spec §7.42), all written with ``docid``.
    (Only these two are kept: one is made per distinct column text.)"""

    __slots__ = ("docid", "text")

    def __init__(self, docid, text):
        self.docid = docid
        self.text = text

    @classmethod
    def of_spans(cls, docid, spans) -> "Provenance":
        """From the kept spans, ``(start, end)`` texts in column order."""
        ordered = sorted(spans, key=lambda span: (int(span[0]), span[1]))
        return cls(docid, ",".join(f"{docid}:{start}-{end}" for start, end in ordered))


#: Per number of spans allowed, the provenance strings that parsed without
#: any problem (most of them; they repeat between the assessments and the runs).
_CLEAN: dict = {}


#: One span with nothing to check or repair (most provenance columns): its
#: normalised text is the column itself.  Longer numbers take the full parse.
_ONE_PLAIN_SPAN = re.compile(r"([^:,;\s]+):(\d{1,18})-(\d{1,18})")


def parse_provenance(text: str, max_spans: int, problems: Problems, where: Where) -> Provenance:
    """Parse, recording problems at ``where``; clean strings are parsed once."""
    clean = _CLEAN.get(max_spans)
    if clean is None:
        clean = _CLEAN[max_spans] = {}
    cached = clean.get(text)
    if cached is not None:
        return cached
    plain = _ONE_PLAIN_SPAN.fullmatch(text)
    if plain is not None and max_spans >= 1:
        first = int(plain.group(2))
        if first <= int(plain.group(3)) < first + MAX_CHARS_PER_SPAN:
            # A single clean span: its normalised form is the column as written.
            provenance = clean[text] = Provenance(plain.group(1), text)
            return provenance
    found: list = []
    provenance = _parse(text, max_spans, found)
    for name, args in found:
        problems.record(name, *args, where=where)
    if not found:
        clean[text] = provenance
    return provenance


def _parse(text: str, max_spans: int, found: list) -> Provenance:
    if ";" in text:
        if _REPAIRABLE_SEMICOLONS.match(text):
            found.append(("SEMICOLON_AS_SEPARATOR", (text,)))
            text = text.replace(";", ",")
        else:
            found.append(("SEMICOLON_IN_PROVENANCE_E", (text,)))
    pieces = perl_split(text, ",")
    if len(pieces) > max_spans:
        found.append(("TOO_MANY_PROVENANCE_TRIPLES_E", (len(pieces), max_spans)))
        pieces = pieces[:max_spans]
    docid = None
    spans = []
    total = 0
    for piece in pieces:
        match = _match_span(piece)
        if not match:
            found.append(("ILLEGAL_OFFSET_TRIPLE_STRING", (piece,)))
            continue
        span_docid, start, end = match
        if not (is_short_number(start) and is_short_number(end)):
            found.append(("ILLEGAL_OFFSET", (start if not is_short_number(start) else end,)))
            continue
        if int(end) < int(start):
            found.append(("ILLEGAL_OFFSET_PAIR", (start, end)))
            continue
        if int(end) - int(start) + 1 > MAX_CHARS_PER_SPAN:
            found.append(("TOO_MANY_CHARS", (MAX_CHARS_PER_SPAN,)))
            end = str(int(start) + MAX_CHARS_PER_SPAN - 1)
        if docid is None:
            docid = span_docid
        elif span_docid != docid:
            found.append(("MULTIPLE_DOCIDS_IN_PROV", (text,)))
        spans.append((start, end))
        total += int(end) - int(start) + 1
    if total > MAX_TOTAL_CHARS:
        found.append(("TOO_MANY_TOTAL_CHARS", (MAX_TOTAL_CHARS,)))
    return Provenance.of_spans(docid, spans)
