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
