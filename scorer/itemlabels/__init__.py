"""Labels of items (SemEval-style labelling, stance, natural language
inference, claim labels alone), one gold label and one predicted label an
item: the task's work, its files read, its counts table, its scoring and its
``.debug``.  Its record is the module of ``scorer/tasks/`` that imports this
package (no module but the record names the task, as the task's tests check).
A counts-table task (``scorer/countstable/``: the driver, the reports, the
bootstrap).

Data flow (one concern per module)::

    labels.py     a label as its metrics' names spell it, what no id or label may
                  hold, the labels the averages go over
    inputs.py     a gold or predictions file (JSON lines or id<TAB>label) -> items,
                  with file:line errors; the gold's unit keys
    counts.py     the counts table: its columns, an item's row
    metrics.py    the metric declarations over that table, their explanations
    evaluation.py gold + predictions paired by id -> Evaluation
    debug.py      the .debug: an item's block written, and read back for scorer.diff
"""
