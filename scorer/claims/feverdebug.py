"""FEVER's ``.debug``: the text of a claim scored, from its outcome
(``fever.score_claim``), made as ``feverpass`` scores the claims.

Per claim: a ``=`` rule and the claim's line, then one fact per line
(``<TAB>NAME:<TAB>value``): the gold label and where it came from, the
predicted label, the gold groups, every predicted sentence with its verdict,
and the strict, precision and recall verdicts with why.
"""
from __future__ import annotations

from scorer.claims.fever import NEI, ClaimOutcome
from scorer.countstable.jsonl import json_string, shows
from scorer.countstable.reports import RULE


def _fact(name: str, *values) -> str:
    return "\t" + name + ":\t" + "\t".join(map(str, values)) + "\n"


class FeverDebug:
    """The .debug text of FEVER claims.  Ten thousand claims make a .debug:
    each outcome is unpacked once, its lines are f-strings of text (no number
    formatted twice: the lines' heads and the texts that depend only on
    max_evidence are made once), and its predicted sentences are shown by
    one :func:`~scorer.countstable.jsonl.shows` call."""

    def __init__(self, max_evidence: int | None):
        read_limit = "all" if max_evidence is None else f"the first {max_evidence}"
        self.not_read = f"NOT READ (beyond {read_limit})"
        self.strict_head = f"complete among {read_limit} predicted sentences\n"
        self.not_strict = (f"\tSTRICT:\tNO\tno gold group complete among {read_limit} "
                           f"predicted sentences\n")
        #: "\tPREDICTED N:\t" for N = 1, 2, ... (grown as claims need)
        self.heads: list = []
        #: The lines of N predicted [page, line] pairs as one %-format, by N.
        self.predicted_formats: dict = {}
        #: The GOLD GROUP lines of groups of [page, line] pairs as one %-format,
        #: by the groups' sizes.
        self.group_formats: dict = {}

    # A claim's predicted sentences, and its gold groups, are written by one
    # %-format of all their lines when every sentence is a [page (string),
    # line (whole number)] pair, as nearly all are: the format is made once
    # per shape, and each sentence costs a string encoding, not a line of its
    # own.  Anything else is shown as json.dumps shows it (shows).

    def predicted_lines(self, predicted: list, verdicts: list) -> str:
        """A line per predicted sentence: its number, the sentence, its verdict."""
        cells = []
        for sentence, verdict in zip(predicted, verdicts):
            if type(sentence) is list and len(sentence) == 2:
                page, line = sentence
                # (exact types: %r of a bool, a subclass of int, is not its JSON)
                if type(page) is str and type(line) is int:
                    cells += (json_string(page), line, verdict)
                    continue
            heads = self.heads
            while len(heads) < len(predicted):
                heads.append(f"\tPREDICTED {len(heads) + 1}:\t")
            return "".join([f"{head}{text}\t{verdict}\n"
                            for head, text, verdict in zip(heads, shows(predicted), verdicts)])
        form = self.predicted_formats.get(len(predicted))
        if form is None:
            form = self.predicted_formats[len(predicted)] = "".join(
                f"\tPREDICTED {number}:\t[%s, %r]\t%s\n"
                for number in range(1, len(predicted) + 1))
        return form % tuple(cells)

    def gold_groups(self, groups: tuple) -> str:
        """A line per gold evidence group: its number and its sentences."""
        cells = []
        for group in groups:
            for page, line in group:        # (gold sentences are [page, line] slices)
                if type(page) is str and type(line) is int:
                    cells += (json_string(page), line)
                    continue
                return "".join([f"\tGOLD GROUP {number}:\t"
                                f"{_TAB.join(shows(group)) if group else '(empty)'}\n"
                                for number, group in enumerate(groups, 1)])
        sizes = tuple(map(len, groups))
        form = self.group_formats.get(sizes)
        if form is None:
            form = self.group_formats[sizes] = "".join(
                f"\tGOLD GROUP {number}:\t{_TAB.join(['[%s, %r]'] * size) or '(empty)'}\n"
                for number, size in enumerate(sizes, 1))
        return form % tuple(cells)

    def claim(self, outcome: ClaimOutcome) -> str:
        (_key, line, name, gold_source, inline, label, predicted_label, label_right, verifiable,
         groups, predicted, n_read, matched, strict, group, c) = outcome
        origin = "inline" if inline else f"gold line {gold_source[1]}"
        out = [f"{RULE}CLAIM {name}\tpredictions line {line}\n"
               f"\tGOLD LABEL:\t{label}\t{origin}\t"
               f"{'verifiable' if verifiable else 'not verifiable'}\n"
               f"\tPREDICTED LABEL:\t{predicted_label}\t{'RIGHT' if label_right else 'WRONG'}\n"]
        if verifiable:
            if not groups:
                out.append("\tGOLD EVIDENCE:\tnone\n")
            out.append(self.gold_groups(groups))
            verdicts = ["NOT IN GOLD"] * n_read
            for position, holders, in_gold in matched:
                verdicts[position - 1] = _fever_in_gold(holders, in_gold)
        else:
            verdicts = [_NOT_SCORED] * n_read
        if len(predicted) > n_read:
            verdicts += [self.not_read] * (len(predicted) - n_read)
        out.append(self.predicted_lines(predicted, verdicts))
        if not verifiable:
            out.append(_NEI_RIGHT if label_right else _NEI_WRONG)
            return "".join(out)
        if strict:
            out.append(f"\tSTRICT:\tYES\tgold group {group} {self.strict_head}")
        elif not label_right:
            out.append(_LABEL_WRONG)
        elif not groups:
            out.append(_NO_GROUP)
        else:
            out.append(self.not_strict)
        if c.evidence_read:
            out.append(f"\tPRECISION:\t{c.precision:.4f}\t{c.evidence_in_gold} of "
                       f"{c.evidence_read} sentences read in the gold evidence\n")
        else:
            out.append(_fact("PRECISION", "%.4f" % c.precision, "no sentence read"))
        if not groups:
            out.append(_fact("RECALL", c.recall, "gold evidence is empty"))
        elif group is not None:
            out.append(f"\tRECALL:\t{c.recall}\tgold group {group} complete "
                       f"among the sentences read\n")
        else:
            out.append(f"\tRECALL:\t{c.recall}\tno gold group complete among the "
                       f"sentences read\n")
        return "".join(out)


_TAB = "\t"
_NOT_SCORED = f"NOT SCORED (gold label {NEI})"
_LABEL_WRONG = "\tSTRICT:\tNO\tlabel wrong\n"
_NO_GROUP = "\tSTRICT:\tNO\tgold evidence is empty: no group to complete\n"
_NOT_VERIFIABLE = (_fact("PRECISION", "not counted", f"gold label {NEI}")
                   + _fact("RECALL", "not counted", f"gold label {NEI}"))
#: The end of a claim whose gold label is NOT ENOUGH INFO, label right and wrong.
_NEI_RIGHT = (f"\tSTRICT:\tYES\tlabel right; {NEI} needs no evidence\n"
              + _NOT_VERIFIABLE)
_NEI_WRONG = _LABEL_WRONG + _NOT_VERIFIABLE


def _fever_in_gold(groups: tuple, in_gold: bool) -> str:
    """The verdict on a sentence read that is in gold groups ``groups``."""
    if in_gold:
        return f"IN GOLD (group{'s' if len(groups) > 1 else ''} {', '.join(map(str, groups))})"
    return "IN GOLD GROUP WITH A NULL LINE (not counted by precision)"
