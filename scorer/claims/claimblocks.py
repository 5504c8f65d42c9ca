"""SciFact's and FEVER's ``.debug`` read back, block by block, for
``python -m scorer.diff``: what of a claim's facts (``scorer.diff.debugfile``
reads the blocks) scores and what it was scored on.  Their records name these
readers in their layouts (``Task.debug_layout``); imported by the diff alone."""
from __future__ import annotations

from scorer.countstable.debugblocks import Claim, fact, labels


def scifact_claim(claim_id: str, facts: list, line: int) -> Claim:
    """A SciFact claim's block: its rationalized abstracts, the sentences
    read (``doc:sentence``), its per-claim counts."""
    evidence, rationalized, doc = set(), [], None
    for name, values in facts:
        if name == "PREDICTED ABSTRACT":
            doc = values[0]
        elif name == "--":
            doc = None
        elif name == "RATIONALIZED" and values[0] == "YES" and doc is not None:
            rationalized.append(doc)
        elif name.startswith("SENTENCE ") and name != "SENTENCE COUNTS" and doc is not None:
            evidence.add(f"{doc}:{name[len('SENTENCE '):]}")
    label = fact(facts, "PREDICTED LABEL")
    scores = tuple((f"{kind}_{cell.split(' ')[0]}", cell.split(" ")[-1])
                   for kind, name in (("abstract", "ABSTRACT COUNTS"),
                                      ("sentence", "SENTENCE COUNTS"))
                   for cell in fact(facts, name))
    return Claim(claim_id, label[-1] if label else "", tuple(sorted(rationalized)),
                 frozenset(evidence), scores, line, *labels(facts))


def fever_claim(claim_id: str, facts: list, line: int) -> Claim:
    """A FEVER claim's block: its strict verdict, the sentences read, its
    precision and recall."""
    evidence = {values[0] for name, values in facts
                if name.startswith("PREDICTED ") and name != "PREDICTED LABEL"
                and len(values) > 1 and not values[1].startswith("NOT READ")}
    label = fact(facts, "PREDICTED LABEL")
    strict = fact(facts, "STRICT")
    scores = tuple((name.lower(), fact(facts, name)[0]) for name in ("PRECISION", "RECALL"))
    return Claim(claim_id, label[-1] if label else "", strict[:1], frozenset(evidence),
                 scores, line, *labels(facts))
