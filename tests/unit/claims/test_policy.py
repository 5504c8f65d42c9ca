"""scorer/claims/policy.py: ``max_evidence``, the claim tasks' own policy
key, from a switch or a policy file: a whole number or 'all', each mistake
named by where it came from (the switch is blamed for the switch's value)."""
from __future__ import annotations

from pathlib import Path

import pytest

from scorer.claims.policy import MAX_EVIDENCE, max_evidence, read_max_evidence
from scorer.policy import build_policy, load_policy_file
from scorer.problems import ScorerError

from places import ROOT

CONFIGS = ROOT / "configs"


def policy_file(tmp_path: Path, text: str) -> str:
    path = tmp_path / "policy.yaml"
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("value, read", [
    (None, None), ("all", None), ("ALL", None), ("none", None), ("null", None), (0, 0),
    (5, 5), ("5", 5), (" 7 ", 7), (str(MAX_EVIDENCE), MAX_EVIDENCE)])
def test_a_whole_number_or_all(value, read):
    assert max_evidence(value, "-max_evidence") == read


@pytest.mark.parametrize("value, in_file, message", [
    ("1.5", False, "X must be a whole number or 'all', not '1.5'"),
    (1.0, False, "X must be a whole number or 'all', not '1.0'"),
    (True, False, "X must be a whole number or 'all', not 'True'"),
    ([1], False, "X must be a whole number or 'all', not '[1]'"),
    ("\u0667", False, "X must be a whole number or 'all', not '\u0667'"),
    ("-2", False, "X must not be negative, not '-2'"),
    ("010", True, "X must be written without leading zeros, not '010'"),
    ("9" * 30, False, "X is too large"),
])
def test_mistakes_named_by_where_they_came_from(value, in_file, message):
    value = value.encode().decode("unicode_escape") if isinstance(value, str) else value
    with pytest.raises(ScorerError) as error:
        max_evidence(value, "X", in_file=in_file)
    assert str(error.value).startswith(message.encode().decode("unicode_escape"))


def test_the_switch_or_the_policy_files_key():
    with pytest.raises(ScorerError, match="^-max_evidence must not be negative"):
        read_max_evidence("-1", "max_evidence", "p.yaml", from_switch=True)
    with pytest.raises(ScorerError, match="^p.yaml: max_evidence must not be negative"):
        read_max_evidence("-1", "max_evidence", "p.yaml")
    assert read_max_evidence("010", "max_evidence", "p.yaml", from_switch=True) == 10


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
