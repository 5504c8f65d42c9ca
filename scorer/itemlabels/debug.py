"""The ``.debug`` report of a run: a header, then one block an item (its gold
and predicted labels, RIGHT or WRONG); ``itemblocks.py`` reads a block back."""
from __future__ import annotations
RULE = "=" * 80 + "\n"


def debug_pieces(evaluation):
    """The ``.debug`` text of an evaluation, piece by piece."""
    yield f"#{evaluation.task}: {len(evaluation.keys)} item(s)\n"
    for item_id, gold_line, line, gold, predicted in evaluation.outcomes:
        yield (f"{RULE}ITEM {item_id}\tgold line {gold_line}\tpredictions line {line}\n"
               f"\tGOLD LABEL:\t{gold}\n"
               f"\tPREDICTED LABEL:\t{predicted}\t{'RIGHT' if gold == predicted else 'WRONG'}"
               f"\n")

