"""validatequeries: the API's data, the repairs, and the command line's files
(written all or none, never over an existing one) and messages.  The Perl's
own outputs on the same inputs are compared in tests/e2e/test_toolkit_cases.py."""
import io

import pytest

from commands import call_main
from scorer.coldstart.toolkit.problemlog import Fatal
from scorer.coldstart.toolkit.validatequeries import main, validate_queries


def query(number, slots, docid="NYT_ENG_1", start=1, end=5, enttype="per", name="Ada"):
    slot_tags = "".join(f"<slot{n}>{slot}</slot{n}>" for n, slot in enumerate(slots))
    return (f'<query id="CS17_{number:04d}"><name>{name}</name><docid>{docid}</docid>'
            f"<beg>{start}</beg><end>{end}</end><enttype>{enttype}</enttype>{slot_tags}</query>\n")


def write(tmp_path, *queries, name="ldc.xml"):
    path = tmp_path / name
    path.write_text("<query_set>\n" + "".join(queries) + "</query_set>\n", encoding="utf-8")
    return str(path)


def run(tmp_path, argv):
    out, err = io.StringIO(), io.StringIO()
    status = call_main(main, argv, tmp_path, out, err)
    return status, out.getvalue(), err.getvalue()


def test_the_api_gives_the_sf_queries_the_index_and_the_problems(tmp_path):
    path = write(tmp_path, query(1, ["per:siblings"]), query(2, ["per:siblings"], docid="CMN_1"),
                 query(3, ["per:siblings"], docid="XX_1"))
    result = validate_queries(path, expand=True, query_base="CSSF17")
    assert result.ok and sorted(ldc for _, ldc in result.index) == ["CS17_0001", "CS17_0002",
                                                                    "CS17_0003"]
    assert sorted(sf.split("_")[1] for sf, _ in result.index) == ["CMN", "ENG", "ENG"]
    short_ids = [sf.rsplit("_", 1)[1] for sf, _ in result.index]
    assert short_ids == sorted(short_ids)
    assert result.text.count("<query id=") == 3 and "<slot>" not in result.text
    assert [name for name, _, _ in result.problems] == ["FAILED_LANG_INFERENCE"]
    assert result.index_text().splitlines()[0].split("\t") == list(result.index[0])


def test_two_ldc_queries_expanding_alike_give_the_later_ones_sf_query(tmp_path):
    path = write(tmp_path, query(2, ["per:age"], name="Second"), query(1, ["per:age"], name="First"))
    result = validate_queries(path, expand=True)
    assert len(result.index) == 1 and result.index[0][1] == "CS17_0002"
    assert "<name>Second</name>" in result.text


def test_types_delete_the_slots_from_the_first_that_does_not_chain(tmp_path):
    path = write(tmp_path, query(1, ["per:title", "per:age", "per:siblings"]),
                 query(2, ["per:siblings", "per:age"]))
    result = validate_queries(path, types="delete-slot")
    assert [message for _, message, _ in result.problems] == [
        "WARNING: In 0001, type of string does not match domain of per:age"]
    first, second = result.queries.in_id_order()
    assert first.slots == ["per:title"] and "SLOT1" not in first.fields
    assert second.slots == ["per:siblings", "per:age"]
    assert len(validate_queries(path, types="DELETE-QUERY").queries) == 1


def test_subtypes_repair_or_delete_a_slot_of_another_place(tmp_path):
    path = write(tmp_path, query(1, ["per:city_of_birth", "gpe:residents_of_country",
                                     "per:age"]))
    repaired = validate_queries(path, subtypes="repair")
    assert repaired.queries.get("0001").slots == ["per:city_of_birth", "gpe:residents_of_city",
                                                  "per:age"]
    assert [message for _, message, _ in repaired.problems] == [
        "WARNING: In 0001, range of city_of_birth does not match domain of residents_of_country"]
    # The Perl dies here ("Label not found"); what it meant: the slots after the first go.
    cut = validate_queries(path, subtypes="delete-slot")
    assert cut.queries.get("0001").slots == ["per:city_of_birth"]
    assert len(validate_queries(path, subtypes="delete-query").queries) == 0


def test_duplicates_are_told_and_deleted_only_when_exact(tmp_path):
    path = write(tmp_path, query(1, ["per:age"]), query(2, ["per:age"]),
                 query(3, ["per:age"], start=7, end=9))
    ignored = validate_queries(path, dups="ignore")
    assert [message for _, message, _ in ignored.problems] == [
        "WARNING: Queries 0001 and 0002 share entry point(s)",
        "WARNING: Queries 0001 and 0003 are possibly duplicates, based on entrypoint Ada"]
    assert len(ignored.queries) == 3
    assert sorted(validate_queries(path, dups="delete").queries.queries) == ["0001", "0003"]


@pytest.mark.parametrize("switch", ["types", "subtypes", "dups"])
def test_an_unknown_repair_is_fatal_in_the_perls_words(tmp_path, switch):
    with pytest.raises(Fatal) as stopped:
        validate_queries(write(tmp_path, query(1, ["per:age"])), **{switch: "Fix"})
    assert stopped.value.text == f"Unknown -{switch} argument: fix"


def test_the_command_writes_the_file_and_the_index(tmp_path):
    write(tmp_path, query(1, ["per:age"]))
    status, out, err = run(tmp_path, ["-expand", "-index_file", "idx", "ldc.xml", "sf.xml"])
    assert (status, out, err) == (0, "", "No warnings encountered\n")
    assert (tmp_path / "sf.xml").read_text().count("<query id=") == 1
    assert (tmp_path / "idx").read_text().endswith("\tCS17_0001\n")


def test_errors_leave_no_file_but_the_error_log(tmp_path):
    write(tmp_path, query(1, ["per:nope"]))
    status, out, err = run(tmp_path, ["-error_file", "log", "-index_file", "idx", "-expand",
                                      "ldc.xml", "sf.xml"])
    assert (status, out, err) == (255, "", "")
    assert (tmp_path / "log").read_text() == ("ERROR: Unknown slot name: per:nope\n\n"
                                              "2 errors encountered\n")
    assert not (tmp_path / "sf.xml").exists() and not (tmp_path / "idx").exists()


@pytest.mark.parametrize("existing", ["sf.xml", "idx", "log"])
def test_an_existing_file_is_never_written_over(tmp_path, existing):
    write(tmp_path, query(1, ["per:age"]))
    (tmp_path / existing).write_text("mine\n")
    status, _, err = run(tmp_path, ["-error_file", "log", "-index_file", "idx", "ldc.xml",
                                    "sf.xml"])
    assert status == 255 and (tmp_path / existing).read_text() == "mine\n"
    logged = err if existing == "log" else (tmp_path / "log").read_text()
    assert logged == f"File {existing} already exists\n"


def test_an_output_that_cannot_be_written_is_refused_before_any_work(tmp_path):
    write(tmp_path, query(1, ["per:age"]))
    status, _, err = run(tmp_path, ["ldc.xml", "no/such/folder/sf.xml"])
    assert status == 255 and err.startswith("Could not open no/such/folder/sf.xml: ")


@pytest.mark.parametrize("argv, text", [
    (["ldc.xml"], "ERROR: Not enough arguments; outputfile must be provided"),
    (["a", "b", "c"], "ERROR: Too many arguments"),
    (["-tpyes", "a", "b"], "ERROR: Unknown switch: -tpyes (did you mean -types?)"),
])
def test_a_mistaken_command_line_is_told(tmp_path, argv, text):
    status, out, err = run(tmp_path, argv)
    assert status == 255 and err.startswith(text) and out == ""


def test_help_lists_the_switches(tmp_path):
    status, out, _ = run(tmp_path, ["-help"])
    assert status == 0 and "-subtypes <value>" in out and "queryfile" in out
