"""Unit tests of the Cold Start input parsers (spec §2): query ids and their MD5
ids, query XML, -expand and -queries, provenance strings, run files, slots.

Expected messages are those CS-Score-MASTER.pl 2017.2.0 records for the same
input (each was checked by running the Perl); MD5 ids were computed with the
Perl's own functions (ColdStartLib.pm generate_uuid_from_string/_values).
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from scorer.coldstart import ids, slots
from scorer.coldstart.provenance import parse_provenance, perl_split
from scorer.coldstart.queries import read_query_files, resolve_queries_to_score
from scorer.coldstart.runs import (ASSESSMENT, SUBMISSION, _normalise_confidence,
                                   identify_file_type, read_run_files)
from scorer.problems import Problems, ScorerError, Where

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "fixtures" / "coldstart" / "demo" / "input"

# The demo's SF queries (CS17_0001 has two entry points).
ADA_1, ADA_2, KESTREL, JONAS = "47a114c77c", "d8c8ecef3e", "3f0bc7c062", "9aae9b619c"


def logged(problems: Problems) -> tuple:
    """(the error log's entries, its last line)."""
    *entries, last = problems.report().split("\n\n")
    return entries, last.rstrip("\n")


def write(path: Path, text: str) -> str:
    path.write_text(text, encoding="utf-8", newline="")
    return str(path)


def query_file(tmp_path: Path, body: str, name: str = "q.xml") -> str:
    return write(tmp_path / name, f'<?xml version="1.0" encoding="UTF-8"?>\n<query_set>\n'
                                  f'{body}</query_set>\n')


def demo_queries(problems: Problems, base: str = "CSSF17"):
    queries = read_query_files([str(DEMO / "ldc-query.xml")], problems)
    queries.expand(base)
    return queries


# --------------------------------------------------------------------- ids

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


# --------------------------------------------------------------- query XML

def test_demo_queries_entry_points_and_slots():
    problems = Problems()
    queries = read_query_files([str(DEMO / "ldc-query.xml")], problems)
    assert sorted(queries.queries) == ["0001", "0002", "0003"]
    ada = queries.get("0001")
    assert (ada.full_id, ada.prefix, ada.level) == ("CS17_0001", "CS17", 0)
    assert ada.slots == ["per:children", "per:schools_attended"]
    assert [(e.docid, e.start, e.end, e.name, e.language) for e in ada.entry_points] == [
        ("ENG_NW_0001", "10", "19", "Ada Brandt", "ENGLISH"),
        ("ENG_DF_0002", "40", "49", "Ada Brandt", "ENGLISH")]
    assert queries.get("0003").entry_points[0].language == "SPANISH"
    assert queries.get("0003").quantity == "single"
    assert ada.quantity == "list" and ada.max_level == 1
    assert logged(problems) == ([], "No warnings encountered")


def test_entry_points_without_mention_tags_close_when_a_tag_repeats(tmp_path):
    path = query_file(tmp_path, """  <query id="CS17_0001">
    <name>A</name><docid>ENG_1</docid><beg>1</beg><end>2</end>
    <docid>ENG_2</docid><name>B</name><end>9</end><beg>3</beg>
    <slot0>per:children</slot0>
  </query>
""")
    problems = Problems()
    query = read_query_files([path], problems).get("0001")
    assert [(e.name, e.docid, e.start, e.end) for e in query.entry_points] == [
        ("A", "ENG_1", "1", "2"), ("B", "ENG_2", "3", "9")]
    assert logged(problems) == ([], "No warnings encountered")


def test_query_field_warnings(tmp_path):
    path = query_file(tmp_path, """  <query id="CS17_0001">
    <mentions><mention>
      <name>A &amp; B &foo; &lt;x&gt;</name>
      <docid>NYT_0001</docid>
      <beg>10</beg>
      <end>19</BEG>
    </mention></mentions>
    <enttype>per</enttype>
    <enttype>org</enttype>
    <color>blue</color>
    <slot0>per:children</slot0>
    <SLOT0>per:age</slot0>
    <slot1>per:kids</slot1>
  </query>
""")
    problems = Problems()
    query = read_query_files([path], problems).get("0001")
    entry = query.entry_points[0]
    # entities decoded in NAME (unknown ones become empty); a mismatched closer keeps the value
    assert (entry.name, entry.docid, entry.start, entry.end, entry.language) == (
        "A & B  <x>", "NYT_0001", "10", "19", "ENGLISH")
    # the first of two single-valued tags is kept
    assert query.slots == ["per:children", "per:kids"]
    where = f"({path} line In query CS17_0001)"
    assert logged(problems) == ([
        "ERROR: Unknown slot name: per:kids",
        f"WARNING: <COLOR> is not a recognized query field {where}",
        f"WARNING: <END> tag closed with </BEG> {where}",
        f"WARNING: Duplicate <ENTTYPE> tag {where}",
        f"WARNING: Duplicate <SLOT0> tag {where}",
        f"WARNING: Unable to infer language from DOCID NYT_0001. Using ENGLISH by default. {where}",
    ], "1 error encountered")


def test_tags_are_compared_case_insensitively(tmp_path):
    path = query_file(tmp_path, '<query id="CS17_0001"><DocId>ENG_1</docid><beg>1</BEG>'
                                '<End>2</end><Slot0>per:age</SLOT0></query>\n')
    problems = Problems()
    query = read_query_files([path], problems).get("0001")
    assert (query.slots, query.entry_points[0].end) == (["per:age"], "2")
    assert logged(problems) == ([], "No warnings encountered")


@pytest.mark.parametrize("docid, language", [
    ("CMN_DF_1", "CHINESE"), ("cmn_1", "CHINESE"), ("SPA_NW_1", "SPANISH"), ("spa1", "SPANISH"),
    ("ENG_NW_1", "ENGLISH"), ("eng_nw_1", "ENGLISH"), ("NYT_ENG_20130101", "ENGLISH"),
])
def test_language_inference(tmp_path, docid, language):
    path = query_file(tmp_path, f'<query id="CS17_0001"><docid>{docid}</docid><beg>1</beg>'
                                f'<end>2</end><slot0>per:age</slot0></query>\n')
    problems = Problems()
    assert read_query_files([path], problems).get("0001").entry_points[0].language == language
    assert logged(problems) == ([], "No warnings encountered")


@pytest.mark.parametrize("docid", ["ENG", "XENG_1", "NYT_0001", "ENGL_1"])
def test_failed_language_inference_warns_and_uses_english(tmp_path, docid):
    path = query_file(tmp_path, f'<query id="CS17_0001"><docid>{docid}</docid><beg>1</beg>'
                                f'<end>2</end><slot0>per:age</slot0></query>\n')
    problems = Problems()
    assert read_query_files([path], problems).get("0001").entry_points[0].language == "ENGLISH"
    assert logged(problems) == ([
        f"WARNING: Unable to infer language from DOCID {docid}. Using ENGLISH by default. "
        f"({path} line In query CS17_0001)"], "1 warning encountered")


def test_entry_point_offsets_are_checked_like_provenance(tmp_path):
    path = query_file(tmp_path, """  <query id="CS17_0002"><docid>ENG_1</docid><beg>5</beg><end>300</end>
    <slot0>per:age</slot0></query>
  <query id="CS17_0003"><docid>ENG_1</docid><beg>5</beg><end>3</end><slot0>per:age</slot0></query>
  <query id="CS17_0004"><docid>ENG_1</docid><beg>x</beg><end>3</end><slot0>per:age</slot0></query>
""")
    problems = Problems()
    assert sorted(read_query_files([path], problems).queries) == ["0002", "0003", "0004"]
    assert logged(problems) == ([
        f"WARNING: Provenance contains too many characters; only the first 200 will be used "
        f"({path} line In query CS17_0002)",
        f"ERROR: (5, 3) is not a valid offset pair ({path} line In query CS17_0003)",
        f"ERROR: x is not a valid offset ({path} line In query CS17_0004)",
    ], "2 errors encountered")


def test_malformed_query_is_dropped_with_the_perls_location(tmp_path):
    # A single-quoted id does not match <query id="...">; the Perl's location is
    # the literal text 'In file $filename' (spec §7.32).
    path = query_file(tmp_path, """  <query id='CS17_0009'>
    <docid>ENG_1</docid><beg>1</beg><end>5</end><slot0>per:age</slot0>
  </query>
  <query id="CS17_0001"><docid>ENG_1</docid><beg>1</beg><end>5</end><slot0>per:age</slot0></query>
""")
    problems = Problems()
    assert list(read_query_files([path], problems).queries) == ["0001"]
    head = "<query id='CS17_0009'>\n  "
    assert logged(problems) == ([
        f'ERROR: Malformed query Query starting with "{head}" in text beginning <<{head}>> '
        f'(In file $filename)'], "1 error encountered")


def test_query_without_slots_is_dropped_and_no_queries_warns(tmp_path):
    path = query_file(tmp_path, '<query id="CS17_0001"><docid>ENG_1</docid><beg>1</beg>'
                                '<end>2</end></query>\n')
    problems = Problems()
    assert read_query_files([path], problems).queries == {}
    assert logged(problems) == ([f"WARNING: No queries found (files({path}))"],
                                "1 warning encountered")


def test_truncated_query_file_keeps_the_complete_queries(tmp_path):
    text = (DEMO / "ldc-query.xml").read_text(encoding="utf-8")
    path = write(tmp_path / "q.xml", text[:1000])   # cut inside CS17_0003
    problems = Problems()
    assert sorted(read_query_files([path], problems).queries) == ["0001", "0002"]
    assert logged(problems) == ([], "No warnings encountered")


def test_later_query_with_the_same_id_replaces_the_earlier(tmp_path):
    path = query_file(tmp_path, """  <query id="CS17_0001"><docid>ENG_1</docid><beg>1</beg><end>2</end>
    <slot0>per:age</slot0></query>
  <query id="CS17_0001"><docid>ENG_2</docid><beg>1</beg><end>2</end>
    <slot0>per:children</slot0></query>
""")
    query = read_query_files([path], Problems()).get("0001")
    assert (query.slots, query.entry_points[0].docid) == (["per:children"], "ENG_2")


def test_query_tag_with_another_attribute_is_fatal(tmp_path):
    path = query_file(tmp_path, '<query id="CS17_0002" type="x"><docid>ENG_1</docid>'
                                '<slot0>per:age</slot0></query>\n')
    with pytest.raises(ScorerError, match=r'q.xml line 3: unexpected query id "CS17_0002" type="x"'):
        read_query_files([path], Problems())


def test_missing_query_file_is_fatal(tmp_path):
    with pytest.raises(ScorerError) as error:
        read_query_files([str(tmp_path / "nosuch.xml")], Problems())
    assert str(error.value) == f"Could not open {tmp_path / 'nosuch.xml'}: No such file or directory"


# ------------------------------------------------------------------ -expand

def test_expand_makes_one_sf_query_per_entry_point_and_the_index():
    problems = Problems()
    queries = demo_queries(problems)
    assert queries.get("0001").expanded_ids == [ADA_1, ADA_2]
    assert {short: queries.get(short).full_id for short in (ADA_1, ADA_2, KESTREL, JONAS)} == {
        ADA_1: "CSSF17_ENG_47a114c77c", ADA_2: "CSSF17_ENG_d8c8ecef3e",
        KESTREL: "CSSF17_ENG_3f0bc7c062", JONAS: "CSSF17_SPA_9aae9b619c"}
    sf = queries.get(ADA_2)
    assert (sf.slots, [e.docid for e in sf.entry_points]) == (
        ["per:children", "per:schools_attended"], ["ENG_DF_0002"])
    assert queries.index() == {ADA_1: "0001", ADA_2: "0001", KESTREL: "0002", JONAS: "0003"}
    assert logged(problems) == ([], "No warnings encountered")


def test_expanding_sf_queries_maps_them_onto_themselves(tmp_path):
    # spec §7.47: the same short id comes back and the SF -> LDC index is empty
    path = query_file(tmp_path, '<query id="CSSF17_ENG_47a114c77c"><docid>ENG_NW_0001</docid>'
                                '<beg>10</beg><end>19</end><slot0>per:children</slot0>'
                                '<slot1>per:schools_attended</slot1></query>\n')
    queries = read_query_files([path], Problems())
    queries.expand("CSSF17")
    assert list(queries.queries) == [ADA_1]
    assert queries.get(ADA_1).full_id == "CSSF17_ENG_47a114c77c"
    assert queries.index() == {}


# ----------------------------------------------------------------- -queries

def queries_file(tmp_path: Path, text: str) -> str:
    return write(tmp_path / "qids.txt", text)


def test_all_sf_queries_are_scored_by_default_up_to_their_last_slot():
    problems = Problems()
    assert resolve_queries_to_score(None, demo_queries(problems), problems) == {
        ADA_1: 1, ADA_2: 1, KESTREL: 1, JONAS: 0}


def test_queries_file_with_and_without_hop_limits(tmp_path):
    problems = Problems()
    queries = demo_queries(problems)
    assert resolve_queries_to_score(str(DEMO / "qids.txt"), queries, problems) == {
        ADA_1: 1, ADA_2: 1, KESTREL: 1, JONAS: 0}
    path = queries_file(tmp_path, "CS17_0001 CSSF17_ENG_47a114c77c 0\r\n"
                                  "CS17_0001 CSSF17_ENG_d8c8ecef3e 0.0\n"
                                  "CS17_0002 CSSF17_ENG_aaaaaaaaaa\n"
                                  "CS17_0002 CSSF17_ENG_3f0bc7c062\n")
    # a listed LDC query's unlisted entry point has no limit (None: hop 0 only, spec §2.4)
    assert resolve_queries_to_score(path, queries, problems) == {
        ADA_1: 0, ADA_2: 0, KESTREL: 1}
    assert logged(problems) == (["WARNING: Unknown query: aaaaaaaaaa"], "1 warning encountered")


@pytest.mark.parametrize("text, message", [
    ("CS17_0001 CSSF17_ENG_47a114c77c 1\nCS17_0001 CSSF17_ENG_d8c8ecef3e 0\n",
     "CS17_0001 has multiple/conflicting num_slots in {path} line 2"),
    ("CS17_0001 CSSF17_ENG_47a114c77c 1\nCS17_0001 CSSF17_ENG_d8c8ecef3e\n",
     "CS17_0001 has multiple/conflicting num_slots in {path} line 2"),
    ("CS17_0001 CSSF17_ENG_47a114c77c 2\n",
     "Unexpected num_slots value 2 for CS17_0001 in {path} line 1 (hop limits of this query: "
     "0 to 1)"),
    ("CS17_0001 CSSF17_ENG_47a114c77c -1\n",
     "Unexpected num_slots value -1 for CS17_0001 in {path} line 1 (hop limits of this query: "
     "0 to 1)"),
    # numbers Python cannot hold as ints, or only as floats
    ("CS17_0001 CSSF17_ENG_47a114c77c 1.0e+400\n",
     "{path} line 1: the hop limit '1.0e+400' is not a whole number; "
     "expected 'LDC_QUERY_ID SF_QUERY_ID [HOP]'"),
    ("CS17_0001 CSSF17_ENG_47a114c77c " + "9" * 5000 + "\n",
     "Unexpected num_slots value " + "9" * 40 + "... (5,000 characters) for CS17_0001 in {path} "
     "line 1 (hop limits of this query: 0 to 1)"),
    ("CS17_0001 CSSF17_ENG_47a114c77c 1\nCS17_0001 noquery 1\n",
     '{path} line 2: unexpected query id "noquery": expected PREFIX_<10 hex digits>'
     '[_<12 hex digits>] or PREFIX_<digits>'),
    ("CS17_0001 CSSF17_ENG_47a114c77c\n\nCS17_0002 CSSF17_ENG_3f0bc7c062\n",
     "{path} line 2: blank line; expected 'LDC_QUERY_ID SF_QUERY_ID [HOP]'"),
    (" CS17_0001 CSSF17_ENG_47a114c77c 0\n",
     "{path} line 1: the line starts with white space; "
     "expected 'LDC_QUERY_ID SF_QUERY_ID [HOP]'"),
    ("CS17_0001\n", "{path} line 1: expected 'LDC_QUERY_ID SF_QUERY_ID [HOP]', got 'CS17_0001'"),
    # The Perl reads a hop limit by its leading number ("one" as 0, "1x" as 1),
    # ignores columns after the third and never reads the LDC column.
    ("CS17_0001 CSSF17_ENG_47a114c77c one\n",
     "{path} line 1: the hop limit 'one' is not a whole number; "
     "expected 'LDC_QUERY_ID SF_QUERY_ID [HOP]'"),
    ("CS17_0001 CSSF17_ENG_47a114c77c 1x\n",
     "{path} line 1: the hop limit '1x' is not a whole number; "
     "expected 'LDC_QUERY_ID SF_QUERY_ID [HOP]'"),
    ("CS17_0001 CSSF17_ENG_47a114c77c 0.5\n",
     "{path} line 1: the hop limit '0.5' is not a whole number; "
     "expected 'LDC_QUERY_ID SF_QUERY_ID [HOP]'"),
    ("CS17_0001 CSSF17_ENG_47a114c77c 1\nCS17_0001 CSSF17_ENG_d8c8ecef3e 1 x\n",
     "{path} line 2: 4 columns; expected 'LDC_QUERY_ID SF_QUERY_ID [HOP]'"),
    ("CS17_9999 CSSF17_ENG_47a114c77c\n",
     "{path} line 1: the query CSSF17_ENG_47a114c77c belongs to the LDC query CS17_0001, "
     "not to 'CS17_9999'"),
    ("CS17_0001 CSSF17_ENG_47a114c77c\nCS17_0001 CSSF17_ENG_3f0bc7c062\n",
     "{path} line 2: the query CSSF17_ENG_3f0bc7c062 belongs to the LDC query CS17_0002, "
     "not to 'CS17_0001'"),
    ("CS17_0002 CS17_0001\n",
     "{path} line 1: the query CS17_0001 belongs to the LDC query CS17_0001, not to 'CS17_0002'"),
    # The Perl reads a CR (or blank) after the SF id as hop limit 0 (spec §7.33):
    # scorer refuses the line rather than silently scoring other hops.
    ("CS17_0001 CSSF17_ENG_47a114c77c 1\r\nCS17_0002 CSSF17_ENG_3f0bc7c062\r\n",
     "{path} line 2: white space (or a carriage return) after the SF query id; remove it or "
     "give the hop limit: 'LDC_QUERY_ID SF_QUERY_ID [HOP]'"),
    ("CS17_0002 CSSF17_ENG_3f0bc7c062 \n",
     "{path} line 1: white space (or a carriage return) after the SF query id; remove it or "
     "give the hop limit: 'LDC_QUERY_ID SF_QUERY_ID [HOP]'"),
])
def test_queries_file_fatal_errors(tmp_path, text, message):
    path = queries_file(tmp_path, text)
    with pytest.raises(ScorerError) as error:
        resolve_queries_to_score(path, demo_queries(Problems()), Problems())
    assert str(error.value) == message.format(path=path)


def test_queries_list():
    problems = Problems()
    queries = demo_queries(problems)
    assert resolve_queries_to_score("CSSF17_ENG_47a114c77c:CSSF17_SPA_9aae9b619c:CSSF17_ENG_"
                                    "bbbbbbbbbb", queries, problems) == {ADA_1: 1, JONAS: 0}
    # an LDC id stands for its SF queries, with no hop limit (spec §7.34)
    assert resolve_queries_to_score("CS17_0001", queries, problems) == {ADA_1: None, ADA_2: None}
    assert logged(problems) == (["WARNING: Unknown query: bbbbbbbbbb"], "1 warning encountered")


# --------------------------------------------------------------- provenance

@pytest.mark.parametrize("text, normal", [
    # END offsets of equal starts are compared as strings (spec §7.42)
    ("D:5-99,D:5-100", "D:5-100,D:5-99"),
    ("D:10-20,D:3-4", "D:3-4,D:10-20"),
    (" D:7-9 ", "D:7-9"),
    ("D:1-2,", "D:1-2"),
    ("D:0050-0060", "D:0050-0060"),
])
def test_provenance_normal_form(text, normal):
    problems = Problems()
    provenance = parse_provenance(text, 2, problems, Where("f", 1))
    assert (provenance.text, provenance.docid) == (normal, "D")
    assert logged(problems) == ([], "No warnings encountered")


@pytest.mark.parametrize("text, normal, messages", [
    ("D:1-300", "D:1-200",
     ["WARNING: Provenance contains too many characters; only the first 200 will be used"]),
    # the start keeps its digits; the end is start + 199
    ("D:0050-0400", "D:0050-249",
     ["WARNING: Provenance contains too many characters; only the first 200 will be used"]),
    ("D:1-2;D:5-6", "D:1-2,D:5-6",
     ["WARNING: A semicolon is used as a triple separator in the provenance D:1-2;D:5-6. "
      "The semicolon will be replaced with a comma. "]),
    ("D:1-2;x", "", ["ERROR: A semicolon is used in the provenance D:1-2;x",
                     "ERROR: D:1-2;x is not a valid docid/offset pair string"]),
    ("D:1-2,D:3-4,D:5-6", "D:1-2,D:3-4",
     ["ERROR: Unexpected number of provenance triples: provided=(3) expected=(2)"]),
    ("D:1-2,,D:3-4", "D:1-2",
     ["ERROR: Unexpected number of provenance triples: provided=(3) expected=(2)",
      "ERROR:  is not a valid docid/offset pair string"]),
    ("D:1-2,E:3-4", "D:1-2,D:3-4", ["ERROR: D:1-2,E:3-4 contains multiple DOCIDs"]),
    ("D:9-3,D:1-2", "D:1-2", ["ERROR: (9, 3) is not a valid offset pair"]),
    ("D 1-2", "", ["ERROR: D 1-2 is not a valid docid/offset pair string"]),
])
def test_provenance_problems(text, normal, messages):
    problems = Problems()
    provenance = parse_provenance(text, 2, problems, Where("f", 1))
    assert provenance.text == normal
    entries, _count = logged(problems)
    assert sorted(entries) == sorted(f"{m} (f line 1)" for m in messages)


def test_provenance_total_length():
    # Four spans of at most 200 characters never exceed 800; five can.
    problems = Problems()
    parse_provenance("D:1-200,D:201-400,D:401-600,D:601-800", 4, problems, Where("f", 3))
    assert logged(problems) == ([], "No warnings encountered")
    parse_provenance("D:1-200,D:201-400,D:401-600,D:601-800,D:801-801", 5, problems,
                     Where("f", 3))
    assert logged(problems) == (
        ["ERROR: All provenance strings contain a total of more than 800 characters (f line 3)"],
        "1 error encountered")


def test_perl_split_drops_trailing_empty_fields_only():
    assert perl_split("a\tb\t\t", "\t") == ["a", "b"]
    assert perl_split("\ta\t\tb", "\t") == ["", "a", "", "b"]
    assert perl_split("", "\t") == []


# ---------------------------------------------------------------- run files

RUN_LINES = (DEMO / "DEMORUN.tab.txt").read_text(encoding="utf-8").splitlines()
QREL_LINES = (DEMO / "qrel.txt").read_text(encoding="utf-8").splitlines()


def load(tmp_path: Path, run_lines=RUN_LINES, qrel_lines=QREL_LINES):
    problems = Problems()
    queries = demo_queries(problems)
    qrel = write(tmp_path / "qrel.txt", "\n".join(qrel_lines) + "\n")
    run = write(tmp_path / "run.tab.txt", "\n".join(run_lines) + "\n")
    return read_run_files([qrel, run], queries, problems), problems


def test_demo_run_files_load_cleanly(tmp_path):
    run_files, problems = load(tmp_path)
    assert len(run_files.assessments) == len(QREL_LINES) == 15
    assert len(run_files.submissions) == len(RUN_LINES) == 13
    assert run_files.runids == {"DEMORUN"} and run_files.file_runid == "DEMORUN"
    first = run_files.submissions[0]
    assert (first.query_id, first.level, first.slot_name, first.confidence, first.docid,
            first.fqnodeid, first.value_provenance) == (
        ADA_1, 0, "per:children", 0.9, "ENG_NW_0001", "CSSF17_ENG_47a114c77c:Entity1",
        "ENG_NW_0001:60-70")
    hop1 = run_files.submissions[5]
    assert (hop1.query.full_id, hop1.level, hop1.fqnodeid) == (
        "CSSF17_ENG_47a114c77c_3bd3d11d8ec2", 1, "CSSF17_ENG_47a114c77c:Entity1:Entity5")
    assert first.target_query_id == "3bd3d11d8ec2"
    assessment = run_files.assessments[0]
    assert (assessment.assessment, assessment.value_ec, assessment.full_query_id) == (
        "CORRECT", "CSSF17_ENG_47a114c77c:1", "CSSF17_ENG_47a114c77c")
    assert logged(problems) == ([], "No warnings encountered")


def edited(lines, number, old, new):
    """``lines`` with ``old`` replaced by ``new`` in line ``number`` (1-based)."""
    assert old in lines[number - 1]
    return [line.replace(old, new) if n == number else line
            for n, line in enumerate(lines, 1)]


def test_run_line_handling(tmp_path):
    # The same lines through CS-Score-MASTER.pl give the same messages and reports.
    lines = ["# a comment line", "", "   ",
             RUN_LINES[0].replace("\t0.9\t", "\t1\t") + "\r",
             RUN_LINES[1].replace("\t0.8\t", "\t8.5e-01\t"),
             RUN_LINES[2].replace("\t0.7\t", "\t0.0\t"),
             RUN_LINES[3].replace("\t0.6\t", "\t00.5\t"),
             RUN_LINES[4].replace("Mia Brandt", " "),
             RUN_LINES[5].replace("\tORG\t", "\tstring\t"),
             RUN_LINES[5].replace("\tORG\t", "\tstring\t"),
             "  # indented comment",
             RUN_LINES[6].replace("per:schools_attended", "per:age"),
             RUN_LINES[7] + "\t",
             RUN_LINES[8].rsplit("\t", 1)[0] + "\t",
             RUN_LINES[9].replace("\t0.3\t", "\t.3\t"),
             RUN_LINES[10].replace("\t0.95\t", "\t1.000\t"),
             RUN_LINES[11].replace("\t0.9\t", "\t0.9e-01\t"),
             RUN_LINES[12].replace("\t0.65\t", "\t1.5e+00\t")]
    run_files, problems = load(tmp_path, lines)
    run = str(tmp_path / "run.tab.txt")
    accepted = {e.line_number: e for e in run_files.submissions}
    assert sorted(accepted) == [4, 5, 6, 7, 9, 13, 15, 16, 17, 18]
    assert {n: e.confidence for n, e in accepted.items()} == {
        4: 1.0, 5: 0.85, 6: 1.0, 7: 1.0, 9: 0.85, 13: 1.0, 15: 0.3, 16: 1.0, 17: 0.09, 18: 1.0}
    assert accepted[9].value_type == "STRING"
    assert accepted[4].line == RUN_LINES[0].replace("\t0.9\t", "\t1\t")   # CR removed
    entries, count = logged(problems)
    assert entries == [
        f"WARNING: Decimal point missing in confidence value: 1 ({run} line 4)",
        f"WARNING: Confidence value in scientific format: 8.5e-01 ({run} line 5)",
        f"ERROR: Illegal confidence value: 0.0 ({run} line 6)",
        f"ERROR: Illegal confidence value: 00.5 ({run} line 7)",
        f"WARNING: Empty value for column VALUE ({run} line 8)",
        f"WARNING: Following line appears more than once in the submission therefore all copies "
        f"but one will be removed: \n{lines[9]} ({run} line 10)",
        f"WARNING: Slot per:age is not the requested slot for query "
        f"CSSF17_ENG_47a114c77c_3bd3d11d8ec2 (expected per:schools_attended) ({run} line 12)",
        f"ERROR: Wrong number of entries on line (expected 9, got 8) ({run} line 14)",
        f"WARNING: Confidence value in scientific format: 0.9e-01 ({run} line 17)",
        f"ERROR: Illegal confidence value: 1.5e+00 ({run} line 18)",
        f"WARNING: Confidence value in scientific format: 1.5e+00 ({run} line 18)",
    ]
    assert count == "4 errors encountered"


@pytest.mark.parametrize("text, value, names", [
    ("0.5", 0.5, []), (".5", 0.5, []), ("1.0", 1.0, []), ("1.000", 1.0, []), ("0.05", 0.05, []),
    ("1", 1.0, ["MISSING_DECIMAL_POINT"]),
    ("8.5e-01", 0.85, ["IMPROPER_CONFIDENCE_VALUE"]),
    ("5.0e-13", 1.0, ["IMPROPER_CONFIDENCE_VALUE", "ILLEGAL_CONFIDENCE_VALUE"]),  # %.12f -> 0
    ("1.5e+00", 1.0, ["IMPROPER_CONFIDENCE_VALUE", "ILLEGAL_CONFIDENCE_VALUE"]),
    ("0.0", 1.0, ["ILLEGAL_CONFIDENCE_VALUE"]), ("0", 1.0, ["ILLEGAL_CONFIDENCE_VALUE"]),
    ("1.5", 1.0, ["ILLEGAL_CONFIDENCE_VALUE"]), ("00.5", 1.0, ["ILLEGAL_CONFIDENCE_VALUE"]),
    ("10", 1.0, ["ILLEGAL_CONFIDENCE_VALUE"]), ("0.5e-01", 0.05, ["IMPROPER_CONFIDENCE_VALUE"]),
    ("high", 1.0, ["ILLEGAL_CONFIDENCE_VALUE"]),
])
def test_confidence_normalisation(text, value, names):
    problems = Problems()
    assert _normalise_confidence(text, problems, Where("f", 1)) == value
    assert problems.names() == names


def test_illegal_value_type_is_an_error_and_the_type_is_upper_cased(tmp_path):
    lines = edited(RUN_LINES, 1, "\tPER\t", "\tPERSON\t")
    lines = edited(lines, 2, "\tPER\t", "\tconflict.ATTACK\t")
    run_files, problems = load(tmp_path, lines)
    assert [e.value_type for e in run_files.submissions[:2]] == ["PERSON", "CONFLICT.ATTACK"]
    assert logged(problems) == (
        [f"ERROR: Illegal value type: PERSON ({tmp_path / 'run.tab.txt'} line 1)"],
        "1 error encountered")


def test_unknown_slot_name_in_a_run_file(tmp_path):
    run_files, problems = load(tmp_path, edited(RUN_LINES, 2, "per:children", "per:kids"))
    run = tmp_path / "run.tab.txt"
    assert 2 not in [e.line_number for e in run_files.submissions]
    assert logged(problems) == ([
        f"ERROR: Unknown slot name: per:kids ({run} line 2)",
        f"WARNING: Slot per:kids is not the requested slot for query CSSF17_ENG_47a114c77c "
        f"(expected per:children) ({run} line 2)"], "1 error encountered")


def test_empty_field_is_checked_before_the_slot_name(tmp_path):
    lines = edited(RUN_LINES, 3, "\tPER\t", "\t \t")
    lines = edited(lines, 3, "per:children", "per:age")
    run_files, problems = load(tmp_path, lines)
    run = tmp_path / "run.tab.txt"
    assert 3 not in [e.line_number for e in run_files.submissions]
    # the value type is checked first (the Perl normalises columns before anything else)
    assert logged(problems) == ([f"ERROR: Illegal value type:   ({run} line 3)",
                                 f"WARNING: Empty value for column VALUE_TYPE ({run} line 3)"],
                                "1 error encountered")


def test_unknown_query_in_a_run_file_is_fatal(tmp_path):
    lines = edited(RUN_LINES, 4, "CSSF17_ENG_47a114c77c", "CSSF17_ENG_aaaaaaaaaa")
    problems = Problems()
    queries = demo_queries(problems)
    run = write(tmp_path / "run.tab.txt", "\n".join(lines) + "\n")
    with pytest.raises(ScorerError) as error:
        read_run_files([run], queries, problems)
    assert str(error.value).startswith(f"{run} line 4: Query CSSF17_ENG_aaaaaaaaaa not loaded")
    assert logged(problems)[0] == [
        f"WARNING: Query aaaaaaaaaa is not present in the query files; skipping it ({run} line 4)"]


def test_run_file_query_must_have_the_expanded_prefix(tmp_path):
    # the same short id under another prefix is not the loaded query
    lines = edited(RUN_LINES, 1, "CSSF17_ENG_47a114c77c", "CSSF16_ENG_47a114c77c")
    problems = Problems()
    run = write(tmp_path / "run.tab.txt", "\n".join(lines) + "\n")
    with pytest.raises(ScorerError, match=r"line 1: Query CSSF16_ENG_47a114c77c not loaded"):
        read_run_files([run], demo_queries(problems), problems)


@pytest.mark.parametrize("column, code, message", [
    (5, "Z", "{qrel} line 2: Equivalence class without correct entry, query = 47a114c77c, "
             "judgment = , ec = CSSF17_ENG_47a114c77c:1"),
    (7, "Q", "Unknown assessment code: Q in file: {qrel} at line: 2"),
    (8, "0", "{qrel} line 2: Correct entry without equivalence class, query = 47a114c77c at "
             "line 2"),
])
def test_assessment_fatal_errors(tmp_path, column, code, message):
    columns = QREL_LINES[1].split("\t")
    columns[column] = code
    lines = [QREL_LINES[0], "\t".join(columns)] + QREL_LINES[2:]
    with pytest.raises(ScorerError) as error:
        load(tmp_path, qrel_lines=lines)
    assert str(error.value) == message.format(qrel=tmp_path / "qrel.txt")


def test_unknown_code_without_ec_is_fatal_as_an_unknown_code(tmp_path):
    columns = QREL_LINES[1].split("\t")
    columns[5], columns[8] = "Z", "0"
    with pytest.raises(ScorerError) as error:
        load(tmp_path, qrel_lines=[QREL_LINES[0], "\t".join(columns)])
    assert str(error.value) == f"Unknown assessment code: Z in file: {tmp_path / 'qrel.txt'} at line: 2"


def test_file_type_identification(tmp_path):
    assert identify_file_type("r", ["# comment", "", "  ", "\r"] + RUN_LINES) == SUBMISSION
    assert identify_file_type("q", QREL_LINES[:1]) == ASSESSMENT
    # only the first data line is checked against the patterns
    assert identify_file_type("r", RUN_LINES[:1] + ["x\ty"]) == SUBMISSION
    with pytest.raises(ScorerError) as error:
        identify_file_type("r", ["#", "", "  # x"])
    assert str(error.value) == "Empty file: r"


@pytest.mark.parametrize("first_line", [
    RUN_LINES[0].replace("\t0.9\t", "\t.9\t"),             # '.5' is no first-line confidence
    RUN_LINES[0].replace("ENG_NW_0001:1-120", "ENG_NW_0001 1-120"),
    RUN_LINES[0].replace("per:children", "children"),
    QREL_LINES[0].replace("\tNAM\tC\t", "\tNAM\tY\t"),
    "a\tb\tc",
])
def test_unknown_file_type(first_line):
    with pytest.raises(ScorerError) as error:
        identify_file_type("f.txt", [first_line])
    columns = len(first_line.split("\t"))
    assert str(error.value) == (
        f"Unknown file type: f.txt (its first line has {columns} tab-separated columns that fit "
        f"neither the 9-column submission nor the 10-column assessment format)")


@pytest.mark.parametrize("columns", [7, 8, 11])
def test_legacy_formats_are_rejected_naming_the_2017_columns(columns):
    line = "\t".join((RUN_LINES[0].split("\t") + ["X", "Y"])[:columns])
    with pytest.raises(ScorerError) as error:
        identify_file_type("old.tab.txt", [line])
    message = str(error.value)
    assert message.startswith(f"old.tab.txt: this looks like a 2014/2015 Cold Start file "
                              f"({columns} columns); scorer reads the 2017 formats only: ")
    assert ("submissions with 9 columns (FULL_QUERY_ID SLOT_NAME RUNID RELATION_PROVENANCE_"
            "TRIPLES VALUE VALUE_TYPE VALUE_PROVENANCE_TRIPLES CONFIDENCE NODEID)") in message
    assert ("assessments with 10 columns (ASSESSMENT_ID QUERY_AND_SLOT_NAME RELATION_PROVENANCE_"
            "TRIPLES VALUE VALUE_PROVENANCE_TRIPLES VALUE_ASSESSMENT VALUE_MENTION_TYPE "
            "PROVENANCE_ASSESSMENT VALUE_EC EC_MENTION_TYPE)") in message


def test_empty_file_warns_and_is_skipped(tmp_path):
    problems = Problems()
    queries = demo_queries(problems)
    empty = write(tmp_path / "empty.tab.txt", "")
    run_files = read_run_files([empty], queries, problems)
    assert run_files.submissions == [] and run_files.assessments == []
    assert logged(problems) == ([f"WARNING: Empty response or assessment file: {empty}"],
                                "1 warning encountered")


def test_a_directory_stands_for_its_tab_txt_files(tmp_path):
    directory = tmp_path / "runs"
    directory.mkdir()
    shutil.copy(DEMO / "qrel.txt", directory / "a-qrel.tab.txt")
    shutil.copy(DEMO / "DEMORUN.tab.txt", directory / "b-run.tab.txt")
    shutil.copy(DEMO / "DEMORUN.tab.txt", directory / "ignored.txt")
    problems = Problems()
    run_files = read_run_files([str(directory)], demo_queries(problems), problems)
    assert (len(run_files.assessments), len(run_files.submissions)) == (15, 13)


def test_missing_or_no_run_files_are_fatal(tmp_path):
    problems = Problems()
    queries = demo_queries(problems)
    with pytest.raises(ScorerError) as error:
        read_run_files([str(tmp_path / "nosuch.tab.txt")], queries, problems)
    assert str(error.value) == (f"Could not open {tmp_path / 'nosuch.tab.txt'}: "
                                f"No such file or directory")
    with pytest.raises(ScorerError, match="^EvaluationQueryOutput->new called with no filenames"):
        read_run_files([], queries, problems)


def test_run_file_that_is_not_utf8_is_fatal(tmp_path):
    path = tmp_path / "run.tab.txt"
    path.write_bytes(("\n".join(RUN_LINES[:2]) + "\n").encode("utf-8") + b"\xff\xfe\n")
    with pytest.raises(ScorerError, match=r"run.tab.txt line 3: not valid UTF-8"):
        read_run_files([str(path)], demo_queries(Problems()), Problems())


# ------------------------------------------------------------------- slots

@pytest.mark.parametrize("slot, quantity", [
    # checked against the Perl's PredicateSet for every name x domain of the table
    ("per:age", "single"), ("per:children", "list"), ("org:founded_by", "list"),
    ("per:city_of_birth", "single"), ("org:website", "single"), ("per:date_of_birth", "single"),
    ("gpe:residents_of_city", "list"), ("gpe:births_in_city", "list"),
    ("per:dislikes", "list"), ("loc:is_liked_by", "list"),
    ("per:conflict.attack_attacker", "list"), ("gpe:conflict.attack_place", "list"),
    ("conflict.attack:attacker", "list"), ("life.die:victim", "list"),
    ("movement.transport-person:origin", "list"), ("per:origin", "list"),
    ("string:normalized_mention", "list"), ("contact.meet:type", "list"),
    ("per:mention", "list"), ("string:mention", "list"),
    ("org:age", None), ("per:kids", None), ("PER:age", None), ("per:AGE", None),
    ("per:residents_of_city", None), ("gpe:conflict.attack_attacker:x", None),
    ("per:conflict.attack_place", None), ("string:link", None), ("age", None), ("", None),
    (None, None),
])
def test_slot_quantity(slot, quantity):
    assert slots.quantity(slot) == quantity


@pytest.mark.parametrize("value_type, legal", [
    ("PER", True), ("per", True), ("Gpe", True), ("STRING", True), ("fac", True), ("LOC", True),
    ("ORG", True), ("conflict.attack", True), ("TRANSACTION.TRANSFER-MONEY", True),
    ("PERSON", False), ("", False), ("event", False), ("per:age", False),
])
def test_value_types(value_type, legal):
    assert slots.is_node_type(value_type) is legal
