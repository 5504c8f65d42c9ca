"""The KB tools' parts (toolkit/kb.py, kbprovenance.py, kbreader.py, kbedl.py,
kbresolver.py, validatekb.py): what each does with the inputs the Perl's
cases exercise as a whole (fixtures/coldstart/toolkit/validatekb-*), piece by
piece, and validate_kb / resolve_queries as data."""
from __future__ import annotations

import io

import pytest

import scorer.coldstart
from commands import call_main
from places import FIXTURES
from scorer.coldstart.toolkit.catalogue import FORMATS
from scorer.coldstart.toolkit.command import main
from scorer.coldstart.toolkit.kb import KB
from scorer.coldstart.toolkit.kbedl import perl_increment
from scorer.coldstart.toolkit.kbprovenance import read_kb_provenance
from scorer.coldstart.toolkit.kbreader import _COMMENT
from scorer.coldstart.toolkit.kbresolver import normalize_filler
from scorer.coldstart.toolkit.problemlog import Fatal, ProblemLog

WORLD = FIXTURES / "coldstart" / "toolkit" / "validatekb-world-all" / "input"


def test_an_events_provenance_has_a_justification_a_base_filler_and_more():
    provenance, problems = read_kb_provenance("D1:10-20;D1:12-14;NIL", ":Event1", ":Entity1",
                                              "attacker")
    assert problems == ()
    assert provenance.filler is None and provenance.additional is None
    assert provenance.justification.original() == "D1:10-20"
    assert provenance.base_filler.original() == "D1:12-14"
    assert provenance.document == "D1" and provenance.start() == 10
    assert provenance.text() == "NIL;D1:10-20;D1:12-14;NIL"


def test_a_string_objects_provenance_starts_with_its_filler():
    provenance, problems = read_kb_provenance("D1:5-9;D1:0-30", ":Entity1", ":String1", "title")
    assert problems == ()
    assert provenance.filler.original() == "D1:5-9"
    assert provenance.justification.original() == "D1:0-30"


@pytest.mark.parametrize("text, subject, obj, verb, expected", [
    # a relation between entities has one part; a mention has one, whatever it relates
    ("D1:0-9;D1:0-9", ":Entity1", ":Entity2", "siblings",
     [("TOO_MANY_PROVENANCES_IN_LIST", ("D1:0-9;D1:0-9", 2, 1))]),
    ("D1:0-9;NIL", ":Event1", ":Event1", "mention",
     [("TOO_MANY_PROVENANCES_IN_LIST", ("D1:0-9;NIL", 2, 3))]),
    # spans of two documents, and a span that cannot be read
    ("D1:0-9,D2:3-4", ":Entity1", ":Entity2", "siblings",
     [("MULTIPLE_DOCIDS_IN_PROV", ("D1:0-9,D2:3-4",))]),
    # (a part whose spans are all refused is still a part, of NO DOCUMENT)
    ("D1:9", ":Entity1", ":Entity2", "siblings", [("ILLEGAL_OFFSET_TRIPLE_STRING", ("D1:9",))]),
    ("NIL", ":Entity1", ":Entity2", "siblings", [("MULTIPLE_DOCIDS_IN_PROV", ("NIL",))]),
])
def test_a_provenances_problems_are_the_perls(text, subject, obj, verb, expected):
    assert list(read_kb_provenance(text, subject, obj, verb)[1]) == expected


def kb() -> KB:
    return KB("kb.tac", ProblemLog(FORMATS))


@pytest.mark.parametrize("verb, event, expected", [
    ("per:siblings", False, ("per:siblings", None, ())),
    ("mention.actual", True, ("mention", "actual", ())),
    # an entity's assertion must not have a realis, an event's must
    ("mention.actual", False, ("mention", "actual", (("UNEXPECTED_REALIS", ("none",
                                                                             "actual")),))),
    ("mention", True, ("mention", None, (("UNEXPECTED_REALIS",
                                          ("actual, generic, or other", "none")),))),
    # a realis the Perl does not know: the predicate keeps it
    ("mention.mango", True, ("mention.mango", None, (("ILLEGAL_REALIS", ("mango",)),))),
    # a known realis on an unknown predicate: the Perl calls the realis illegal too
    ("conflict.attack:bogus.actual", True,
     ("conflict.attack:bogus", "actual", (("ILLEGAL_REALIS", ("actual",)),
                                          ("UNEXPECTED_REALIS", ("none", "actual"))))),
    ("type.generic", False, ("type", "generic", (("UNEXPECTED_REALIS", ("none", "generic")),))),
])
def test_the_realis_is_taken_off_the_verb_as_the_perl_takes_it(verb, event, expected):
    assert kb()._realis(verb, event) == expected


@pytest.mark.parametrize("verb, subject_type, name, problems", [
    ("per:siblings", "per", "siblings", ()),
    ("employee_of", "per", "employee_or_member_of",
     (("PREDICATE_ALIAS", ("deprecated", "employee_of", "employee_or_member_of")),)),
    ("mention", None, None, (("AMBIGUOUS_PREDICATE", ("mention",)),)),
    ("org:siblings", "per", None, (("SUBJECT_PREDICATE_MISMATCH", ("per", "org")),)),
    ("xyz:siblings", None, None, (("ILLEGAL_PREDICATE_TYPE", ("xyz",)),)),
])
def test_a_predicate_is_found_for_its_subjects_type(verb, subject_type, name, problems):
    predicate, found = kb()._predicate(verb, subject_type)
    assert (predicate.name if predicate else None, found) == (name, problems)


def test_a_comment_starts_at_a_hash_outside_double_quotes():
    assert _COMMENT.match('a\t"x # y"\tz #c').groups() == ('a\t"x # y"\tz ', "#c")
    assert _COMMENT.match('a "open # not a comment') is None


@pytest.mark.parametrize("before, after", [("M00001", "M00002"), ("M99999", "N00000"),
                                           ("0001", "0002"), ("9999", "10000"),
                                           ("Zz", "AAa")])
def test_mention_ids_count_as_perl_strings_do(before, after):
    assert perl_increment(before) == after


def test_a_filler_loses_its_quotes_escapes_and_white_space():
    assert normalize_filler('"Ada \\"the\\"\tBrandt"') == 'Ada "the" Brandt'
    assert normalize_filler(":Entity1") == ":Entity1"


def test_validate_kb_gives_the_kb_and_its_problems_as_data(monkeypatch):
    monkeypatch.chdir(WORLD)
    checked = scorer.coldstart.validate_kb("kb/team.tac", docs="doclength.txt")
    assert checked.ok and checked.errlog.endswith("15 warnings encountered\n")
    assert ("MISSING_INVERSE", "WARNING: No inverse relation asserted for victim(:Event_die, "
            ":Entity_cy)", ["kb/team.tac line 64"]) in checked.problems
    assert checked.tac().startswith("WORLDRUN\t# the run id\n\n:Entity_acme\ttype\tORG\t\n")
    added = [a for a in checked.kb.assertions if a.inferred]
    assert {a.verb for a in added} == {"canonical_mention", "conflict.attack_place",
                                       "life.die_place", "life.die_victim", "is_liked_by",
                                       "residents_of_city"}


def test_validate_kb_refuses_what_stops_the_perl(tmp_path):
    with pytest.raises(Fatal, match="File .*none.tac does not exist"):
        scorer.coldstart.validate_kb(str(tmp_path / "none.tac"))
    (tmp_path / "kb.tac").write_text("RUN\n")
    with pytest.raises(Fatal, match="Unknown warning: NOT_A_WARNING"):
        scorer.coldstart.validate_kb(str(tmp_path / "kb.tac"), ignore="not_a_warning")
    with pytest.raises(Fatal, match="MISSING_RUNID is a fatal error; cannot ignore it"):
        scorer.coldstart.validate_kb(str(tmp_path / "kb.tac"), ignore="MISSING_RUNID")
    with pytest.raises(Fatal, match=r"Argument to -multiple switch must be one of \[MANY, "
                                    r"ONE, ONEPERDOC\]"):
        scorer.coldstart.validate_kb(str(tmp_path / "kb.tac"), multiple="twice")


def test_the_tools_answer_help(tmp_path):
    for tool in ("validatekb", "resolvequeries"):
        out, err = io.StringIO(), io.StringIO()
        assert call_main(main, [tool, "-help"], tmp_path, out, err) == 0
        assert f"python -m scorer.coldstart {tool}" in out.getvalue()
