"""SciFact: gold claims and predictions -> per-claim counts and outcomes.

The counting rules are those of the SciFact leaderboard evaluator
(``evaluator/eval.py`` of ``allenai/scifact-evaluator``, December 2021):

* abstract level: every predicted abstract is *retrieved*, every gold abstract
  *relevant*; a predicted abstract that is a gold abstract of the claim with
  the gold label is correct **label-only**, and also **rationalized** when its
  first ``max(max_evidence, shortest gold rationale)`` predicted sentences
  (all of them when max_evidence is None) contain a whole gold rationale;
* sentence level: every predicted sentence (repeats included) is *retrieved*,
  every sentence of every gold rationale (repeats included) *relevant*; each
  distinct predicted sentence of a gold abstract that lies in a gold rationale
  all of whose sentences are predicted is correct for **selection**, and also
  for **label** when the abstract's predicted label is the gold one.

Sentences are compared as Python values (``4.0`` equals ``4``); abstract ids
as the strings they are in the files.  Predictions come in two shapes
(``scorer/claims/scifactinputs.py`` reads and checks both files).

A run scores each claim and writes its ``.debug`` text in one step
(``_Scorer``), keeping only its row of counts: no record is made per abstract
or sentence scored.
"""
from __future__ import annotations

from scorer.claims.scifactinputs import (NEI, GoldClaim, Inputs, PredictedClaim, check_order,
                                        claim_label, gold_keys)
from scorer.claims.scifactmetrics import METRICS
from scorer.countstable.evaluation import Evaluation, claim_columns, claim_names
from scorer.countstable.jsonl import show
from scorer.countstable.metrics import CLAIMS, full_data
from scorer.countstable.reports import RULE, SUBRULE
from scorer.countstable.spool import Spool
from scorer.policy import Policy
from scorer.problems import Problems, ScorerError, Where

#: The counts table's columns, the order of a claim's row (a plain tuple).
COLUMNS = (CLAIMS, "abstract_relevant", "abstract_retrieved", "abstract_correct_label_only",
           "abstract_correct_rationalized", "sentence_relevant", "sentence_retrieved",
           "sentence_correct_selection", "sentence_correct_label", "label_correct")

#: Sentence verdicts of the .debug report.
CORRECT = "CORRECT"                  # its gold rationale is wholly predicted
INCOMPLETE = "INCOMPLETE"            # in a gold rationale not wholly predicted
NOT_IN_RATIONALE = "NOT IN ANY GOLD RATIONALE"
REPEATED = "REPEATED"                # counted as retrieved again, not again as correct
ABSTRACT_NOT_IN_GOLD = "ABSTRACT NOT IN GOLD"



# ---------------------------------------------------------------- scoring

#: Claims whose .debug text is handed to the spool at once: about 240 KB of
#: text, whose pieces are freed for the next block's to reuse and which is
#: encoded on its own when written (with 1,024, the pieces of 1,000 claims, their
#: text and its UTF-8 were all held at once: 350 more pages touched, a tenth
#: of the run's system time).
_SPOOL_CLAIMS = 256


def evaluate(inputs: Inputs, policy: Policy, problems: Problems) -> Evaluation:
    """Score every claim: the counts table in gold order, and the ``.debug``
    text made as each claim is scored."""
    check_order(inputs)
    names = claim_names([g.id for g in inputs.gold])
    keys, key_source = gold_keys(inputs.gold, names)
    claim = _Scorer(inputs, tuple(policy.labels), policy.max_evidence).claim
    gold, predictions = inputs.gold, inputs.predictions
    rows = []
    spool = Spool()
    # The text of a block of claims is joined once and handed on as one piece
    # (not a string a claim, each joined and then written on its own).
    for start in range(0, len(gold), _SPOOL_CLAIMS):
        end = start + _SPOOL_CLAIMS
        pieces = []
        rows += [claim(name, gold_claim, predicted, pieces) for name, gold_claim, predicted
                 in zip(names[start:end], gold[start:end], predictions[start:end])]
        spool.add(["".join(pieces)])
    if key_source == "line":
        problems.record("CLAIM_WARNING",
                        "claim ids are not unique or hold a blank, ':' or ','; claims are "
                        "identified by gold line number (line<N>) in samples files",
                        where=Where(detail=inputs.gold_path))
    for line in inputs.unread_labels:
        problems.record("CLAIM_WARNING",
                        "a top-level 'label' is not read in the leaderboard shape ({id, "
                        "evidence: {doc: {label, sentences}}}): the claim's label is that of "
                        "its predicted abstracts",
                        where=Where(file=inputs.predictions_path, line=line))
    table = claim_columns(rows, COLUMNS)
    return Evaluation("scifact", (inputs.gold_path, inputs.predictions_path), keys, table,
                      None, full_data(METRICS, table), policy.max_evidence, key_source,
                      debug=spool, declared=METRICS)


class _Scorer:
    """Scores claims and writes their ``.debug`` text (its layout:
    :mod:`scorer.countstable.reports`), one claim a call.

    Each list is shown once a claim (a gold abstract's rationales, an
    abstract's predicted sentences), each rationale's verdict once an
    abstract; a list of whole numbers is shown by its ``repr`` (its JSON)
    and a whole number's SENTENCE line head is made once a run.  A claim
    with any other sentence shows its values as ``json.dumps`` does."""

    def __init__(self, inputs: Inputs, allowed: tuple, max_evidence: int | None):
        self.inputs = inputs
        self.allowed = allowed
        self.claim_labels = allowed + (NEI,)
        self.max_evidence = max_evidence
        #: cap -> "first N predicted sentences"
        self.firsts = _Firsts()
        #: row of counts -> its ABSTRACT and SENTENCE COUNTS lines
        self.counts_lines = _CountsLines()
        #: (gold label, predicted label, its source) -> the claim's label lines
        self.label_lines = _LabelLines()
        #: whole number -> its SENTENCE line's head
        self.heads = _SentenceHeads()

    def claim(self, name: str, gold: GoldClaim, predicted: PredictedClaim, out: list) -> tuple:
        """The row of counts of one claim; its ``.debug`` text is added to ``out``
        (a list of strings) piece by piece."""
        gold_line, _id, gold_abstracts, gold_plain = gold
        line, _id, abstracts, given_label, dropped, plain = predicted
        if given_label is not None and given_label not in self.claim_labels:
            raise ScorerError(f"{self.inputs.predictions_path} line {line}: claim "
                              f"label {show(given_label)} is not allowed; allowed: "
                              f"{', '.join(self.claim_labels)}")
        if plain and gold_plain:
            shown_list, heads = repr, self.heads
        else:
            plain = False
            shown_list, heads = show, _ShownHeads()
        head_at = len(out)
        out.append(None)                   # the head, made last
        #: doc -> ("doc<TAB>label<TAB>rationales ...\n", each rationale's text,
        #: label, rationales)
        shown = {}
        relevant = 0
        gold_label = NEI
        for doc, (_doc, gold_label, rationales) in gold_abstracts.items():
            if len(rationales) == 1:
                relevant += len(rationales[0])
                texts = (shown_list(rationales[0]),)
                tail = f"{doc}\t{gold_label}\trationales {texts[0]}\n"
            else:
                relevant += sum(map(len, rationales))
                texts = list(map(shown_list, rationales))
                tail = f"{doc}\t{gold_label}\trationales {' '.join(texts)}\n"
            shown[doc] = (tail, texts, gold_label, rationales)
            out.append("\tGOLD ABSTRACT:\t" + tail)
        if len(shown) > 1:
            gold_label = claim_label([entry[2] for entry in shown.values()])
        retrieved = label_only = rationalized = selection = label_and_selection = 0
        matched = 0                        # predicted abstracts that are gold abstracts
        allowed = self.allowed
        max_evidence = self.max_evidence
        firsts = self.firsts
        for doc, label, sentences, sets in abstracts:
            if label not in allowed:
                raise ScorerError(f"{self.inputs.predictions_path} line {line}: "
                                  f"abstract {show(doc)} is predicted with label "
                                  f"{show(label)}; allowed: {', '.join(allowed)}")
            n = len(sentences)
            retrieved += n
            sentences_text = shown_list(sentences)
            entry = shown.get(doc)
            if entry is None:
                out.append(f"{SUBRULE}\tPREDICTED ABSTRACT:\t{doc}\t{label}\tsentences "
                           f"{sentences_text}{_joined(sets) if sets else ''}\n{_NOT_GOLD}")
                if n:
                    # One line per sentence, their common end joined between heads.
                    out.append(_NOT_IN_GOLD.join(map(heads.__getitem__, sentences))
                               + _NOT_IN_GOLD)
                continue
            matched += 1
            tail, texts, abstract_label, rationales = entry
            label_right = label == abstract_label
            chosen = set(sentences)
            if len(rationales) == 1:
                members = set(rationales[0])
                rationale_sets = (members,)
            else:
                members = None
                rationale_sets = list(map(set, rationales))
            if label_right:
                label_only += 1
                if max_evidence is None:
                    first, read_text, head = _ALL_READ, sentences_text, chosen
                else:
                    shortest = len(members) if members is not None else \
                        min(map(len, rationale_sets))
                    cap = max_evidence if max_evidence >= shortest else shortest
                    first = firsts[cap]
                    if cap < n:
                        read = sentences[:cap]
                        head, read_text = set(read), shown_list(read)
                    else:
                        head, read_text = chosen, sentences_text
                if members is not None:
                    if members <= head:
                        rationalized += 1
                        verdict = (f"YES\tgold rationale {texts[0]} within the {first} "
                                   f"{read_text}\n")
                    else:
                        verdict = f"NO\tno gold rationale within the {first} {read_text}\n"
                else:
                    for number, rationale_set in enumerate(rationale_sets):
                        if rationale_set <= head:
                            rationalized += 1
                            verdict = (f"YES\tgold rationale {texts[number]} within the "
                                       f"{first} {read_text}\n")
                            break
                    else:
                        verdict = f"NO\tno gold rationale within the {first} {read_text}\n"
                out.append(f"{SUBRULE}\tPREDICTED ABSTRACT:\t{doc}\t{label}\tsentences "
                           f"{sentences_text}{_joined(sets) if sets else ''}\n"
                           f"\tGOLD:\t{tail}\tLABEL:\tRIGHT\n"
                           f"\tRATIONALIZED:\t{verdict}")
            else:
                out.append(f"{SUBRULE}\tPREDICTED ABSTRACT:\t{doc}\t{label}\tsentences "
                           f"{sentences_text}{_joined(sets) if sets else ''}\n"
                           f"\tGOLD:\t{tail}\tLABEL:\tWRONG\n"
                           f"{_LABEL_WRONG}")
            if members is not None and len(chosen) == n:
                # One rationale, no sentence repeated: each sentence is in it or not.
                if members <= chosen:
                    right = len(members)
                    verdict = (f"{CORRECT}\trationale {texts[0]} wholly predicted\t"
                               f"{_FOR_LABEL if label_right else _NOT_FOR_LABEL}\n")
                else:
                    right = 0
                    missing = [s for s in dict.fromkeys(rationales[0]) if s not in chosen]
                    verdict = (f"{INCOMPLETE}\trationale {texts[0]} lacks "
                               f"{shown_list(missing)}\n")
                if not n:
                    pass
                elif chosen <= members:        # every sentence has the rationale's verdict
                    out.append(verdict.join(map(heads.__getitem__, sentences)) + verdict)
                elif chosen.isdisjoint(members):
                    out.append(_NOT_IN.join(map(heads.__getitem__, sentences)) + _NOT_IN)
                else:
                    out += [heads[sentence] + (verdict if sentence in members else _NOT_IN)
                            for sentence in sentences]
            elif len(chosen) == n:
                # Several rationales, no sentence repeated: each rationale's
                # verdict made once, for the sentences predicted of it.
                verdicts: dict = {}
                right = held = 0
                for number, rationale_set in enumerate(rationale_sets):
                    hit = rationale_set & chosen
                    if not hit:
                        continue
                    held += len(hit)
                    if rationale_set <= chosen:
                        right += len(hit)
                        verdict = (f"{CORRECT}\trationale {texts[number]} wholly predicted\t"
                                   f"{_FOR_LABEL if label_right else _NOT_FOR_LABEL}\n")
                    else:
                        missing = [s for s in dict.fromkeys(rationales[number])
                                   if s not in chosen]
                        verdict = (f"{INCOMPLETE}\trationale {texts[number]} lacks "
                                   f"{shown_list(missing)}\n")
                    verdicts.update(dict.fromkeys(hit, verdict))
                if held == len(verdicts):
                    out += [heads[sentence] + verdicts.get(sentence, _NOT_IN)
                            for sentence in sentences]
                else:       # a sentence in two rationales: refused where it comes
                    right = self.sentences(out, sentences, chosen, rationales, rationale_sets,
                                           texts, label_right, shown_list, heads, line, doc,
                                           gold_line)
            else:
                right = self.sentences(out, sentences, chosen, rationales, rationale_sets, texts,
                                       label_right, shown_list, heads, line, doc, gold_line)
            selection += right
            if label_right:
                label_and_selection += right
        for abstract in dropped:
            out.append(f"{SUBRULE}\tDROPPED ABSTRACT:\t{abstract.doc}\t{abstract.label}\t"
                       f"sentences {shown_list(abstract.sentences)}\t{_NOT_SCORED}\n")
        if abstracts or dropped:
            out.append(SUBRULE)
        if matched < len(shown):
            predicted_docs = {abstract.doc for abstract in abstracts}
            out += ["\tMISSED GOLD ABSTRACT:\t" + entry[0] for doc, entry in shown.items()
                    if doc not in predicted_docs]
        if given_label is not None:
            predicted_label, source = given_label, "top-level label"
        else:
            source = "from predicted abstracts"
            if len(abstracts) == 1:
                predicted_label = abstracts[0].label
            elif not abstracts:
                predicted_label = NEI
            else:
                predicted_label = claim_label([abstract.label for abstract in abstracts])
        out[head_at] = (f"{RULE}CLAIM {name}\tgold line {gold_line}\tpredictions line "
                        f"{line}{self.label_lines[gold_label, predicted_label, source]}")
        row = (1, len(shown), len(abstracts), label_only, rationalized, relevant, retrieved,
               selection, label_and_selection, 1 if gold_label == predicted_label else 0)
        out.append(self.counts_lines[row])
        return row

    def sentences(self, out: list, sentences: list, chosen: set, rationales: tuple,
                  rationale_sets: list, texts: list, label_right: bool, shown_list, heads,
                  line: int, doc: str, gold_line: int) -> int:
        """The SENTENCE lines of a predicted gold abstract (added to ``out``),
        in the general case (repeats, several rationales); the number correct."""
        verdicts: dict = {}                # rationale number -> (correct, verdict text)
        seen = set()
        right = 0
        for sentence in sentences:
            if sentence in seen:
                out.append(heads[sentence] + _REPEATED)
                continue
            seen.add(sentence)
            holders = [number for number, members in enumerate(rationale_sets)
                       if sentence in members]
            if not holders:
                out.append(heads[sentence] + _NOT_IN)
                continue
            if len(holders) > 1:
                raise ScorerError(
                    f"{self.inputs.predictions_path} line {line}: sentence {show(sentence)} of "
                    f"abstract {show(doc)} lies in {len(holders)} gold rationales "
                    f"({self.inputs.gold_path} line {gold_line}); a sentence may belong to "
                    f"one rationale of an abstract only")
            number = holders[0]
            verdict = verdicts.get(number)
            if verdict is None:
                missing = [s for s in dict.fromkeys(rationales[number]) if s not in chosen]
                if missing:
                    verdict = (0, f"{INCOMPLETE}\trationale {texts[number]} lacks "
                                  f"{shown_list(missing)}\n")
                else:
                    verdict = (1, f"{CORRECT}\trationale {texts[number]} wholly predicted\t"
                                  f"{_FOR_LABEL if label_right else _NOT_FOR_LABEL}\n")
                verdicts[number] = verdict
            right += verdict[0]
            out.append(heads[sentence] + verdict[1])
        return right


class _Firsts(dict):
    """cap -> the words for the first ``cap`` predicted sentences."""

    __slots__ = ()

    def __missing__(self, cap: int) -> str:
        text = self[cap] = f"first {cap} predicted sentences"
        return text


class _LabelLines(dict):
    """(gold label, predicted label, source) -> the rest of a claim's CLAIM
    line and its label lines (labels are few: made once each)."""

    __slots__ = ()

    def __missing__(self, key: tuple) -> str:
        gold_label, predicted_label, source = key
        if len(self) > 10_000:
            self.clear()
        text = self[key] = (f"\n\tGOLD LABEL:\t{gold_label}\n\tPREDICTED LABEL:\t"
                            f"{predicted_label}\t{source}\t"
                            f"{'RIGHT' if gold_label == predicted_label else 'WRONG'}\n")
        return text


class _CountsLines(dict):
    """A claim's row of counts -> its ABSTRACT and SENTENCE COUNTS lines (rows
    of small numbers repeat: each made once)."""

    __slots__ = ()

    def __missing__(self, row: tuple) -> str:
        (_claims, relevant, retrieved, label_only, rationalized, sentences_relevant,
         sentences_retrieved, selection, label, _label_correct) = row
        if len(self) > 100_000:
            self.clear()
        text = self[row] = (
            f"\tABSTRACT COUNTS:\trelevant {relevant}\tretrieved {retrieved}\tlabel_only "
            f"{label_only}\trationalized {rationalized}\n\tSENTENCE COUNTS:\trelevant "
            f"{sentences_relevant}\tretrieved {sentences_retrieved}\tselection {selection}\t"
            f"label {label}\n")
        return text


class _SentenceHeads(dict):
    """A whole number -> the head of its SENTENCE line, made once."""

    __slots__ = ()

    def __missing__(self, sentence: int) -> str:
        if len(self) > 100_000:
            self.clear()        # (sentence numbers are small; a file may hold others)
        head = self[sentence] = f"\tSENTENCE {sentence}:\t"
        return head


class _ShownHeads:
    """The head of a SENTENCE line of any sentence (its JSON)."""

    __slots__ = ()

    def __getitem__(self, sentence) -> str:
        return f"\tSENTENCE {show(sentence)}:\t"


def _joined(sets: int) -> str:
    """The end of a PREDICTED ABSTRACT line: how many sets were joined (evidence-sets shape)."""
    return f"\tjoined from {sets} set(s)" if sets else ""


_ALL_READ = "all predicted sentences"
_NOT_GOLD = "\tGOLD:\tNONE\tnot a gold abstract of this claim: retrieved, never correct\n"
_NOT_IN_GOLD = f"{ABSTRACT_NOT_IN_GOLD}\n"
_LABEL_WRONG = "\tRATIONALIZED:\tNO\tlabel wrong\n"
_REPEATED = f"{REPEATED}\tretrieved again, not counted again\n"
_NOT_IN = f"{NOT_IN_RATIONALE}\n"
_FOR_LABEL = "counts for label"
_NOT_FOR_LABEL = "not for label: label wrong"
_NOT_SCORED = f"labelled {NEI}: not scored"
