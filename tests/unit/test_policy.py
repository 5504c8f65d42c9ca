"""The policy (scorer/policy.py): defaults, the Perl's validation and its
messages (spec §1.2), YAML policy files, and switches overriding them."""
from __future__ import annotations

from pathlib import Path

import pytest

from scorer.coldstart.policy import (DEFAULT_FIELDS, JUSTIFICATIONS_MESSAGE, LEGAL_CHOICES,
                                     justification_limits, option_text)
from scorer.policy import Policy, build_policy, known_keys, load_policy_file
from scorer.problems import ScorerError

from places import ROOT

CONFIGS = ROOT / "configs"

PERL_DEFAULTS = Policy("coldstart", dict(right=("CORRECT",),
                                         wrong=("INCORRECT", "INCORRECT_PARENT", "INEXACT"),
                                         ignore=("UNASSESSED", "DUPLICATE"),
                                         justifications="1:3", discipline="ASSESSED",
                                         fields=DEFAULT_FIELDS))


def policy_file(tmp_path: Path, text: str) -> str:
    path = tmp_path / "policy.yaml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_defaults_are_the_perls():
    assert build_policy({}, {}) == PERL_DEFAULTS
    assert justification_limits(PERL_DEFAULTS.justifications) == (1, 3)
    assert option_text(PERL_DEFAULTS, "WRONG") == "INCORRECT:INCORRECT_PARENT:INEXACT"


def test_bundled_coldstart_policies():
    kb = load_policy_file(str(CONFIGS / "coldstart-kb.yaml"))
    assert build_policy(kb, {}) == PERL_DEFAULTS
    sf = load_policy_file(str(CONFIGS / "coldstart-sf.yaml"))
    # README-Scoring §3.2: -justifications 1:1 -ignore UNASSESSED
    #                      -wrong INCORRECT:INCORRECT_PARENT:INEXACT:DUPLICATE
    by_hand = build_policy({}, {"justifications": "1:1", "ignore": "UNASSESSED",
                                "wrong": "INCORRECT:INCORRECT_PARENT:INEXACT:DUPLICATE"})
    assert build_policy(sf, {}) == by_hand
    assert justification_limits(by_hand.justifications)[1] == 1
    assert by_hand.ignore == ("UNASSESSED",)


def test_switches_override_the_policy_file():
    sf = load_policy_file(str(CONFIGS / "coldstart-sf.yaml"))
    policy = build_policy(sf, {"justifications": "1:3", "ignore": "UNASSESSED:DUPLICATE",
                               "wrong": "INCORRECT:INCORRECT_PARENT:INEXACT"})
    assert policy == PERL_DEFAULTS
    assert build_policy(sf, {"ignore": ""}).wrong == (
        "INCORRECT", "INCORRECT_PARENT", "INEXACT", "DUPLICATE")


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


def test_digest_changes_with_every_setting():
    digests = {build_policy({}, {}).digest(), build_policy({}, {"justifications": "1:1"}).digest(),
               build_policy({}, {"ignore": "UNASSESSED"}).digest(),
               build_policy({}, {"discipline": "STRING_EXACT"}).digest(),
               build_policy({}, {"right": "CORRECT:INEXACT", "wrong": ""}).digest()}
    assert len(digests) == 5
    assert build_policy({}, {}).digest() == PERL_DEFAULTS.digest()
    # the columns printed change no number
    assert build_policy({}, {"fields": "EC:P"}).digest() == PERL_DEFAULTS.digest()


# ------------------------------------------------------------ YAML files

def test_yaml_lists_and_colon_strings(tmp_path):
    path = policy_file(tmp_path, "task: coldstart\nright: CORRECT:INEXACT\n"
                                 "wrong: [INCORRECT]\nignore: []\ndiscipline: STRING_EXACT\n")
    policy = build_policy(load_policy_file(path), {}, source=path)
    assert (policy.right, policy.wrong, policy.ignore, policy.discipline) == (
        ("CORRECT", "INEXACT"), ("INCORRECT",), (), "STRING_EXACT")


@pytest.mark.parametrize("value", ["1:3", "'1:3'", "M:3", "1:1"])
def test_yaml_justifications_need_no_quotes(tmp_path, value):
    # YAML 1.1 reads a plain 1:3 as the base-60 number 63; a policy means "1:3"
    path = policy_file(tmp_path, f"justifications: {value}\n")
    assert build_policy(load_policy_file(path), {}).justifications == value.strip("'")


def test_empty_yaml_file_gives_the_defaults(tmp_path):
    assert build_policy(load_policy_file(policy_file(tmp_path, "# nothing\n")), {}) == PERL_DEFAULTS


def test_every_bundled_key_is_known():
    for config in CONFIGS.glob("*.yaml"):
        assert set(load_policy_file(str(config))) <= set(known_keys())


@pytest.mark.parametrize("text, message", [
    ("task: coldstart\nrihgt: [CORRECT]\n",
     "{path}: unknown policy key(s) rihgt; known keys: task, labels, "
     "average_labels, right, wrong, ignore, fields, justifications, discipline, max_evidence, "
     "leaderboard"),
    ("task: coldstart\nright: [CORRECT\n",
     "{path} line 3: not a valid YAML policy: expected ',' or ']', but got '<stream end>'"),
    ("- right\n- wrong\n", "{path}: a policy file must be a mapping of keys to values"),
])
def test_bad_policy_files(tmp_path, text, message):
    path = policy_file(tmp_path, text)
    with pytest.raises(ScorerError) as error:
        load_policy_file(path)
    assert str(error.value) == message.format(path=path)


@pytest.mark.parametrize("text, message", [
    ("task: trec\n", "{path}: unknown task 'trec'; known tasks: classification, coldstart, fever, scifact"),
    # the file and key are named before the Perl's message 
    ("wrong: [CORRECT]\n", "{path}, key 'wrong': Unexpected choice CORRECT for WRONG"),
    ("ignore: [UNASSESSED, INEXACT, CORRECT]\n",
     "{path}, key 'ignore': Unexpected choice CORRECT for IGNORE"),
    ("right: 5\n", "{path}: policy key 'right' must be a list or a colon-separated string"),
    ("justifications: 10:3\n", "{path}, key 'justifications': " + JUSTIFICATIONS_MESSAGE),
    ("fields: [EC, NOPE]\n", "{path}, key 'fields': Unknown field: NOPE"),
    ("right: [[CORRECT]]\n", "{path}: policy key 'right' must be a list of names, not of "
                             "lists or mappings"),
    ("right: [CORRECT]\nright: [INEXACT]\n", "{path} line 2: the key 'right' is given twice"),
    ("max_evidence: 3\n", "{path}: policy key(s) max_evidence do not apply to the task "
                           "coldstart; remove them"),
    ("task: fever\nright: [CORRECT]\n", "{path}: policy key(s) right do not apply to the task "
                                        "fever; remove them"),
    ("task: fever\nmax_evidence: .inf\n", "{path}: max_evidence must be a whole number or "
                                          "'all', not 'inf'"),
    ("task: fever\nmax_evidence: 1.0e+400\n", "{path}: max_evidence must be a whole number "
                                              "or 'all', not 'inf'"),
    ("task: fever\nmax_evidence: " + "1" * 19 + "\n", "{path} line 2, key 'max_evidence': the "
     "number 1111111111111111111 is too large; a policy's numbers have at most 18 digits"),
    # Python converts at most 4,300 digits: the policy's refusal comes first (it was a
    # ValueError traceback)
    ("task: fever\n\nmax_evidence: " + "9" * 5000 + "\n", "{path} line 3, key 'max_evidence': "
     "the number " + "9" * 40 + "... (5,000 characters) is too large; a policy's numbers have "
     "at most 18 digits"),
    ("task: fever\nlabels: [A, " + "9" * 5000 + "]\n", "{path} line 2, key 'labels': the number "
     + "9" * 40 + "... (5,000 characters) is too large; a policy's numbers have at most 18 "
     "digits"),
    ("task: fever\nmax_evidence: " + "1_" * 3000 + "1\n", "{path} line 2, key 'max_evidence': "
     "the number " + "1_" * 20 + "... (6,001 characters) is too large; a policy's numbers have "
     "at most 18 digits"),
    ("- " + "9" * 5000 + "\n", "{path} line 1: the number " + "9" * 40 + "... (5,000 characters) "
     "is too large; a policy's numbers have at most 18 digits"),
    # A character YAML refuses is named with its line (PyYAML gives its position)
    ("task: fever\n\nlabels: [A\x00]\n", "{path} line 3: not a valid YAML policy: the character "
     "#x0000 (a NUL byte) is not allowed"),
    ("task: fever\x07\n", "{path} line 1: not a valid YAML policy: the character #x0007 is not "
     "allowed"),
    ("right: &a [*a]\n", "{path}: the policy expands to more than 10,000 values or 16 levels "
                         "(a repeated or recursive YAML alias?); a policy is a few short lists"),
])
def test_bad_policy_values(tmp_path, text, message):
    refusal, path = _refusal_of(tmp_path, text)
    assert refusal == message.format(path=path)


def _refusal_of(tmp_path, text: str) -> tuple:
    """(the message refusing a policy file of ``text``, the file's path)."""
    path = policy_file(tmp_path, text)
    with pytest.raises(ScorerError) as error:
        build_policy(load_policy_file(path), {}, source=path)
    return str(error.value), path


@pytest.mark.parametrize("text, message", [
    # Without labels every label is unknown: SciFact failed at the predictions file
    # ("allowed: " and nothing), FEVER warned about every label and exited 0.
    ("task: scifact\nlabels: []\n", "{path}, key 'labels': no label is given; name the labels "
     "the gold and predictions use (for scifact: SUPPORT, CONTRADICT), or leave the key out"),
    ("task: fever\nlabels:\n", "{path}, key 'labels': no label is given"),
    ("task: fever\nlabels: ''\n", "{path}, key 'labels': no label is given"),
    ("task: fever\nlabels: [SUPPORTS, '']\n", "{path}, key 'labels': an empty label in "
                                              "'SUPPORTS', ''"),
    # max_evidence in a policy file: decimal only (a plain 010 is octal 8 in YAML 1.1,
    # where -max_evidence 010 is 10)
    ("task: scifact\nmax_evidence: 010\n", "{path} line 2, key 'max_evidence': the number 010 "
     "is not written in decimal (YAML 1.1 reads it as 8); write it without leading zeros, "
     "0x, 0b or _"),
    ("task: scifact\nmax_evidence: 0x10\n", "{path} line 2, key 'max_evidence': the number "
                                            "0x10 is not written in decimal (YAML 1.1 reads "
                                            "it as 16)"),
    ("task: scifact\nmax_evidence: 0b11\n", "{path} line 2, key 'max_evidence': the number "
                                            "0b11 is not written in decimal (YAML 1.1 reads "
                                            "it as 3)"),
    ("task: scifact\nmax_evidence: 1_0\n", "{path} line 2, key 'max_evidence': the number 1_0"),
    ("task: coldstart\nright: [CORRECT, 010]\n", "{path} line 2, key 'right': the number 010"),
    ("task: scifact\nmax_evidence: 08\n", "{path}: max_evidence must be written without "
                                          "leading zeros, not '08'"),
    ("task: scifact\nmax_evidence: '010'\n", "{path}: max_evidence must be written without "
                                             "leading zeros, not '010'"),
])
def test_bad_claim_policy_values(tmp_path, text, message):
    refusal, path = _refusal_of(tmp_path, text)
    assert refusal.startswith(message.format(path=path))


@pytest.mark.parametrize("text, max_evidence", [
    ("max_evidence: 0\n", 0), ("max_evidence: 10\n", 10), ("max_evidence: +3\n", 3),
    ("max_evidence: all\n", None),
])
def test_decimal_max_evidence_in_a_policy(tmp_path, text, max_evidence):
    path = policy_file(tmp_path, "task: scifact\n" + text)
    assert build_policy(load_policy_file(path), {}, source=path).max_evidence == max_evidence


@pytest.mark.parametrize("value, message", [
    ("-1", "-max_evidence must not be negative, not '-1'"),
    ("1.5", "-max_evidence must be a whole number or 'all', not '1.5'"),
    ("9" * 30, "-max_evidence is too large"),
])
def test_a_bad_max_evidence_switch_is_blamed_on_the_switch(value, message):
    # not on the policy file, whose max_evidence is fine
    scifact = load_policy_file(str(CONFIGS / "scifact.yaml"))
    with pytest.raises(ScorerError) as error:
        build_policy(scifact, {"max_evidence": value}, source=str(CONFIGS / "scifact.yaml"))
    assert str(error.value).startswith(message)
    assert build_policy(scifact, {"max_evidence": "010"}).max_evidence == 10


def test_missing_policy_file(tmp_path):
    with pytest.raises(ScorerError) as error:
        load_policy_file(str(tmp_path / "nosuch.yaml"))
    assert str(error.value) == (f"Could not open policy file {tmp_path / 'nosuch.yaml'}: "
                                f"No such file or directory")


# ------------------------------------------------------------ the leaderboard key

def test_leaderboard_lists_metrics_of_the_task_and_changes_no_fingerprint():
    policy = build_policy({"task": "fever", "leaderboard": ["f1", "strict_score"]}, {})
    assert policy.leaderboard == ("f1", "strict_score")
    assert policy.digest() == build_policy({"task": "fever"}, {}).digest()
    assert build_policy({}, {}).leaderboard == ()
    assert build_policy({"leaderboard": "ldcmean_ap:sf_ap"}, {}).leaderboard == \
        ("ldcmean_ap", "sf_ap")


@pytest.mark.parametrize("settings, message", [
    ({"task": "scifact", "leaderboard": ["strict_score"]}, "strict_score unknown for scifact"),
    ({"task": "coldstart", "leaderboard": ["f1"]}, "f1 unknown for coldstart"),
    ({"task": "fever", "leaderboard": ["f1", "f1"]}, "f1 named twice"),
])
def test_bad_leaderboards(settings, message):
    with pytest.raises(ScorerError, match=message):
        build_policy(settings, {})
