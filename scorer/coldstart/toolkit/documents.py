"""The documents of a Cold Start corpus as the toolkit's ``-docs`` switch gives
them: a tab-separated file of ``DOCID  LENGTH  [FILE]`` lines (the length in
Unicode characters, as the Perl counts them; FILE the document's text, a path
from the working folder), and the texts themselves, read when a check needs
them.

With ``-docs`` the validators check every provenance span against it (an
unknown DOCID is fatal, an offset past the end an ERROR:
``scorer.coldstart.provenance``) and, where a document's FILE is given, the
filler string against the text at its span (:meth:`Documents.mention_differs`).
"""
from __future__ import annotations

import collections
import re
from typing import Optional

from scorer.problems import ScorerError
from scorer.textfile import decode, open_input, read_bytes, read_text

#: A length as the Perl reads a number: its leading number (``1301``, `` 1301``,
#: ``1301.0``); anything else has no length (refused when a check needs it).
_NUMBER = re.compile(r"\s*[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?")

#: The white space the Perl's ``\s`` matches in a character string (a
#: character class's body; Python's ``\s`` also takes U+001C..U+001F, which
#: the Perl's does not).
WHITE_SPACE = "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
_WHITE_SPACE = re.compile(f"[{WHITE_SPACE}]+")

#: How many document texts are kept once read: a run's lines come query by
#: query, and each query's justifications share a few documents.
_TEXTS_KEPT = 256


class Documents:
    """``-docs``: DOCID -> (length text, file, line of the -docs file)."""

    def __init__(self, path: str, rows: dict):
        self.path = path
        self._rows = rows
        self._lengths: dict = {}
        self._texts: collections.OrderedDict = collections.OrderedDict()
        #: max spans -> the provenance strings checked against these documents
        #: without a problem (``scorer.coldstart.provenance``)
        self.clean_provenance: dict = {}

    def __contains__(self, docid) -> bool:
        return docid in self._rows

    def __len__(self) -> int:
        return len(self._rows)

    def length(self, docid: str) -> float:
        """The document's length; a line without one is refused here, when a
        span of this document is checked (the Perl would take it as 0 and find
        every offset past the end)."""
        length = self._lengths.get(docid)
        if length is None:
            text, _file, line_number = self._rows[docid]
            match = _NUMBER.match(text or "")
            if match is None:
                raise ScorerError(f"{self.path} line {line_number}: the length of {docid} is "
                                  f"'{text or ''}', not a number of characters; expected "
                                  f"'DOCID<TAB>LENGTH<TAB>FILE'")
            length = self._lengths[docid] = float(match.group())
        return length

    def file(self, docid) -> Optional[str]:
        """The file holding the document's text, or None (none given: its
        filler strings are not checked)."""
        row = self._rows.get(docid)
        return row[1] if row is not None and row[1] else None

    def text(self, docid: str) -> str:
        """The document's text, read once (a few are kept)."""
        path = self.file(docid)
        text = self._texts.get(path)
        if text is not None:
            self._texts.move_to_end(path)
            return text
        try:
            open_input(path).close()
        except ScorerError as error:
            # the Perl's words: "Source document expected at FILE: ..."
            raise ScorerError(f"Source document expected at {path} (the document {docid} of "
                              f"{self.path} line {self._rows[docid][2]}): "
                              f"{str(error).split(': ', 1)[-1]}")
        text = read_text(path)
        self._texts[path] = text
        if len(self._texts) > _TEXTS_KEPT:
            self._texts.popitem(last=False)
        return text

    def mention_differs(self, value: str, docid: str, start, end) -> bool:
        """Whether the text of ``docid`` from ``start`` to ``end`` (characters,
        both included) is not ``value``, runs of white space counting as one
        space in both (the Perl's INACCURACTE_MENTION_STRING test)."""
        start, end = int(start), int(end)
        found = self.text(docid)[start:end + 1] if end >= start else ""
        return _WHITE_SPACE.sub(" ", value) != _WHITE_SPACE.sub(" ", found)


def checked_text(path: str, data: bytes, what: str) -> str:
    """The text of a tab-separated input file (``what``: what its lines are),
    refused with its file and line where the Perl would read garbage: a NUL
    byte, bytes that are not UTF-8 (UTF-16), a byte-order mark (which the
    Perl reads as part of the first column)."""
    nul = data.find(b"\0")
    if nul >= 0 and data[:2] not in (b"\xff\xfe", b"\xfe\xff"):
        line = data.count(b"\n", 0, nul) + 1
        raise ScorerError(f"{path} line {line}: a NUL byte: this is not a text file of {what}")
    text = decode(path, data)
    if text.startswith("\ufeff"):
        raise ScorerError(f"{path} line 1: the file starts with a byte order mark (U+FEFF); "
                          f"save it as UTF-8 without one")
    return text


def read_documents(path: str) -> Documents:
    """The ``-docs`` file: one ``DOCID<TAB>LENGTH<TAB>FILE`` line per document
    (FILE may be left out); a DOCID given twice keeps its last line, as the
    Perl's does.  A line ending in CR LF is read as one ending in LF."""
    rows: dict = {}
    text = checked_text(path, read_bytes(path), "DOCID<TAB>LENGTH<TAB>FILE lines")
    for line_number, line in enumerate(text.split("\n"), 1):
        if line.endswith("\r"):
            line = line[:-1]
        if not line:
            continue
        fields = line.split("\t")
        while len(fields) > 1 and fields[-1] == "":
            fields.pop()
        rows[fields[0]] = (fields[1] if len(fields) > 1 else None,
                           fields[2] if len(fields) > 2 else None, line_number)
    return Documents(path, rows)
