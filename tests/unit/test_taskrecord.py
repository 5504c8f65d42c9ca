"""scorer/taskrecord.py: what every task record must say for the shared code
(the command line, the policy reader, the track, the leaderboard program, the
diff) to ask it instead of naming the task."""
from __future__ import annotations

import numpy as np
import pytest

from scorer import registry, scoring, switches
from scorer.policy import build_policy
from scorer.problems import Problems, ScorerError
from scorer.request import build
from scorer.taskrecord import Task, TrackRun, checked_runs, run_name

from places import DEMO, FIXTURES, ROOT


@pytest.mark.parametrize("name", registry.names())
def test_every_record_says_what_the_shared_code_asks(name):
    record = registry.get(name)
    assert record.title and record.unit and record.units and record.summary
    assert record.files_help and record.track.files_help and record.leaderboard.submission
    assert "png" in record.report_extensions          # -plot's picture, whatever the task
    assert len(set(record.report_extensions)) == len(record.report_extensions)
    keys = [key.name for key in record.policy_keys]
    assert len(set(keys)) == len(keys)
    for switch in record.switches:
        # A switch that sets the policy is named as the key it sets.
        assert not switch.sets_policy or switch.name in keys, switch.name
        assert switch.help, switch.name
    assert set(record.run_switches) <= {switch.name for switch in record.switches}
    for heading, catalogue in record.scoring.catalogues():
        names = [metric for metric, _title in catalogue]
        assert heading and names and len(set(names)) == len(names)
    explained = dict(record.explanations())
    assert explained and all(len(text) > 10 for text in explained.values())


@pytest.mark.parametrize("name", registry.names())
def test_the_default_policy_of_every_task_has_its_records_defaults(name):
    record = registry.get(name)
    settings = {"task": name}
    if name == "classification":                      # (its labels have no default)
        settings["labels"] = ["yes", "no"]
    policy = build_policy(settings, {})
    for key in record.policy_keys:
        if key.name not in settings:
            assert getattr(policy, key.name) == key.default, key.name
    # The headline (what a track ranks by, first in the catalogue) is a metric of the policy.
    assert record.scoring.catalogue(None)[0][0] in record.scoring.metric_names(policy)


def test_a_switch_two_tasks_share_is_one_switch():
    """scorer_table keeps the first of a name; two tasks declaring one name
    must mean one switch by it."""
    seen: dict = {}
    for record in registry.every():
        for switch in record.switches:
            earlier = seen.setdefault(switch.name, switch)
            assert earlier is switch or (earlier.takes_value, earlier.sets_policy) == \
                (switch.takes_value, switch.sets_policy), switch.name
    table = switches.scorer_table()
    assert set(seen) <= set(table)


@pytest.mark.parametrize("path, name", [
    ("runs/team1.jsonl", "team1"), ("team1.tab.txt", "team1"), ("runs/a.b.tsv", "a.b"),
    ("dir/run/", "run"), ("noext", "noext")])
def test_run_name_is_the_file_name_without_its_extension(path, name):
    assert run_name(path) == name


def test_checked_runs_are_sorted_by_name():
    runs = [TrackRun("b", ("b.jsonl",)), TrackRun("a", ("a.jsonl",))]
    assert [run.name for run in checked_runs(runs)] == ["a", "b"]


@pytest.mark.parametrize("runs, message", [
    ([TrackRun("a", ("x/a.jsonl",)), TrackRun("a", ("y/a.jsonl",))],
     "two runs are named a: x/a.jsonl and y/a.jsonl (run names must be unique)"),
    ([TrackRun("..", ("...jsonl",))], "...jsonl: '..' cannot name a run folder"),
    ([TrackRun("", (".jsonl",))], ".jsonl: '' cannot name a run folder"),
    ([TrackRun("a\tb", ("a\tb.jsonl",))], "the run's name 'a\\tb' holds a tab"),
])
def test_runs_that_cannot_name_a_folder_are_refused(runs, message):
    with pytest.raises(ScorerError) as caught:
        checked_runs(runs)
    assert message in str(caught.value)


@pytest.mark.parametrize("name, files, given", [
    ("coldstart", ("ldc-query.xml", "qrel.txt", "DEMORUN.tab.txt"), {"expand": "CSSF17"}),
    ("fever", ("actual.jsonl", "predictions.jsonl"), {})])
def test_run_result_makes_the_statistics_asked_for(name, files, given):
    """A track sends back its headline's per-unit statistics alone: the record
    makes those, equal to the ones it makes of every metric."""
    folder = DEMO if name == "coldstart" else FIXTURES / "fever" / "blind"
    policy = None if name == "coldstart" else str(ROOT / "configs" / "fever.yaml")
    request = build([str(folder / file) for file in files], policy, **given)
    outcome = scoring.score(request, Problems())
    record = registry.get(name)
    every = record.scoring.run_result("run", outcome)
    headline = record.scoring.catalogue(request)[0][0]
    alone = record.scoring.run_result("run", outcome, statistics=(headline,))
    assert set(every.statistics) == set(every.values) and set(alone.statistics) == {headline}
    assert alone.values == every.values and alone.per_hop == every.per_hop
    assert np.array_equal(alone.statistics[headline].matrix, every.statistics[headline].matrix)
    assert record.scoring.run_result("run", outcome, statistics=False).statistics == {}


def test_a_capability_a_task_lacks_is_false_and_its_use_a_scorer_error():
    import copy
    import pickle
    record = type("Bare", (Task,), {"name": "bare"})()
    assert record.scoring and not record.track and not record.diff
    for kind in ("track", "diff", "leaderboard", "picture"):
        with pytest.raises(ScorerError, match=f"^task bare has no {kind}$"):
            getattr(getattr(record, kind), "anything")
    # (copies and pickles, as a track's workers make, still work)
    assert not copy.copy(record.diff) and not pickle.loads(pickle.dumps(record.diff))
