"""Bootstrap resampling of a Cold Start run (spec §6): every sample's
aggregates, for all entry points (ALLEP) and for the first entry point of
each drawn LDC query (ONEEP), gathered from the counts table through one
multiplicity matrix per block of samples.
"""
from __future__ import annotations

from scorer.coldstart import ids
from scorer.coldstart.projections import MACRO, MICRO, all_aggregates, full_data
from scorer.progress import Progress

MODES = (("ONEEP", True), ("ALLEP", False))
VARIANT_CODES = (("LDCMAX", "LDCMAXI"), ("LDCMEAN", "LDCMEAN"), ("SF", "SLOTFLG"))
AGGREGATE_CODES = ((MICRO, "Mi"), (MACRO, "Ma"))
LEVEL_CODES = (("0", "0"), ("1", "1"), ("ALL", "A"))
METRIC_CODES = (("p", "P"), ("r", "R"), ("f", "F"))
#: Sample-by-row cells computed at once: bounds memory (about 20 bytes a cell
#: at the peak) whatever the number of samples; larger blocks mean fewer
#: passes of the row loops.
_BLOCK_CELLS = 25_000_000


#: ONEEP reports only SF codes (spec §6.4), so only SF is resampled for it.
_VARIANTS_OF_MODE = {"ONEEP": ("SF",), "ALLEP": ("SF", "LDCMAX", "LDCMEAN")}


def _skipped(code: str) -> bool:
    """Codes the Perl does not report (spec §6.4)."""
    return (code[5:].startswith("_LDCMEAN_Mi") or code.startswith("ONEEP_LDCMAXI")
            or code.startswith("ONEEP_LDCMEAN_Ma"))


def codes() -> list:
    """``.samplescores`` columns in the Perl's nested order (63 codes)."""
    result = []
    for mode, _first in MODES:
        for variant, variant_code in VARIANT_CODES:
            for aggregate, aggregate_code in AGGREGATE_CODES:
                for level, level_code in LEVEL_CODES:
                    for metric, metric_code in METRIC_CODES:
                        code = f"{mode}_{variant_code}_{aggregate_code}_{level_code}_{metric_code}"
                        if not _skipped(code):
                            result.append((code, mode, variant, aggregate, level, metric))
    return result


def _formatted(aggregates: dict, variant, aggregate, level, metric) -> list:
    """The 4-decimal cell text per sample, None where the line does not exist."""
    line = aggregates.get((variant, aggregate, level))
    if line is None:
        return None
    values = getattr(line, metric)
    return ["%6.4f" % value if exists else None for value, exists in zip(values, line.exists)]


def sample_values(structure, samples, show_progress: bool = False) -> dict:
    """code -> list (one per sample, numeric order) of value texts or None."""
    table = {code: [] for code, *_ in codes()}
    n_samples = len(samples)
    block = max(1, _BLOCK_CELLS // max(structure.n_rows, 1))
    progress = Progress("bootstrap", n_samples * len(MODES), enabled=show_progress)
    for mode, first_only in MODES:
        for start in range(0, n_samples, block):
            stop = min(start + block, n_samples)
            multiplicity = samples.multiplicities(structure.sf_ids, first_only=first_only,
                                                  key=_short_id, start=start, stop=stop)
            aggregates = all_aggregates(structure, multiplicity, _VARIANTS_OF_MODE[mode])
            for code, code_mode, variant, aggregate, level, metric in codes():
                if code_mode != mode:
                    continue
                texts = _formatted(aggregates, variant, aggregate, level, metric)
                table[code].extend(texts if texts is not None else [None] * (stop - start))
            progress.advance(stop - start)
    progress.done()
    return table


def original_values(structure) -> dict:
    """code -> the full-data value text (ALLEP codes whose line exists)."""
    aggregates = all_aggregates(structure, full_data(structure))
    result = {}
    for code, mode, variant, aggregate, level, metric in codes():
        if mode != "ALLEP":
            continue
        texts = _formatted(aggregates, variant, aggregate, level, metric)
        if texts is not None and texts[0] is not None:
            result[code] = texts[0]
    return result


def _short_id(full_id: str) -> str:
    return ids.parse_query_id(full_id).short_id


def missing_codes(values: dict) -> list:
    return [code for code, texts in values.items() if any(t is None for t in texts)]


#: AP codes of ``.apconfidence``: (code, variant, level), the .samplescores naming.
AP_CODES = tuple((f"ALLEP_{variant_code}_Ma_{level_code}_AP", variant, level)
                 for variant, variant_code in (("LDCMEAN", "LDCMEAN"), ("SF", "SLOTFLG"))
                 for level, level_code in LEVEL_CODES)


def ap_sample_values(run_units, samples) -> tuple:
    """Per AP code (levels present only): the value text per sample, and the
    full-data text.  The Perl's bootstrap covers P/R/F1 only; the AP macro
    means are resampled here from the per-query AP values, each drawn LDC
    query counting once per draw."""
    from scorer import statistic
    from scorer.coldstart.units import BY_NAME
    values, originals = {}, {}
    metric_of = {"SF": BY_NAME["sf_ap"], "LDCMEAN": BY_NAME["ldcmean_ap"]}
    for code, variant, level in AP_CODES:
        full = run_units.ap_levels(variant)
        if level not in full:
            continue
        unit_statistic = run_units.statistic(metric_of[variant], level)
        weights = samples.group_multiplicities(unit_statistic.units)
        sampled = statistic.values(unit_statistic, weights)
        values[code] = ["%6.4f" % value for value in sampled]
        originals[code] = "%6.4f" % full[level]
    return values, originals
