"""Claim verification tasks, SciFact and FEVER, and the machinery of every
task scored from a per-unit counts table (a task's record declares it so:
``task.py``'s TableTask), scored through one driver.

Data flow (one concern per module)::

    jsonl.py      JSON-lines files -> (line number, object) pairs, with file:line errors
    scifact.py    SciFact gold + predictions (both shapes) -> Evaluation
    fever.py      FEVER's rules: predictions (+ gold inline or blind), a claim scored
    feverpass.py  FEVER in one pass over the files -> Evaluation
    feverdebug.py FEVER's .debug text of a claim scored
    debugblocks.py SciFact's and FEVER's .debug read back by blocks, for scorer.diff
    spool.py      the .debug text kept as it is made (to a file past a size)
    metrics.py    the metric declarations (Ratio, HarmonicMean, Mean) and the claim
                  tasks' registry: each metric's explanation and how it is computed
                  from the per-unit counts table (full data and bootstrap)
    resample.py   the vectorised bootstrap over the counts table
    reports.py    .summary, .debug, .json, .params, .samplescores, .confidence texts
    policy.py     the claim tasks' max_evidence
    task.py       TableTask (a counts-table task's record) and ClaimTask
    driver.py     score(request, problems): the record reads and scores, the
                  driver resamples and writes the reports

An :class:`~scorer.claims.metrics.Evaluation` holds one row per claim (the
counts table), the per-claim outcomes the ``.debug`` report explains, and the
full-data metric values.  Every number in every report comes from that table.
"""
