"""Reading JSON-lines files the way the reference evaluators read them.

Both reference scorers read a file line by line in Python's universal-newline
mode and give each line to ``json.loads``: a blank line, a line with two
objects or a truncated object stops them.  Here the same lines are accepted
and every refusal names the file and the line.
"""
from __future__ import annotations

import json
from typing import Iterator

from scorer.limits import MAX_JSON_DEPTH, has_lone_surrogate, json_depth
from scorer.problems import ScorerError
from scorer.textfile import read_text


def read_lines(path: str) -> list[str]:
    """The file's lines as Python's text mode splits them (``\\n``, ``\\r\\n``, ``\\r``)."""
    lines = read_text(path).replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def read_objects(path: str) -> list[tuple[int, dict]]:
    """``(line number, object)`` for every line; each line must hold one JSON object."""
    return list(_objects(path))


def _objects(path: str) -> Iterator[tuple[int, dict]]:
    for number, line in enumerate(read_lines(path), 1):
        if not line.strip():
            raise ScorerError(f"{path} line {number}: empty line; every line must hold "
                              f"one JSON object (the reference evaluators stop here too)")
        if json_depth(line) > MAX_JSON_DEPTH:
            raise ScorerError(f"{path} line {number}: JSON nested more than {MAX_JSON_DEPTH} "
                              f"levels deep; claim files nest a few levels")
        try:
            value = json.loads(line)
        except json.JSONDecodeError as error:
            raise ScorerError(f"{path} line {number}: not valid JSON: {error.msg} "
                              f"(column {error.colno})")
        except RecursionError:
            raise ScorerError(f"{path} line {number}: JSON nested too deeply")
        except ValueError:
            # int() refuses numbers of more than 4,300 digits (sys.get_int_max_str_digits).
            raise ScorerError(f"{path} line {number}: a number too long to read "
                              f"(JSON numbers here are ids, lines and counts)")
        if "\\u" in line and has_lone_surrogate(json.dumps(value, ensure_ascii=False)):
            raise ScorerError(f"{path} line {number}: a string holds a lone surrogate "
                              f"(an escape \\ud800 to \\udfff not part of a pair), which is "
                              f"not Unicode text")
        if not isinstance(value, dict):
            raise ScorerError(f"{path} line {number}: expected a JSON object "
                              f"{{...}}, found {type_name(value)}")
        yield number, value


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


def show(value) -> str:
    """A JSON value as written in a file (for messages and the .debug report)."""
    return json.dumps(value, ensure_ascii=False)
