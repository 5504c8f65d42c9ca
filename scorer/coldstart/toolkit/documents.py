"""The ``-docs`` file of the toolkit's validators, as ColdStartLib.pm 2017.2.0
reads it: one document a line, ``DOCID<TAB>LENGTH[<TAB>FILE]`` (its length in
characters, and where its text is), and the text of a document, for the check
that a mention's string is what its offsets cover.

A line is split at tabs as Perl's ``split`` does (empty fields at the end are
dropped); a later line for the same document replaces an earlier one.  A
length is the number Perl reads from the column (``"1301"`` is 1301, a column
that is not a number is 0); a document without a third column has no file,
and its mentions are not compared with its text.
"""
from __future__ import annotations

import re
from collections import namedtuple

from scorer import textfile
from scorer.coldstart.provenance import perl_split
from scorer.coldstart.toolkit.problemlog import Fatal
from scorer.problems import ScorerError

#: A document the ``-docs`` file lists: its length (a number, as Perl reads the
#: column) and the path of its text (None: not given).
Document = namedtuple("Document", ("length", "file"))

# Perl's numeric reading of a string: leading white space, then the longest
# number at the start; "inf"/"nan" as words; anything else is 0.
_NUMBER = re.compile(r"[ \t\n\r\f\v]*([+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)")
_WORD = re.compile(r"[ \t\n\r\f\v]*([+-]?)(inf(?:inity)?|nan)", re.IGNORECASE)


def perl_number(text) -> float:
    """The number Perl reads from ``text`` (None reads as 0)."""
    if text is None:
        return 0
    match = _NUMBER.match(text)
    if match:
        value = float(match.group(1))
        return int(value) if value.is_integer() and abs(value) < 2 ** 53 else value
    word = _WORD.match(text)
    if word:
        return float(word.group(1) + word.group(2)[:3])
    return 0


def parse_documents(text: str) -> dict:
    """docid -> :class:`Document` from the text of a ``-docs`` file."""
    documents = {}
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    for line in lines:
        fields = perl_split(line, "\t")
        docid = fields[0] if fields else ""
        length = fields[1] if len(fields) > 1 else None
        path = fields[2] if len(fields) > 2 else None
        documents[docid] = Document(perl_number(length), path or None)
    return documents


def read_documents(path: str) -> dict:
    """docid -> :class:`Document` of the ``-docs`` file at ``path``; a file that
    cannot be read stops the tool (the Perl's ``Could not open``)."""
    try:
        return parse_documents(textfile.read_text(path))
    except ScorerError as error:
        raise Fatal(str(error)) from None


class DocumentTexts:
    """The texts of documents, each read when first asked for and kept while
    the next few are read (a mention check reads document after document)."""

    def __init__(self, keep: int = 64):
        self._keep = keep
        self._texts: dict = {}

    def text(self, path: str) -> str:
        """The characters of the document at ``path``: its UTF-8 text (a byte
        that is not UTF-8 is one character of its own, as the Perl's lax
        reading makes it).  A document that cannot be opened stops the tool."""
        found = self._texts.pop(path, None)
        if found is None:
            try:
                data = textfile.read_bytes(path)
            except ScorerError as error:
                raise Fatal(f"Source document expected at {path} ({error})") from None
            found = data.decode("utf-8", "surrogateescape")
            if len(self._texts) >= self._keep:
                del self._texts[next(iter(self._texts))]
        self._texts[path] = found
        return found
