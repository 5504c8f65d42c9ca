"""Who draws a track's bootstrap samples, and over what units: decided here,
and nowhere else.

A track's request asks for no samples, for those of a samples file
(``-samples``), or for ``-bootstrap N -seed S``.  The task says only what its
shared files tell of the units (:meth:`SamplingPlan.samples_of`): the groups
the samples draw (a counts-table task's gold units; Cold Start's LDC queries
with -expand), or nothing (Cold Start without -expand, whose units, the SF
queries, are known once the runs are scored).  The plan then:

* reads a samples file once, and has the task check it (``FILE``);
* draws -bootstrap's samples once over the shared groups, as each run's own
  -bootstrap would draw them (``SHARED``): the runs' requests keep
  -bootstrap and -seed;
* or draws them over the scored runs' units (``RUNS``): the runs are scored
  without samples, and -seed seeds the track's randomization alone.

Every draw goes through :func:`scorer.bootstrap.draws.generate` (or, with a track's
-clusters, :func:`scorer.bootstrap.draws.generate_clustered`).
"""
from __future__ import annotations

from scorer.bootstrap.draws import generate, generate_clustered
from scorer.bootstrap.sampleset import read_samples

#: Where a plan's samples come from.
FILE, SHARED, RUNS = "file", "shared", "runs"


class SamplingPlan:
    """The sampling of one track (``request``: the track's), with -clusters'
    clusters when given (an object with ``check_units(units)`` and
    ``groups(members)``: scorer.track.clusters.Clusters)."""

    __slots__ = ("request", "clusters", "source")

    def __init__(self, request, clusters=None):
        self.request = request
        self.clusters = clusters
        #: FILE, SHARED or RUNS once decided; None: no samples
        self.source = None
        if request.samples:
            self.source = FILE
        elif request.bootstrap is not None:
            self.source = RUNS              # unless the shared files give the groups

    def samples_of(self, groups=None, check=None):
        """The samples read or drawn before any run is scored, or None (none
        asked for, or drawn over the runs' units once they are scored).
        ``groups``: a function giving the ``(group, members)`` pairs the
        shared files tell (None: they tell none); ``check(samples)``: the
        task's check of a samples file against the shared files."""
        if self.source == FILE:
            samples = read_samples(self.request.samples)
            if check is not None:
                check(samples)
            return samples
        if self.source is None or groups is None:
            return None
        self.source = SHARED
        return self.draw(groups())

    def after_runs(self, units):
        """The samples drawn over the scored runs' units (``units()``: them,
        sorted; each unit a group of its own, as a run's own -bootstrap draws
        them), when the plan draws them there; else None."""
        if self.source != RUNS:
            return None
        return self.draw([(unit, (unit,)) for unit in units()])

    def run_request(self, request):
        """The request each run is scored with: the track's, with -bootstrap
        and -seed only when the samples are drawn over the shared groups (the
        runs' own -bootstrap would draw those very samples)."""
        if self.source == SHARED:
            return request
        return request._replace(bootstrap=None, seed=None)

    def draw(self, groups: list):
        """-bootstrap's samples of ``(group, members)`` pairs: groups drawn
        one by one, or with -clusters whole clusters of them (every unit
        checked against the clusters file)."""
        request = self.request
        if self.clusters is None:
            return generate(groups, request.bootstrap, request.seed)
        members = dict(groups)
        self.clusters.check_units(list(members))
        return generate_clustered(
            [(cluster, [(unit, members[unit]) for unit in units])
             for cluster, units in self.clusters.groups(members)],
            request.bootstrap, request.seed)
