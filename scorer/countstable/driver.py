"""The driver of the tasks scored from a per-unit counts table (SciFact,
FEVER, and any task whose record declares it so): a Request in, the report
texts out.

``score(request, problems)`` has the task's record read and score the files
(``Task.evaluate``: an :class:`~scorer.countstable.evaluation.Evaluation`),
resamples when asked, and returns the reports in write order (``.summary``,
``.debug`` written by the record, ``.json``, ``.params``, then the bootstrap's);
the caller writes them (atomically) and the error log.  Fatal input problems
raise :class:`~scorer.problems.ScorerError`.
"""
from __future__ import annotations

from scorer import registry
from scorer.countstable import reports
from scorer.countstable.evaluation import Evaluation
from scorer.limits import shorten
from scorer.problems import Problems, ScorerError
from scorer.reportset import Reports
from scorer.textfile import hash_in_background

#: typing.TYPE_CHECKING without importing typing (start-up time of a plain run).
TYPE_CHECKING = False
if TYPE_CHECKING:  # numpy and pandas are imported only by runs with samples
    from scorer.bootstrap import SampleSet

def sample_set(request, evaluation: Evaluation) -> tuple[SampleSet | None, bool]:
    """The samples asked for, and whether they were generated here (not read)."""
    if request.samples is not None and request.bootstrap is not None:
        raise ScorerError("give -samples FILE or -bootstrap N, not both")
    if request.samples is not None:
        # The samples' modules (numpy) here and below: a plain claims run
        # imports none of them (tests/e2e/test_imports.py).
        from scorer.bootstrap import read_samples
        hash_in_background(request.samples)     # for .params, while it is parsed
        return read_samples(request.samples), False
    if request.bootstrap is not None:
        if request.bootstrap < 0:
            raise ScorerError("the number of bootstrap samples must not be negative")
        from scorer.bootstrap import MAX_DRAWS, generate       # (see -samples above)
        if request.bootstrap * len(evaluation.keys) > MAX_DRAWS and \
                request.bootstrap <= resample_bound():
            from scorer.countstable.resample import DrawnClaims    # (as above)
            return DrawnClaims(evaluation.keys, request.bootstrap, request.seed), True
        groups = [(key, (key,)) for key in evaluation.keys]
        return generate(groups, request.bootstrap, request.seed), True
    return None, False


def resample_bound() -> int:
    """The most samples drawn without keeping them (``resample.DrawnClaims``):
    many claims, not many samples, are what it is for; more samples than this
    are refused as too many draws (their values and reports grow with them)."""
    from scorer.countstable.resample import DrawnClaims    # (see sample_set)
    return DrawnClaims.MAX_SAMPLES


#: Sample-by-claim cells of one block: the multiplicities of a block take 8
#: bytes a cell, so memory does not grow with the number of samples beyond
#: the values kept.
_BLOCK_CELLS = 4_000_000


def _sample_values(evaluation: Evaluation, samples: SampleSet):
    """Every metric for every sample, a block of samples at a time."""
    # (pandas and the resampling with samples alone: see sample_set)
    import pandas as pd
    from scorer.countstable import resample
    n_samples = len(samples)
    block = max(1, _BLOCK_CELLS // max(len(evaluation.keys), 1))
    # How each column is summed, decided once for all the blocks.
    plan = resample.ColumnPlan(evaluation.counts, resample.summed_columns(evaluation.declared))
    parts = [resample.sample_values(evaluation.declared, evaluation.counts,
                                    samples.multiplicities(evaluation.keys, start=start,
                                                           stop=min(start + block, n_samples)),
                                    plan)
             for start in range(0, n_samples, block)] or [
        resample.sample_values(evaluation.declared, evaluation.counts,
                               samples.multiplicities(evaluation.keys))]
    return pd.concat(parts, ignore_index=True) if len(parts) > 1 else parts[0]


def check_sample_ids(samples: SampleSet, path: str, keys: list, key_source: str,
                     gold_path: str, unit: str = "claim") -> None:
    """A samples file must hold samples, each drawing claims (``unit``: the
    task's word for them) of the gold (``keys``, from ``Task.gold_keys`` or
    the run's evaluation), one plain claim id a token.  Samples of another
    split or of redacted ids drew nothing, and their empty samples gave
    intervals of [0, 0] around any score.  Refused with the file, line and
    id, as Cold Start refuses samples of unknown queries."""
    if not len(samples):
        # scorer.samples refuses 0 samples for the same reason: intervals of nothing.
        raise ScorerError(f"{path}: no samples; expected lines "
                          f"'NUMBER {unit.upper()}_ID {unit.upper()}_ID ...'")
    known = set(keys)
    for element, (source, line) in zip(samples.elements, samples.origins):
        if element.members == (element.group,) and element.group in known:
            continue
        shown = ", ".join(keys[:3]) + (", ..." if len(keys) > 3 else "")
        how = (" (by gold line number: the ids are not unique or hold a blank, ':' or ',')"
               if key_source == "line" else "")
        article = "an" if unit[:1] in "aeiou" else "a"
        raise ScorerError(f"{source} line {line}: '{shorten(element.text())}' is not {article} "
                          f"{unit} of the gold ({gold_path}), whose {unit}s a samples file names as "
                          f"{shown}{how}")
    for number, draw, line in zip(samples.numbers, samples.draws, samples.line_numbers):
        if not len(draw):
            raise ScorerError(f"{path} line {line}: sample {number} draws no {unit}; a sample "
                              f"draws {unit}s of the gold, as many as it has")


class Outcome:
    """A scored run: its reports, its evaluation, and the samples used (or None)."""

    __slots__ = ("reports", "evaluation", "samples")

    def __init__(self, reports: Reports, evaluation: Evaluation,
                 samples: SampleSet | None = None):
        self.reports = reports
        self.evaluation = evaluation
        self.samples = samples


def run(request, problems: Problems) -> Reports:
    """Score one run: the reports, in write order."""
    return score(request, problems).reports


def score(request, problems: Problems, samples: SampleSet | None = None) -> Outcome:
    """Score one run: the reports and the evaluation (``samples``: the
    request's samples when the caller has read or drawn them already)."""
    policy = request.policy
    record = registry.get(policy.task)
    if request.bootstrap is not None and request.seed is None:
        raise ScorerError("-bootstrap needs -seed S, so that the samples can be drawn again")
    evaluation = record.evaluate(policy, request.files, problems)
    if samples is None:
        samples, generated = sample_set(request, evaluation)
    else:
        generated = request.bootstrap is not None
    if samples is not None and not generated:
        check_sample_ids(samples, request.samples, evaluation.keys, evaluation.key_source,
                         evaluation.files[0], record.unit)
    seed = request.seed if generated else None
    settings = record.settings_text(policy)
    signature = reports.signature(policy, [(key, text) for key, text in settings
                                           if key in record.signature_keys], samples, seed)
    texts = [
        ("summary", reports.summary_text(evaluation)),
        ("debug", lambda: record.debug_pieces(evaluation)),
        ("json", reports.json_text(evaluation, signature, record.units)),
        ("params", reports.params_text(
            invocation=request.invocation(), policy=policy, settings=settings,
            policy_file=request.policy_file, files=evaluation.files,
            samples_file=request.samples, bootstrap=request.bootstrap if generated else None,
            seed=seed, signature_line=signature)),
    ]
    if samples is None:
        return Outcome(Reports.from_pairs(texts), evaluation)
    from scorer.countstable import resample    # (see sample_set)
    drawn = isinstance(samples, resample.DrawnClaims)
    values = samples.values(evaluation.declared, evaluation.columns) if drawn else \
        _sample_values(evaluation, samples)
    rows = resample.confidence_rows(values, evaluation.metrics)
    names = [metric.name for metric in evaluation.declared]
    texts.append(("samplescores", reports.samplescores_text(samples.numbers, values)))
    texts.append(("confidence", reports.confidence_text(rows, names)))
    if drawn:
        problems.record("CLAIM_WARNING",
                        f"{len(samples):,} samples of {len(evaluation.keys):,} {record.units} are "
                        f"{len(samples) * len(evaluation.keys):,} draws: too many to write to "
                        f".bootsamples (as text, several GB), which is not written; the same "
                        f"-bootstrap and -seed draw the same samples again")
    elif generated:
        texts.append(("bootsamples", samples.lines))
    return Outcome(Reports.from_pairs(texts), evaluation, samples)
