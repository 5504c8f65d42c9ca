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
from typing import TYPE_CHECKING, Optional

import scorer
from scorer.textfile import fingerprint_lines
from scorer.claims import fever as fever_task
from scorer.claims import scifact as scifact_task
from scorer.claims.jsonl import show, shows
from scorer.claims.metrics import Evaluation, metrics_of
from scorer.policy import Policy

if TYPE_CHECKING:  # numpy is imported only by runs with samples
    from scorer.bootstrap import SampleSet

RULE = "=" * 80 + "\n"
SUBRULE = "." * 80 + "\n"
CONFIDENCE_HEADER = "99%(   95%(   90%(   mean   scr.   )90%   )95%   )99%"
#: Metric names are padded to at least this width in .confidence (the Cold Start codes' width).
CONFIDENCE_NAME_WIDTH = 20


def _limit_text(max_evidence: Optional[int]) -> str:
    return "all" if max_evidence is None else str(max_evidence)


def signature(policy: Policy, samples: Optional[SampleSet], seed: Optional[int]) -> str:
    """What produced the numbers, in one line (sacrebleu style)."""
    return "|".join((
        f"scorer:{scorer.__version__}",
        f"task:{policy.task}",
        f"max_evidence:{_limit_text(policy.max_evidence)}",
        f"policy:{policy.digest()}",
        f"samples:{_samples_digest(samples)}",
        f"seed:{'none' if seed is None else seed}",
        f"B:{0 if samples is None else len(samples)}",
    ))


def _samples_digest(samples: Optional[SampleSet]) -> str:
    if samples is None:
        return "none"
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


def json_text(evaluation: Evaluation, signature_line: str) -> str:
    document = {"task": evaluation.task,
                "claims": len(evaluation.keys),
                "metrics": dict(evaluation.metrics),
                "signature": signature_line}
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def params_text(*, program: str, argv: tuple, cwd: str, policy: Policy,
                policy_file: Optional[str], files: tuple, samples_file: Optional[str],
                bootstrap: Optional[int], seed: Optional[int], signature_line: str) -> str:
    invocation = " ".join([program, *argv])
    lines = ["#Invoked as:", f"{cwd}$ {invocation}", "", "#Policy Selected:",
             f"  task => {policy.task}",
             f"  max_evidence => {_limit_text(policy.max_evidence)}",
             f"  labels => {':'.join(policy.labels)}"]
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


def metric_names(task: str) -> list:
    return [metric.name for metric in metrics_of(task)]


# ---------------------------------------------------------------- .debug

def debug_text(evaluation: Evaluation) -> str:
    return "".join(debug_pieces(evaluation))


def debug_pieces(evaluation: Evaluation):
    """The ``.debug`` text piece by piece (a claim a piece), for writing it
    without holding it whole: it is the largest report by far."""
    writer = _scifact_claim if evaluation.task == "scifact" else _fever_claim
    yield (f"#{evaluation.task}: {len(evaluation.keys)} claim(s), "
           f"max_evidence {_limit_text(evaluation.max_evidence)}\n")
    max_evidence = evaluation.max_evidence
    for outcome in evaluation.outcomes:
        yield writer(outcome, max_evidence)


def _fact(name: str, *values) -> str:
    return "\t" + name + ":\t" + "\t".join(map(str, values)) + "\n"


def _rationales(gold: "scifact_task.GoldAbstract") -> str:
    return " ".join(shows(gold.rationales))


def _scifact_claim(outcome: "scifact_task.ClaimOutcome", max_evidence) -> str:
    gold, predicted = outcome.gold, outcome.predicted
    out = [RULE, f"CLAIM {show(gold.id) if not isinstance(gold.id, str) else gold.id}"
           f"\tgold line {gold.line}\tpredictions line {predicted.line}\n"]
    out.append(_fact("GOLD LABEL", outcome.gold_label))
    source = "top-level label" if predicted.label is not None else "from predicted abstracts"
    out.append(_fact("PREDICTED LABEL", outcome.predicted_label, source,
                     "RIGHT" if outcome.counts["label_correct"] else "WRONG"))
    for abstract in gold.abstracts.values():
        out.append(_fact("GOLD ABSTRACT", abstract.doc, abstract.label,
                         "rationales " + _rationales(abstract)))
    for abstract in outcome.abstracts:
        out.append(SUBRULE)
        out += _scifact_abstract(abstract)
    for abstract in predicted.dropped:
        out.append(SUBRULE)
        out.append(_fact("DROPPED ABSTRACT", abstract.doc, abstract.label,
                         "sentences " + show(list(abstract.sentences)),
                         f"labelled {scifact_task.NEI}: not scored"))
    if outcome.abstracts or predicted.dropped:
        out.append(SUBRULE)
    for abstract in outcome.missed:
        out.append(_fact("MISSED GOLD ABSTRACT", abstract.doc, abstract.label,
                         "rationales " + _rationales(abstract)))
    c = outcome.counts
    out.append(_fact("ABSTRACT COUNTS", f"relevant {c['abstract_relevant']}",
                     f"retrieved {c['abstract_retrieved']}",
                     f"label_only {c['abstract_correct_label_only']}",
                     f"rationalized {c['abstract_correct_rationalized']}"))
    out.append(_fact("SENTENCE COUNTS", f"relevant {c['sentence_relevant']}",
                     f"retrieved {c['sentence_retrieved']}",
                     f"selection {c['sentence_correct_selection']}",
                     f"label {c['sentence_correct_label']}"))
    return "".join(out)


def _scifact_abstract(outcome: "scifact_task.AbstractOutcome") -> list:
    predicted, gold = outcome.predicted, outcome.gold
    joined = f"joined from {predicted.sets} set(s)" if predicted.sets else ""
    out = [_fact("PREDICTED ABSTRACT", predicted.doc, predicted.label,
                 "sentences " + show(list(predicted.sentences)), *([joined] if joined else []))]
    if gold is None:
        out.append(_fact("GOLD", "NONE", "not a gold abstract of this claim: retrieved, "
                                         "never correct"))
    else:
        out.append(_fact("GOLD", gold.doc, gold.label, "rationales " + _rationales(gold)))
        out.append(_fact("LABEL", "RIGHT" if outcome.label_right else "WRONG"))
        if not outcome.label_right:
            out.append(_fact("RATIONALIZED", "NO", "label wrong"))
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
    for sentence in outcome.sentences:
        out.append(_fact(f"SENTENCE {show(sentence.sentence)}", *_sentence_verdict(
            sentence, outcome.label_right)))
    return out


def _sentence_verdict(sentence: "scifact_task.SentenceOutcome", label_right: bool) -> tuple:
    verdict = sentence.verdict
    if verdict == scifact_task.CORRECT:
        return (verdict, f"rationale {show(list(sentence.rationale))} wholly predicted",
                "counts for label" if label_right else "not for label: label wrong")
    if verdict == scifact_task.INCOMPLETE:
        return (verdict, f"rationale {show(list(sentence.rationale))} lacks "
                         f"{show(list(sentence.missing))}")
    if verdict == scifact_task.REPEATED:
        return (verdict, "retrieved again, not counted again")
    return (verdict,)


def _fever_claim(outcome: "fever_task.ClaimOutcome", max_evidence) -> str:
    # Lines written as f-strings (not _fact): ten thousand claims make a .debug.
    name = outcome.id if isinstance(outcome.id, str) else show(outcome.id)
    origin = "inline" if outcome.inline else f"gold line {outcome.gold_source[1]}"
    verifiable = outcome.verifiable
    out = [RULE, f"CLAIM {name}\tpredictions line {outcome.line}\n"
                 f"\tGOLD LABEL:\t{outcome.label}\t{origin}\t"
                 f"{'verifiable' if verifiable else 'not verifiable'}\n"
                 f"\tPREDICTED LABEL:\t{outcome.predicted_label}\t"
                 f"{'RIGHT' if outcome.label_right else 'WRONG'}\n"]
    if verifiable:
        if not outcome.groups:
            out.append(_fact("GOLD EVIDENCE", "none"))
        out += [f"\tGOLD GROUP {number}:\t"
                f"{chr(9).join(shows(group)) if group else '(empty)'}\n"
                for number, group in enumerate(outcome.groups, 1)]
    read_limit = "all" if max_evidence is None else f"the first {max_evidence}"
    out += [f"\tPREDICTED {sentence.position}:\t{text}\t"
            f"{_fever_sentence_verdict(sentence, outcome, read_limit)}\n"
            for sentence, text in zip(outcome.sentences,
                                      shows([s.sentence for s in outcome.sentences]))]
    out.append(_fact("STRICT", *_fever_strict(outcome, read_limit)))
    c = outcome.counts
    if verifiable:
        if c["evidence_read"]:
            out.append(f"\tPRECISION:\t{c['precision']:.4f}\t{c['evidence_in_gold']} of "
                       f"{c['evidence_read']} sentences read in the gold evidence\n")
        else:
            out.append(_fact("PRECISION", "%.4f" % c["precision"], "no sentence read"))
        if not outcome.groups:
            out.append(_fact("RECALL", c["recall"], "gold evidence is empty"))
        elif outcome.group is not None:
            out.append(f"\tRECALL:\t{c['recall']}\tgold group {outcome.group} complete "
                       f"among the sentences read\n")
        else:
            out.append(f"\tRECALL:\t{c['recall']}\tno gold group complete among the "
                       f"sentences read\n")
    else:
        out.append(_NOT_VERIFIABLE)
    return "".join(out)


_NOT_VERIFIABLE = (_fact("PRECISION", "not counted", f"gold label {fever_task.NEI}")
                   + _fact("RECALL", "not counted", f"gold label {fever_task.NEI}"))


def _fever_sentence_verdict(sentence, outcome, read_limit: str) -> str:
    if not sentence.read:
        return f"NOT READ (beyond {read_limit})"
    if not outcome.verifiable:
        return f"NOT SCORED (gold label {fever_task.NEI})"
    if sentence.in_gold:
        groups = ", ".join(str(g) for g in sentence.groups)
        return f"IN GOLD (group{'s' if len(sentence.groups) > 1 else ''} {groups})"
    if sentence.groups:
        return "IN GOLD GROUP WITH A NULL LINE (not counted by precision)"
    return "NOT IN GOLD"


def _fever_strict(outcome, read_limit: str) -> tuple:
    if not outcome.label_right:
        return ("NO", "label wrong")
    if not outcome.verifiable:
        return ("YES", f"label right; {fever_task.NEI} needs no evidence")
    if outcome.strict:
        return ("YES", f"gold group {outcome.group} complete among {read_limit} predicted "
                       f"sentences")
    if not outcome.groups:
        return ("NO", "gold evidence is empty: no group to complete")
    return ("NO", f"no gold group complete among {read_limit} predicted sentences")
