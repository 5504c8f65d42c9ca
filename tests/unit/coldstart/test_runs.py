"""Assessment and submission files (scorer/coldstart/runs.py, spec §2): lines,
file types, legacy formats, empty and missing files.

Expected messages are those CS-Score-MASTER.pl 2017.2.0 records for the same
input (each was checked by running the Perl).
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from scorer.coldstart.runs import (ASSESSMENT, SUBMISSION, _normalise_confidence,
                                   identify_file_type, read_run_files)
from scorer.problems import Problems, ScorerError, Where

from coldstart_cases import ADA_1, demo_queries, logged, write
from places import DEMO


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
