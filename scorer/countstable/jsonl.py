"""Reading JSON-lines files the way the reference evaluators read them.

Both reference scorers read a file line by line in Python's universal-newline
mode and give each line to ``json.loads``: a blank line, a line with two
objects or a truncated object stops them.  Here the same lines are accepted
and every refusal names the file and the line.
"""
from __future__ import annotations

import json
import os
import sys
from itertools import compress, count
from json.encoder import encode_basestring

from scorer import processenv
from scorer.limits import MAX_JSON_DEPTH, has_lone_surrogate, json_depth, value_depth
from scorer.problems import ScorerError
from scorer.textfile import decode_block, read_blocks


def _lines(text: str) -> list[str]:
    """The text's lines as Python's text mode splits them (``\\n``, ``\\r\\n``, ``\\r``)."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def read_objects(path: str, lenient: bool = False) -> list[tuple[int, dict]]:
    """``(line number, object)`` for every line; each line must hold one JSON
    object.  ``lenient``: a UTF-8 byte-order mark opening the file is not
    part of its first line, and blank lines are skipped (the reference
    evaluators' ``json.loads`` refuses both, so the claim tasks do too)."""
    objects = []
    for block in object_blocks(path, any_decoder(path), lenient):
        objects += block
    return objects


_BOM = b"\xef\xbb\xbf"


def object_blocks(path: str, decoder=None, lenient: bool = False):
    """The file's ``(line number, value)`` pairs a block of lines at a time
    (``textfile.read_blocks``: the file is never held whole, in bytes, text
    and lines at once), each line holding one JSON object.

    ``decoder``: a msgspec JSON decoder (:func:`fast_json`), or None.  A
    line it reads gives the value it makes (a dict, or the Struct of a
    typed decoder); every other line, and every line without a decoder, is
    read by the standard library with every check made (``_checked``),
    so that the values are those ``json.loads`` gives and every refusal is
    the same, naming the file and line.  ``lenient``: see :func:`read_objects`.
    """
    lines_before = 0
    for block in read_blocks(path):
        if lenient and lines_before == 0 and block.startswith(_BOM):
            block = block[len(_BOM):]
        # Screens of the whole block, each one pass in C, so that the loop
        # tests each line only for what it may hold: a line nested too
        # deeply has more than MAX_JSON_DEPTH opening brackets (gold lines
        # with many evidence groups have a few hundred, at a depth of 4:
        # their values' depth is measured), and a lone surrogate needs an
        # escape \uD800-\uDFFF.
        crowded = _crowded_lines(block, lines_before)
        text = decode_block(path, block)
        if decoder is not None:
            values = _decoded_block(decoder, block, crowded)
            if values is not None:
                yield list(zip(range(lines_before + 1, lines_before + 1 + len(values)), values))
                lines_before += len(values)
                continue
        del block
        found = []
        lines_before = _read_lines(path, _lines(text), lines_before, crowded,
                                   _may_escape_surrogates(text), found.append,
                                   decoder, lenient)
        yield found


class FileLines:
    """A JSON-lines file to be read a block at a time as it is scored (FEVER's
    one pass), in place of its ``(line, object)`` pairs: iterating it gives
    those pairs (every line read by the standard library)."""

    __slots__ = ("path",)

    def __init__(self, path: str):
        self.path = path

    def __iter__(self):
        for block in object_blocks(self.path):
            yield from block

    def __repr__(self) -> str:
        return f"FileLines({self.path!r})"


def _read_lines(path: str, lines: list, lines_before: int, crowded: set, escapes: bool,
                append, decoder=None, blank_ok: bool = False) -> int:
    """Append ``(line number, object)`` for each of ``lines`` (numbered on from
    ``lines_before``; a blank line is skipped when ``blank_ok``); the number of
    the last line."""
    # The common line is one scanner call; any other (an error, white space
    # around the value, not an object, a possible surrogate) is read again by
    # _checked, which makes every check in order and says what is wrong.
    # A loop filling a list, not a generator: none resumed per line.
    if decoder is not None:
        return _decode_lines(path, lines, lines_before, crowded, append, decoder, blank_ok)
    scan = _scan
    number = lines_before
    for line in lines:
        number += 1
        try:
            value, end = scan(line, 0)
        except Exception:
            end = -1
        if end != len(line) or type(value) is not dict or \
                (number in crowded and value_depth(value) > MAX_JSON_DEPTH) or \
                (escapes and ("\\ud" in line or "\\uD" in line)):
            value = _checked(path, number, line, escapes, blank_ok)
            if value is None:
                continue
        append((number, value))
    return number


# ---------------------------------------------------------------- msgspec

# msgspec (optional) reads the common line several times faster than the
# standard library and, decoding into typed Structs, makes only the values
# asked for.  It is used only where it gives what json.loads gives: a line
# it reads in the same way; every other line, and every line it refuses, is
# read by the standard library with every check made.  Where the two could
# differ, a screen sends the line to the standard library first:
#
# - nesting deeper than MAX_JSON_DEPTH (msgspec allows about 1,000
#   levels): the lines with more opening brackets than that
#   (:func:`_crowded_lines`);
# - numbers of more digits than ``int`` reads (4,300; in a field skipped by a
#   typed decoder msgspec does not look): the lines longer than that;
# - ``\r``, a line end to Python's text mode but white space to JSON: the
#   blocks holding one are split as Python splits them;
# - one object a line: a block is decoded in one call only when every line
#   of it starts with ``{`` and ends with ``}`` (a value cannot run on from
#   one such line to the next) and the objects are as many as the lines.
#
# NaN and Infinity, lone surrogates, numbers out of a double's range,
# control characters and every syntax error msgspec refuses itself (the
# standard library then gives its value or its message); invalid UTF-8 is
# refused for the whole block before either reads it.

#: Inputs of fewer bytes than this are read by the standard library alone:
#: importing msgspec (with typing, about 10 ms) costs more than it saves there.
FAST_MIN_BYTES = 1 << 20
#: False: every line is read by the standard library (the path of an
#: interpreter without msgspec; the differential tests set it).
FAST = True

_msgspec: object = False        # False: not looked for yet; None: not installed


def fast_json():
    """The ``msgspec`` module (with ``msgspec.json``), or None where it is not
    installed: the leaderboard's scoring program may run on an image without it."""
    global _msgspec
    if _msgspec is False:
        try:
            _msgspec = _import_msgspec()
        except ImportError:
            _msgspec = None
    return _msgspec


def _import_msgspec():
    """``import msgspec``, ``msgspec.json`` with it; in a command-line
    process, without typing_extensions.

    msgspec takes ``get_type_hints``, ``Required`` and ``NotRequired`` from
    typing_extensions when it is installed, else from typing, which has all
    three in every Python this package supports; the Structs here name
    their types directly and need none of them.  typing_extensions comes
    with the test dependencies (selenium), not with this package, and
    importing it (inspect, ast, dis with it) is 9 ms, a twentieth of a FEVER
    run of 10,000 claims: a command line imports msgspec as a plain install
    does.  A program importing ``scorer`` gets msgspec as it comes."""
    hidden = processenv.is_command_line() and "typing_extensions" not in sys.modules
    if hidden:
        sys.modules["typing_extensions"] = None     # an ImportError, for msgspec alone
    try:
        # (optional, and looked for once: a small file reads without it)
        import msgspec
        import msgspec.json  # noqa: F401
    finally:
        if hidden:
            del sys.modules["typing_extensions"]
    return msgspec


def decode_fast(paths) -> bool:
    """Whether files ``paths`` are read through msgspec: it is installed (and
    allowed, :data:`FAST`) and they are large enough to repay its import."""
    if not FAST:
        return False
    total = 0
    for path in paths:
        try:
            total += os.path.getsize(path)
        except (OSError, ValueError):
            pass                 # said when the file is read
    return total >= FAST_MIN_BYTES and fast_json() is not None


_any_decoder = None


def any_decoder(path: str):
    """A msgspec decoder of any JSON value for file ``path``, or None when
    the standard library reads it (:func:`decode_fast`)."""
    global _any_decoder
    if not decode_fast((path,)):
        return None
    if _any_decoder is None:
        _any_decoder = _msgspec.json.Decoder()
    return _any_decoder


def _int_digits() -> int:
    """The most digits ``int()`` converts (``sys.get_int_max_str_digits``;
    msgspec's own limit is the same 4,300)."""
    limit = getattr(sys, "get_int_max_str_digits", lambda: 0)()
    return min(limit, 4300) if limit else 4300


#: Lines longer than this are read by the standard library (see above).
LONG_LINE = _int_digits()


def _has_long_line(block: bytes) -> bool:
    """True when a line of ``block`` may be LONG_LINE bytes long or more: some
    aligned window of LONG_LINE // 2 bytes holds no line end (a longer line
    covers a whole window).  A few dozen ``find`` calls a block."""
    find = block.find
    step = LONG_LINE // 2
    for start in range(0, len(block) - step + 1, step):
        if find(b"\n", start, start + step) < 0:
            return True
    return False


def _decode_errors() -> tuple:
    return (_msgspec.MsgspecError, ValueError, RecursionError, OverflowError)


def _decoded_block(decoder, block: bytes, crowded: set):
    """The values of the block's lines in one msgspec call, or None when a
    line must be read on its own (see the screens above)."""
    if crowded or not block.startswith(b"{") or b"\r" in block:
        return None
    newlines = block.count(b"\n")
    if block.endswith(b"}\n"):
        lines = newlines
    elif block.endswith(b"}"):          # the last line of a file without a final line end
        lines = newlines + 1
    else:
        return None
    if block.count(b"}\n{") != lines - 1 or _has_long_line(block):
        return None
    try:
        values = decoder.decode_lines(block)
    except _decode_errors():
        return None
    return values if len(values) == lines else None


#: What a line holding one JSON value but no object decodes to.
_NOT_OBJECTS = frozenset((list, str, int, float, bool, type(None)))


def _decode_lines(path: str, lines: list, lines_before: int, crowded: set, append,
                  decoder, blank_ok: bool = False) -> int:
    """:func:`_read_lines` through msgspec: each line it may read is decoded
    by it, any other line, or one it refuses, is read by ``_checked``."""
    decode = decoder.decode
    errors = _decode_errors()
    longest = LONG_LINE
    not_objects = _NOT_OBJECTS
    number = lines_before
    for line in lines:
        number += 1
        value = None
        if number not in crowded and len(line) <= longest:
            try:
                value = decode(line)
            except errors:
                value = None
            else:
                if type(value) in not_objects:
                    value = None
        if value is None:
            value = _checked(path, number, line, True, blank_ok)
            if value is None:
                continue
        append((number, value))
    return number


def _checked(path: str, number: int, line: str, escapes: bool, blank_ok: bool = False):
    """The object on line ``number``, every check made (``escapes``: the
    file has an escape that may be a lone surrogate); None for a blank line
    when ``blank_ok``."""
    if not line or line.isspace():
        if blank_ok:
            return None
        raise ScorerError(f"{path} line {number}: empty line; every line must hold "
                          f"one JSON object (the reference evaluators stop here too)")
    if json_depth(line) > MAX_JSON_DEPTH:
        raise ScorerError(f"{path} line {number}: JSON nested more than {MAX_JSON_DEPTH} "
                          f"levels deep; claim files nest a few levels")
    try:
        value = _load(line)
    except json.JSONDecodeError as error:
        if line.startswith("\ufeff"):
            # (json.loads says 'Unexpected UTF-8 BOM (decode using utf-8-sig)')
            raise ScorerError(f"{path} line {number}: starts with a byte-order mark (U+FEFF, "
                              f"invisible), which the reference evaluators refuse too; save "
                              f"the file as UTF-8 without one")
        raise ScorerError(f"{path} line {number}: not valid JSON: {error.msg} "
                          f"(column {error.colno})")
    except RecursionError:
        raise ScorerError(f"{path} line {number}: JSON nested too deeply")
    except ValueError:
        # int() refuses numbers of more than 4,300 digits (sys.get_int_max_str_digits).
        raise ScorerError(f"{path} line {number}: a number too long to read "
                          f"(JSON numbers here are ids, lines and counts)")
    if escapes and ("\\ud" in line or "\\uD" in line) and \
            has_lone_surrogate(json.dumps(value, ensure_ascii=False)):
        raise ScorerError(f"{path} line {number}: a string holds a lone surrogate "
                          f"(an escape \\ud800 to \\udfff not part of a pair), which is "
                          f"not Unicode text")
    if not isinstance(value, dict):
        raise ScorerError(f"{path} line {number}: expected a JSON object "
                          f"{{...}}, found {type_name(value)}")
    return value


#: Every byte but the opening brackets and the line ends, deleted by
#: :func:`_crowded_lines` (``bytes.translate``: one pass in C).
_NOT_OPENERS = bytes(byte for byte in range(256) if byte not in b"[{\n\r")


def _may_escape_surrogates(text: str) -> bool:
    """Whether ``text`` holds the start of an escape that may be a lone
    surrogate (``\\uD800``-``\\uDFFF``)."""
    return "\\ud" in text or "\\uD" in text


def _crowded_lines(data: bytes, lines_before: int = 0) -> set:
    """The numbers of the lines of ``data`` (numbered on from
    ``lines_before``) with more than MAX_JSON_DEPTH opening brackets (``[`` or
    ``{``, in strings too): no other line can nest more deeply.  (Line ends
    as Python's text mode has them: a \\r is one too.)"""
    openers = data.translate(None, _NOT_OPENERS).replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    return set(compress(count(lines_before + 1),
                        map(MAX_JSON_DEPTH.__lt__, map(len, openers.split(b"\n")))))


#: The C scanner behind ``json.loads``, called directly: the same parse
#: without the wrapper's checks and regular expressions, a sizeable part of
#: reading a file of short lines.
_scan = json.JSONDecoder().scan_once


def _load(line: str):
    """``json.loads(line)``; anything unusual (leading white space, an error,
    text after the value) goes to ``json.loads`` itself, for its verdict and
    message."""
    try:
        value, end = _scan(line, 0)
    except Exception:
        return json.loads(line)
    if end != len(line) and line[end:].strip(" \t\n\r"):
        return json.loads(line)
    return value


def type_name(value) -> str:
    """How a JSON value is called in messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


_INT = {int}
#: ``json.dumps(text, ensure_ascii=False)`` of a string: the encoder's own C
#: function for it, without the encoder's set-up cost.
json_string = encode_basestring


def show(value) -> str:
    """A JSON value as written in a file (for messages and the .debug report):
    ``json.dumps(value, ensure_ascii=False)``."""
    return shows((value,))[0]


def shows(values) -> list:
    """:func:`show` of each value.  The values the reports show by the
    thousand (whole numbers, strings, ``[page, line]`` pairs, lists of whole
    numbers) are written directly, the same text without the encoder's set-up
    cost; anything else goes through ``json.dumps``.  One call for many
    values: a call per value would cost as much again."""
    texts = []
    append = texts.append
    string = json_string
    for value in values:
        kind = type(value)
        if kind is list or kind is tuple:
            if len(value) == 2:
                page, line = value
                if type(page) is str and type(line) is int:
                    # {line}: str() of an int, its repr (bool, a subclass, is left out)
                    append(f"[{string(page)}, {line}]")
                    continue
            if not value or set(map(type, value)) == _INT:
                append("[" + ", ".join(map(int.__repr__, value)) + "]")
                continue
        elif kind is int:
            append(int.__repr__(value))
            continue
        elif kind is str:
            append(string(value))
            continue
        append(json.dumps(value, ensure_ascii=False))
    return texts
