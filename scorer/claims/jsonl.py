"""Reading JSON-lines files the way the reference evaluators read them.

Both reference scorers read a file line by line in Python's universal-newline
mode and give each line to ``json.loads``: a blank line, a line with two
objects or a truncated object stops them.  Here the same lines are accepted
and every refusal names the file and the line.
"""
from __future__ import annotations

import json
import re
from itertools import compress, count
from json.encoder import encode_basestring

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


def read_objects(path: str) -> list[tuple[int, dict]]:
    """``(line number, object)`` for every line; each line must hold one JSON object."""
    # A block of lines at a time (textfile.read_blocks): the file is never
    # held whole, in bytes, text and lines at once.
    objects = []
    lines_before = 0
    for block in read_blocks(path):
        # Screens of the whole block, each one pass in C, so that the loop
        # tests each line only for what it may hold: a line nested too
        # deeply has more than MAX_JSON_DEPTH opening brackets (gold lines
        # with many evidence groups have a few hundred, at a depth of 4:
        # their values' depth is measured), and a lone surrogate needs an
        # escape \uD800-\uDFFF.
        crowded = _crowded_lines(block, lines_before)
        text = decode_block(path, block)
        del block
        lines_before = _read_lines(path, _lines(text), lines_before, crowded,
                                   _SURROGATE_ESCAPE.search(text) is not None, objects.append)
    return objects


def _read_lines(path: str, lines: list, lines_before: int, crowded: set, escapes: bool,
                append) -> int:
    """Append ``(line number, object)`` for each of ``lines`` (numbered on from
    ``lines_before``); the number of the last line."""
    # The common line is one scanner call; any other (an error, white space
    # around the value, not an object, a possible surrogate) is read again by
    # _checked, which makes every check in order and says what is wrong.
    # A loop filling a list, not a generator: none resumed per line.
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
            value = _checked(path, number, line, escapes)
        append((number, value))
    return number


def _checked(path: str, number: int, line: str, escapes: bool) -> dict:
    """The object on line ``number``, every check made (``escapes``: the
    file has an escape that may be a lone surrogate)."""
    if not line or line.isspace():
        raise ScorerError(f"{path} line {number}: empty line; every line must hold "
                          f"one JSON object (the reference evaluators stop here too)")
    if json_depth(line) > MAX_JSON_DEPTH:
        raise ScorerError(f"{path} line {number}: JSON nested more than {MAX_JSON_DEPTH} "
                          f"levels deep; claim files nest a few levels")
    try:
        value = _load(line)
    except json.JSONDecodeError as error:
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
#: The start of an escape that may be a lone surrogate (\uD800-\uDFFF).
_SURROGATE_ESCAPE = re.compile(r"\\u[dD]")


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
