"""A run scored: the gold and the predictions read (``scorer/itemlabels/inputs.py``),
paired by id, and counted one row an item in gold order; an id the gold lacks, or
a gold item without a prediction, is an error naming the file and line."""
from __future__ import annotations

from scorer.countstable.evaluation import Evaluation, claim_columns
from scorer.countstable.metrics import full_data
from scorer.itemlabels.counts import counts_columns, counts_row
from scorer.itemlabels.inputs import gold_keys, read_gold, read_items, shown
from scorer.itemlabels.labels import averaged
from scorer.itemlabels.metrics import declarations
from scorer.problems import ScorerError

#: The most cells (items x counts columns: 5 a label, and 4) a run's counts
#: table may have: about 1.6 GB (50,000,000 cells: 0.8 GB, 3 CPU seconds).
MAX_TABLE_CELLS = 100_000_000


def evaluate(task: str, policy, files: tuple) -> Evaluation:
    """The evaluation of a gold file and a predictions file for the task named
    ``task``: the counts table in gold order, one row per item, and the
    outcomes the ``.debug`` shows."""
    gold_path, predictions_path = files
    labels = tuple(policy.labels)
    gold = read_gold(gold_path, labels)
    cells = len(gold) * len(counts_columns(labels))
    if cells > MAX_TABLE_CELLS:
        # The table is dense (each item a row of every label's counts): about 16 bytes
        # a cell, and the bootstrap's sums over it, a few times that.
        raise ScorerError(f"{gold_path}: {len(gold):,} items and {len(labels):,} labels make a "
                          f"counts table of {cells:,} cells, more than the "
                          f"{MAX_TABLE_CELLS:,} scored in memory; list only the labels the "
                          f"task uses, or score a part of the items at a time")
    predictions = read_items(predictions_path, "predictions", labels)
    gold_line = {item_id: line for line, item_id, _label in gold}
    predicted = {}
    for line, item_id, label in predictions:
        if item_id not in gold_line:
            near = (f" (the gold has {shown(item_id.strip())}: white space around an id is "
                    f"part of it)" if item_id.strip() in gold_line else "")
            raise ScorerError(f"{predictions_path} line {line}: id {shown(item_id)} is not "
                              f"an item of the gold ({gold_path}){near}")
        predicted[item_id] = (line, label)
    missing = [(line, item_id) for line, item_id, _label in gold if item_id not in predicted]
    if missing:
        line, item_id = missing[0]
        more = f" (and {len(missing) - 1:,} more)" if len(missing) > 1 else ""
        raise ScorerError(f"{predictions_path}: no prediction for id {shown(item_id)} "
                          f"({gold_path} line {line}){more}; every item of the gold is "
                          f"predicted")
    over = frozenset(averaged(policy))
    rows, outcomes = [], []
    for line, item_id, label in gold:
        predicted_line, predicted_label = predicted[item_id]
        rows.append(counts_row(label, predicted_label, labels, over))
        outcomes.append((item_id, line, predicted_line, label, predicted_label))
    columns = claim_columns(rows, counts_columns(labels))
    keys, key_source = gold_keys(gold)
    declared = declarations(policy)
    return Evaluation(task, files, keys, columns, outcomes,
                      full_data(declared, columns), key_source=key_source, declared=declared)
