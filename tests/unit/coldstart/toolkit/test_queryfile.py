"""Query files as the toolkit reads and writes them: fields, entry points and
their checks, the problems with the Perl's places, expansion, and the text
written back, byte for byte as the Perl's Query and QuerySet write it (the
Perl's own outputs are compared in tests/e2e/test_toolkit_cases.py)."""
import pytest

from scorer.coldstart import ids
from scorer.coldstart.toolkit.catalogue import FORMATS
from scorer.coldstart.toolkit.problemlog import Fatal, ProblemLog
from scorer.coldstart.toolkit.queryfile import (QuerySet, check_span, decode_entities,
                                                 expand, is_event_or_sentiment_slot,
                                                 parse_query, query_file_text, read_query_file)

QUERY = """<query id="CS17_0001">
    <mentions>
      <mention>
        <name>AT&amp;T &bogus; x</name>
        <docid>NYT_ENG_20130602.0025</docid>
        <beg>10</beg>
        <end>19</end>
      </mention>
      <mention>
        <name>艾达</name>
        <docid>CMN_NW_1</docid>
        <beg>5</beg>
        <end>6</end>
      </mention>
    </mentions>
    <enttype>per</enttype>
    <nodeid>per_001</nodeid>
    <slot0>per:siblings</slot0>
    <slot1>per:date_of_birth</slot1>
  </query>"""


class Documents(dict):
    """-docs as the tools are given it (toolkit/documents.py): docid -> length."""

    def length(self, docid):
        return self[docid]


def new_log():
    return ProblemLog(FORMATS)


def messages(log):
    return [(message, places) for _name, message, places in log.records()]


def test_a_query_keeps_its_fields_and_entry_points_as_written():
    log = new_log()
    query = parse_query(QUERY, "q.xml", log)
    assert (query.prefix, query.short_id, query.full_id) == ("CS17", "0001", "CS17_0001")
    assert query.fields == {"ENTTYPE": "per", "NODEID": "per_001", "SLOT": "per:siblings",
                            "SLOT0": "per:siblings", "SLOT1": "per:date_of_birth"}
    assert query.slots == ["per:siblings", "per:date_of_birth"]
    assert query.quantity == "list" and query.predicate(1).quantity == "single"
    first, second = query.entry_points
    assert (first.original_name, first.name) == ("AT&amp;T &bogus; x", "AT&T  x")
    assert (second.docid, second.start, second.end, second.language) == ("CMN_NW_1", "5", "6",
                                                                         "CHINESE")
    assert query.languages == ["ENGLISH", "CHINESE"] and query.mentions_tagged
    assert log.report() == ""


def test_the_perl_layout_is_written_back_with_the_names_as_read():
    query = parse_query(QUERY, "q.xml", new_log())
    assert query.text("  ", omit=("NODEID",)) == """  <query id="CS17_0001">
    <mentions>
      <mention>
          <name>AT&amp;T &bogus; x</name>
          <docid>NYT_ENG_20130602.0025</docid>
          <beg>10</beg>
          <end>19</end>
      </mention>
      <mention>
          <name>艾达</name>
          <docid>CMN_NW_1</docid>
          <beg>5</beg>
          <end>6</end>
      </mention>
    </mentions>
    <enttype>per</enttype>
    <slot>per:siblings</slot>
    <slot0>per:siblings</slot0>
    <slot1>per:date_of_birth</slot1>
  </query>
"""


def test_an_entity_reference_does_not_run_over_a_line_end():
    assert decode_entities("a&amp;b&lt;&gt;&quot;&apos;") == "a&b<>\"'"
    assert decode_entities("&no\npe; &x;") == "&no\npe; "


def test_problems_of_a_query_have_the_perls_places():
    log = new_log()
    text = """<query id="CS17_0002">
      <name>A</name><docid>XYZ_1</docid><beg>9</beg><end>5</end>
      <name>B</name><docid>NYT_ENG_1</docid><beg>x</beg><end>5</end>
      <name>C</name><docid>NYT_ENG_1</docid><beg>1</beg><end>400</end>
      <enttype>per</enttype><slot0>per:siblings</slot0><slot0>per:spouse</slot0>
      <slot>per:x</slot><entrypoints>e</entrypoints><color>red</colour><slot1>per:bogus</slot1>
    </query>"""
    query = parse_query(text, "q.xml", log)
    here = ["q.xml line In query CS17_0002"]
    assert messages(log) == [
        ("WARNING: Duplicate <ENTRYPOINTS> tag", here),
        ("WARNING: Duplicate <SLOT0> tag", here),
        ("WARNING: Duplicate <SLOT> tag", here),
        ("WARNING: Unable to infer language from DOCID XYZ_1. Using ENGLISH by default.", here),
        ("ERROR: x is not a valid offset", here),
        ("ERROR: (9, 5) is not a valid offset pair", here),
        ("WARNING: <COLOR> tag closed with </COLOUR>", here),
        ("WARNING: Provenance contains too many characters; only the first 200 will be used",
         here),
        ("WARNING: <COLOR> is not a recognized query field", here),
        ("ERROR: Unknown slot name: per:bogus", ["NO_SOURCE"]),
    ]
    assert [(e.name, e.start, e.end) for e in query.entry_points] == [
        ("A", "9", "5"), ("B", "x", "5"), ("C", "1", "400")]
    assert query.slots == ["per:siblings", "per:bogus"] and query.fields["SLOT0"] == "per:siblings"
    assert (log.error_count, log.warning_count) == (3, 7)


def test_a_block_that_is_not_a_query_is_malformed_in_the_perls_words():
    log = new_log()
    query = parse_query("<query junk>\n</query>", "q.xml", log)
    assert query.slots is None
    assert messages(log) == [('ERROR: Malformed query Query starting with "<query junk>\n'
                              '</query>" in text beginning <<<query junk>\n</query>>>',
                              ["In file $filename"])]


def test_an_id_of_neither_form_is_fatal_naming_the_file():
    with pytest.raises(Fatal) as stopped:
        parse_query('<query id="noquery"><slot0>per:age</slot0></query>', "q.xml", new_log())
    assert stopped.value.text.startswith('q.xml: unexpected query id "noquery"')


@pytest.mark.parametrize("start, end, documents, found, span", [
    ("1", "5", None, [], (1, 5)),
    ("007", "9", Documents(D=100), [], (7, 9)),
    ("5\n", "9", None, [], (5, 9)),
    ("1", "500", Documents(D=100),
     ["WARNING: Provenance contains too many characters; only the first 200 will be used",
      "ERROR: 200 is not a valid offset for DOCID D"], None),
    ("150", "x", Documents(D=100),
     ["ERROR: x is not a valid offset", "ERROR: 150 is not a valid offset for DOCID D"], None),
    (None, "3", None, ["ERROR:  is not a valid offset"], None),
])
def test_a_span_is_checked_as_the_perl_checks_a_provenance(start, end, documents, found, span):
    log = new_log()
    assert check_span(log, "w", "D", start, end, documents) == span
    assert sorted(message for message, _ in messages(log)) == sorted(found)


def test_a_document_missing_from_docs_is_fatal():
    with pytest.raises(Fatal) as stopped:
        check_span(new_log(), "q.xml line In query X", "E", "1", "2", Documents(D=10))
    assert stopped.value.text == ("FATAL_ERROR: DOCID E is not a valid DOCID for this task\n"
                                  "q.xml line In query X")


def test_expansion_makes_one_query_per_entry_point():
    log = new_log()
    query = parse_query(QUERY, "q.xml", log)
    expanded = QuerySet()
    expand(query, "CSSF17", expanded, log)
    english = ids.expanded_query_short_id("NYT_ENG_20130602.0025", "10", "19",
                                          ["per:siblings", "per:date_of_birth"])
    chinese = ids.expanded_query_short_id("CMN_NW_1", "5", "6",
                                          ["per:siblings", "per:date_of_birth"])
    assert {q.full_id: q.original_query_id for q in expanded.in_id_order()} == {
        f"CSSF17_ENG_{english}": "CS17_0001", f"CSSF17_CMN_{chinese}": "CS17_0001"}
    assert query.expanded_ids == [english, chinese]
    sf = expanded.get(english)
    assert sf.fields["NODEID"] == "per_001" and not sf.mentions_tagged
    assert sf.text("", omit=("SLOT", "NODEID")).startswith(
        f'<query id="CSSF17_ENG_{english}">\n  <name>AT&amp;T &bogus; x</name>\n')


def test_a_copy_looks_its_slots_up_again_as_the_perl_does():
    log = new_log()
    query = parse_query(QUERY.replace("per:date_of_birth", "per:nope"), "q.xml", log)
    expand(query, "B", QuerySet(), log)
    assert log.error_count == 3 and len(list(log.records())) == 1


@pytest.mark.parametrize("missing, field", [("<enttype>per</enttype>", "ENTTYPE"),
                                            ("<docid>CMN_NW_1</docid>", "<DOCID>"),
                                            ("<slot0>per:siblings</slot0>", "SLOT0")])
def test_a_query_without_a_required_field_cannot_be_written(missing, field):
    query = parse_query(QUERY.replace(missing, ""), "q.xml", new_log())
    with pytest.raises(Fatal) as stopped:
        query.text()
    assert stopped.value.text == f"Missing query field: {field} (query CS17_0001 of q.xml)"


def test_the_set_is_written_in_id_order_and_filtered_by_language(tmp_path):
    path = tmp_path / "q.xml"
    path.write_text("<query_set>\n" + QUERY.replace("CS17_0001", "CS17_0009") + "\n"
                    + QUERY.replace("NYT_ENG_20130602.0025", "SPA_1").replace(
                        "CMN_NW_1", "SPA_2") + "\n</query_set>\n", encoding="utf-8")
    queries = read_query_file(str(path), new_log())
    assert [q.short_id for q in queries.in_id_order()] == ["0001", "0009"]
    text = queries.text(omit=("NODEID",), languages="SPANISH")
    assert 'id="CS17_0001"' in text and 'id="CS17_0009"' not in text
    assert text.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<query_set>\n')
    assert queries.text(languages="").count("<query id") == 2


def test_retain_sf_knows_event_and_sentiment_slots():
    assert is_event_or_sentiment_slot("per:conflict.attack_attacker")
    assert is_event_or_sentiment_slot("per:likes")
    assert not is_event_or_sentiment_slot("per:siblings")
    assert not is_event_or_sentiment_slot(None)


def test_no_query_is_warned_of_naming_the_file(tmp_path):
    path = tmp_path / "q.xml"
    path.write_text("<query_set></query_set>\n", encoding="utf-8")
    log = new_log()
    assert len(read_query_file(str(path), log)) == 0
    assert messages(log) == [("WARNING: No queries found", [f"files({path})"])]


@pytest.mark.parametrize("data, text", [
    ("<q/>\n".encode("utf-16"), "the file is UTF-16 text; save it as UTF-8"),
    (b"<query_set>\n\n<a>\x00</a>\n", "line 3: a NUL byte"),
    (b"<query_set>\n<name>caf\xe9</name>\n", "line 2: not valid UTF-8 (byte 0xe9)"),
])
def test_a_file_that_is_not_utf8_text_is_refused_naming_its_line(tmp_path, data, text):
    path = tmp_path / "q.xml"
    path.write_bytes(data)
    with pytest.raises(Fatal) as stopped:
        query_file_text(str(path))
    assert stopped.value.text.startswith(str(path)) and text in stopped.value.text


def test_a_missing_file_and_a_folder_are_refused(tmp_path):
    for path, text in ((tmp_path / "none.xml", "No such file"), (tmp_path, "Is a directory")):
        with pytest.raises(Fatal) as stopped:
            query_file_text(str(path))
        assert f"Could not open {path}" in stopped.value.text and text in stopped.value.text
