"""The claim tasks' fast paths give what the general ones give.

- ``jsonl.show``/``shows`` write the common values directly: the same text
  as ``json.dumps(value, ensure_ascii=False)`` for any JSON value;
- ``jsonl`` reads a line through the JSON scanner directly: the same value,
  or the same refusal, as ``json.loads``;
- the FEVER ``.debug`` writes a claim's predicted sentences and gold groups
  by one format when all are [page, line] pairs: the same lines as
  ``json.dumps`` of each sentence.
"""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.claims import jsonl

texts = st.text(st.characters(codec="utf-8", min_codepoint=0), max_size=12) | \
    st.sampled_from(["", "a\"b", "back\\slash", "tab\tnew\nline", "\x7f", "\u2028", "é"])
scalars = st.none() | st.booleans() | st.integers(-10**20, 10**20) | \
    st.floats(allow_nan=False) | texts
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4) |
                      st.dictionaries(texts, inner, max_size=3) |
                      st.tuples(texts, st.integers() | st.booleans()), max_leaves=12)


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


ids = st.one_of(st.integers(-5, 5), st.floats(allow_nan=False), st.none(), st.booleans(),
                st.lists(st.integers(0, 3), max_size=2),
                st.text(st.sampled_from("ab1 :,\t\u00a0\u2028é"), max_size=3))


@settings(max_examples=400, deadline=None)
@given(st.lists(ids, max_size=6))
def test_claim_keys_are_the_ids_when_each_fits(values):
    """``claim_names``/``claim_keys``: each id's text (a string as it is, else its
    JSON), used as the keys when every text is non-empty, holds no blank, ':'
    or ',' (one search of the joined texts) and all are distinct."""
    import re
    from scorer.claims.metrics import claim_keys, claim_names
    texts = [v if isinstance(v, str) else json.dumps(v, ensure_ascii=False) for v in values]
    assert claim_names(values) == texts
    lines = list(range(1, len(values) + 1))
    fits = all(t and re.search(r"[\s:,]", t) is None for t in texts) and \
        len(set(texts)) == len(texts)
    expected = (texts, "id") if fits else ([f"line{n}" for n in lines], "line")
    assert claim_keys(claim_names(values), lines) == expected


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


@settings(max_examples=300, deadline=None)
@given(values, st.integers(0, 70))
def test_value_depth_is_json_depth_of_the_text(value, wrap):
    """``limits.value_depth`` of a parsed value (used for lines with many
    brackets) is ``json_depth`` of its text, brackets in strings aside
    (json_depth says 0 for a text with too few brackets to be too deep)."""
    from scorer.limits import MAX_JSON_DEPTH, json_depth, value_depth
    for _ in range(wrap):
        value = [value] if wrap % 2 else {"[{": value}
    text = json.dumps(value)
    depth = value_depth(json.loads(text))
    assert json_depth(text) in (0, depth)
    assert (depth > MAX_JSON_DEPTH) == (json_depth(text) > MAX_JSON_DEPTH)
    if text.count("[") + text.count("{") > MAX_JSON_DEPTH:
        assert json_depth(text) == depth


#: Sentences as FEVER files hold them: mostly [page, line] pairs, sometimes
#: anything else JSON can hold (a bool or float line, a null, a short list).
sentences = st.one_of(
    st.lists(st.tuples(texts, st.integers(-10**20, 10**20)).map(list), min_size=0, max_size=1)
    .map(lambda pairs: pairs[0] if pairs else ["page", 0]),
    st.tuples(texts, st.integers() | st.booleans() | st.floats(allow_nan=False) | st.none())
    .map(list),
    values)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.lists(sentences, max_size=7), st.integers(0, 8), st.sampled_from([None, 0, 3]))
def test_fever_debug_predicted_lines_are_json_dumps_of_each(predicted, n_read, max_evidence):
    from scorer.claims.feverdebug import FeverDebug
    verdicts = [f"VERDICT {number}" for number in range(len(predicted))]
    expected = "".join(f"\tPREDICTED {number}:\t{json.dumps(sentence, ensure_ascii=False)}"
                       f"\t{verdict}\n"
                       for number, (sentence, verdict) in enumerate(zip(predicted, verdicts), 1))
    writer = FeverDebug(max_evidence)
    assert writer.predicted_lines(predicted, verdicts) == expected
    assert writer.predicted_lines(predicted, verdicts) == expected      # its formats kept


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.tuples(sentences, values).map(
    lambda pair: pair[0] if isinstance(pair[0], list) and len(pair[0]) == 2 else [pair[0], pair[1]]),
    max_size=3), max_size=4))
def test_fever_debug_gold_groups_are_json_dumps_of_each(groups):
    from scorer.claims.feverdebug import FeverDebug
    expected = "".join(
        f"\tGOLD GROUP {number}:\t"
        f"{chr(9).join(json.dumps(s, ensure_ascii=False) for s in group) or '(empty)'}\n"
        for number, group in enumerate(groups, 1))
    writer = FeverDebug(5)
    assert writer.gold_groups(groups) == expected
    assert writer.gold_groups(groups) == expected
