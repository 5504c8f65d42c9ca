"""Scoring a request: the request in, the task's outcome out (its reports as
texts, its scores as data).  Nothing is written here: the command line and
the track write an outcome's reports (scorer/reportset.py)."""
from __future__ import annotations

from scorer import gcpause, tasks


def score(request, problems, samples=None):
    """The outcome of ``request`` (a :class:`scorer.request.Request`): its
    ``reports`` and its scores as data.  Problems that are not fatal go to
    ``problems``; fatal ones raise ScorerError.  ``samples``: the request's
    samples, read or drawn already, for callers that score several runs with
    them."""
    task = tasks.get(request.policy.task)
    with gcpause.paused():
        return task.scoring.score(request, problems, samples)
