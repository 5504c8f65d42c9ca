"""What the tasks scored from a per-unit counts table share as records
(:class:`~scorer.countstable.task.TableTask`: a gold file and one predictions
file per run, the driver of ``countstable/driver.py``, a ``.debug`` of blocks),
and what SciFact and FEVER share besides
(:class:`~scorer.countstable.task.ClaimTask`: evidence read up to
``max_evidence``, a label set).  ``scorer/tasks/`` holds the records."""
from __future__ import annotations

import os

from scorer.claims.policy import HELP as MAX_EVIDENCE_HELP
from scorer.claims.policy import read_max_evidence
from scorer.policy import check_labels, list_value
from scorer.problems import ScorerError
from scorer.switches import Switch
from scorer.taskrecord import PolicyKey, Task, TrackRun, checked_runs, run_name


class TableTask(Task):
    """A task scored from a gold file and one predictions file per run, through
    a per-unit counts table: subclasses say how a run is read and scored
    (``evaluate``), what its ``.debug`` says (``debug_pieces``, and
    ``debug_layout`` for the diff), how a gold file names its units
    (``gold_keys``); the driver, the bootstrap, the track and the leaderboard
    do the rest."""

    #: what the driver writes (countstable/driver.py), and -plot's picture
    report_extensions = ("summary", "debug", "json", "params", "samplescores", "confidence",
                         "bootsamples", "png")

    def score(self, request, problems, samples=None):
        from scorer.countstable import driver
        return driver.score(request, problems, samples=samples)

    def evaluate(self, policy, files: tuple, problems):
        """Read and score the files of one run: a
        :class:`scorer.countstable.metrics.Evaluation` (its counts table, per-unit
        outcomes, metric values)."""
        raise NotImplementedError

    def debug_pieces(self, evaluation):
        """The ``.debug`` text of an evaluation, piece by piece."""
        raise NotImplementedError

    def run_result(self, name: str, outcome, status: str = "ok", statistics=True,
                   per_query: bool = True):
        from scorer.countstable.metrics import unit_statistic
        from scorer.results import RunResult, claim_table_rows, wants_statistic
        result = RunResult(name, status)
        evaluation = outcome.evaluation
        for metric, value in evaluation.metrics.items():
            result.values[metric] = float(value)
            if wants_statistic(statistics, metric):
                result.statistics[metric] = unit_statistic(evaluation.declared, metric,
                                                           evaluation.counts, evaluation.keys)
            result.per_hop.append((self.units, "", "ALL", metric, float(value)))
        if per_query:
            result.per_query += claim_table_rows(evaluation.keys, evaluation.columns,
                                                 self.sparse_columns(evaluation.columns))
        return result

    def unit_table(self, outcome):
        """(unit keys, {column: one value per unit}): the counts table of a
        run whose outcome has one (``outcome.evaluation``), else None."""
        evaluation = getattr(outcome, "evaluation", None)
        return None if evaluation is None else (evaluation.keys, evaluation.columns)

    def debug_layout(self):
        """How the diff reads the blocks of this task's ``.debug``
        (scorer.diff.debugfile.BlockLayout)."""
        raise NotImplementedError

    def read_debug(self, path: str, lines: list):
        """This task's ``.debug`` (``lines``: its lines) for scorer.diff."""
        from scorer.diff.debugfile import read_blocks
        return read_blocks(path, lines, self.debug_layout())

    # -- a leaderboard and a track: the gold file is the reference --------------------

    def check_references(self, request, files: list) -> None:
        """Read a leaderboard's reference ``files`` as every submission's run
        will; a problem that would fail every submission is a ScorerError
        naming the file: the gold file alone, and -samples drawing its units."""
        if len(files) != 1:
            raise ScorerError(f"a {self.name} leaderboard's reference is the gold file alone "
                              f"(the participant's predictions are the other file); "
                              f"{len(files)} files given: {' '.join(files)}")
        keys, key_source = self.reference_gold_keys(files[0])
        if request.samples:
            # Samples of units the gold does not have would fail every submission.
            from scorer.bootstrap import read_samples
            from scorer.countstable.driver import check_sample_ids
            check_sample_ids(read_samples(request.samples), request.samples, keys, key_source,
                             files[0], self.unit)

    def gold_keys(self, path: str) -> tuple:
        """``(unit keys, key source)`` of a gold file, as a run against it names
        its units in samples files ("id" or "line"); a ScorerError when the
        file cannot be the gold (a track stops before any run is scored)."""
        raise NotImplementedError

    def reference_gold_keys(self, path: str) -> tuple:
        """``gold_keys`` of a leaderboard's gold file, read as strictly as
        every submission's run will read it."""
        return self.gold_keys(path)

    # -- pictures and a track's runs --------------------------------------------------

    def picture_title(self, outcome) -> str:
        """The predictions file's name."""
        return os.path.basename(outcome.evaluation.files[-1])

    #: what a track takes for a run's file in a folder of runs
    run_suffixes: tuple = (".jsonl",)

    def find_runs(self, paths: list) -> tuple:
        """(the files every run shares, the runs: TrackRun) of a track's files:
        the gold file, then one predictions file (or a folder of such files,
        ending as ``run_suffixes`` says) per run, each named by its file name
        without extension."""
        if len(paths) < 2:
            raise ScorerError(f"a {self.title} track needs the gold file, then one "
                              f"predictions file per run")
        gold, rest = paths[0], []
        for path in paths[1:]:
            if os.path.isdir(path):
                rest += sorted(os.path.join(path, name) for name in os.listdir(path)
                               if name.endswith(self.run_suffixes))
            else:
                rest.append(path)
        return [gold], checked_runs([TrackRun(run_name(path), (path,)) for path in rest])

    def read_shared_inputs(self, request, shared: list, draw):
        """Read the files every run shares, so that a fatal problem there stops
        the track before anything is scored; the samples the request asks
        for, read or drawn once for all runs (``draw(groups)`` draws
        -bootstrap's samples of ``(group, members)`` pairs), else None (then
        the track draws them over the runs' units after scoring): the gold
        file, whose units are the samples' groups."""
        keys, key_source = self.gold_keys(shared[0])
        if request.bootstrap is not None and not request.samples:
            # Drawn as each run would draw them alone (every unit of the gold is a group).
            samples = draw([(key, (key,)) for key in keys])
        elif not request.samples:
            return None
        else:
            from scorer.bootstrap import read_samples
            from scorer.countstable.driver import check_sample_ids
            samples = read_samples(request.samples)
            # The gold names the units every run's samples draw (a FEVER run's blind
            # predictions by the gold line they are paired with, whatever their ids).
            check_sample_ids(samples, request.samples, keys, key_source, shared[0], self.unit)
        # Every run counts the gold's units in every sample: counted once, here,
        # before the workers start (a run whose units differ counts its own).
        samples.keep_multiplicities(keys)
        return samples


MAX_EVIDENCE = Switch("max_evidence", sets_policy=True,
                      help="Claim tasks: predicted evidence read per claim (a number, or "
                           "'all'); overrides the policy")


class ClaimTask(TableTask):
    unit, units = "claim", "claims"
    switches = (MAX_EVIDENCE,)
    files_help = "gold then predictions"
    #: max_evidence and labels by default (subclasses set them)
    max_evidence = None
    labels: tuple = ()

    @property
    def policy_keys(self) -> tuple:
        return (PolicyKey("max_evidence", MAX_EVIDENCE_HELP, self.max_evidence,
                          read_max_evidence,
                          write=lambda value: "all" if value is None else value),
                PolicyKey("labels", "claim tasks: the labels the gold and predictions may use "
                                    "(list)", self.labels, list_value))

    def validate_policy(self, policy, where, origin, source: str) -> None:
        check_labels(policy, where, self.labels)

    @property
    def summary(self) -> str:
        return f"{self.title} predictions"

    def explanations(self) -> list:
        from scorer.countstable.metrics import metrics_of
        return [(metric.name, metric.explanation) for metric in metrics_of(self.name)]

    def digest_values(self, policy) -> tuple:
        # The layout of the policy record before each task had its own keys
        # (Cold Start's settings at their record defaults), so that signatures
        # stay comparable with earlier versions'.
        return (self.name, (), (), (), "1:3", "ASSESSED", (), policy.max_evidence,
                policy.labels)

    signature_keys = ("max_evidence",)

    #: keys only a gold line has, and keys only a prediction has (subclasses set
    #: them): a gold file and a predictions file given in each other's place are
    #: told apart by their first lines
    gold_only_keys: tuple = ()
    prediction_only_keys: tuple = ()

    def evaluate(self, policy, files: tuple, problems):
        try:
            return self.read_and_score(policy, tuple(files), problems)
        except ScorerError as error:
            if len(files) == 2 and self.looks_like(files[0]) == "predictions" \
                    and self.looks_like(files[1]) == "gold":
                raise ScorerError(f"{error} (gold and predictions swapped? {files[0]} looks "
                                  f"like predictions and {files[1]} like gold; the gold file "
                                  f"comes first)")
            raise

    def read_and_score(self, policy, files: tuple, problems):
        """Read the files of one run (gold first, then predictions) and score
        them: ``evaluate`` without the hint for swapped files."""
        raise NotImplementedError

    def looks_like(self, path: str) -> str | None:
        """'gold' or 'predictions' from the file's first line (None: cannot tell)."""
        import json
        from scorer.limits import MAX_JSON_DEPTH, json_depth
        try:
            with open(path, encoding="utf-8") as f:
                line = f.readline(1 << 20)
            if json_depth(line) > MAX_JSON_DEPTH:
                return None
            first = json.loads(line)
        except (OSError, ValueError, RecursionError):
            return None
        if not isinstance(first, dict):
            return None
        gold = any(key in first for key in self.gold_only_keys)
        predicted = any(key in first for key in self.prediction_only_keys)
        if not self.prediction_only_keys:
            # Predictions with no key of their own: whatever is not the gold.
            return "gold" if gold else "predictions"
        if gold and not predicted:
            return "gold"
        if predicted and not gold:
            return "predictions"
        return None

    def debug_pieces(self, evaluation):
        from scorer.countstable import reports
        return reports.debug_pieces(evaluation)

    # -- metrics: the reference scorer's, by its own names -----------------------------

    #: the official score (subclasses set it)
    headline = ""

    def metric_names(self, policy) -> list:
        from scorer.countstable.metrics import metrics_of
        return [metric.name for metric in metrics_of(self.name)]

    def catalogue(self, request) -> list:
        from scorer.countstable.metrics import metrics_of
        ordered = sorted(metrics_of(self.name), key=lambda metric: metric.name != self.headline)
        # The reference scorers' own names are the titles (-help explains them).
        return [(metric.name, f"{self.title} {metric.name}") for metric in ordered]

    # -- a leaderboard and a track: the gold file is the reference --------------------

    def read_gold_keys(self, path: str) -> tuple:
        """``(claim keys, key source)`` of a gold file, as a run against it
        names its claims in samples files (each task's own rule)."""
        raise NotImplementedError

    def gold_keys(self, path: str) -> tuple:
        """A gold file that cannot be read, holds no claim, or is a predictions
        file given as the gold stops a track before any run is scored."""
        keys = self.read_gold_keys(path)            # (reads it, as its runs will)
        if self.looks_like(path) == "predictions":
            has = (f"{' or '.join(self.prediction_only_keys)} and "
                   if self.prediction_only_keys else "")
            raise ScorerError(f"{path} looks like predictions, not the gold (its first line "
                              f"has {has}no {' or '.join(self.gold_only_keys)}); a claim "
                              f"track's first file is the gold, then one predictions file "
                              f"per run")
        return keys

    def reference_gold_keys(self, path: str) -> tuple:
        return self.read_gold_keys(path)
