"""The claim tasks' fast paths give what the general ones give.

- ``jsonl.show``/``shows`` write the common values directly: the same text
  as ``json.dumps(value, ensure_ascii=False)`` for any JSON value;
- ``jsonl`` reads a line through the JSON scanner directly: the same value,
  or the same refusal, as ``json.loads``.
"""
from __future__ import annotations

import json

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


@settings(max_examples=400, deadline=None)
@given(values, st.sampled_from(["", " ", "\t", " x", "\r", ",", " {}", "]"]),
       st.sampled_from(["", " ", "\ufeff"]))
def test_load_is_json_loads(value, tail, head):
    line = head + json.dumps(value) + tail
    assert _outcome(jsonl._load, line) == _outcome(json.loads, line)
