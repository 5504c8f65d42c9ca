"""generatequeries: round 1's queries as data and as the file, -justifications
and -docs as the Perl checks them, the output's streams.  The Perl's own
outputs are compared in tests/e2e/test_toolkit_cases.py."""
import io

import pytest

from commands import call_main
from scorer.coldstart.toolkit.generatequeries import generate_queries, main
from scorer.coldstart.toolkit.problemlog import Fatal

SF_QUERIES = """<query_set>
  <query id="CSSF17_ENG_54d83ec119">
    <name>Tamerlan Tsarnaev</name>
    <docid>NYT_ENG_20131113.0264</docid>
    <beg>684</beg>
    <end>700</end>
    <enttype>per</enttype>
    <slot0>per:siblings</slot0>
    <slot1>per:date_of_birth</slot1>
  </query>
  <query id="CSSF17_ENG_0000000001">
    <name>X</name><docid>NYT_ENG_1</docid><beg>1</beg><end>2</end>
    <enttype>per</enttype><slot0>per:age</slot0><bogus>1</bogus>
  </query>
</query_set>
"""

ROUND1 = """<?xml version="1.0" encoding="UTF-8"?>
<query_set>
  <query id="CSSF17_ENG_0000000001">
    <name>X</name>
    <docid>NYT_ENG_1</docid>
    <beg>1</beg>
    <end>2</end>
    <enttype>per</enttype>
    <slot>per:age</slot>
    <slot0>per:age</slot0>
  </query>
  <query id="CSSF17_ENG_54d83ec119">
    <name>Tamerlan Tsarnaev</name>
    <docid>NYT_ENG_20131113.0264</docid>
    <beg>684</beg>
    <end>700</end>
    <enttype>per</enttype>
    <slot>per:siblings</slot>
    <slot0>per:siblings</slot0>
    <slot1>per:date_of_birth</slot1>
  </query>
</query_set>
"""


def write(tmp_path, text=SF_QUERIES):
    path = tmp_path / "sf.xml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def run(tmp_path, argv):
    out, err = io.StringIO(), io.StringIO()
    status = call_main(main, argv, tmp_path, out, err)
    return status, out.getvalue(), err.getvalue()


def test_round1_asks_each_querys_first_slot_and_reports_nothing(tmp_path):
    result = generate_queries(write(tmp_path))
    assert result.text == ROUND1
    # (the unknown <bogus> field is not reported: the Perl never reports round 1's problems)
    assert result.ok and result.problems == []
    assert [q.fields["SLOT"] for q in result.queries.in_id_order()] == ["per:age", "per:siblings"]


def test_the_command_writes_round1_to_a_file_or_a_stream(tmp_path):
    write(tmp_path)
    assert run(tmp_path, ["sf.xml", "r1.xml"]) == (0, "", "")
    assert (tmp_path / "r1.xml").read_text("utf-8") == ROUND1
    (tmp_path / "r1.xml").write_text("old")
    assert run(tmp_path, ["sf.xml", "r1.xml"])[0] == 0      # written over, as the Perl does
    assert run(tmp_path, ["sf.xml", "STDOUT"]) == (0, ROUND1, "")


@pytest.mark.parametrize("value", ["1:10", "x:3", "1", ""])
def test_justifications_take_one_digit_or_m_on_each_side(tmp_path, value):
    with pytest.raises(Fatal) as stopped:
        generate_queries(write(tmp_path), justifications=value)
    assert stopped.value.text.startswith("Argument to -justifications switch must be of the "
                                         "form A:B")
    assert generate_queries(write(tmp_path), justifications="M:3").ok


def test_docs_is_read_though_not_used(tmp_path):
    (tmp_path / "docs.txt").write_text("NYT_ENG_1\t10\n")
    assert generate_queries(write(tmp_path), docs=str(tmp_path / "docs.txt")).text == ROUND1
    status, _, err = run(tmp_path, ["-docs", "none.txt", "sf.xml", "r1.xml"])
    assert status == 255 and err.startswith("Could not open none.txt: ")
    assert not (tmp_path / "r1.xml").exists()


def test_a_query_that_cannot_be_written_stops_the_tool(tmp_path):
    write(tmp_path, SF_QUERIES.replace("<enttype>per</enttype><slot0>", "<slot0>"))
    status, _, err = run(tmp_path, ["-error_file", "log", "sf.xml", "r1.xml"])
    assert (status, err) == (255, "")
    assert (tmp_path / "log").read_text() == ("Missing query field: ENTTYPE (query "
                                              "CSSF17_ENG_0000000001 of sf.xml)\n")
    assert not (tmp_path / "r1.xml").exists()
