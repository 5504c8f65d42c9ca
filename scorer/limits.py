"""Bounds on what users give: whole numbers checked by length and range
before they are converted, JSON nesting depth checked before it is parsed,
and strings that cannot be written as UTF-8 (lone surrogates).

Python's own limits (4,300 digits for ``int``, the recursion limit of
``json``) end in exceptions that say nothing about the file; these checks
come first, in linear time, so that every refusal names what was wrong.
"""
from __future__ import annotations

import re

from scorer.problems import ScorerError

#: Digits of the longest whole number read anywhere (offsets, counts, limits);
#: 18 digits always fit a 64-bit integer.
MAX_DIGITS = 18

#: How deeply JSON arrays and objects may nest in one line of a claims file
#: (the reference files nest 4 levels deep; Python's parser recurses per level).
MAX_JSON_DEPTH = 64

#: A string (an unclosed one runs to the end, so no text is scanned twice) or
#: a bracket.  (A pattern's text, compiled by ``re`` when first used: a line
#: nested deeply enough to need it is rare, and compiling costs a small run's
#: start-up about as much as importing a module.)
_STRING_OR_BRACKET = r'"(?:[^"\\]|\\.|\\\Z)*(?:"|\Z)|[\[\]{}]'


def whole_number(text: str, what: str, maximum: int | None = None) -> int:
    """``text`` as a non-negative whole number, or a ScorerError saying ``what`` it is."""
    stripped = text.strip() if isinstance(text, str) else ""
    digits = stripped[1:] if stripped.startswith("+") else stripped
    if not (digits.isascii() and digits.isdigit()):      # [+]?[0-9]+, nothing else
        raise ScorerError(f"{what} must be a whole number, not '{shorten(str(text))}'")
    digits = stripped.lstrip("+").lstrip("0") or "0"
    if len(digits) > MAX_DIGITS or (maximum is not None and int(digits) > maximum):
        limit = maximum if maximum is not None else 10 ** MAX_DIGITS - 1
        raise ScorerError(f"{what} is too large ({shorten(stripped)}); at most {limit:,}")
    return int(digits)


def is_short_number(digits: str) -> bool:
    """True when a string of digits is short enough to convert (see MAX_DIGITS)."""
    return len(digits) <= MAX_DIGITS


def json_depth(line: str) -> int:
    """The deepest nesting of arrays and objects in a line of JSON text
    (brackets inside strings do not count); linear in the line's length."""
    if line.count("[") + line.count("{") <= MAX_JSON_DEPTH:
        return 0
    depth = deepest = 0
    for match in re.finditer(_STRING_OR_BRACKET, line, re.S):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
        elif token in "]}":
            depth -= 1
    return deepest


def value_depth(value) -> int:
    """How deeply a parsed JSON value nests arrays and objects: the
    :func:`json_depth` of its text, found from the value (no text scanned)."""
    depth = 0
    level = [value] if type(value) is list or type(value) is dict else []
    while level:
        depth += 1
        inner = []
        for container in level:
            inner += [item for item in (container.values() if type(container) is dict
                                        else container)
                      if type(item) is list or type(item) is dict]
        level = inner
    return depth


def has_lone_surrogate(text: str) -> bool:
    """True when ``text`` holds a code point UTF-8 cannot encode (``\\ud800``...)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def shorten(text: str, length: int = 40) -> str:
    return text if len(text) <= length else f"{text[:length]}... ({len(text):,} characters)"
