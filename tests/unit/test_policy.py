"""The policy (scorer/policy.py): defaults, YAML policy files, and switches
overriding them (Cold Start's own checks, the Perl's: coldstart/test_policy.py)."""
from __future__ import annotations

from pathlib import Path

import pytest

from scorer.coldstart.policy import (DEFAULT_FIELDS, JUSTIFICATIONS_MESSAGE,
                                     justification_limits, option_text)
from scorer.policy import (SHIPPED_FOLDER, Policy, build_policy, known_keys, load_policy_file,
                           policy_path, shipped_policies)
from scorer.problems import ScorerError

from places import ROOT

CONFIGS = ROOT / "configs"

PERL_DEFAULTS = Policy("coldstart", dict(right=("CORRECT",),
                                         wrong=("INCORRECT", "INCORRECT_PARENT", "INEXACT"),
                                         ignore=("UNASSESSED", "DUPLICATE"),
                                         justifications="1:3", discipline="ASSESSED",
                                         fields=DEFAULT_FIELDS, validate=None, input=None))


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
     "average_labels, right, wrong, ignore, fields, justifications, discipline, validate, "
     "input, max_evidence, leaderboard, competition"),
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


# -- the shipped policies: -policy NAME ------------------------------------------------

def test_the_shipped_policies_are_the_checkouts_configs():
    assert shipped_policies() == tuple(sorted(path.stem for path in CONFIGS.glob("*.yaml")))
    assert "fever" in shipped_policies() and "coldstart-sf" in shipped_policies()
    for name in shipped_policies():
        assert Path(policy_path(name)).read_bytes() == (CONFIGS / f"{name}.yaml").read_bytes()
        assert Path(policy_path(name)).parent == Path(SHIPPED_FOLDER)


def test_a_name_alone_is_the_shipped_policy_wherever_it_runs(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "fever").write_text("task: scifact\n")
    # the same command, the same policy on every machine; ./fever is the file here
    assert policy_path("fever") == str(Path(SHIPPED_FOLDER) / "fever.yaml")
    assert load_policy_file(policy_path("fever"))["task"] == "fever"
    assert policy_path("./fever") == "./fever"
    assert load_policy_file(policy_path("./fever"))["task"] == "scifact"


def test_any_other_value_is_a_path_read_as_it_is(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine").write_text("task: fever\n")
    for value in ("mine", str(tmp_path / "mine"), "nothere.yaml", "no/such/policy.yaml"):
        assert policy_path(value) == value


@pytest.mark.parametrize("value, message", [
    # a checkout's path outside a checkout
    ("configs/fever.yaml", "Could not open policy file configs/fever.yaml: No such file or "
                           "directory (the shipped policy fever is named alone: -policy fever)"),
    ("fevr", "Could not open policy file fevr: No such file or directory (the shipped policies "
             "are classification, coldstart-kb, coldstart-sf, fever, scifact)"),
])
def test_a_missing_file_that_looks_meant_as_a_shipped_policy_says_how_to_name_one(
        tmp_path, monkeypatch, value, message):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ScorerError) as error:
        policy_path(value)
    assert str(error.value) == message
