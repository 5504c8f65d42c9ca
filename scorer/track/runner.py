"""Scoring every run of a track: which runs there are, each one scored exactly
as ``python -m scorer`` would score it alone (same switches, same samples),
its reports written under ``runs/<RUN>/``, its numbers returned as data.

Runs are scored in parallel processes (``-jobs``); each run's reports and
numbers depend on that run alone, so the results do not depend on the number
of processes.
"""
from __future__ import annotations

import dataclasses
import gzip
import hashlib
import multiprocessing
import os
import shutil
import signal
from concurrent.futures import ProcessPoolExecutor, TimeoutError as WaitedTooLong
from concurrent.futures.process import BrokenProcessPool
from typing import Optional

import numpy as np

from scorer import output, reportset, runpicture, scoring, tasks
from scorer.problems import Problems, ScorerError
from scorer.progress import Progress
from scorer.results import RunResult, capped_per_query, per_query_lines
from scorer.taskrecord import TrackRun
from scorer.track.statistics import stack


# -- scoring one run ------------------------------------------------------------------

#: A run's status (the leaderboard's last column): "ok", "errors" (see its run.errlog),
#: or EMPTY: its files hold no response, so it has no score.
EMPTY = "empty"


@dataclasses.dataclass
class TrackJob:
    """What every run's scoring shares (sent to the worker processes once)."""

    request: object           # scorer.request.Request: the switches every run is scored with
    shared_files: tuple
    staging: str              # the track folder being written
    output_dir: str           # the track folder's final name (as given)
    samples: object = None    # SampleSet read or drawn once, passed to every run
    #: reports the same for every run (made from the shared samples alone): written
    #: once in the track folder, each run's file a hard link to it
    linked: tuple = ()
    #: the headline metric: the only one whose per-unit statistics travel back
    #: (the track draws and tests it alone); None: every metric's
    metric: Optional[str] = None
    #: where each run writes its lines of per_query.csv.gz (a folder being
    #: written), sending back only the rows the page shows; None: every row
    #: travels back (a track computed without a folder)
    per_query_dir: Optional[str] = None
    #: levels (Cold Start's hops, -slices hop) whose per-unit statistics of the
    #: headline travel back too, as ``METRIC@LEVEL``
    levels: tuple = ()


#: The most units of a run whose per-unit rows the track's page holds (the
#: rest are in per_query.csv.gz): a thousand claims of each of a hundred runs,
#: not a hundred thousand.
SHOWN_UNITS = 1000


#: The reports a track writes once and links into each run's folder: the samples
#: drawn (``run.bootsamples``, the same file as ``track.bootsamples``) and Cold
#: Start's ``run.sample`` (the samples as the Perl lists them).
LINKED_REPORTS = ("bootsamples", "sample")
#: Where linked reports are written first, in the track folder being built
#: (removed before the folder is moved into place; the runs' links remain).
_LINKED_STORE = ".linked"


def linked_store(staging: str, extension: str) -> str:
    return os.path.join(staging, _LINKED_STORE, f"run.{extension}")


def drop_linked_store(staging: str) -> None:
    shutil.rmtree(os.path.join(staging, _LINKED_STORE), ignore_errors=True)


def link_or_write(path: str, pieces, store: str) -> None:
    """``path`` as a hard link to ``store``, which is written from ``pieces()``
    first unless an earlier run wrote it (the first writer wins: every run's
    text is the same).  Where hard links fail, a copy is written."""
    if not os.path.exists(store):
        os.makedirs(os.path.dirname(store), exist_ok=True)
        temporary = f"{store}.{os.getpid()}.tmp"
        with open(temporary, "w", encoding="utf-8", newline="") as f:
            f.writelines(pieces())
        try:
            os.link(temporary, store)
        except FileExistsError:
            pass
        except OSError:
            os.replace(temporary, path)
            return
        finally:
            if os.path.exists(temporary):
                os.remove(temporary)
    try:
        os.link(store, path)
    except OSError:
        shutil.copyfile(store, path)


def per_query_part(folder: str, run: str) -> str:
    """The file of a run's per-query lines, named by a digest of the run's
    name: the name itself, with '.csv.gz' after it, is too long for the file
    system when the run's file name is (a run named by 250 bytes)."""
    digest = hashlib.sha256(run.encode("utf-8", "surrogatepass")).hexdigest()[:32]
    return os.path.join(folder, digest + ".csv.gz")


def write_per_query(folder: str, run: str, rows: list) -> None:
    """A run's lines of per_query.csv as one gzip member of their own
    (``per_query_part``), which the track joins in run order: members one
    after another are one gzip file.  No name or time in the header, so the
    bytes depend on the lines alone (whatever -jobs)."""
    path = per_query_part(folder, run)
    try:
        os.makedirs(folder, exist_ok=True)
        with open(path, "wb") as raw, \
                gzip.GzipFile(filename="", mode="wb", compresslevel=PER_QUERY_LEVEL,
                              fileobj=raw, mtime=0) as f:
            lines = per_query_lines(run, rows)
            for start in range(0, len(lines), 65536):
                f.write("".join(lines[start:start + 65536]).encode("utf-8"))
    except OSError as error:
        # (a full disk: a message, as for the runs' reports, not a traceback)
        raise ScorerError(f"Could not write {path}: {error.strerror or error}")


#: gzip's level for per_query.csv.gz: the fastest (a hundred runs of a hundred
#: thousand claims are 3 GB of text; level 6 takes four times as long for a
#: file a third smaller).
PER_QUERY_LEVEL = 1


_JOB: Optional[TrackJob] = None


def score_run(run: TrackRun) -> RunResult:
    """Score one run as ``python -m scorer`` would alone; write its reports."""
    job = _JOB
    folder = os.path.join(job.staging, "runs", run.name)
    os.makedirs(folder, exist_ok=True)
    prefix = os.path.join(folder, "run")
    # The reports name their final place (the staging folder is renamed at the end).
    final = os.path.join(job.output_dir, "runs", run.name, "run")
    request = job.request._replace(files=tuple(job.shared_files) + tuple(run.files),
                                   output_file=final, error_file=final + ".errlog")
    for name, value in run.options:
        request = request.with_option(name, value)
    problems = Problems()
    try:
        with output.FileSet() as written:
            outcome = scoring.score(request, problems, samples=job.samples)
            linked = [e for e in job.linked if e in outcome.reports.extensions]
            picture = runpicture.draw(request.policy.task, outcome) if request.plot else None
            paths = reportset.add(written, prefix, outcome.reports, picture, elsewhere=linked)
            output.write_error_log(prefix + ".errlog", problems.report(), written)
            written.commit()
        for extension in linked:
            link_or_write(f"{prefix}.{extension}",
                          lambda: outcome.reports.pieces(extension),
                          linked_store(job.staging, extension))
    except ScorerError as error:
        output.write_error_log(prefix + ".errlog", problems.report_fatal(str(error)))
        return RunResult(run.name, "errors", fatal=str(error),
                         report_files=[os.path.join("runs", run.name, "run.errlog")])
    result = tasks.get(request.policy.task).scoring.run_result(
        run.name, outcome, "errors" if problems.error_count else "ok",
        statistics=True if job.metric is None else
        (job.metric, *(level_statistic(job.metric, level) for level in job.levels)))
    if job.per_query_dir is not None:
        write_per_query(job.per_query_dir, run.name, result.per_query)
        result.per_query, result.units = capped_per_query(result.per_query, job.metric,
                                                          SHOWN_UNITS)
    if result.status == "ok" and not result.values:
        # Files that hold no response (an empty run file): alone, the scorer warns and
        # writes empty reports; in a track it is a run that was meant to be scored.
        result.status = EMPTY
    result.report_files = [os.path.relpath(path, job.staging) for path in paths] + \
        [os.path.join("runs", run.name, "run.errlog")]
    return result


# -- all runs ----------------------------------------------------------------------------

def score_runs(job: TrackJob, runs: list, jobs: int) -> list:
    """Every run's result, in run order; ``jobs`` processes (1: in this process)."""
    global _JOB
    _JOB = job
    scored = []
    progress = Progress("track: runs scored", len(runs), enabled=len(runs) > 1,
                        time_left=True)
    try:
        if jobs <= 1 or len(runs) <= 1:
            for run in runs:
                scored.append(score_run(run))
                progress.advance()
        else:
            for result in _score_in_processes(runs, min(jobs, len(runs))):
                share_units(scored[-1:] + [result])
                scored.append(result)
                progress.advance()
    finally:
        progress.done()
        _JOB = None
    return scored


#: How often the main process, waiting for a run, looks at its workers and
#: lets its signal handlers run.
_POLL_SECONDS = 0.25


def _score_in_processes(runs: list, workers: int):
    """Results in run order from ``workers`` forked processes.  The workers
    leave signals to this process (which stops them and cleans up); a worker
    that dies (killed, out of memory) ends the track with an error, not a hang."""

    executor = ProcessPoolExecutor(max_workers=workers,
                                   mp_context=multiprocessing.get_context("fork"),
                                   initializer=_quiet_worker)
    try:
        futures = [executor.submit(score_run, run) for run in runs]
        for future in futures:
            yield _result(future, executor)
    except BaseException as error:
        # Stopped, a dead worker, or an error: the workers are killed and not
        # waited for, nor is the pool's own thread: a worker killed while it
        # sent a result leaves that thread reading the rest of the message for
        # ever (the command line then exits without joining it).
        for process in _workers(executor):
            if process.exitcode is None:
                process.kill()
        executor.shutdown(wait=False, cancel_futures=True)
        if isinstance(error, BrokenProcessPool):
            raise ScorerError("a process scoring the runs died (killed by a signal, or out "
                              "of memory); the track folder was not written")
        raise
    executor.shutdown(wait=True)


def _workers(executor) -> list:
    return list((getattr(executor, "_processes", None) or {}).values())


def _result(future, executor):
    """The future's result; BrokenProcessPool as soon as a worker has died,
    even when the pool itself cannot tell (its thread stuck on the pipe of a
    worker killed while it wrote)."""
    while True:
        try:
            return future.result(timeout=_POLL_SECONDS)
        except WaitedTooLong:
            if any(process.exitcode is not None for process in _workers(executor)):
                raise BrokenProcessPool("a worker process died")


def _quiet_worker() -> None:
    """A worker ends at once on SIGTERM and SIGHUP, and ignores SIGINT (Ctrl-C
    reaches the whole terminal group; the main process handles it)."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, signal.SIG_DFL)


def unit_ids(run_results: list, metric: str) -> list:
    """Every unit any run has for ``metric``, sorted (the rows of the stacked matrices)."""
    found = set()
    for result in run_results:
        statistic = result.statistics.get(metric)
        if statistic is not None:
            found.update(statistic.units)
    return sorted(found)


def level_statistic(metric: str, level: str) -> str:
    """The name a metric's per-unit statistics at a level travel under."""
    return f"{metric}@{level}"


def stacked_statistics(run_results: list, metric: str, units: list):
    """(rule, if_empty, ``units x (runs * k)``) for the runs that have the metric
    (each run's matrix aligned with ``units``, zeros for units it lacks, as
    ``UnitStatistic.aligned`` makes it; runs that share their list of units
    (``share_units``) share the rows' order, found once)."""
    present = [r.statistics[metric] for r in run_results if metric in r.statistics]
    if not present:
        return None
    orders: dict = {}
    aligned = []
    for statistic in present:
        rows = orders.get(id(statistic.units))
        if rows is None:
            position = {unit: i for i, unit in enumerate(statistic.units)}
            rows = orders[id(statistic.units)] = np.fromiter(
                (position.get(unit, -1) for unit in units), dtype=np.int64, count=len(units))
        matrix = statistic.matrix[np.maximum(rows, 0)] if len(statistic.matrix) else \
            np.zeros((len(units), statistic.matrix.shape[1]))
        matrix[rows < 0] = 0.0
        aligned.append(matrix)
    return present[0].rule, present[0].if_empty, stack(aligned)


def share_units(results: list) -> None:
    """Runs whose per-unit statistics name the same units (a claim track's
    runs: the gold's claims) share one list of them: a hundred runs of a
    hundred thousand claims would hold ten million ids in the track's process."""
    known: list = []
    for result in results:
        for statistic in result.statistics.values():
            for units in known:
                if statistic.units is units or statistic.units == units:
                    statistic.units = units
                    break
            else:
                known.append(statistic.units)

