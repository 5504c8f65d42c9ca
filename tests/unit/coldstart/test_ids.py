"""Cold Start query ids and their MD5 ids (scorer/coldstart/ids.py, spec §2.2).

MD5 ids were computed with the Perl's own functions (ColdStartLib.pm
generate_uuid_from_string/_values).
"""
from __future__ import annotations

import pytest

from scorer.coldstart import ids
from scorer.problems import ScorerError

from coldstart_cases import ADA_1, JONAS


@pytest.mark.parametrize("full_id, expected", [
    ("CSSF17_ENG_afddc4ed21_1fa227e2e937",
     ids.ParsedId("CSSF17_ENG", "afddc4ed21", "1fa227e2e937", 1, True)),
    ("CSSF17_ENG_afddc4ed21", ids.ParsedId("CSSF17_ENG", "afddc4ed21", "afddc4ed21", 0, True)),
    ("afddc4ed21", ids.ParsedId(None, "afddc4ed21", "afddc4ed21", 0, True)),
    # hex is case-insensitive and kept as written
    ("CSSF17_ENG_AFDDC4ED21", ids.ParsedId("CSSF17_ENG", "AFDDC4ED21", "AFDDC4ED21", 0, True)),
    # the Perl's regex keeps only the last 12-digit part: any hop is level 1
    ("P_afddc4ed21_1fa227e2e937_b1d009063e02",
     ids.ParsedId("P", "afddc4ed21", "b1d009063e02", 1, True)),
    ("CS17_4567", ids.ParsedId("CS17", "4567", "4567", 0, False)),
    ("4567", ids.ParsedId(None, "4567", "4567", 0, False)),
])
def test_parse_query_id(full_id, expected):
    assert ids.parse_query_id(full_id) == expected


@pytest.mark.parametrize("full_id", ["", "CS17_x", "CSSF17_ENG_afddc4ed2g", 'CS17_0002" type="x'])
def test_parse_query_id_rejects_other_ids(full_id):
    with pytest.raises(ScorerError) as error:
        ids.parse_query_id(full_id)
    assert str(error.value).startswith(f'unexpected query id "{full_id}": expected ')


@pytest.mark.parametrize("docid, start, end, slot_names, expected", [
    ("SIMPSONS_011", "55", "59", ["per:children", "per:schools_attended"], "afddc4ed21"),
    ("ENG_NW_0001", "10", "19", ["per:children", "per:schools_attended"], ADA_1),
    ("SPA_NW_0004", "100", "111", ["per:city_of_birth"], JONAS),
    # non-ASCII text is hashed as UTF-8, as the Perl does (Encode::encode_utf8)
    ("北京", "1", "5", ["per:city_of_birth"], "46a0d25873"),
    ("é", "1", "5", ["per:city_of_birth"], "91713d777f"),
])
def test_expanded_query_short_id(docid, start, end, slot_names, expected):
    assert ids.expanded_query_short_id(docid, start, end, slot_names) == expected


@pytest.mark.parametrize("query, value, provenance, expected", [
    ("CSSF17_ENG_afddc4ed21", "Lisa", "SIMPSONS_011:138-143", "b1d009063e02"),
    # JSON-escaped, then UTF-8 encoded twice (spec §7.43): values the Perl computes
    ("CSSF17_SPA_9aae9b619c", "Valparaíso", "SPA_NW_0004:150-159", "54f8fb8dbfc4"),
    ("CSSF17_ENG_afddc4ed21", 'Zoë "Q" \\ 北京\t', "SIMPSONS_011:138-143", "9b7dcc3e7611"),
])
def test_target_query_short_id(query, value, provenance, expected):
    assert ids.target_query_short_id(query, value, provenance) == expected
