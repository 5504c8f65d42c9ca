"""scorer/claims/claimblocks.py: a SciFact or FEVER claim's ``.debug`` block,
as facts, read into what scores (label, strict verdict or rationalized
abstracts, per-claim counts) and what it was scored on (the sentences read)."""
from __future__ import annotations

from scorer.claims.claimblocks import fever_claim, scifact_claim
from scorer.countstable.debugblocks import Claim


def _facts(text: str) -> list:
    """Facts as the block reader gives them: (name, values) of each
    'NAME:<tab>value<tab>value' line."""
    facts = []
    for line in text.strip("\n").split("\n"):
        name, _, rest = line.strip().partition(":\t")
        facts.append((name, tuple(rest.split("\t"))))
    return facts


SCIFACT = _facts("""
GOLD LABEL:\tCONTRADICT
PREDICTED LABEL:\tCONTRADICT\tfrom predicted abstracts\tRIGHT
GOLD ABSTRACT:\t20\tCONTRADICT\trationales [2]
PREDICTED ABSTRACT:\t20\tCONTRADICT\tsentences [2, 2]
RATIONALIZED:\tYES\tgold rationale [2] within the first 3 predicted sentences [2, 2]
SENTENCE 2:\tCORRECT\trationale [2] wholly predicted\tcounts for label
SENTENCE 2:\tREPEATED\tretrieved again, not counted again
--:\t
PREDICTED ABSTRACT:\t21\tCONTRADICT\tsentences [5, 6]
RATIONALIZED:\tNO\tno gold rationale
SENTENCE 5:\tNOT IN ANY GOLD RATIONALE
--:\t
ABSTRACT COUNTS:\trelevant 2\tretrieved 2\tlabel_only 2\trationalized 1
SENTENCE COUNTS:\trelevant 5\tretrieved 3\tselection 1\tlabel 1
""")


def test_a_scifact_block():
    assert scifact_claim("2", SCIFACT, 20) == Claim(
        "2", "RIGHT", ("20",), frozenset({"20:2", "21:5"}),
        (("abstract_relevant", "2"), ("abstract_retrieved", "2"), ("abstract_label_only", "2"),
         ("abstract_rationalized", "1"), ("sentence_relevant", "5"),
         ("sentence_retrieved", "3"), ("sentence_selection", "1"), ("sentence_label", "1")),
        20, "CONTRADICT", "CONTRADICT")


def test_a_scifact_block_without_a_prediction():
    facts = _facts("""
GOLD LABEL:\tSUPPORT
ABSTRACT COUNTS:\trelevant 1\tretrieved 0\tlabel_only 0\trationalized 0
SENTENCE COUNTS:\trelevant 2\tretrieved 0\tselection 0\tlabel 0
""")
    claim = scifact_claim("7", facts, 3)
    assert (claim.label, claim.strict, claim.evidence, claim.predicted, claim.gold) == \
        ("", (), frozenset(), "", "SUPPORT")


FEVER = _facts("""
GOLD LABEL:\tSUPPORTS\tinline\tverifiable
PREDICTED LABEL:\tSUPPORTS\tRIGHT
GOLD GROUP 1:\t["Paris", 0]
PREDICTED 1:\t["Paris", 0]\tIN GOLD (group 1)
PREDICTED 2:\t["Rome", 2]\tNOT IN GOLD
PREDICTED 3:\t["Oslo", 1]\tNOT READ (beyond max_evidence 2)
STRICT:\tYES\tgold group 1 complete among the first 2 predicted sentences
PRECISION:\t0.5000\t1 of 2 sentences read in the gold evidence
RECALL:\t1\tgold group 1 complete among the sentences read
""")


def test_a_fever_block():
    assert fever_claim("1", FEVER, 3) == Claim(
        "1", "RIGHT", ("YES",), frozenset({'["Paris", 0]', '["Rome", 2]'}),
        (("precision", "0.5000"), ("recall", "1")), 3, "SUPPORTS", "SUPPORTS")
