"""Bootstrap resampling of a Cold Start run (spec §6): every sample's
aggregates, for all entry points (ALLEP) and for the first entry point of
each drawn LDC query (ONEEP), gathered from the counts table through one
multiplicity matrix per block of samples.
"""
from __future__ import annotations

import numpy as np

from scorer import processenv, unitstatistic
from scorer.coldstart import ids
from scorer.coldstart.metrics import BY_NAME
from scorer.coldstart.projections import MACRO, MICRO, all_aggregates, full_data
from scorer.progress import Progress

MODES = (("ONEEP", True), ("ALLEP", False))
VARIANT_CODES = (("LDCMAX", "LDCMAXI"), ("LDCMEAN", "LDCMEAN"), ("SF", "SLOTFLG"))
AGGREGATE_CODES = ((MICRO, "Mi"), (MACRO, "Ma"))
LEVEL_CODES = (("0", "0"), ("1", "1"), ("ALL", "A"))
METRIC_CODES = (("p", "P"), ("r", "R"), ("f", "F"))
#: Sample-by-row cells computed at once: bounds memory (about 14 bytes a cell
#: at the peak: 10,000 samples of 2,000 LDC queries, 11,667 rows, take 830 MB
#: in all) whatever the number of samples; larger blocks mean fewer passes of
#: the row loops (4 blocks there, not 5).
_BLOCK_CELLS = 30_000_000
#: ... and at most this many samples a block: the aggregates of a block hold
#: a few hundred bytes a sample whatever the number of rows.
_BLOCK_SAMPLES = 50_000


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


def round4(values) -> np.ndarray:
    """Each value as the number its ``%.4f`` text stands for (what the Perl
    adds and sorts), computed without formatting a text per value: exact,
    because only values within a hair of a rounding tie are formatted."""
    values = np.asarray(values, dtype=np.float64)
    scaled = values * 1e4
    rounded = np.rint(scaled) / 1e4
    near_tie = np.abs(scaled - np.floor(scaled) - 0.5) < 1e-6
    for i in np.flatnonzero(near_tie):
        rounded[i] = float("%.4f" % values[i])
    return rounded


def _rounded(aggregates: dict, variant, aggregate, level, metric):
    """The 4-decimal value per sample, NaN where the line does not exist
    (None: the line exists in no sample)."""
    line = aggregates.get((variant, aggregate, level))
    if line is None:
        return None
    values = round4(getattr(line, metric))
    values[~np.asarray(line.exists, dtype=bool)] = np.nan
    return values


class SampleValues(dict):
    """code -> the 4-decimal values of every sample (numeric order), NaN where
    a sample has no value; each a column of one samples x codes matrix."""

    def __init__(self, matrix: np.ndarray, code_names: list):
        super().__init__((code, matrix[:, j]) for j, code in enumerate(code_names))
        self.matrix = matrix


def sample_values(structure, samples, show_progress: bool = False) -> SampleValues:
    """Every code's value in every sample, computed a block of samples at a
    time (memory: the values kept, 8 bytes each, and one block)."""
    processenv.keep_freed_memory()
    code_list = codes()
    column = {code: j for j, (code, *_rest) in enumerate(code_list)}
    n_samples = len(samples)
    matrix = np.full((n_samples, len(code_list)), np.nan)
    block = max(1, min(_BLOCK_CELLS // max(structure.n_rows, 1), _BLOCK_SAMPLES))
    progress = Progress("bootstrap", n_samples * len(MODES), enabled=show_progress)
    # Each SF query id parsed once, not once a block.
    short_id = {member: _short_id(member) for element in samples.elements
                for member in element.members}
    for mode, first_only in MODES:
        for start in range(0, n_samples, block):
            stop = min(start + block, n_samples)
            multiplicity = samples.multiplicities(structure.sf_ids, first_only=first_only,
                                                  key=short_id.__getitem__, start=start,
                                                  stop=stop)
            aggregates = all_aggregates(structure, multiplicity, _VARIANTS_OF_MODE[mode])
            for code, code_mode, variant, aggregate, level, metric in code_list:
                if code_mode != mode:
                    continue
                values = _rounded(aggregates, variant, aggregate, level, metric)
                if values is not None:
                    matrix[start:stop, column[code]] = values
            progress.advance(stop - start)
    progress.done()
    return SampleValues(matrix, [code for code, *_rest in code_list])


def original_values(structure) -> dict:
    """code -> the full-data value text (ALLEP codes whose line exists)."""
    aggregates = all_aggregates(structure, full_data(structure))
    result = {}
    for code, mode, variant, aggregate, level, metric in codes():
        if mode != "ALLEP":
            continue
        values = _rounded(aggregates, variant, aggregate, level, metric)
        if values is not None and not np.isnan(values[0]):
            result[code] = "%6.4f" % values[0]
    return result


def _short_id(full_id: str) -> str:
    return ids.parse_query_id(full_id).short_id


def missing_codes(values: dict) -> list:
    return [code for code, column in values.items() if np.isnan(column).any()]


#: AP codes of ``.apconfidence``: (code, variant, level), the .samplescores naming.
AP_CODES = tuple((f"ALLEP_{variant_code}_Ma_{level_code}_AP", variant, level)
                 for variant, variant_code in (("LDCMEAN", "LDCMEAN"), ("SF", "SLOTFLG"))
                 for level, level_code in LEVEL_CODES)


def ap_sample_values(run_units, samples) -> tuple:
    """Per AP code (levels present only): the 4-decimal value per sample, and the
    full-data text.  The Perl's bootstrap covers P/R/F1 only; the AP macro
    means are resampled here from the per-query AP values, each drawn LDC
    query counting once per draw."""
    metric_of = {"SF": BY_NAME["sf_ap"], "LDCMEAN": BY_NAME["ldcmean_ap"]}
    present = []
    for code, variant, level in AP_CODES:
        full = run_units.ap_levels(variant)
        if level in full:
            present.append((code, run_units.statistic(metric_of[variant], level), full[level]))
    # The draws are counted once for every unit of any code (counting is
    # the cost: 20 million draws for 10,000 samples of 2,000 LDC queries).
    units = sorted({unit for _code, unit_statistic, _full in present
                    for unit in unit_statistic.units})
    column = {unit: i for i, unit in enumerate(units)}
    counted = samples.group_multiplicities(units).astype(np.float64)
    values, originals = {}, {}
    for code, unit_statistic, full in present:
        weights = (counted if unit_statistic.units == units
                   else counted[:, [column[unit] for unit in unit_statistic.units]])
        values[code] = round4(unitstatistic.values(unit_statistic, weights))
        originals[code] = "%6.4f" % full
    return values, originals
