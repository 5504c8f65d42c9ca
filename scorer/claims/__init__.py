"""Claim verification tasks: SciFact and FEVER, scored through one driver.

Data flow (one concern per module)::

    jsonl.py      JSON-lines files -> (line number, object) pairs, with file:line errors
    scifact.py    SciFact gold + predictions (both shapes) -> Evaluation
    fever.py      FEVER predictions (+ gold inline or blind) -> Evaluation
    metrics.py    the metric registry: each metric's explanation and how it is
                  computed from the per-claim counts table (full data and bootstrap)
    resample.py   the vectorised bootstrap over the counts table
    reports.py    .summary, .debug, .json, .params, .samplescores, .confidence texts
    driver.py     run(request, problems) -> [(extension, text), ...]

An :class:`~scorer.claims.metrics.Evaluation` holds one row per claim (the
counts table), the per-claim outcomes the ``.debug`` report explains, and the
full-data metric values.  Every number in every report comes from that table.
"""
