"""The picture of ``-plot``: one run's every score per hop, with its 95 %
interval when the run was bootstrapped, drawn by :mod:`scorer.display`; titled
as the task says, so that a track's run draws the very picture of the single
run.  The command line and the track's runs add it to their report sets."""
from __future__ import annotations


def draw(task: str, outcome) -> bytes:
    """The PNG of ``outcome`` (scored by ``task``)."""
    from scorer import tasks
    from scorer.display.plot import run_png
    from scorer.reportframes import interval_frame
    from scorer.results import per_hop
    record = tasks.get(task)
    # The scores per hop alone: no per-unit statistics or rows.
    data = record.scoring.run_result("run", outcome, statistics=False, per_query=False)
    texts = dict(outcome.reports.files())
    confidence = [texts[name] for name in record.picture.interval_reports if texts.get(name)]
    intervals = interval_frame(record, confidence) if confidence else None
    return run_png(per_hop([data]).drop(columns="run"), intervals, record.picture.title(outcome),
                   record.picture.variant_order)
