"""The bundled Cold Start demo run scored step by step, in process, the way
``coldstart/driver.py`` chains the steps: for the unit tests of each step and
each report writer, whose outputs are compared with the demo's golden files
(``fixtures/coldstart/demo/expected``, the Perl's reports)."""
from __future__ import annotations

import functools
from types import SimpleNamespace

from scorer.coldstart import driver
from scorer.coldstart.ap import APScorer
from scorer.coldstart.counts import counts_table
from scorer.coldstart.evaluation import Evaluator
from scorer.coldstart.projections import RunStructure
from scorer.coldstart.reports import prepare
from scorer.coldstart.runs import read_run_files
from scorer.policy import build_policy
from scorer.problems import Problems

from places import DEMO, FIXTURES

EXPECTED = FIXTURES / "coldstart" / "demo" / "expected"
RUNID = "DEMORUN"


def expected(extension: str) -> str:
    """The golden report ``run.<extension>`` of the demo."""
    return (EXPECTED / f"run.{extension}").read_text(encoding="utf-8")


@functools.lru_cache(maxsize=None)
def scored(expand: str = "CSSF17") -> SimpleNamespace:
    """Every intermediate of scoring the demo (default policy, -expand CSSF17)."""
    problems = Problems()
    asked = SimpleNamespace(expand=expand, queries=None)
    queries, index, to_score = driver._read_queries([str(DEMO / "ldc-query.xml")], asked,
                                                    problems)
    run_files = read_run_files([str(DEMO / "qrel.txt"), str(DEMO / "DEMORUN.tab.txt")],
                               queries, problems)
    policy = build_policy({}, {})
    evaluator = Evaluator(run_files, queries, policy, problems)
    evaluation = evaluator.evaluate_run(RUNID, to_score, expand)
    table = counts_table(evaluation.rows, index, queries)
    structure = RunStructure(table, has_index=bool(index))
    ap_scorer = APScorer(run_files, queries, policy, problems)
    ap_rows = [row for short_id in sorted(to_score)
               for query in evaluator.scored_queries(short_id, expand)
               for row in ap_scorer.score_query(query, evaluation)
               if row.level == "ALL" or int(row.level) <= (to_score[short_id] or 0)]
    return SimpleNamespace(problems=problems, queries=queries, index=index, to_score=to_score,
                           policy=policy, evaluation=evaluation, table=table,
                           structure=structure, tables=prepare.prepare(structure, RUNID,
                                                                       policy.fields),
                           ap_rows=ap_rows)
