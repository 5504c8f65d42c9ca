"""Report texts of the claim tasks: pure functions from scored data to text.

Layouts follow the Cold Start family (``scorer/coldstart``, the Perl tables):

* ``.summary``: a header line, then one line per metric; columns left-justified
  and padded with spaces to the widest cell (the last one too), values
  ``%6.4f``;
* ``.debug``: per claim, a ``=`` rule, then one fact per line
  (``<TAB>NAME:<TAB>value``), predicted abstracts separated by ``.`` rules --
  no file paths or times, so two runs' debug files diff line by line;
* ``.params``: invocation, policy and a signature line (sacrebleu style);
* ``.samplescores``: ``Sample#`` and the metric names, one line per sample;
* ``.confidence``: percentile intervals at 99/95/90 %, the mean and the
  full-data score (``scr.``), values ``%0.4f``;
* ``.json``: the full-precision numbers (``json.dumps``: floats round-trip).
"""
from __future__ import annotations

import json

from scorer.version import __version__
from scorer.textfile import fingerprint_lines
from scorer.claims import fever as fever_task
from scorer.claims.jsonl import json_string, shows
from scorer.claims.metrics import Evaluation
from scorer.policy import Policy

#: typing.TYPE_CHECKING without importing typing (start-up time of a plain run).
TYPE_CHECKING = False
if TYPE_CHECKING:  # numpy is imported only by runs with samples
    from scorer.bootstrap import SampleSet

RULE = "=" * 80 + "\n"
SUBRULE = "." * 80 + "\n"
CONFIDENCE_HEADER = "99%(   95%(   90%(   mean   scr.   )90%   )95%   )99%"
#: Metric names are padded to at least this width in .confidence (the Cold Start codes' width).
CONFIDENCE_NAME_WIDTH = 20


def _limit_text(max_evidence: int | None) -> str:
    return "all" if max_evidence is None else str(max_evidence)


def signature(policy: Policy, settings: list, samples: SampleSet | None,
              seed: int | None) -> str:
    """What produced the numbers, in one line (sacrebleu style); ``settings``:
    (key, text) of the policy settings named besides the policy's digest."""
    return "|".join((
        f"scorer:{__version__}",
        f"task:{policy.task}",
        *(f"{key}:{text}" for key, text in settings),
        f"policy:{policy.digest()}",
        f"samples:{_samples_digest(samples)}",
        f"seed:{'none' if seed is None else seed}",
        f"B:{0 if samples is None else len(samples)}",
    ))


def _samples_digest(samples: SampleSet | None) -> str:
    if samples is None:
        return "none"
    if hasattr(samples, "digest"):          # resample.DrawnClaims: not kept
        return samples.digest()
    from scorer.bootstrap import samples_digest
    return samples_digest(samples)


def _table(header: tuple, rows: list) -> str:
    """Left-justified columns padded to the widest cell, one space apart."""
    widths = [max(len(str(cells[i])) for cells in [header, *rows]) for i in range(len(header))]
    return "".join(" ".join(str(cell).ljust(width) for cell, width in zip(cells, widths)) + "\n"
                   for cells in [header, *rows])


def summary_text(evaluation: Evaluation) -> str:
    """Every metric of the run with 4 decimals, registry order."""
    rows = [(name, "%6.4f" % value) for name, value in evaluation.metrics.items()]
    return _table(("Metric", "Score"), rows)


def json_text(evaluation: Evaluation, signature_line: str, units: str = "claims") -> str:
    """``units``: the word for what the task counts, the key of their number."""
    document = {"task": evaluation.task,
                units: len(evaluation.keys),
                "metrics": dict(evaluation.metrics),
                "signature": signature_line}
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def params_text(*, invocation: str, policy: Policy, settings: list, policy_file: str | None,
                files: tuple, samples_file: str | None, bootstrap: int | None,
                seed: int | None, signature_line: str) -> str:
    """``invocation``: ``cwd$ program arguments`` (Request.invocation);
    ``settings``: (key, text) of the policy's settings (Task.settings_text)."""
    lines = ["#Invoked as:", invocation, "", "#Policy Selected:", f"  task => {policy.task}"]
    lines += [f"  {key} => {text}" for key, text in settings]
    if policy_file:
        lines.append(f"  policy_file => {policy_file}")
    lines += ["", "#Files:"]
    roles = (("gold", "predictions") if len(files) == 2 else ("predictions",))
    lines += [f"  {role} => {path}" for role, path in zip(roles, files)]
    if samples_file is not None:
        lines += ["", "#Bootstrap:", f"  samples => {samples_file}"]
    elif bootstrap is not None:
        lines += ["", "#Bootstrap:", f"  bootstrap => {bootstrap}", f"  seed => {seed}"]
    inputs = [*files, *(p for p in (samples_file, policy_file) if p)]
    lines += [""] + fingerprint_lines(inputs)
    lines += ["", "#Signature:", signature_line]
    return "\n".join(lines) + "\n"


def samplescores_text(numbers: list, values) -> str:
    """``values``: a (samples x metrics) DataFrame; ``numbers``: the sample numbers."""
    names = list(values.columns)
    widths = [max(len(name), 6) for name in names]
    lines = [" ".join(["Sample#", *(name.rjust(w) for name, w in zip(names, widths))]) + "\n"]
    table = values.to_numpy()
    for number, row in zip(numbers, table):
        cells = [str(number).rjust(7)] + ["%0.4f" % v for v in row]
        lines.append(" ".join([cells[0], *(c.rjust(w) for c, w in zip(cells[1:], widths))])
                     + "\n")
    return "".join(lines)


def confidence_text(rows: list, names: list) -> str:
    """``rows`` from :func:`scorer.claims.resample.confidence_rows`."""
    width = max([CONFIDENCE_NAME_WIDTH, *(len(name) for name in names)])
    lines = [" " * (width + 2) + CONFIDENCE_HEADER + "\n"]
    for name, lows, mean, full, highs in rows:
        score = "     -" if full is None else "%0.4f" % full
        cells = [*("%0.4f" % v for v in lows), "%0.4f" % mean, score,
                 *("%0.4f" % v for v in highs)]
        lines.append(name.ljust(width) + " " + " ".join(cells) + "\n")
    return "".join(lines)


# ---------------------------------------------------------------- .debug

def debug_text(evaluation: Evaluation) -> str:
    return "".join(debug_pieces(evaluation))


def debug_pieces(evaluation: Evaluation):
    """The ``.debug`` text piece by piece (a claim a piece), for writing it
    without holding it whole: it is the largest report by far.  Each claim's
    text is made as it is scored (``evaluation.debug``; SciFact's layout in
    ``scorer.claims.scifact._Scorer``), else from FEVER outcomes."""
    max_evidence = evaluation.max_evidence
    yield (f"#{evaluation.task}: {len(evaluation.keys)} claim(s), "
           f"max_evidence {_limit_text(max_evidence)}\n")
    if evaluation.debug is not None:
        yield from evaluation.debug.pieces()
        return
    yield from map(_FeverDebug(max_evidence).claim, evaluation.outcomes)


def _fact(name: str, *values) -> str:
    return "\t" + name + ":\t" + "\t".join(map(str, values)) + "\n"


class _FeverDebug:
    """The .debug text of FEVER claims.  Ten thousand claims make a .debug:
    each outcome is unpacked once, its lines are f-strings of text (no number
    formatted twice: the lines' heads and the texts that depend only on
    max_evidence are made once), and its predicted sentences are shown by
    one :func:`shows` call."""

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

    def claim(self, outcome: fever_task.ClaimOutcome) -> str:
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
_NOT_SCORED = f"NOT SCORED (gold label {fever_task.NEI})"
_LABEL_WRONG = "\tSTRICT:\tNO\tlabel wrong\n"
_NO_GROUP = "\tSTRICT:\tNO\tgold evidence is empty: no group to complete\n"
_NOT_VERIFIABLE = (_fact("PRECISION", "not counted", f"gold label {fever_task.NEI}")
                   + _fact("RECALL", "not counted", f"gold label {fever_task.NEI}"))
#: The end of a claim whose gold label is NOT ENOUGH INFO, label right and wrong.
_NEI_RIGHT = (f"\tSTRICT:\tYES\tlabel right; {fever_task.NEI} needs no evidence\n"
              + _NOT_VERIFIABLE)
_NEI_WRONG = _LABEL_WRONG + _NOT_VERIFIABLE


def _fever_in_gold(groups: tuple, in_gold: bool) -> str:
    """The verdict on a sentence read that is in gold groups ``groups``."""
    if in_gold:
        return f"IN GOLD (group{'s' if len(groups) > 1 else ''} {', '.join(map(str, groups))})"
    return "IN GOLD GROUP WITH A NULL LINE (not counted by precision)"
