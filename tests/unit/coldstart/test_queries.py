"""The query XML, -expand and -queries (scorer/coldstart/queries.py, spec §2).

Expected messages are those CS-Score-MASTER.pl 2017.2.0 records for the same
input (each was checked by running the Perl).
"""
from __future__ import annotations

from pathlib import Path

import pytest

from scorer.coldstart.queries import read_query_files, resolve_queries_to_score
from scorer.problems import Problems, ScorerError

from coldstart_cases import (ADA_1, ADA_2, JONAS, KESTREL, demo_queries, logged, query_file,
                             write)
from places import DEMO


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
