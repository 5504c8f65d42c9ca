"""What SciFact and FEVER share as tasks (scorer/tasks/scifact.py and
fever.py are their records): a gold file and one predictions file per run,
evidence read up to ``max_evidence``, a label set, the claims driver."""
from __future__ import annotations

from scorer.claims.policy import HELP as MAX_EVIDENCE_HELP
from scorer.claims.policy import read_max_evidence
from scorer.policy import check_labels, list_value
from scorer.switches import Switch
from scorer.task import PolicyKey, Task

MAX_EVIDENCE = Switch("max_evidence", sets_policy=True,
                      help="Claim tasks: predicted evidence read per claim (a number, or "
                           "'all'); overrides the policy")


class ClaimTask(Task):
    unit, units = "claim", "claims"
    switches = (MAX_EVIDENCE,)
    report_extensions = ("summary", "debug", "json", "params", "samplescores", "confidence",
                         "bootsamples", "png")
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

    def validate_policy(self, policy, where, origin) -> None:
        check_labels(policy, where, self.labels)

    @property
    def summary(self) -> str:
        return f"{self.title} predictions"

    def help_lines(self) -> list:
        import textwrap
        from scorer.claims.metrics import metrics_of
        lines = [f"{self.name} metrics (run.json and .summary):"]
        for metric in metrics_of(self.name):
            lines += textwrap.wrap(metric.explanation, width=80,
                                   initial_indent=f"  {metric.name + ':':33}",
                                   subsequent_indent=" " * 35)
        return lines

    def digest_values(self, policy) -> tuple:
        # The layout of the policy record before each task had its own keys
        # (Cold Start's settings at their record defaults), so that signatures
        # stay comparable with earlier versions'.
        return (self.name, (), (), (), "1:3", "ASSESSED", (), policy.max_evidence,
                policy.labels)

    def score(self, request, problems, samples=None):
        from scorer.claims import driver
        return driver.score(request, problems, samples=samples)

    # -- metrics: the reference scorer's, by its own names -----------------------------

    #: the official score (subclasses set it)
    headline = ""

    def metric_names(self, policy) -> list:
        from scorer.claims.metrics import metrics_of
        return [metric.name for metric in metrics_of(self.name)]

    def catalogue(self, request) -> list:
        from scorer.claims.metrics import metrics_of
        ordered = sorted(metrics_of(self.name), key=lambda metric: metric.name != self.headline)
        # The reference scorers' own names are the titles (-help explains them).
        return [(metric.name, f"{self.title} {metric.name}") for metric in ordered]

    def run_result(self, name: str, outcome, status: str = "ok", statistics: bool = True,
                   per_query: bool = True):
        from scorer.claims.metrics import unit_statistic
        from scorer.results import RunResult, claim_table_rows
        result = RunResult(name, status)
        evaluation = outcome.evaluation
        for metric, value in evaluation.metrics.items():
            result.values[metric] = float(value)
            if statistics:
                result.statistics[metric] = unit_statistic(evaluation.task, metric,
                                                           evaluation.counts, evaluation.keys)
            result.per_hop.append((self.units, "", "ALL", metric, float(value)))
        if per_query:
            result.per_query += claim_table_rows(evaluation.keys, evaluation.columns)
        return result

    # -- a leaderboard: the gold file is the reference ---------------------------------

    def check_references(self, request, files: list) -> None:
        super().check_references(request, files)
        from scorer.claims import driver
        keys, key_source = driver.reference_gold_keys(self.name, files[0])
        if request.samples:
            # Samples of claims the gold does not have would fail every submission.
            from scorer.bootstrap import read_samples
            driver.check_sample_ids(read_samples(request.samples), request.samples, keys,
                                    key_source, files[0])

    # -- a track: the gold file, then one predictions file per run ---------------------

    def read_shared_inputs(self, request, shared: list, draw):
        from scorer.claims import driver
        keys, key_source = driver.check_gold(self.name, shared[0])
        if request.bootstrap is not None and not request.samples:
            # Drawn as each run would draw them alone (every claim of the gold is a group).
            return draw([(key, (key,)) for key in keys])
        if not request.samples:
            return None
        from scorer.bootstrap import read_samples
        samples = read_samples(request.samples)
        # The gold names the claims every run's samples draw (a FEVER run's blind
        # predictions by the gold line they are paired with, whatever their ids).
        driver.check_sample_ids(samples, request.samples, keys, key_source, shared[0])
        return samples
