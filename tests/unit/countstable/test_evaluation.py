"""scorer/countstable/evaluation.py: claim ids as keys of the reports."""
from __future__ import annotations

import json
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.countstable.evaluation import claim_keys, claim_names


ids = st.one_of(st.integers(-5, 5), st.floats(allow_nan=False), st.none(), st.booleans(),
                st.lists(st.integers(0, 3), max_size=2),
                st.text(st.sampled_from("ab1 :,\t\u00a0\u2028é"), max_size=3))


@settings(max_examples=400, deadline=None)
@given(st.lists(ids, max_size=6))
def test_claim_keys_are_the_ids_when_each_fits(values):
    """``claim_names``/``claim_keys``: each id's text (a string as it is, else its
    JSON), used as the keys when every text is non-empty, holds no blank, ':'
    or ',' (one search of the joined texts) and all are distinct."""
    texts = [v if isinstance(v, str) else json.dumps(v, ensure_ascii=False) for v in values]
    assert claim_names(values) == texts
    lines = list(range(1, len(values) + 1))
    fits = all(t and re.search(r"[\s:,]", t) is None for t in texts) and \
        len(set(texts)) == len(texts)
    expected = (texts, "id") if fits else ([f"line{n}" for n in lines], "line")
    assert claim_keys(claim_names(values), lines) == expected
