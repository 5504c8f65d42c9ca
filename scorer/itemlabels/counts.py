"""The counts table of a run: one row per item, its columns a label's counts
(tp, gold, predicted, and the F1's 2 tp and gold + predicted) and those of
the whole run (items, correct, the averaged labels' 2 tp and gold +
predicted).  The metrics are declared over these columns
(``scorer/itemlabels/metrics.py``)."""
from __future__ import annotations


def counts_columns(labels: tuple) -> tuple:
    """The counts table's columns, one row per item: a label's are
    ``KIND:LABEL``, the others have no ':' (so that no label, not even one
    named 'averaged', can give a column the name of another)."""
    per_label = tuple(f"{kind}:{label}" for label in labels
                      for kind in ("tp", "gold", "predicted", "2tp", "gold+predicted"))
    return ("items", "correct", *per_label, "2tp", "gold+predicted")


def counts_row(gold: str, predicted: str, labels: tuple, over: frozenset) -> tuple:
    """An item's row of the counts table (in counts_columns order)."""
    right = gold == predicted
    row = [1, int(right)]
    for label in labels:
        tp = int(right and gold == label)
        in_gold, in_predicted = int(gold == label), int(predicted == label)
        row += [tp, in_gold, in_predicted, 2 * tp, in_gold + in_predicted]
    averaged_tp = int(right and gold in over)
    row += [2 * averaged_tp, int(gold in over) + int(predicted in over)]
    return tuple(row)
