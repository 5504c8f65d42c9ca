"""The ``.debug`` report of a run: a header, then one block an item (its gold
and predicted labels, RIGHT or WRONG), and an item's block read back for
``scorer.diff``."""
from __future__ import annotations

from scorer.countstable.debugblocks import Claim, fact, labels

RULE = "=" * 80 + "\n"


def debug_pieces(evaluation):
    """The ``.debug`` text of an evaluation, piece by piece."""
    yield f"#{evaluation.task}: {len(evaluation.keys)} item(s)\n"
    for item_id, gold_line, line, gold, predicted in evaluation.outcomes:
        yield (f"{RULE}ITEM {item_id}\tgold line {gold_line}\tpredictions line {line}\n"
               f"\tGOLD LABEL:\t{gold}\n"
               f"\tPREDICTED LABEL:\t{predicted}\t{'RIGHT' if gold == predicted else 'WRONG'}"
               f"\n")


def item_claim(item_id: str, facts: list, line: int) -> Claim:
    """An item's block of the ``.debug``, read back for scorer.diff."""
    predicted = fact(facts, "PREDICTED LABEL")
    return Claim(item_id, predicted[-1] if predicted else "", (), frozenset(), (), line,
                 *labels(facts))
