"""The Python API: what the command lines do, for notebooks and programs.

    >>> import scorer
    >>> run = scorer.score(["ldc-query.xml", "qrel.txt", "RUN.tab.txt"],
    ...                    expand="CSSF17", bootstrap=1000, seed=7)
    >>> run.summary                    # DataFrame: variant, aggregate, hop, metric, value
    >>> track = scorer.score_track(["ldc-query.xml", "qrel.txt", "runs/"],
    ...                            expand="CSSF17", bootstrap=1000, seed=7)
    >>> track.leaderboard, track.significance, track.per_query

Switches are keyword arguments named as on the command line (``expand``,
``queries``, ``justifications``, ``right``, ``samples``, ``bootstrap``,
``seed``, ``max_evidence``, ...), checked as the command line checks them
(:func:`scorer.request.build`); lists (``right=["CORRECT", "INEXACT"]``) are
joined with ``:``; ``policy`` is a policy file.  Mistakes raise
:class:`scorer.problems.ScorerError` with the command line's message; errors
in the input that are not fatal (where the command line writes every report
and exits 255) raise :class:`InputErrors`, which holds the result.
"""
from __future__ import annotations

import functools
import os

from scorer.limits import shorten
from scorer.problems import ScorerError


class InputErrors(ScorerError):
    """The input has errors that are not fatal (``python -m scorer`` writes every
    report and exits 255): the message is the error log; ``result`` holds the
    numbers and reports all the same, for a caller that wants them."""

    def __init__(self, message: str, result: "ScoreResult"):
        super().__init__(message)
        self.result = result


class ScoreResult:
    """One scored run (Cold Start: one run id).  The tables are made when first
    asked for, so that a caller that needs only ``values`` or the reports'
    texts does not pay for (or import) pandas."""

    def __init__(self, task: str, data, reports: dict, errlog: str, error_count: int,
                 run_ids: tuple = (), claim_table=None, problem_names=frozenset(),
                 sparse_columns=frozenset()):
        self.task = task
        self._data = data
        # Claim tasks: (keys, columns) of the counts table; data.per_query is made
        # from it when first asked for (a leaderboard's page reads the columns).
        self._claim_table = claim_table
        #: the columns whose zeros per_query leaves out (task.scoring.sparse_columns)
        self.sparse_columns = sparse_columns
        #: report extension -> text, as ``python -m scorer -output_file PREFIX`` writes them
        self.reports = reports
        #: the error log's text, and how many errors it counts
        self.errlog = errlog
        self.error_count = error_count
        #: the names of the problems recorded (scorer/problems.py CATALOGUE), for
        #: callers that act on one kind: the leaderboard's program refuses
        #: FEVER predictions scored against their own gold (CLAIM_OWN_GOLD)
        self.problem_names = problem_names
        #: metric name -> full-data value (the keys -metric takes)
        self.values = data.values
        #: Cold Start: every run id the submission files hold, scored (the numbers are the
        #: first's); claim tasks: ()
        self.run_ids = run_ids

    @property
    def per_query_rows(self) -> list:
        """(query or claim, hop, metric, value) tuples: ``per_query`` without pandas."""
        if self._claim_table is not None and not self._data.per_query:
            from scorer import results
            self._data.per_query = results.claim_table_rows(*self._claim_table,
                                                            self.sparse_columns)
        return self._data.per_query

    @property
    def claim_table(self):
        """Claim tasks: (claim keys, {column: one value per claim}), what
        ``per_query_rows`` are made of; Cold Start: None."""
        return self._claim_table

    @functools.cached_property
    def summary(self):
        """Every metric, long format: variant, aggregate, hop, metric, value."""
        from scorer import results
        return results.per_hop([self._data]).drop(columns="run")

    @functools.cached_property
    def per_query(self):
        """Per query (claim) and hop: query, hop, metric, value."""
        from scorer import results
        self.per_query_rows   # made now if they were left for later
        return results.per_query([self._data]).drop(columns="run")

    @functools.cached_property
    def confidence(self):
        """Percentile intervals (None without samples): code, low99, low95, low90,
        mean, score, high90, high95, high99."""
        from scorer import reportframes
        text = self.reports.get("confidence")
        return reportframes.confidence_frame(text) if text is not None else None

    @functools.cached_property
    def samplescores(self):
        """Every code of every sample (None without samples)."""
        from scorer import reportframes
        text = self.reports.get("samplescores")
        return reportframes.samplescores_frame(text) if text is not None else None


#: The largest -jobs and -trials the command line takes (nine digits).
_LARGEST = 999_999_999


def _whole_number(value, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        shown = "a huge negative number" if isinstance(value, int) and \
            value.bit_length() > 200 else shorten(repr(value))
        raise ScorerError(f"{name} must be a whole number of at least 1, not {shown}")
    if value > _LARGEST:
        # (as -trials 10000000000 is refused: the trials would run for days)
        raise ScorerError(f"{name} must be at most {_LARGEST:,}")
    return value


def score(files, policy: str | None = None, **switches) -> ScoreResult:
    """Score one run, as ``python -m scorer`` does, and return its numbers as
    DataFrames (nothing is written; ``runids`` picks the run of a Cold Start
    file holding several).  Errors in the input raise :class:`InputErrors`
    (fatal ones :class:`~scorer.problems.ScorerError`); warnings are in ``result.errlog``."""
    from scorer.request import build
    for name in ("output_file", "error_file"):
        if name in switches:
            raise ScorerError(f"score() writes no file; '{name}' has no use here "
                              f"(write result.reports yourself)")
    return score_request(build(files, policy, program="scorer.score", **switches))


def score_request(request) -> ScoreResult:
    """Score a :class:`scorer.request.Request` (nothing is written), as
    :func:`scorer.score` does."""
    from scorer import quickexit, scoring, tasks
    from scorer.problems import Problems
    # As if written at a prefix (the reports of a prefix, not of a stream).
    request = request._replace(output_file="run")
    problems = Problems()
    outcome = scoring.score(request, problems)
    quickexit.keep(outcome)   # a no-op unless the process ends by quickexit.exit_now
    texts = dict(outcome.reports.files())
    task = tasks.get(request.policy.task)
    # Rows per unit are made from the counts table when first asked for (when the
    # task has one: ScoreResult.per_query_rows).
    data = task.scoring.run_result("run", outcome, statistics=False, per_query=False)
    run_ids = task.scoring.run_ids(outcome)
    claim_table = task.scoring.unit_table(outcome)
    sparse = frozenset() if claim_table is None else task.scoring.sparse_columns(claim_table[1])
    result = ScoreResult(request.policy.task, data, texts, problems.report(),
                         problems.error_count, run_ids, claim_table,
                         frozenset(problems.names()), sparse)
    if problems.error_count:
        # The command line exits 255 here; numbers returned as if all were well would
        # be too easy to use (a -runids typo scores all zeros).
        raise InputErrors(result.errlog.rstrip("\n"), result)
    return result


def score_track(files, policy: str | None = None, output_dir: str | None = None,
                jobs: int = 1, metric: str | None = None, compare: str = "all",
                trials: int | None = None, correction: str = "holm",
                baseline: str | None = None, clusters=None,
                figure_width: float = 7.0, slices: str | None = None, power=None,
                power_method: str = "simulation", **switches):
    """Score a track, as ``python -m scorer.track`` does; writes the track
    folder when ``output_dir`` is given.  Returns a
    :class:`scorer.track.build.TrackResult` (``leaderboard``, ``significance``,
    ``per_query`` DataFrames, ``exit_status``, ``warnings``): a run with errors
    is part of the track (its leaderboard ``status`` is not ``ok``, and
    ``exit_status`` is 255, the command line's), so this does not raise for it.
    ``trials=None``: 10,000 trials and the tail rule beyond them; ``correction``
    "holm" or "bh"; ``baseline``: a run name; ``clusters``: a clusters file
    (docs/statistics.md); ``slices``: -slices SPEC (label, field:KEY, file:PATH): the
    result's ``slices`` holds every slice's leaderboard and tests; ``power``: -power's
    multiples of the units, ``power_method`` "simulation" or "normal"."""
    from scorer.track.build import TrackOptions, build, track_request
    jobs = _whole_number(jobs, "jobs")
    if trials is not None:
        trials = _whole_number(trials, "trials")
    for name, value in (("output_dir", output_dir), ("metric", metric), ("baseline", baseline),
                        ("clusters", clusters), ("slices", slices)):
        if value is not None and not isinstance(value, (str, os.PathLike)):
            raise ScorerError(f"{name} must be a string, not {type(value).__name__}")
    for name, value in (("compare", compare), ("correction", correction),
                        ("power_method", power_method)):
        if not isinstance(value, str):
            raise ScorerError(f"{name} must be a string, not {type(value).__name__}")
    output_dir = os.fspath(output_dir) if output_dir is not None else None
    clusters = os.fspath(clusters) if clusters is not None else None
    baseline = os.fspath(baseline) if baseline is not None else None
    if isinstance(figure_width, bool) or not isinstance(figure_width, (int, float)):
        raise ScorerError(f"figure_width must be a number of inches, not "
                          f"{type(figure_width).__name__}")
    from scorer.display.plot import check_width
    try:
        figure_width = check_width(figure_width)
    except ValueError as error:          # (10**400 has no float)
        raise ScorerError(f"-figure_width {error}") from None
    options = TrackOptions(output_dir=output_dir, jobs=jobs, metric=metric, compare=compare,
                           trials=trials, correction=correction, baseline=baseline,
                           clusters=clusters, figure_width=figure_width,
                           slices=os.fspath(slices) if slices is not None else None,
                           power=_power_sizes(power), power_method=power_method)
    request = track_request(files, policy, **switches)
    return build(request, options)


def _power_sizes(power):
    """``power``: multiples of the track's units (a sequence of numbers, or
    text such as "0.5,1,2,4"), or None."""
    if power is None:
        return None
    from scorer.track.power import read_sizes
    text = power if isinstance(power, str) else ",".join(str(float(v)) for v in power)
    try:
        return read_sizes(text)
    except ValueError as error:
        raise ScorerError(str(error)) from None
