"""The SciFact scorer as it was before it wrote each claim's ``.debug`` text
as it scored it: a record per claim, abstract and sentence, then the text
made from the records.  Kept as the oracle the one-step scorer
(``scorer.claims.scifact._Scorer``) is compared with, claim by claim, in
``test_scifact_differential.py``: its counts, its text and its refusals.

It reads the records ``scifactinputs.read_inputs`` makes (both ways of reading
give the same records) and applies the rules one at a time, plainly.
"""
from __future__ import annotations

from collections import namedtuple

from scorer.claims.scifact import (ABSTRACT_NOT_IN_GOLD, COLUMNS, CORRECT, INCOMPLETE,
                                   NOT_IN_RATIONALE, REPEATED)
from scorer.claims.scifactinputs import NEI, claim_label
from scorer.countstable.jsonl import show, shows
from scorer.problems import ScorerError

RULE = "=" * 80 + "\n"
SUBRULE = "." * 80 + "\n"

SentenceOutcome = namedtuple("SentenceOutcome", "sentence verdict rationale missing",
                             defaults=(None, ()))
AbstractOutcome = namedtuple("AbstractOutcome",
                             "predicted gold label_right cap rationale sentences")
#: One row of the counts table (``COLUMNS``); the scorer's rows are plain tuples.
Counts = namedtuple("Counts", COLUMNS)
ClaimOutcome = namedtuple("ClaimOutcome", "name gold predicted gold_label predicted_label "
                                          "abstracts missed counts")


def score_claims(inputs, allowed: tuple, max_evidence) -> tuple:
    """``(rows of counts, .debug text of the claims)``; a ScorerError as the scorer raises it."""
    from scorer.countstable.evaluation import claim_names
    names = claim_names([g.id for g in inputs.gold])
    outcomes = [score_claim(name, g, p, inputs, allowed, max_evidence)
                for name, g, p in zip(names, inputs.gold, inputs.predictions)]
    return ([tuple(o.counts) for o in outcomes],
            "".join(claim_text(outcome) for outcome in outcomes))


def score_claim(name, gold, predicted, inputs, allowed: tuple, max_evidence) -> ClaimOutcome:
    if predicted.label is not None and predicted.label not in allowed + (NEI,):
        raise ScorerError(f"{inputs.predictions_path} line {predicted.line}: claim label "
                          f"{show(predicted.label)} is not allowed; allowed: "
                          f"{', '.join(allowed + (NEI,))}")
    abstracts = []
    retrieved = label_only = rationalized = selection = label_and_selection = 0
    for abstract in predicted.abstracts:
        if abstract.label not in allowed:
            raise ScorerError(f"{inputs.predictions_path} line {predicted.line}: abstract "
                              f"{show(abstract.doc)} is predicted with label "
                              f"{show(abstract.label)}; allowed: {', '.join(allowed)}")
        outcome = score_abstract(abstract, gold.abstracts.get(abstract.doc), max_evidence,
                                 inputs, predicted.line, gold.line)
        abstracts.append(outcome)
        retrieved += len(abstract.sentences)
        right = sum([s.verdict == CORRECT for s in outcome.sentences])
        selection += right
        if outcome.label_right:
            label_only += 1
            rationalized += outcome.rationale is not None
            label_and_selection += right
    gold_label = claim_label(a.label for a in gold.abstracts.values())
    predicted_label = (predicted.label if predicted.label is not None
                       else claim_label(a.label for a in predicted.abstracts))
    predicted_docs = {a.doc for a in predicted.abstracts}
    missed = tuple(a for doc, a in gold.abstracts.items() if doc not in predicted_docs)
    counts = Counts(1, len(gold.abstracts), len(abstracts), label_only, rationalized,
                    sum([len(r) for a in gold.abstracts.values() for r in a.rationales]),
                    retrieved, selection, label_and_selection, int(gold_label == predicted_label))
    return ClaimOutcome(name, gold, predicted, gold_label, predicted_label, tuple(abstracts),
                        missed, counts)


def score_abstract(predicted, gold, max_evidence, inputs, line: int,
                   gold_line: int) -> AbstractOutcome:
    if gold is None:
        return AbstractOutcome(predicted, None, False, None, None,
                               tuple(SentenceOutcome(s, ABSTRACT_NOT_IN_GOLD)
                                     for s in predicted.sentences))
    rationale_sets = [set(r) for r in gold.rationales]
    label_right = predicted.label == gold.label
    cap, found = None, None
    if label_right:
        if max_evidence is not None:
            cap = max(max_evidence, min(len(s) for s in rationale_sets))
        head = set(predicted.sentences[:cap])
        found = next((r for r, s in zip(gold.rationales, rationale_sets) if s <= head), None)
    chosen = set(predicted.sentences)
    outcomes, seen = [], set()
    for sentence in predicted.sentences:
        if sentence in seen:
            outcomes.append(SentenceOutcome(sentence, REPEATED))
            continue
        seen.add(sentence)
        holders = [i for i, s in enumerate(rationale_sets) if sentence in s]
        if len(holders) > 1:
            raise ScorerError(
                f"{inputs.predictions_path} line {line}: sentence {show(sentence)} of abstract "
                f"{show(predicted.doc)} lies in {len(holders)} gold rationales "
                f"({inputs.gold_path} line {gold_line}); a sentence may belong to one "
                f"rationale of an abstract only")
        if not holders:
            outcomes.append(SentenceOutcome(sentence, NOT_IN_RATIONALE))
            continue
        rationale = gold.rationales[holders[0]]
        missing = tuple(dict.fromkeys(s for s in rationale if s not in chosen))
        outcomes.append(SentenceOutcome(sentence, INCOMPLETE if missing else CORRECT,
                                        rationale, missing))
    return AbstractOutcome(predicted, gold, label_right, cap, found, tuple(outcomes))


# ---------------------------------------------------------------- the .debug text

def _fact(name: str, *values) -> str:
    return "\t" + name + ":\t" + "\t".join(map(str, values)) + "\n"


def _rationales(gold) -> str:
    return " ".join(shows([list(r) for r in gold.rationales]))


def claim_text(outcome: ClaimOutcome) -> str:
    gold, predicted = outcome.gold, outcome.predicted
    source = "top-level label" if predicted.label is not None else "from predicted abstracts"
    out = [f"{RULE}CLAIM {outcome.name}\tgold line {gold.line}\tpredictions line "
           f"{predicted.line}\n\tGOLD LABEL:\t{outcome.gold_label}\n\tPREDICTED LABEL:\t"
           f"{outcome.predicted_label}\t{source}\t"
           f"{'RIGHT' if outcome.counts.label_correct else 'WRONG'}\n"]
    out += [f"\tGOLD ABSTRACT:\t{abstract.doc}\t{abstract.label}\trationales "
            f"{_rationales(abstract)}\n" for abstract in gold.abstracts.values()]
    for abstract in outcome.abstracts:
        out.append(SUBRULE)
        out += _abstract_text(abstract)
    for abstract in predicted.dropped:
        out.append(SUBRULE)
        out.append(_fact("DROPPED ABSTRACT", abstract.doc, abstract.label,
                         "sentences " + show(list(abstract.sentences)),
                         f"labelled {NEI}: not scored"))
    if outcome.abstracts or predicted.dropped:
        out.append(SUBRULE)
    for abstract in outcome.missed:
        out.append(_fact("MISSED GOLD ABSTRACT", abstract.doc, abstract.label,
                         "rationales " + _rationales(abstract)))
    c = outcome.counts
    out.append(f"\tABSTRACT COUNTS:\trelevant {c.abstract_relevant}\t"
               f"retrieved {c.abstract_retrieved}\tlabel_only {c.abstract_correct_label_only}\t"
               f"rationalized {c.abstract_correct_rationalized}\n"
               f"\tSENTENCE COUNTS:\trelevant {c.sentence_relevant}\t"
               f"retrieved {c.sentence_retrieved}\tselection {c.sentence_correct_selection}\t"
               f"label {c.sentence_correct_label}\n")
    return "".join(out)


def _abstract_text(outcome: AbstractOutcome) -> list:
    predicted, gold = outcome.predicted, outcome.gold
    joined = f"joined from {predicted.sets} set(s)" if predicted.sets else ""
    out = [f"\tPREDICTED ABSTRACT:\t{predicted.doc}\t{predicted.label}\tsentences "
           f"{show(list(predicted.sentences))}{chr(9) + joined if joined else ''}\n"]
    if gold is None:
        out.append(_fact("GOLD", "NONE", "not a gold abstract of this claim: retrieved, "
                                         "never correct"))
    else:
        out.append(f"\tGOLD:\t{gold.doc}\t{gold.label}\trationales {_rationales(gold)}\n"
                   f"\tLABEL:\t{'RIGHT' if outcome.label_right else 'WRONG'}\n")
        if not outcome.label_right:
            out.append("\tRATIONALIZED:\tNO\tlabel wrong\n")
        else:
            read = list(predicted.sentences if outcome.cap is None
                        else predicted.sentences[:outcome.cap])
            first = "all predicted sentences" if outcome.cap is None else \
                f"first {outcome.cap} predicted sentences"
            if outcome.rationale is not None:
                out.append(_fact("RATIONALIZED", "YES", f"gold rationale "
                                 f"{show(list(outcome.rationale))} within the {first} "
                                 f"{show(read)}"))
            else:
                out.append(_fact("RATIONALIZED", "NO", f"no gold rationale within the "
                                 f"{first} {show(read)}"))
    out += [f"\tSENTENCE {show(sentence.sentence)}:\t"
            f"{_sentence_verdict(sentence, outcome.label_right)}\n"
            for sentence in outcome.sentences]
    return out


def _sentence_verdict(sentence: SentenceOutcome, label_right: bool) -> str:
    verdict = sentence.verdict
    if verdict == CORRECT:
        return (f"{verdict}\trationale {show(list(sentence.rationale))} wholly predicted\t"
                f"{'counts for label' if label_right else 'not for label: label wrong'}")
    if verdict == INCOMPLETE:
        return (f"{verdict}\trationale {show(list(sentence.rationale))} lacks "
                f"{show(list(sentence.missing))}")
    if verdict == REPEATED:
        return f"{verdict}\tretrieved again, not counted again"
    return verdict
