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

    signature_keys = ("max_evidence",)

    def evaluate(self, policy, files: tuple, problems):
        from scorer.claims import driver
        return driver.evaluate(policy, files, problems)

    def debug_pieces(self, evaluation):
        from scorer.claims import reports
        return reports.debug_pieces(evaluation)

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

    # -- a leaderboard and a track: the gold file is the reference --------------------

    def gold_keys(self, path: str) -> tuple:
        from scorer.claims import driver
        return driver.check_gold(self.name, path)

    def reference_gold_keys(self, path: str) -> tuple:
        from scorer.claims import driver
        return driver.reference_gold_keys(self.name, path)
