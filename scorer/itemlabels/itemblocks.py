"""An item's block of the ``.debug`` read back, for ``python -m scorer.diff``
(the record names this reader in its layout, ``Task.debug_layout``; imported
by the diff alone)."""
from __future__ import annotations

from scorer.countstable.debugblocks import Claim, fact, labels


def item_claim(item_id: str, facts: list, line: int) -> Claim:
    """An item's block of the ``.debug``, read back for scorer.diff."""
    predicted = fact(facts, "PREDICTED LABEL")
    return Claim(item_id, predicted[-1] if predicted else "", (), frozenset(), (), line,
                 *labels(facts))
