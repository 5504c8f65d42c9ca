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


# -- round 2 ------------------------------------------------------------------------

from places import FIXTURES  # noqa: E402

import scorer.coldstart  # noqa: E402

TOOLKIT = FIXTURES / "coldstart" / "toolkit"


def round2_case(name):
    folder = TOOLKIT / f"generatequeries-round2-{name}"
    return folder / "input", folder / "expected" / "files" / "sf-query-r2.xml"


def test_round2_asks_the_second_slot_of_each_response_as_data():
    folder, want = round2_case("escapes-valid")
    result = scorer.coldstart.generate_queries(str(folder / "sf-query.xml"),
                                               str(folder / "r1.tab.txt"), valid=True)
    assert result.ok and result.text == want.read_text("utf-8")
    queries = result.queries.in_id_order()
    # each query: the response's hop-1 id under its parent, the second slot asked
    assert all(q.parent is not None and q.full_id.startswith(q.parent.full_id + "_")
               for q in queries)
    assert all(q.fields["SLOT"] == q.parent.fields["SLOT1"] == q.fields["SLOT0"]
               for q in queries)
    names = {q.entry_points[0].name for q in queries}
    assert "O&apos;Neil &amp; &quot;Sons&quot; &lt;Ltd&gt;" in names
    # a response of another type than the second slot's domain asks nothing
    assert "Kestrel Org" not in names and "Lima" not in names
    assert {name for name, _, _ in result.problems} == {"DISCARDED_ENTRY"}


def test_round2_names_are_written_as_given_without_valid():
    folder, want = round2_case("escapes-plain")
    result = scorer.coldstart.generate_queries(str(folder / "sf-query.xml"),
                                               str(folder / "r1.tab.txt"))
    assert result.text == want.read_text("utf-8")
    assert "<name>O'Neil & \"Sons\" <Ltd></name>" in result.text


def test_round2_with_errors_writes_nothing_and_says_why(tmp_path):
    folder, _ = round2_case("run-errors")
    result = scorer.coldstart.generate_queries(str(folder / "sf-query.xml"),
                                               str(folder / "r1.tab.txt"))
    assert not result.ok and result.text is None
    assert [name for name, _, _ in result.problems if name == "ILLEGAL_CONFIDENCE_VALUE"]
    status, out, err = run(tmp_path, ["-error_file", str(tmp_path / "log"),
                                      str(folder / "sf-query.xml"), str(tmp_path / "r2.xml"),
                                      str(folder / "r1.tab.txt")])
    assert (status, out, err) == (255, "", "")
    log = (tmp_path / "log").read_text("utf-8")
    assert "ERROR: Illegal confidence value: 1.5 (" in log and log.endswith(
        "1 error encountered\n")
    assert not (tmp_path / "r2.xml").exists()


def test_round2_reports_its_warnings_and_their_count(tmp_path):
    folder, want = round2_case("valid")
    status, _, err = run(tmp_path, ["-valid", str(folder / "sf-query.xml"),
                                    str(tmp_path / "r2.xml"), str(folder / "r1.tab.txt")])
    assert status == 0 and err.endswith("\n1 warning encountered\n")
    assert (tmp_path / "r2.xml").read_bytes() == want.read_bytes()


def test_round2_refuses_a_missing_run_and_b_of_zero(tmp_path):
    folder, _ = round2_case("valid")
    with pytest.raises(Fatal, match="File none.tab.txt does not exist"):
        generate_queries(str(folder / "sf-query.xml"), "none.tab.txt")
    # (the Perl divides by zero; round 1 does not count justifications)
    with pytest.raises(Fatal, match="Argument to -justifications switch"):
        generate_queries(str(folder / "sf-query.xml"), str(folder / "r1.tab.txt"),
                         justifications="1:0")
    assert generate_queries(str(folder / "sf-query.xml"), justifications="1:0").ok


def test_round2_weighs_a_childless_node_zero_where_the_perl_divides_by_zero():
    # A hop-1 line whose parent line was refused (a wrong slot: a warning) leaves a
    # single-valued slot's node without lines; with B = M the Perl divides by zero
    # (docs/parity.md), the tool goes on as with 1:3.
    folder = TOOLKIT / "validatesf-wrong-slot-name-nodocs" / "input"
    result = generate_queries(str(folder / "sf-query.xml"), str(folder / "run.tab.txt"))
    assert result.ok and "WRONG_SLOT_NAME" in {name for name, _, _ in result.problems}
    with_limit = generate_queries(str(folder / "sf-query.xml"), str(folder / "run.tab.txt"),
                                  justifications="1:3")
    want = (TOOLKIT / "generatequeries-round2-sf-wrong-slot-name-nodocs" / "expected" / "files"
            / "sf-query-r2.xml").read_text("utf-8")
    assert with_limit.text == want and result.text == want


def test_the_output_may_not_be_an_input(tmp_path):
    folder, _ = round2_case("valid")
    for name in ("sf-query.xml", "r1.tab.txt"):
        (tmp_path / name).write_bytes((folder / name).read_bytes())
    status, _, err = run(tmp_path, ["sf-query.xml", "r1.tab.txt", "r1.tab.txt"])
    assert status == 255 and "would write over the input r1.tab.txt" in err
    assert (tmp_path / "r1.tab.txt").read_bytes() == (folder / "r1.tab.txt").read_bytes()
