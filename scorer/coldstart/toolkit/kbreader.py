"""Reading a KB in the TAC format as CS-ValidateKB 2017.2.0 reads it: the run
id on the first line, then one assertion a line,

    SUBJECT <TAB> PREDICATE <TAB> OBJECT [<TAB> PROVENANCE] [<TAB> CONFIDENCE] [# comment]

(``type`` and ``link`` lines have no provenance), blank lines and comments
skipped (a ``#`` inside a double-quoted string is not one), each column
trimmed.  A first line without a legal run id (empty, starting with a colon,
holding white space) is an error, and is read again as an assertion: its
line numbers then run one ahead, as the Perl's do.

The file is refused before it is read where the Perl would read garbage: a
NUL byte, bytes that are not UTF-8, a byte-order mark (the message names
the file and line).
"""
from __future__ import annotations

import itertools
import re
import time

from scorer.coldstart.toolkit.documents import WHITE_SPACE
from scorer.coldstart.toolkit.kb import KB
from scorer.problems import ScorerError
from scorer.textfile import decode, decode_block, read_blocks, read_bytes

#: The Perl's comment pattern: a ``#`` (and the white space before it) that
#: is not inside a double-quoted string starts the comment.
_COMMENT = re.compile(
    r'^((?>(?:(?>[^#"]*)(?:"(?>(?:(?>[^"\\]+)|\\.)*)")?)*))' f"([{WHITE_SPACE}]*#.*)$")
_NOT_BLANK = re.compile(f"[^{WHITE_SPACE}]")
#: The white space the Perl's \s matches, for str.strip
_SPACE = "".join(chr(c) for c in range(0x3001) if re.match(f"[{WHITE_SPACE}]", chr(c)))
_CONFIDENCE = re.compile(r"\d+\.\d+$|\d+$")
_SCIENTIFIC = re.compile(r"\d+\.\d+e[-+]?\d\d$")
#: A line of four columns and a confidence, no column with white space at its ends.
_PLAIN = re.compile(r"(\S+)\t(\S+)\t(\S(?:[^\t]*\S)?)\t(\S+)\t([0-9]+\.[0-9]+)")
_RUNID_COMMENT = re.compile(f"[{WHITE_SPACE}]*#.*")
_HAS_SPACE = re.compile(f"[{WHITE_SPACE}]")


def text_lines(path: str, what: str = "TAC KB lines"):
    """The lines of a file (without their ends), one at a time, the file read
    in blocks (never held whole); refused, naming the file and line, where
    the Perl would read garbage: a NUL byte, bytes that are not UTF-8, a
    byte-order mark."""
    before = 0
    for number, block in enumerate(read_blocks(path)):
        if number == 0:
            if block[:2] in (b"\xff\xfe", b"\xfe\xff"):
                decode(path, read_bytes(path))
            if block.startswith(b"\xef\xbb\xbf"):
                raise ScorerError(f"{path} line 1: the file starts with a byte order mark "
                                  f"(U+FEFF); save it as UTF-8 without one")
        nul = block.find(b"\0")
        if nul >= 0:
            line = before + block.count(b"\n", 0, nul) + 1
            raise ScorerError(f"{path} line {line}: a NUL byte: this is not a text file of "
                              f"{what}")
        before += block.count(b"\n")
        yield from _lines(decode_block(path, block))


def _lines(text: str):
    """The lines of a text (without their ends), one at a time."""
    start, end = 0, len(text)
    while start < end:
        stop = text.find("\n", start)
        if stop < 0:
            yield text[start:]
            return
        yield text[start:stop]
        start = stop + 1


def trim(text: str) -> str:
    return text.strip(_SPACE)



def read_tac(path: str, log, documents=None, multiple: str = "MANY",
             legal_predicates=None, task: str = "CSKB", predicate_set=None,
             labels=None) -> KB:
    """The KB of the file ``path``, its problems recorded in ``log``
    (``legal_predicates``: the predicates the task allows, None for all)."""
    kb = KB(path, log, documents, multiple, predicate_set, labels)
    lines = text_lines(path)
    first = next(lines, None)
    runid = trim(_RUNID_COMMENT.sub("", first, count=1)) if first is not None else ""
    kb.runid_line = first
    if not runid or runid.startswith(":") or _HAS_SPACE.search(runid):
        # an empty file has no line 1 (the Perl says line 0)
        log.record("MISSING_RUNID", where=kb.where(1 if first is not None else 0))
        runid = "OmittedRunID"
        kb.runid_line = (f"OmittedRunID\t# {time.strftime('%a %b %e %H:%M:%S %Z %Y')}\n"
                         f"  Did not find a legal run ID at the start of {path}")
        # the first line is read again, as line 2 (the Perl's count runs on)
        if first is not None:
            lines = itertools.chain((first,), lines)
    kb.runid = runid
    texts = kb.texts
    for line_number, line in enumerate(lines, 2):
        comment = ""
        if "#" in line:
            match = _COMMENT.match(line)
            if match is not None:
                line, comment = match.group(1), match.group(2)
        plain = _PLAIN.fullmatch(line)
        if plain is not None and "e" not in plain.group(4):
            # most lines: four columns and a confidence, nothing to trim
            subject, predicate, obj, provenance, confidence = plain.groups()
            if legal_predicates is None and predicate.partition(".")[0].lower() not in \
                    ("type", "link"):
                kb.add(subject, predicate, obj, provenance,
                       texts.setdefault(confidence, confidence), line_number, comment)
                continue
        if not line.strip(_SPACE):
            continue
        entries = line.split("\t")
        while entries and entries[-1] == "":
            entries.pop()
        entries = [entry.strip(_SPACE) for entry in entries]
        confidence = "1.0"
        if entries and _CONFIDENCE.match(entries[-1]):
            confidence = entries.pop()
            confidence = texts.setdefault(confidence, confidence)
        if entries and "e" in entries[-1] and _SCIENTIFIC.match(entries[-1]):
            log.record("IMPROPER_CONFIDENCE_VALUE", entries[-1], where=kb.where(line_number))
            confidence = "%.12f" % float(entries.pop())
        count = len(entries)
        if count == 4:
            subject, predicate, obj, provenance = entries
        else:
            subject, predicate, obj, provenance = (entries + [None] * 4)[:4]
        if legal_predicates is not None and (predicate or "").lower() not in legal_predicates:
            log.record("OFF_TASK_SLOT", predicate or "", task, where=kb.where(line_number))
            continue
        verb = (predicate or "").partition(".")[0].lower()
        wanted = 3 if verb == "type" or verb == "link" else 4
        if count != wanted:
            log.record("WRONG_NUM_ENTRIES", wanted, count, where=kb.where(line_number))
            continue
        kb.add(subject, predicate, obj, provenance, confidence, line_number, comment)
    return kb
