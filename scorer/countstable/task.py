"""What the tasks scored from a per-unit counts table share as records
(:class:`~scorer.countstable.task.TableTask`: a gold file and one predictions
file per run, the driver of ``countstable/driver.py``, a ``.debug`` of
blocks), and the capabilities such a record carries:
:class:`~scorer.countstable.task.TableScoring`, :class:`~scorer.countstable.task.TableTrack`, :class:`~scorer.countstable.task.TableDiff`,
:class:`~scorer.countstable.task.TableLeaderboard`,
:class:`~scorer.countstable.task.TablePicture`.  ``scorer/tasks/`` holds the records."""
from __future__ import annotations

import os

from scorer.capabilities import Diff, Leaderboard, Picture, Scoring, Track
from scorer.countstable import driver
from scorer.countstable.metrics import unit_statistic
from scorer.problems import ScorerError
from scorer.results import RunResult, claim_table_rows, wants_statistic
from scorer.taskrecord import Task, TrackRun, checked_runs, run_name


class TableScoring(Scoring):
    """Scoring through the counts-table driver (countstable/driver.py): the
    record's ``evaluate`` reads and scores, its ``headline`` is ranked first."""

    __slots__ = ()

    def score(self, request, problems, samples=None):
        return driver.score(request, problems, samples=samples)

    def catalogue(self, request) -> list:
        task = self.task
        declared = task.declared_metrics(None if request is None else request.policy)
        ordered = sorted(declared, key=lambda metric: metric.name != task.headline)
        # The metrics' own names are the titles (-help explains them).
        return [(metric.name, f"{task.title} {metric.name}") for metric in ordered]

    def run_result(self, name: str, outcome, status: str = "ok", statistics=True,
                   per_query: bool = True):
        result = RunResult(name, status)
        evaluation = outcome.evaluation
        for metric, value in evaluation.metrics.items():
            result.values[metric] = float(value)
            if wants_statistic(statistics, metric):
                result.statistics[metric] = unit_statistic(evaluation.declared, metric,
                                                           evaluation.counts, evaluation.keys)
            result.per_hop.append((self.task.units, "", "ALL", metric, float(value)))
        if per_query:
            result.per_query += claim_table_rows(evaluation.keys, evaluation.columns,
                                                 self.sparse_columns(evaluation.columns))
        return result

    def unit_table(self, outcome):
        """(unit keys, {column: one value per unit}): the counts table of a
        run whose outcome has one (``outcome.evaluation``), else None."""
        evaluation = getattr(outcome, "evaluation", None)
        return None if evaluation is None else (evaluation.keys, evaluation.columns)


class TableTrack(Track):
    """A track of a gold file and one predictions file per run."""

    __slots__ = ()

    @property
    def files_help(self) -> str:
        suffixes = " and ".join(f"*{suffix}" for suffix in self.task.run_suffixes)
        return (f"the gold file, then one predictions file per run (named by the file "
                f"name without extension; a folder stands for its {suffixes} files)")

    def find_runs(self, paths: list) -> tuple:
        """(the files every run shares, the runs: TrackRun) of a track's files:
        the gold file, then one predictions file (or a folder of such files,
        ending as the record's ``run_suffixes`` say) per run, each named by its
        file name without extension."""
        task = self.task
        if len(paths) < 2:
            raise ScorerError(f"a {task.title} track needs the gold file, then one "
                              f"predictions file per run")
        gold, rest = paths[0], []
        for path in paths[1:]:
            if os.path.isdir(path):
                rest += sorted(os.path.join(path, name) for name in os.listdir(path)
                               if name.endswith(task.run_suffixes))
            else:
                rest.append(path)
        return [gold], checked_runs([TrackRun(run_name(path), (path,)) for path in rest])

    def read_shared_inputs(self, request, shared: list, plan):
        """The gold file (the first shared file) read; its units are the
        samples' groups, each a group of its own, and a samples file's
        units are checked against them."""
        task = self.task
        keys, key_source = task.gold_keys(shared[0])

        def check(samples) -> None:
            # The gold names the units every run's samples draw (a FEVER run's blind
            # predictions by the gold line they are paired with, whatever their ids).
            from scorer.countstable.driver import check_sample_ids    # (see score)
            check_sample_ids(samples, request.samples, keys, key_source, shared[0], task.unit)

        samples = plan.samples_of(lambda: [(key, (key,)) for key in keys], check)
        if samples is not None:
            # Every run counts the gold's units in every sample: counted once, here,
            # before the workers start (a run whose units differ counts its own).
            samples.keep_multiplicities(keys)
        return samples


class TableDiff(Diff):
    """A ``.debug`` of blocks, read as the record's ``debug_layout`` says."""

    __slots__ = ()

    def read(self, path: str, lines: list):
        # (for scorer.diff: dataclasses and inspect, which a run does without)
        from scorer.countstable.debugblocks import read_blocks
        return read_blocks(path, lines, self.task.debug_layout())


class TableLeaderboard(Leaderboard):
    """A leaderboard whose reference is the gold file alone."""

    __slots__ = ()

    def check_references(self, request, files: list) -> None:
        """The gold file alone, read as strictly as every submission's run
        will read it, and -samples drawing its units."""
        task = self.task
        if len(files) != 1:
            raise ScorerError(f"a {task.name} leaderboard's reference is the gold file alone "
                              f"(the participant's predictions are the other file); "
                              f"{len(files)} files given: {' '.join(files)}")
        keys, key_source = task.reference_gold_keys(files[0])
        if request.samples:
            # Samples of units the gold does not have would fail every submission
            # (numpy's samples, and the driver: see score).
            from scorer.bootstrap import read_samples
            from scorer.countstable.driver import check_sample_ids
            check_sample_ids(read_samples(request.samples), request.samples, keys, key_source,
                             files[0], task.unit)


class TablePicture(Picture):
    """A run's picture, titled by its predictions file."""

    __slots__ = ()

    def title(self, outcome) -> str:
        return os.path.basename(outcome.evaluation.files[-1])


class TableTask(Task):
    """A task scored from a gold file and one predictions file per run, through
    a per-unit counts table.  A subclass declares its ``name``, ``title``,
    ``metrics`` (or ``declared_metrics``) and ``headline``, and gives four
    hooks: how a run is read and scored (``evaluate``), what its ``.debug``
    says (``debug_pieces``) and how the diff reads it back
    (``debug_layout``), how a gold file names its units (``gold_keys``); the
    capabilities below (the driver, the bootstrap, the track, the
    leaderboard, the diff, the picture) do the rest."""

    #: what the driver writes (countstable/driver.py), and -plot's picture
    report_extensions = ("summary", "debug", "json", "params", "samplescores", "confidence",
                         "bootsamples", "png")

    scoring = TableScoring
    track = TableTrack
    diff = TableDiff
    leaderboard = TableLeaderboard
    picture = TablePicture

    #: the official score (subclasses set it)
    headline = ""
    #: what a track takes for a run's file in a folder of runs
    run_suffixes: tuple = (".jsonl",)

    def evaluate(self, policy, files: tuple, problems):
        """Read and score the files of one run: a
        :class:`scorer.countstable.evaluation.Evaluation` (its counts table, per-unit
        outcomes, metric values)."""
        raise NotImplementedError

    def debug_pieces(self, evaluation):
        """The ``.debug`` text of an evaluation, piece by piece."""
        raise NotImplementedError

    def debug_layout(self):
        """How the diff reads the blocks of this task's ``.debug``
        (scorer.countstable.debugblocks.BlockLayout)."""
        raise NotImplementedError

    def gold_keys(self, path: str) -> tuple:
        """``(unit keys, key source)`` of a gold file, as a run against it names
        its units in samples files ("id" or "line"); a ScorerError when the
        file cannot be the gold (a track stops before any run is scored)."""
        raise NotImplementedError

    def reference_gold_keys(self, path: str) -> tuple:
        """``gold_keys`` of a leaderboard's gold file, read as strictly as
        every submission's run will read it."""
        return self.gold_keys(path)
