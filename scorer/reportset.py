"""A scored run's report set at an output prefix: every report of the
outcome, the picture of ``-plot``, written all or none (``output.FileSet``).
The command line and the track's runs write theirs here."""
from __future__ import annotations

from scorer import output


def add(written: output.FileSet, prefix: str, request, outcome, elsewhere=()) -> list:
    """Add the outcome's reports (and, with -plot, ``PREFIX.png``) to
    ``written``; the paths, in creation order.  ``elsewhere``: extensions the
    caller writes itself (a track links the reports every run shares), listed
    but not added."""
    if elsewhere:
        output.write_reports(prefix, _without(outcome.reports, elsewhere), written)
        paths = [f"{prefix}.{extension}" for extension in outcome.reports.extensions]
    else:
        paths = output.write_reports(prefix, outcome.reports, written)
    if request.plot:
        picture = f"{prefix}.png"
        written.add(picture, run_picture(request.policy.task, outcome))
        paths.append(picture)
    return paths


def _without(reports, extensions):
    """The reports but ``extensions`` (in the same order)."""
    from scorer.reports import Reports
    kept = Reports([e for e in reports.extensions if e not in extensions])
    kept.chunks = [chunk for chunk in reports.chunks if chunk[0] not in extensions]
    return kept


def run_picture(task: str, outcome) -> bytes:
    """The single-run picture of ``-plot`` (scorer.look): every score per hop,
    with its 95 % interval when the run was bootstrapped; titled as the task
    says (so that a track's run draws the very picture of the single run)."""
    from scorer import tasks
    from scorer.look.plot import run_png
    from scorer.reportframes import interval_frame
    from scorer.results import per_hop
    record = tasks.get(task)
    data = record.run_result("run", outcome)
    texts = dict(outcome.reports.files())
    confidence = [texts[name] for name in ("confidence", "apconfidence") if texts.get(name)]
    intervals = interval_frame(record, confidence) if confidence else None
    return run_png(per_hop([data]).drop(columns="run"), intervals, record.picture_title(outcome))
