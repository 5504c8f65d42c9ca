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
``seed``, ``max_evidence``, ...); lists (``right=["CORRECT", "INEXACT"]``) are
joined with ``:``; ``policy`` is a policy file.  Mistakes raise
:class:`scorer.problems.ScorerError` with the command line's message.
"""
from __future__ import annotations

import functools
import os

from scorer.problems import ScorerError


class ScoreResult:
    """One scored run (Cold Start: one run id).  The tables are made when first
    asked for, so that a caller that needs only ``values`` or the reports'
    texts does not pay for (or import) pandas."""

    def __init__(self, task: str, data, reports: dict, errlog: str, error_count: int,
                 run_ids: tuple = (), claim_table=None):
        self.task = task
        self._data = data
        # Claim tasks: (keys, columns) of the counts table; data.per_query is made
        # from it when first asked for (a leaderboard's page reads the columns).
        self._claim_table = claim_table
        #: report extension -> text, as ``python -m scorer -output_file PREFIX`` writes them
        self.reports = reports
        #: the error log's text, and how many errors it counts
        self.errlog = errlog
        self.error_count = error_count
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
            self._data.per_query = results.claim_table_rows(*self._claim_table)
        return self._data.per_query

    @property
    def claim_table(self):
        """Claim tasks: (claim keys, {column: one value per claim}), what
        ``per_query_rows`` are made of; Cold Start: None."""
        return self._claim_table

    @functools.cached_property
    def summary(self):
        """Every metric, long format: variant, aggregate, hop, metric, value."""
        from scorer.track import tables
        return tables.per_hop([self._data]).drop(columns="run")

    @functools.cached_property
    def per_query(self):
        """Per query (claim) and hop: query, hop, metric, value."""
        from scorer.track import tables
        self.per_query_rows   # made now if they were left for later
        return tables.per_query([self._data]).drop(columns="run")

    @functools.cached_property
    def confidence(self):
        """Percentile intervals (None without samples): code, low99, low95, low90,
        mean, score, high90, high95, high99."""
        from scorer import results
        text = self.reports.get("confidence")
        return results.confidence_frame(text) if text is not None else None

    @functools.cached_property
    def samplescores(self):
        """Every code of every sample (None without samples)."""
        text = self.reports.get("samplescores")
        return _samplescores_frame(text) if text is not None else None


def _argv(files, policy: str | None, switches: dict) -> list:
    argv = []
    if policy is not None:
        argv += ["-policy", str(policy)]
    for name, value in switches.items():
        if value is None or value is False:
            continue
        if value is True:
            argv.append(f"-{name}")
            continue
        if isinstance(value, (list, tuple)):
            value = ":".join(str(v) for v in value)
        argv += [f"-{name}", str(value)]
    if isinstance(files, (str, os.PathLike)):
        files = [files]
    return argv + [str(f) for f in files]


def _parse(argv: list) -> tuple:
    from scorer import cli
    try:
        return cli.parse_arguments(argv)
    except cli.UsageError as error:
        raise ScorerError(str(error))


def score(files, policy: str | None = None, **switches) -> ScoreResult:
    """Score one run, as ``python -m scorer`` does, and return its numbers as
    DataFrames (nothing is written; ``runids`` picks the run of a Cold Start
    file holding several)."""
    from scorer import cli, quickexit, results
    from scorer.problems import Problems
    for name in ("output_file", "error_file"):
        if name in switches:
            raise ScorerError(f"score() writes no file; '{name}' has no use here "
                              f"(write result.reports yourself)")
    argv = _argv(files, policy, switches)
    given, paths = _parse(argv)
    request = cli.build_request(given, paths, argv, os.getcwd())
    request = request._replace(output_file="run", program="scorer.score")
    problems = Problems()
    outcome = cli.score_task(request, problems)
    quickexit.keep(outcome)   # a no-op unless the process ends by quickexit.exit_now
    texts = dict(outcome.reports.files())
    claims = request.policy.task != "coldstart"
    data = results.run_result("run", request.policy.task, outcome, statistics=False,
                              claim_rows=not claims)
    run_ids = tuple(run.runid for run in getattr(outcome, "runs", None) or ())
    claim_table = (outcome.evaluation.keys, outcome.evaluation.columns) if claims else None
    return ScoreResult(request.policy.task, data, texts, problems.report(),
                       problems.error_count, run_ids, claim_table)


def score_track(files, policy: str | None = None, output_dir: str | None = None,
                jobs: int = 1, metric: str | None = None, compare: str = "all",
                trials: int = 10_000, **switches):
    """Score a track, as ``python -m scorer.track`` does; writes the track
    folder when ``output_dir`` is given.  Returns a
    :class:`scorer.track.build.TrackResult` (``leaderboard``, ``significance``,
    ``per_query`` DataFrames, ``exit_status``)."""
    from scorer.track.build import TrackOptions, build
    argv = _argv(files, policy, switches)
    given, paths = _parse(argv)
    options = TrackOptions(output_dir=output_dir, jobs=jobs, metric=metric, compare=compare,
                           trials=trials)
    return build(given, paths, argv, options)


# -- readers of the report texts (the reports are the numbers of record) ----------

def _samplescores_frame(text: str):
    import pandas as pd
    lines = text.splitlines()
    header = [h for h in lines[0].split() if h != "#RUNID"]
    rows = []
    for line in lines[1:]:
        cells = [c for c in line.split() if not c.startswith("#")]
        rows.append([int(cells[0])] + [float(c) for c in cells[1:]])
    frame = pd.DataFrame(rows, columns=["sample"] + header[1:])
    return frame
