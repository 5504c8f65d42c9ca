"""Scoring every run of a track: which runs there are, each one scored exactly
as ``python -m scorer`` would score it alone (same switches, same samples),
its reports written under ``runs/<RUN>/``, its numbers returned as data.

Runs are scored in parallel processes (``-jobs``); each run's reports and
numbers depend on that run alone, so the results do not depend on the number
of processes.
"""
from __future__ import annotations

import dataclasses
import os
from typing import Optional

from scorer import output, results
from scorer.progress import Progress
from scorer.results import RunResult
from scorer.problems import Problems, ScorerError
from scorer.textfile import read_text


@dataclasses.dataclass(frozen=True)
class TrackRun:
    """One run of the track: its name and the files ``python -m scorer`` scores it from."""

    name: str
    files: tuple
    #: ``-runids`` for the single-run command (a file holding several run ids)
    runid: Optional[str] = None


# -- finding the runs ---------------------------------------------------------------

def coldstart_runs(paths: list) -> tuple:
    """(shared files: query XML and assessments, runs) of Cold Start track files.

    Every run id found in a submission file is a run; a run id in two files
    is refused (a resubmitted copy left beside the first would be merged into
    it, every response counted twice).  A file whose kind cannot be told is a
    run of its own (named after the file), which then fails with that file's
    error in its own ``run.errlog``."""
    from scorer.coldstart.runs import (ASSESSMENT, CLAIMS_HINT, expand_run_paths,
                                       first_line_looks_like_json, identify_file_type,
                                       runid_in_two_files)
    shared, file_of_run, unreadable = [], {}, []
    runids_of_file: dict = {}
    for path in expand_run_paths(paths):
        if path.endswith(".xml"):
            shared.append(path)
            continue
        try:
            lines = read_text(path).split("\n")
            kind = identify_file_type(path, lines)
        except ScorerError:
            unreadable.append(path)
            continue
        if kind == ASSESSMENT:
            shared.append(path)
            continue
        runids_of_file[path] = _runids_of(lines)
        for runid in runids_of_file[path]:
            earlier = file_of_run.setdefault(runid, path)
            if earlier != path:
                raise runid_in_two_files(runid, earlier, path)
    if not any(not path.endswith(".xml") for path in shared):
        hint = f" ({CLAIMS_HINT})" if any(map(first_line_looks_like_json, unreadable)) else ""
        raise ScorerError("no assessment file among the files: a Cold Start track needs the "
                          "query XML, the assessment file(s), then the run files" + hint)
    runs = []
    for runid, path in sorted(file_of_run.items()):
        several = len(runids_of_file[path]) > 1
        runs.append(TrackRun(runid, (path,), runid if several else None))
    taken = {run.name for run in runs}
    for path in unreadable:
        name = _stem(path)
        runs.append(TrackRun(name if name not in taken else path, (path,)))
    return shared, _checked_names(runs)


def _runids_of(lines: list) -> list:
    found = {}
    for line in lines:
        if line.lstrip().startswith("#"):
            continue
        columns = line.split("\t")
        if len(columns) >= 3 and columns[2].strip():
            found[columns[2]] = True
    return list(found)


def claim_runs(paths: list) -> tuple:
    """(the gold file, runs): one prediction file per run, named by its file name
    without extension; a directory stands for its ``*.jsonl`` files."""
    if len(paths) < 2:
        raise ScorerError("a claim track needs the gold file, then one predictions file per run")
    gold, rest = paths[0], []
    for path in paths[1:]:
        if os.path.isdir(path):
            rest += sorted(os.path.join(path, name) for name in os.listdir(path)
                           if name.endswith(".jsonl"))
        else:
            rest.append(path)
    return [gold], _checked_names([TrackRun(_stem(path), (path,)) for path in rest])


def _stem(path: str) -> str:
    """A file's name without its extension (``.tab.txt`` as one, for run files)."""
    name = os.path.basename(path.rstrip("/"))
    return name[:-len(".tab.txt")] if name.endswith(".tab.txt") else os.path.splitext(name)[0]


def _checked_names(runs: list) -> list:
    seen: dict = {}
    for run in runs:
        if run.name in seen:
            raise ScorerError(f"two runs are named {run.name}: {' '.join(seen[run.name].files)} "
                              f"and {' '.join(run.files)} (run names must be unique)")
        if not run.name or run.name in (".", "..") or "/" in run.name or "\0" in run.name:
            raise ScorerError(f"{' '.join(run.files)}: '{run.name}' cannot name a run folder")
        seen[run.name] = run
    return sorted(runs, key=lambda run: run.name)


# -- scoring one run ------------------------------------------------------------------

#: A run's status (the leaderboard's last column): "ok", "errors" (see its run.errlog),
#: or EMPTY: its files hold no response, so it has no score.
EMPTY = "empty"

@dataclasses.dataclass
class TrackJob:
    """What every run's scoring shares (sent to the worker processes once)."""

    given: dict               # the scorer switches (as parsed), without the track's own
    argv: tuple               # those switches as typed
    shared_files: tuple
    staging: str              # the track folder being written
    output_dir: str           # the track folder's final name (as given)
    samples: object = None    # SampleSet read or drawn once, passed to every run
    cwd: str = ""
    #: reports the same for every run (made from the shared samples alone): written
    #: once in the track folder, each run's file a hard link to it
    linked: tuple = ()


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
    import shutil
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
        import shutil
        shutil.copyfile(store, path)


def _without(reports, extensions):
    """The reports but ``extensions`` (in the same order)."""
    from scorer.reports import Reports
    kept = Reports([e for e in reports.extensions if e not in extensions])
    kept.chunks = [chunk for chunk in reports.chunks if chunk[0] not in extensions]
    return kept


_JOB: Optional[TrackJob] = None


def score_run(run: TrackRun) -> RunResult:
    """Score one run as ``python -m scorer`` would alone; write its reports."""
    from scorer import cli
    job = _JOB
    folder = os.path.join(job.staging, "runs", run.name)
    os.makedirs(folder, exist_ok=True)
    prefix = os.path.join(folder, "run")
    given = dict(job.given)
    argv = list(job.argv)
    if run.runid is not None:
        given["runids"] = run.runid
        argv += ["-runids", run.runid]
    # The reports name their final place (the staging folder is renamed at the end).
    final = os.path.join(job.output_dir, "runs", run.name, "run")
    given["output_file"] = final
    given["error_file"] = final + ".errlog"
    files = list(job.shared_files) + list(run.files)
    argv += ["-output_file", final, "-error_file", final + ".errlog"] + files
    problems = Problems()
    try:
        with output.FileSet() as written:
            request = cli.build_request(given, files, argv, job.cwd)
            outcome = cli.score_task(request, problems, samples=job.samples)
            linked = [e for e in job.linked if e in outcome.reports.extensions]
            output.write_reports(prefix, _without(outcome.reports, linked), written)
            paths = [f"{prefix}.{extension}" for extension in outcome.reports.extensions]
            if given.get("plot"):
                from scorer.results import run_picture
                written.add(prefix + ".png", run_picture(request.policy.task, outcome))
                paths.append(prefix + ".png")
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
    result = results.run_result(run.name, request.policy.task, outcome,
                                "errors" if problems.error_count else "ok")
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
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

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
    from concurrent.futures import TimeoutError as WaitedTooLong
    from concurrent.futures.process import BrokenProcessPool
    while True:
        try:
            return future.result(timeout=_POLL_SECONDS)
        except WaitedTooLong:
            if any(process.exitcode is not None for process in _workers(executor)):
                raise BrokenProcessPool("a worker process died")


def _quiet_worker() -> None:
    """A worker ends at once on SIGTERM and SIGHUP, and ignores SIGINT (Ctrl-C
    reaches the whole terminal group; the main process handles it)."""
    import signal
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


def stacked_statistics(run_results: list, metric: str, units: list):
    """(rule, if_empty, ``units x (runs * k)``) for the runs that have the metric."""
    from scorer.track.statistics import stack
    present = [r.statistics[metric] for r in run_results if metric in r.statistics]
    if not present:
        return None
    return present[0].rule, present[0].if_empty, stack([s.aligned(units) for s in present])

