"""Hypothesis strategies for JSON values as claim files hold them: text with
the characters JSON escapes, nested lists, objects and pairs (shared by the claim
modules' property tests)."""
from __future__ import annotations

from hypothesis import strategies as st

texts = st.text(st.characters(codec="utf-8", min_codepoint=0), max_size=12) | \
    st.sampled_from(["", "a\"b", "back\\slash", "tab\tnew\nline", "\x7f", "\u2028", "é"])
scalars = st.none() | st.booleans() | st.integers(-10**20, 10**20) | \
    st.floats(allow_nan=False) | texts
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4) |
                      st.dictionaries(texts, inner, max_size=3) |
                      st.tuples(texts, st.integers() | st.booleans()), max_leaves=12)
