"""toolkit/validateqrel.py: the split of assessments by language, as data and on
the command line."""
from __future__ import annotations

import io

import pytest

import scorer.coldstart
from commands import call_main
from scorer.coldstart.toolkit.command import main
from scorer.coldstart.toolkit.problemlog import Fatal
from scorer.coldstart.toolkit.validateqrel import validate_qrel

from places import FIXTURES

CASE = FIXTURES / "coldstart" / "toolkit" / "validateqrel-languages"
ARGS = [str(CASE / "input" / "sf-query.xml"), str(CASE / "input" / "qrel.txt")]


def test_the_files_of_each_language_as_data():
    result = scorer.coldstart.validate_qrel(*ARGS)
    assert result.ok
    for suffix in ("cmn", "eng", "spa", "xling"):
        want = (CASE / "expected" / "files" / f"qrel.out.{suffix}").read_text("utf-8")
        assert result.text(suffix) == want
    # every assessment is in the XLING file; a language's file holds its own only
    assert len(result.files["xling"]) == len(result.responses.entries)
    assert all("_SPA_" in line.split("\t")[1] for line in result.files["spa"])


def test_an_equivalence_class_named_and_nominal_in_one_language_stops_it_after_the_report():
    case = FIXTURES / "coldstart" / "toolkit" / "validateqrel-mention-type-conflict" / "input"
    with pytest.raises(Fatal, match="Unexpected mention type") as stopped:
        validate_qrel(str(case / "sf-query.xml"), str(case / "qrel.txt"))
    assert "Unable to infer language from DOCID SIMPSONS_011" in stopped.value.log.report()


def test_an_unknown_language_is_refused():
    with pytest.raises(Fatal, match="Unexpected language FRA for -languages"):
        validate_qrel(*ARGS, languages="ENG:FRA")


def test_without_an_output_file_nothing_is_written(tmp_path):
    out, err = io.StringIO(), io.StringIO()
    status = call_main(main, ["validateqrel", *ARGS], tmp_path, out, err)
    assert status == 0 and list(tmp_path.iterdir()) == []
    assert err.getvalue().endswith("1 warning encountered\n")


def test_the_four_files_to_one_stream(tmp_path):
    out, err = io.StringIO(), io.StringIO()
    status = call_main(main, ["validateqrel", "-output_file", "stdout", *ARGS], tmp_path, out,
                       err)
    result = validate_qrel(*ARGS)
    assert status == 0
    assert out.getvalue() == "".join(result.text(s) for s in ("cmn", "eng", "spa", "xling"))
