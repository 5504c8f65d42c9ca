"""scorer/competition/phases.py: the repeated switches taken out of argv in
order, dates read as the platforms write them, SemEval's defaults, and what
each phase shows following from its gold (the test gold shows no detail)."""
from __future__ import annotations

import datetime

import pytest

from scorer.competition import phases
from scorer.problems import ScorerError


def test_repeated_switches_are_taken_in_order():
    rest, found = phases.take_repeated(["-policy", "p.yaml", "-phase", "a:x", "-bundle", "b.zip",
                                        "-phase", "b", "-max_submissions", "b:3/day"])
    assert rest == ["-policy", "p.yaml", "-bundle", "b.zip"]
    assert found["phase"] == ["a:x", "b"] and found["max_submissions"] == ["b:3/day"]
    with pytest.raises(ScorerError, match="-phase needs a value"):
        phases.take_repeated(["-phase", "-policy"])


@pytest.mark.parametrize("value, moment", [
    ("2027-01-10", datetime.datetime(2027, 1, 10)),
    ("2027-01-10 13:30", datetime.datetime(2027, 1, 10, 13, 30)),
    ("2027-01-10T13:30:05", datetime.datetime(2027, 1, 10, 13, 30, 5)),
    ("2027-01-10 13:30:00+01:00", datetime.datetime(2027, 1, 10, 12, 30)),
    (datetime.date(2027, 1, 10), datetime.datetime(2027, 1, 10)),
])
def test_moments_are_read_in_utc(value, moment):
    assert phases.read_moment(value, "-phase_start") == moment
    assert phases.written(moment) == moment.strftime("%Y-%m-%d %H:%M:%S")


def test_semevals_three_phases(tmp_path):
    dev, test = tmp_path / "dev", tmp_path / "test"
    dev.write_text("dev\n")
    test.write_text("test\n")
    found = phases.from_settings(
        {"phase": [f"practice:{dev}", f"evaluation:{test}", "post-evaluation"],
         "phase_start": ["evaluation:2027-01-10", "post-evaluation:2027-01-31"],
         "max_submissions": ["evaluation:2/day"]}, {}, "2026-09-01")
    practice, evaluation, post = found
    assert [p.shows for p in found] == [phases.DETAILS, phases.RECEIPT, phases.SCORES]
    assert [p.scores for p in found] == [phases.SHOWN, phases.HIDDEN, phases.SHOWN]
    assert post.references == evaluation.references == (str(test),)
    assert (evaluation.max_submissions, evaluation.max_per_day) == (3, 2)
    assert practice.max_submissions is None and post.end is None
    assert practice.end == evaluation.start and evaluation.end == post.start


def test_a_copy_of_the_test_gold_is_the_test_gold(tmp_path):
    test, copy = tmp_path / "test", tmp_path / "copy"
    test.write_text("test\n")
    copy.write_text("test\n")
    found = phases.from_settings({"phase": [f"evaluation:{test}", f"later:{copy}"],
                                  "phase_start": ["later:2027-02-01"]}, {}, "2027-01-01")
    assert [p.shows for p in found] == [phases.RECEIPT, phases.SCORES]


def test_the_policy_section_and_the_command_line(tmp_path):
    (tmp_path / "dev").write_text("dev\n")
    (tmp_path / "other").write_text("other\n")
    policy = tmp_path / "p.yaml"
    policy.write_text("task: fever\ncompetition:\n  ranked_submission: best\n  phases:\n"
                      "    - name: practice\n      gold: dev\n      max_submissions: 9\n")
    section = phases.read_section(str(policy))
    assert section["ranked_submission"] == "best"
    [phase] = phases.from_settings({"phase": [f"practice:{tmp_path / 'other'}"]}, section,
                                   "2027-01-01")
    assert phase.references == (str(tmp_path / "other"),) and phase.max_submissions == 9
    policy.write_text("task: fever\ncompetition:\n  phases:\n    - name: x\n      when: 3\n")
    with pytest.raises(ScorerError, match="unknown key"):
        phases.read_section(str(policy))


def test_the_section_changes_no_score(tmp_path):
    """python -m scorer reads a policy with a competition: section as the same
    policy: the same settings and the same digest (the signature's)."""
    from scorer.policy import build_policy, load_policy_file
    plain, sectioned = tmp_path / "plain.yaml", tmp_path / "sectioned.yaml"
    plain.write_text("task: fever\nmax_evidence: 2\n")
    sectioned.write_text("task: fever\nmax_evidence: 2\ncompetition:\n  ranked_submission: all\n"
                         "  phases:\n    - name: practice\n      gold: dev.jsonl\n")
    a = build_policy(load_policy_file(str(plain)), {})
    b = build_policy(load_policy_file(str(sectioned)), {})
    assert a == b and a.digest() == b.digest()
