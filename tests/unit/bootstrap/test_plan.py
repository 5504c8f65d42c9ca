"""scorer/bootstrap/plan.py: who draws a track's samples.  A samples file is
read once and checked by the task; -bootstrap is drawn over the shared
files' groups when they give them (and the runs keep -bootstrap and -seed),
else over the scored runs' units (and the runs are scored without them);
with clusters, whole clusters are drawn."""
from __future__ import annotations

from collections import namedtuple

import pytest

from scorer import bootstrap
from scorer.bootstrap.plan import FILE, RUNS, SHARED, SamplingPlan
from scorer.problems import ScorerError

Asked = namedtuple("Asked", "samples bootstrap seed", defaults=(None, None, None))
GROUPS = [("L2", ("c",)), ("L1", ("a", "b"))]


def test_no_samples_asked_draws_nothing_anywhere():
    plan = SamplingPlan(Asked(seed=4))
    assert plan.samples_of(lambda: GROUPS) is None and plan.source is None
    assert plan.after_runs(lambda: pytest.fail("no units are needed")) is None
    assert plan.run_request(Asked(seed=4)) == Asked()        # -seed: the track's alone


def test_a_samples_file_is_read_once_and_checked_by_the_task(tmp_path):
    path = tmp_path / "samples.txt"
    path.write_text("1 L1:a,b L2:c\n2 L2:c L2:c\n", encoding="utf-8")
    checked = []
    plan = SamplingPlan(Asked(samples=str(path), seed=9))
    samples = plan.samples_of(lambda: pytest.fail("a file is not drawn"), checked.append)
    assert checked == [samples] and plan.source == FILE
    assert samples.text() == path.read_text(encoding="utf-8")
    assert plan.after_runs(lambda: ["a"]) is None
    assert plan.run_request(Asked(samples=str(path), seed=9)) == Asked(samples=str(path))


def test_bootstrap_over_the_shared_groups_is_what_each_run_would_draw():
    asked = Asked(bootstrap=5, seed=3)
    plan = SamplingPlan(asked)
    samples = plan.samples_of(lambda: GROUPS)
    assert plan.source == SHARED
    assert samples.text() == bootstrap.generate(GROUPS, 5, 3).text()
    assert plan.after_runs(lambda: ["a"]) is None
    assert plan.run_request(asked) is asked                  # the runs keep -bootstrap -seed


def test_bootstrap_without_shared_groups_is_drawn_over_the_runs_units():
    asked = Asked(bootstrap=4, seed=8)
    plan = SamplingPlan(asked)
    assert plan.samples_of(None, lambda _samples: pytest.fail("nothing read")) is None
    assert plan.source == RUNS
    assert plan.run_request(asked) == Asked()                # scored without samples
    drawn = plan.after_runs(lambda: ["q1", "q2", "q3"])
    assert drawn.text() == bootstrap.generate([(u, (u,)) for u in ("q1", "q2", "q3")],
                                              4, 8).text()


class _Clusters:
    """Two clusters of the groups (what scorer.track.clusters.Clusters offers)."""

    def check_units(self, units) -> None:
        if set(units) != {"L1", "L2", "L3"}:
            raise ScorerError(f"units {sorted(units)} not in the clusters file")

    def groups(self, members) -> list:
        return [("A", ["L1", "L2"]), ("B", ["L3"])]


def test_clusters_draw_whole_clusters_and_check_the_units():
    groups = GROUPS + [("L3", ("d",))]
    samples = SamplingPlan(Asked(bootstrap=6, seed=2), _Clusters()).samples_of(lambda: groups)
    members = dict(groups)
    expected = bootstrap.generate_clustered(
        [("A", [("L1", members["L1"]), ("L2", members["L2"])]), ("B", [("L3", ("d",))])], 6, 2)
    assert samples.text() == expected.text()
    with pytest.raises(ScorerError, match="not in the clusters file"):
        SamplingPlan(Asked(bootstrap=6, seed=2), _Clusters()).samples_of(lambda: GROUPS)
