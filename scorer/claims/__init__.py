"""Claim verification, SciFact and FEVER: what the two tasks share (their
record, :class:`~scorer.claims.task.ClaimTask`: evidence read up to
``max_evidence``, a label set) and each one's reading and scoring.  Both are
counts-table tasks (``scorer/countstable/``: the driver, the reports, the
bootstrap).

Data flow (one concern per module)::

    scifact.py    SciFact gold + predictions (both shapes) -> Evaluation
    fever.py      FEVER's rules: predictions (+ gold inline or blind), a claim scored
    feverpass.py  FEVER in one pass over the files -> Evaluation
    feverdebug.py FEVER's .debug text of a claim scored
    claimblocks.py SciFact's and FEVER's .debug read back by blocks, for scorer.diff
    task.py       ClaimTask: the record SciFact and FEVER share
    policy.py     the claim tasks' max_evidence
"""
