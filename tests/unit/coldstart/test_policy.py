"""scorer/coldstart/policy.py: Cold Start's policy checked as the Perl checks
it, in its order and with its messages (spec §1.2), and scorer's own checks
among them (empty items, a category in two lists, nothing right)."""
from __future__ import annotations

from pathlib import Path

import pytest

from scorer.coldstart.policy import JUSTIFICATIONS_MESSAGE, LEGAL_CHOICES, justification_limits
from scorer.policy import build_policy, load_policy_file
from scorer.problems import ScorerError


def policy_file(tmp_path: Path, text: str) -> str:
    path = tmp_path / "policy.yaml"
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("category", sorted(LEGAL_CHOICES) + ["BOGUS", "IGNORE", "correct"])
@pytest.mark.parametrize("option", ["RIGHT", "WRONG", "IGNORE"])
def test_legal_choices(category, option):
    # every other list is emptied (RIGHT, which must name one, holds CORRECT), so only this
    # choice is judged
    switches = {"right": "CORRECT", "wrong": "", "ignore": "", option.lower(): category}
    legal = {"CORRECT": ("RIGHT",), "DUPLICATE": ("RIGHT", "WRONG", "IGNORE"),
             "INCORRECT": ("WRONG",), "INCORRECT_PARENT": ("WRONG", "IGNORE"),
             "INEXACT": ("RIGHT", "WRONG", "IGNORE"), "UNASSESSED": ("WRONG", "IGNORE")}
    if option in legal.get(category, ()):
        assert getattr(build_policy({}, switches), option.lower()) == (category,)
    else:
        with pytest.raises(ScorerError) as error:
            build_policy({}, switches)
        assert str(error.value) == f"Unexpected choice {category} for {option}"


def test_lists_are_checked_in_the_perls_order():
    # IGNORE, then RIGHT, then WRONG, each left to right
    with pytest.raises(ScorerError, match="^Unexpected choice CORRECT for IGNORE$"):
        build_policy({}, {"wrong": "CORRECT", "right": "INCORRECT", "ignore": "CORRECT:BOGUS"})
    with pytest.raises(ScorerError, match="^Unexpected choice INCORRECT for RIGHT$"):
        build_policy({}, {"wrong": "CORRECT", "right": "INEXACT:INCORRECT"})
    with pytest.raises(ScorerError, match="^Unexpected choice BOGUS for WRONG$"):
        build_policy({}, {"wrong": "INEXACT:BOGUS:CORRECT"})


def test_empty_lists_are_allowed():
    policy = build_policy({}, {"ignore": "", "wrong": "INCORRECT:DUPLICATE",
                               "right": "CORRECT:INEXACT"})
    assert (policy.ignore, policy.wrong, policy.right) == (
        (), ("INCORRECT", "DUPLICATE"), ("CORRECT", "INEXACT"))
    # a trailing colon is no item, as in the Perl's split
    assert build_policy({}, {"wrong": "INCORRECT:", "fields": "EC:P:"}).wrong == ("INCORRECT",)


@pytest.mark.parametrize("file_text, switches, message", [
    # The Perl counts a category once per naming: -right CORRECT:CORRECT gives precision 4.0.
    ("", {"right": "CORRECT:CORRECT"},
     "-right names CORRECT twice: its responses would be counted twice; name each category "
     "once"),
    ("", {"wrong": "INCORRECT:INEXACT:INCORRECT"}, "-wrong names INCORRECT twice"),
    ("right: [CORRECT, CORRECT]\n", {}, "{path}, key 'right' names CORRECT twice"),
    # In two lists it is counted in both (or, DUPLICATE, in the last only).
    ("", {"right": "CORRECT:INEXACT"},
     "INEXACT is in both -right and the default -wrong (INCORRECT:INCORRECT_PARENT:INEXACT): "
     "each category belongs in one list; give -wrong INCORRECT:INCORRECT_PARENT as well (in a "
     "policy file 'wrong:', in scorer.score() wrong=)"),
    ("ignore: [UNASSESSED, DUPLICATE, INEXACT]\n", {},
     "INEXACT is in both the default -wrong (INCORRECT:INCORRECT_PARENT:INEXACT) and {path}, key "
     "'ignore': each category belongs in one list; give -wrong INCORRECT:INCORRECT_PARENT as "
     "well"),
    ("", {"right": "CORRECT:DUPLICATE"},
     "DUPLICATE is in both -right and the default -ignore (UNASSESSED:DUPLICATE)"),
    ("wrong: [INCORRECT, INEXACT, UNASSESSED]\n", {},
     "UNASSESSED is in both {path}, key 'wrong' and the default -ignore"),
    ("wrong: [INCORRECT, INEXACT]\n", {"right": "CORRECT:INEXACT"},
     "INEXACT is in both -right and {path}, key 'wrong'"),
    ("", {"wrong": "INEXACT:DUPLICATE", "ignore": "DUPLICATE:INEXACT"},
     "INEXACT, DUPLICATE are in both -wrong and -ignore: each category belongs in one list; "
     "leave them out of one of them"),
])
def test_a_category_named_twice_is_refused(tmp_path, file_text, switches, message):
    path = policy_file(tmp_path, file_text)
    with pytest.raises(ScorerError) as error:
        build_policy(load_policy_file(path), switches, source=path)
    assert str(error.value).startswith(message.format(path=path))


@pytest.mark.parametrize("switches, message", [
    # The Perl: "Unexpected choice  for WRONG"; "Unknown field: " after writing reports.
    ({"wrong": "INCORRECT::INEXACT"}, "-wrong: Unexpected choice '' (an empty item: two "
                                      "colons in a row, or one in front) for WRONG"),
    ({"ignore": ":UNASSESSED"}, "-ignore: Unexpected choice '' (an empty item"),
    ({"fields": "EC::P"}, "-fields: Unknown field: '' (an empty item: two colons in a row, or "
                          "one in front)"),
    # The Perl prints tables of empty lines.
    ({"fields": ""}, "-fields: no field is named, so the tables would be empty; name some of "
                     "EC:RUNID:LEVEL:"),
    ({"fields": ":"}, "-fields: no field is named"),
])
def test_empty_items_and_an_empty_field_list_are_refused(switches, message):
    with pytest.raises(ScorerError) as error:
        build_policy({}, switches)
    assert str(error.value).startswith(message)


def test_empty_fields_in_a_policy_name_the_file_and_key(tmp_path):
    path = policy_file(tmp_path, "fields: []\n")
    with pytest.raises(ScorerError, match=r"policy\.yaml, key 'fields': no field is named"):
        build_policy(load_policy_file(path), {}, source=path)


@pytest.mark.parametrize("file_text, switches, message", [
    ("", {"right": ""}, "^-right: no category is counted as right"),
    ("", {"right": ":"}, "^-right: no category is counted as right"),
    ("task: coldstart\nright: []\n", {}, r"policy.yaml, key 'right': no category"),
    ("right:\n", {}, r"policy.yaml, key 'right': no category"),
])
def test_an_empty_right_list_is_refused(tmp_path, file_text, switches, message):
    # The Perl accepts it and scores every response wrong: zeros that look like a result.
    path = policy_file(tmp_path, file_text)
    with pytest.raises(ScorerError, match=message) as error:
        build_policy(load_policy_file(path), switches, source=path)
    assert "CORRECT, DUPLICATE, INEXACT" in str(error.value)


@pytest.mark.parametrize("value, per_document, k", [
    ("1:3", 1, 3), ("M:M", None, None), ("M:1", None, 1), ("0:3", 0, 3), ("9:9", 9, 9),
])
def test_legal_justifications(value, per_document, k):
    policy = build_policy({}, {"justifications": value})
    assert justification_limits(policy.justifications) == (per_document, k)


@pytest.mark.parametrize("value", [
    "10:3", "M:10",      # one character each side, as the Perl's pattern wants
    "1:0",               # the Perl divides by zero (spec §7.35)
    "a:b", "1", "1:3:5", "", "1-3", " 1:3",
])
def test_illegal_justifications(value):
    with pytest.raises(ScorerError) as error:
        build_policy({}, {"justifications": value})
    assert str(error.value) == JUSTIFICATIONS_MESSAGE == (
        "Argument to -justifications switch must be of the form A:B where A and B are either "
        "positive numbers or character 'M' representing infinity.")


def test_policy_lists_are_checked_before_justifications():
    with pytest.raises(ScorerError, match="^Unexpected choice CORRECT for WRONG$"):
        build_policy({}, {"wrong": "CORRECT", "justifications": "10:3"})


def test_discipline_and_fields():
    assert build_policy({}, {"discipline": "STRING_CASE"}).discipline == "STRING_CASE"
    assert build_policy({}, {"fields": "EC:P:R:F"}).fields == ("EC", "P", "R", "F")
    with pytest.raises(ScorerError, match="^No matcher called FOO$"):
        build_policy({}, {"discipline": "FOO"})
    with pytest.raises(ScorerError, match="^Unknown field: FOO$"):
        build_policy({}, {"fields": "EC:FOO"})
