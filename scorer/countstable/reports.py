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
from scorer.countstable.evaluation import Evaluation
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
    from scorer.bootstrap import samples_digest     # (numpy: with samples alone)
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
    """``rows`` from :func:`scorer.countstable.resample.confidence_rows`."""
    width = max([CONFIDENCE_NAME_WIDTH, *(len(name) for name in names)])
    lines = [" " * (width + 2) + CONFIDENCE_HEADER + "\n"]
    for name, lows, mean, full, highs in rows:
        score = "     -" if full is None else "%0.4f" % full
        cells = [*("%0.4f" % v for v in lows), "%0.4f" % mean, score,
                 *("%0.4f" % v for v in highs)]
        lines.append(name.ljust(width) + " " + " ".join(cells) + "\n")
    return "".join(lines)


# ---------------------------------------------------------------- .debug

def debug_pieces(evaluation: Evaluation):
    """The ``.debug`` text piece by piece (a claim a piece), for writing it
    without holding it whole: it is the largest report by far.  Each claim's
    text is made as it is scored (``evaluation.debug``: SciFact's layout in
    ``scorer.claims.scifact._Scorer``, FEVER's in ``scorer.claims.feverdebug``)."""
    yield (f"#{evaluation.task}: {len(evaluation.keys)} claim(s), "
           f"max_evidence {_limit_text(evaluation.max_evidence)}\n")
    yield from evaluation.debug.pieces()
