"""The tasks scored from a per-unit counts table (every task whose record is
a :class:`~scorer.countstable.task.TableTask`: SciFact, FEVER, labels of
items): one driver, one set of reports, one bootstrap.

Data flow (one concern per module)::

    task.py       TableTask: the record of a task scored from a gold file and one
                  predictions file per run
    jsonl.py      JSON-lines files -> (line number, object) pairs, with file:line errors
    metrics.py    the metric declarations (Ratio, HarmonicMean, Mean): how each
                  value follows from the per-unit counts table (full data and
                  bootstrap)
    evaluation.py the Evaluation of a run: its counts table, its units' keys
    resample.py   the vectorised bootstrap over the counts table
    reports.py    .summary, .json, .params, .samplescores, .confidence texts
    spool.py      the .debug text kept as it is made (to a file past a size)
    driver.py     score(request, problems): the record reads and scores, the
                  driver resamples and writes the reports

An :class:`~scorer.countstable.evaluation.Evaluation` holds one row per unit (the
counts table), the per-unit outcomes the ``.debug`` report explains, and the
full-data metric values.  Every number in every report comes from that table.
"""
