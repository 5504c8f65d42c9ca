"""scorer/countstable/jsonl.py: reading JSON-lines files as the reference
evaluators read them, and writing values as they write them.

- ``show``/``shows`` write the common values directly: the same text as
  ``json.dumps(value, ensure_ascii=False)`` for any JSON value;
- a line is read through the JSON scanner directly: the same value, or the
  same refusal, as ``json.loads``;
- ``read_objects`` gives the objects, or the refusal naming file and line,
  that the rules applied one line at a time give, whatever the block size
  and whether msgspec reads the file;
- each refusal's own message.
"""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.countstable import jsonl

from json_values import texts, values



@settings(max_examples=400, deadline=None)
@given(values)
def test_show_is_json_dumps(value):
    assert jsonl.show(value) == json.dumps(value, ensure_ascii=False)


@settings(max_examples=200, deadline=None)
@given(st.lists(values, max_size=6))
def test_shows_is_show_of_each(items):
    assert jsonl.shows(items) == [json.dumps(v, ensure_ascii=False) for v in items]


def _outcome(function, *args):
    try:
        return ("value", function(*args))
    except Exception as error:  # the refusal itself is compared
        return (type(error).__name__, str(error))


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(values, st.sampled_from(["", " ", "\t", " x", "\r", ",", " {}", "]"]),
       st.sampled_from(["", " ", "\ufeff"]))
def test_load_is_json_loads(value, tail, head):
    line = head + json.dumps(value) + tail
    assert _outcome(jsonl._load, line) == _outcome(json.loads, line)


def _read_objects_line_by_line(path: str) -> list:
    """The rules of ``jsonl.read_objects`` applied one line at a time, in their
    order: empty line, nesting depth, JSON, lone surrogate, object."""
    from scorer.limits import MAX_JSON_DEPTH, has_lone_surrogate, json_depth
    from scorer.problems import ScorerError
    with open(path, encoding="utf-8", newline=None) as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    objects = []
    for number, line in enumerate(lines, 1):
        where = f"{path} line {number}"
        if not line or line.isspace():
            raise ScorerError(f"{where}: empty line; every line must hold one JSON object "
                              f"(the reference evaluators stop here too)")
        if json_depth(line) > MAX_JSON_DEPTH:
            raise ScorerError(f"{where}: JSON nested more than {MAX_JSON_DEPTH} levels deep; "
                              f"claim files nest a few levels")
        try:
            value = json.loads(line)
        except json.JSONDecodeError as error:
            raise ScorerError(f"{where}: not valid JSON: {error.msg} (column {error.colno})")
        except ValueError:
            raise ScorerError(f"{where}: a number too long to read (JSON numbers here are "
                              f"ids, lines and counts)")
        if has_lone_surrogate(json.dumps(value, ensure_ascii=False)):
            raise ScorerError(f"{where}: a string holds a lone surrogate (an escape \\ud800 to "
                              f"\\udfff not part of a pair), which is not Unicode text")
        if not isinstance(value, dict):
            raise ScorerError(f"{where}: expected a JSON object {{...}}, found "
                              f"{jsonl.type_name(value)}")
        objects.append((number, value))
    return objects


#: Lines a claims file may hold, good and bad: the whole-file screens of
#: ``read_objects`` (nesting, surrogate escapes) and its one-call parse of
#: the common line must refuse, and accept, what these rules do.
file_lines = st.one_of(
    st.dictionaries(texts, values, max_size=3).map(json.dumps),
    st.dictionaries(texts, values, max_size=2).map(lambda d: json.dumps(d, indent=1)
                                                  .replace("\n", " ")),
    values.map(json.dumps),
    st.sampled_from(["", " ", "\t", '{"a": 1} x', '{"a": 1}  ', ' {"a": 2}', '{"a": "\\ud800"}',
                     '{"a": "\\uD83D\\uDE00"}', '{"a": "\\\\ud800"}', '{"a": [1, 2',
                     '{"a": ' + "[" * 64 + "]" * 64 + "}", '{"a": ' + "[" * 65 + "]" * 65 + "}",
                     '{"a": "' + "[" * 70 + '"}', "[" * 1200 + "]" * 1200, '{"n": 1' + "0" * 5000
                     + "}", '{"a": 1}\ufeff', '{"a":', '1}', '[', ']', '{"b": [', '2]}', '{}']),
    # What msgspec and the standard library might read apart: non-finite and
    # out-of-range numbers, the longest whole numbers int() reads and one
    # more digit, lone and paired surrogates, duplicate keys, control
    # characters, two objects, a value running on to the next line.
    st.sampled_from(['{"a": NaN}', '{"a": Infinity}', '{"a": -Infinity}', '{"a": 1e400}',
                     '{"a": -1E400}', '{"a": 1e-400}', '{"a": 18446744073709551616}',
                     '{"a": -9223372036854775809}', '{"a": -0}', '{"a": -0.0}',
                     '{"a": 1' + "0" * 4299 + "}", '{"a": 1' + "0" * 4300 + "}",
                     '{"x": "' + "y" * 4400 + '", "a": 1' + "0" * 4300 + "}",
                     '{"a": "\\udc80"}', '{"a": "\\ud800\\u0041"}', '{"\\ud800": 1}',
                     '{"a": "\\ud83d\\ude00"}', '{"a": 1, "a": 2}', '{"a": 1, "a": [}',
                     '{"a": "x\x01"}', '{"a": "\x7f"}', '{"a": 1}{"b": 2}', '{"a": 1} {"b": 2}',
                     '{"a":', '"b"}', '{"a": 01}', '{"a": .5}', '{"a": 1.}', '{"a": +1}',
                     '{"a": 0.1000000000000000055511151231257827}', '{"a": 5e-324}',
                     '{"a": 2.2250738585072011e-308}', '{"a": 1.7976931348623157e308}',
                     '{"a": true, "b": false, "c": null}', '{"a": "\\u0000"}']),
)


def reading(way: str):
    """A context in which ``jsonl`` reads files the ``way`` named: "stdlib"
    (every line by the standard library, as where msgspec is missing) or
    "msgspec" (through msgspec whatever the file's size)."""
    from unittest import mock
    if way == "stdlib":
        return mock.patch.object(jsonl, "FAST", False)
    if jsonl.fast_json() is None:
        pytest.skip("msgspec is not installed")
    return mock.patch.object(jsonl, "FAST_MIN_BYTES", 0)


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(st.lists(file_lines, min_size=1, max_size=6),
       st.sampled_from(["\n", "\r\n", "\r"]), st.booleans(),
       st.sampled_from([1 << 20, 1, 2, 7, 40]))
@pytest.mark.parametrize("way", ["stdlib", "msgspec"])
def test_read_objects_is_line_by_line(tmp_path_factory, way, lines, newline, final_newline,
                                      block):
    """The same objects, or the same refusal, whatever the size of the blocks
    the file is read in (lines cut across blocks, longer than a block), read
    by the standard library alone or through msgspec."""
    from unittest import mock
    from scorer import textfile
    path = tmp_path_factory.mktemp("jsonl") / "claims.jsonl"
    path.write_bytes((newline.join(lines) + (newline if final_newline else "")).encode("utf-8",
                                                                                   "surrogatepass"))
    with mock.patch.object(textfile, "BLOCK_BYTES", block), reading(way):
        outcome = _outcome(jsonl.read_objects, str(path))
    # (compared as text: NaN is not equal to itself, 1 equals 1.0 and True)
    assert repr(outcome) == repr(_outcome(_read_objects_line_by_line, str(path)))


def test_bad_utf8_in_a_later_block_names_its_line(tmp_path, monkeypatch):
    from scorer import textfile
    from scorer.problems import ScorerError
    path = tmp_path / "claims.jsonl"
    path.write_bytes(b'{"a": 1}\n' * 50 + b'{"a": "\xff"}\n' + b'{"a": 2}\n')
    monkeypatch.setattr(textfile, "BLOCK_BYTES", 64)
    with pytest.raises(ScorerError) as error:
        jsonl.read_objects(str(path))
    assert str(error.value) == f"{path} line 51: not valid UTF-8 (byte 0xff)"


# -- each refusal's message: the file, the line, what is wrong --------------------

def _json_error(line: str) -> str:
    try:
        json.loads(line)
    except json.JSONDecodeError as error:
        assert error.colno == 7
        return error.msg
    raise AssertionError(f"json.loads read {line!r}")


REFUSALS = [
    ('{"id": 1}\n\n{"id": 2}\n', 2, "empty line; every line must hold one JSON object "
                                   "(the reference evaluators stop here too)"),
    # (json.loads's own words, which change between Python versions)
    ('{"id": 1}\n{"id" 2}\n', 2, "not valid JSON: {} (column 7)".format(_json_error('{"id" 2}'))),
    ('{"id": 1}\n[1, 2]\n', 2, "expected a JSON object {...}, found a list"),
    ('"text"\n', 1, "expected a JSON object {...}, found a string"),
    ('{"id": 1}\n{"id": 2}\n{"a": "\\ud800"}\n', 3,
     "a string holds a lone surrogate (an escape \\ud800 to \\udfff not part of a pair), "
     "which is not Unicode text"),
    ('{"a": ' + "[" * 65 + "]" * 65 + "}\n", 1, "JSON nested more than 64 levels deep; "
                                               "claim files nest a few levels"),
    ('{"n": 1' + "0" * 5000 + "}\n", 1,
     "a number too long to read (JSON numbers here are ids, lines and counts)"),
    ('\ufeff{"id": 1}\n', 1, "starts with a byte-order mark (U+FEFF, invisible), which the "
                            "reference evaluators refuse too; save the file as UTF-8 without one"),
]


@pytest.mark.parametrize("way", ["stdlib", "msgspec"])
@pytest.mark.parametrize("text, line, problem", REFUSALS)
def test_a_refusal_names_the_file_and_line(tmp_path, way, text, line, problem):
    from scorer.limits import MAX_JSON_DEPTH
    from scorer.problems import ScorerError
    assert MAX_JSON_DEPTH == 64       # (the message above says it)
    path = tmp_path / "predictions.jsonl"
    path.write_text(text, encoding="utf-8")
    with reading(way), pytest.raises(ScorerError) as error:
        jsonl.read_objects(str(path))
    assert str(error.value) == f"{path} line {line}: {problem}"


@pytest.mark.parametrize("way", ["stdlib", "msgspec"])
def test_objects_come_with_their_line_numbers_whatever_the_line_ends(tmp_path, way):
    path = tmp_path / "gold.jsonl"
    path.write_bytes(b'{"id": 1, "label": "SUPPORTS"}\r\n{"id": "b"}\r{"id": [1, 2]}')
    with reading(way):
        assert jsonl.read_objects(str(path)) == [
            (1, {"id": 1, "label": "SUPPORTS"}), (2, {"id": "b"}), (3, {"id": [1, 2]})]
        assert list(jsonl.FileLines(str(path))) == jsonl.read_objects(str(path))


@pytest.mark.parametrize("way", ["stdlib", "msgspec"])
def test_lenient_reading_skips_a_leading_bom_and_blank_lines(tmp_path, way):
    path = tmp_path / "gold.jsonl"
    path.write_bytes(b'\xef\xbb\xbf{"id": 1}\n\n  \n{"id": 2}\n')
    with reading(way):
        assert jsonl.read_objects(str(path), lenient=True) == [(1, {"id": 1}), (4, {"id": 2})]


@pytest.mark.parametrize("value, name", [
    (None, "null"), (True, "a boolean"), (False, "a boolean"), (3, "a number"), (2.5, "a number"),
    ("x", "a string"), ([1], "a list"), ({}, "an object")])
def test_type_name_says_what_a_value_is_in_json_words(value, name):
    assert jsonl.type_name(value) == name
