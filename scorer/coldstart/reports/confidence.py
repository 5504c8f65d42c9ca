"""The bootstrap reports: ``.sample`` (the samples as read), ``.samplescores``
(every code for every sample) and ``.confidence`` (percentile intervals at
99/95/90 %, mean and full-data score per code) (spec §6.3-§6.6).
"""
from __future__ import annotations

import functools

import numpy as np

from scorer.percentile import CONFIDENCE_LEVELS, percentile_indices

CONFIDENCE_HEADER = " " * 22 + "99%(   95%(   90%(   mean   scr.   )90%   )95%   )99%\n"


def sample_lines(samples):
    """``.sample``: each sample with the first SF id of each drawn element
    (spec §7.27), line by line."""
    return samples.lines(render=lambda element: f"{element.group}:"
                                               f"{element.members[0] if element.members else ''}")


#: Lines of ``.samplescores`` formatted at once.
_BLOCK_LINES = 10_000


def render_samplescores(numbers, codes, values, runid: str):
    """``.samplescores`` (a missing value prints 0.0000), as a function that
    yields it a block of lines at a time: a million samples are written
    without holding their text."""
    matrix = values.matrix if hasattr(values, "matrix") else \
        np.column_stack([np.asarray(values[code], dtype=np.float64) for code in codes])
    line = "%6d" + "               %0.4f" * len(codes) + f" #{runid}\n".replace("%", "%%")
    end = f" #{runid}\n"

    def pieces():
        yield "Sample#" + "".join(f" {code}" for code in codes) + " #RUNID\n"
        for start in range(0, len(numbers), _BLOCK_LINES):
            block = np.nan_to_num(matrix[start:start + _BLOCK_LINES], nan=0.0)
            block_numbers = numbers[start:start + _BLOCK_LINES]
            # The values are 4-decimal numbers k/10^4: their cells are looked up
            # in a table (the same texts as formatting each, about twice as fast).
            k = np.rint(block * 1e4)
            if np.array_equal(k / 1e4, block) and (k >= 0).all() and (k <= 10_000).all():
                cells = _cells()[k.astype(np.intp)].tolist()
                yield "".join(["%6d" % number + "".join(row) + end
                               for number, row in zip(block_numbers, cells)])
            else:
                yield "".join(line % (number, *row)
                              for number, row in zip(block_numbers, block.tolist()))
    return pieces


@functools.lru_cache(maxsize=None)
def _cells():
    """The ``.samplescores`` cell of every value k/10^4 from 0 to 1 (made on
    first use: a run without samples does not pay for it)."""
    return np.array(["               %0.4f" % (k / 1e4) for k in range(10_001)], dtype=object)


def interval_line(code: str, values, original) -> str:
    """One ``.confidence`` line from the 4-decimal values of the samples (NaN
    or None: missing).  Values sort numerically; a missing value counts as 0,
    sorts before a genuine 0.0000 and prints empty (spec decision 8)."""
    values = np.array([np.nan if v is None else float(v) for v in values], dtype=np.float64) \
        if not isinstance(values, np.ndarray) else values
    n = len(values)
    missing = np.isnan(values)
    filled = np.where(missing, 0.0, values)
    # Sort by value, a missing one first among equals, then by sample order.
    order = np.lexsort((np.arange(n), ~missing, filled))
    # Added one by one in sample order, as the Perl adds them (not pairwise).
    total = float(np.add.accumulate(filled)[-1]) if n else 0.0
    mean = "%0.4f" % (total / n)
    scr = "%0.4f" % float(original) if original is not None else "%6s" % "-"
    bounds = {c: percentile_indices(n, c) for c in CONFIDENCE_LEVELS}

    def at(index):
        i = order[index]
        return "" if missing[i] else "%6.4f" % filled[i]

    low = [at(bounds[c][0]) for c in CONFIDENCE_LEVELS]
    high = [at(bounds[c][1]) for c in reversed(CONFIDENCE_LEVELS)]
    return " ".join([code, *low, mean, scr, *high]) + "\n"


def render_confidence(codes, values: dict, originals: dict) -> str:
    out = [CONFIDENCE_HEADER]
    if values and any(len(values[code]) for code in codes):
        for code in sorted(codes):
            out.append(interval_line(code, values[code], originals.get(code)))
    return "".join(out)


_VARIANT_OF_CODE = {"SLOTFLG": "SF", "LDCMAXI": "LDCMAX", "LDCMEAN": "LDCMEAN"}
_AGGREGATE_OF_CODE = {"Mi": "micro", "Ma": "macro"}
_HOP_OF_CODE = {"0": "0", "1": "1", "A": "ALL"}
_METRIC_OF_CODE = {"P": "P", "R": "R", "F": "F1", "AP": "AP"}


def per_hop_key(code: str):
    """(variant, aggregate, hop, metric) of a ``.confidence`` code, as the
    per-hop table keys its row; None for the per-entry-point codes (the
    per-hop table has the all-entry-point scores only)."""
    mode, variant, aggregate, hop, metric = code.split("_")
    if mode != "ALLEP":
        return None
    return (_VARIANT_OF_CODE[variant], _AGGREGATE_OF_CODE[aggregate], _HOP_OF_CODE[hop],
            _METRIC_OF_CODE[metric])
