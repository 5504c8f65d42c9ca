"""Provenance strings (scorer/coldstart/provenance.py, spec §2): their normal
form, the Perl's messages for bad ones, and the Perl's split.
"""
from __future__ import annotations

import pytest

from scorer.coldstart.provenance import parse_provenance, perl_split
from scorer.problems import Problems, Where

from coldstart_cases import logged


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
