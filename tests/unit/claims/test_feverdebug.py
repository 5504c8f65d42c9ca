"""scorer/claims/feverdebug.py: the FEVER ``.debug`` writes a claim's
predicted sentences and gold groups by one format when all are [page, line]
pairs: the same lines as ``json.dumps`` of each sentence, whatever they hold."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.claims.feverdebug import FeverDebug

from json_values import texts, values


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
    expected = "".join(
        f"\tGOLD GROUP {number}:\t"
        f"{chr(9).join(json.dumps(s, ensure_ascii=False) for s in group) or '(empty)'}\n"
        for number, group in enumerate(groups, 1))
    writer = FeverDebug(5)
    assert writer.gold_groups(groups) == expected
    assert writer.gold_groups(groups) == expected
