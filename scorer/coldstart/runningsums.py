"""The Perl's running sums of a macro average, for every sample at once.

The Perl adds a macro average's terms one row copy at a time, in row order,
so the sum depends on that order in the last bits of a double.
:func:`running_sums` does the same additions for all samples at once (no
Python loop per sample), so each value is the very double the Perl computes
(spec §4.3, §6.2): the full data is the sample in which every row counts
once, a bootstrap sample counts each row as often as its query was drawn.
"""
from __future__ import annotations

import numpy as np


class CodedValues:
    """Values that differ per sample, kept compact: each row has a small table
    of (P, R, F) entries and each sample a code picking one.  The LDC-MEAN
    names' P/R/F are such: a name's mean depends only on which of its members
    were drawn, so each name has an entry per subset of its members and each
    sample a subset code."""

    def __init__(self, table: np.ndarray, code: np.ndarray):
        self.table = table          # (rows, entries, 3): each row's entries
        self.code = code            # (rows, B): each row's entry in each sample

    def row(self, i: int) -> np.ndarray:
        """(3, B): row i's values in every sample."""
        return self.table[i][self.code[i]].T

    def sample(self, b: int) -> np.ndarray:
        """(rows, 3): every row's values in sample b."""
        return self.table[np.arange(len(self.table)), self.code[:, b]]


#: Layout of the running sums: levels 0, ALL, 1, so that a row's two sums
#: (ALL and its own level) are one slice: 0:2 for level 0, 1:3 for level 1.
_SUM_LAYOUT = {"0": 0, "ALL": 1, "1": 2}


#: Most elements (rows x samples) one batch of running_sums adds at once.
_BATCH_ELEMENTS = 1 << 20


def running_sums(values: np.ndarray, repeats: np.ndarray, levels: np.ndarray) -> dict:
    """Per level (0, 1, ALL) and sample: Σ_j values[j], added repeats[b, j]
    times, one addition at a time in row order, over the rows of the level.

    ``values``: (n, 3), or ``CodedValues`` when they differ per sample; ``repeats``:
    (B, n); ``levels``: (n,).  Returns level -> (B, 3).
    """
    return running_sums_by_row(values, np.ascontiguousarray(np.asarray(repeats).T), levels)


#: Rows without further copies added apart only from this many in a row.
_SHORTEST_RUN = 16


def running_sums_by_row(values, by_row: np.ndarray, levels: np.ndarray) -> dict:
    """:func:`running_sums` of ``by_row`` = repeats transposed (n, B).

    The loop runs over rows, each step for all samples at once: the first
    copy of a row is added to every sample (times 0 or 1), further copies
    only to the samples that have them.  Adding 0.0 leaves a sum as it is,
    so each result is the very double of the Perl's running sum.
    A run of at least _SHORTEST_RUN rows without further copies in any
    sample (all rows of the full data) is added by one ``add.accumulate``,
    which also adds one row after the other.
    """
    per_sample = isinstance(values, CodedValues)
    # A row whose values are 0.0 (in every sample) leaves every sum as it is
    # (the sums start at +0.0 and add no negative value), and so does a row
    # drawn in no sample: such rows, often most of them, are skipped.
    most = by_row.max(axis=1, initial=0)
    kept = np.flatnonzero(((values.table != 0).any(axis=(1, 2)) if per_sample
                           else (np.asarray(values) != 0).any(axis=1)) & (most > 0))
    if len(kept) < by_row.shape[0]:
        values = (CodedValues(values.table[kept], values.code[kept]) if per_sample
                  else np.asarray(values)[kept])
        by_row, levels, most = by_row[kept], np.asarray(levels)[kept], most[kept]
    n_rows, n_samples = by_row.shape
    acc = np.zeros((3, 3, n_samples))       # (level slot, metric, sample)
    if n_samples and n_rows:
        levels = np.asarray(levels)
        has_copies = most > 1
        # Runs of rows alike (with or without further copies), each cut into
        # batches: bounded memory, and few numpy calls for the full data.
        # Short runs without further copies go with their neighbours (a
        # call per run would cost more than it saves).
        starts = np.flatnonzero(np.diff(has_copies)) + 1
        for start, stop in zip([0, *starts.tolist()], [*starts.tolist(), n_rows]):
            if stop - start < _SHORTEST_RUN and not has_copies[start]:
                has_copies[start:stop] = True
        batch = max(1, _BATCH_ELEMENTS // n_samples)
        starts = np.flatnonzero(np.diff(has_copies)) + 1
        for start, stop in zip([0, *starts.tolist()], [*starts.tolist(), n_rows]):
            for first in range(start, stop, batch):
                last = min(stop, first + batch)
                add = _add_rows_with_copies if has_copies[first] else _add_rows_in_order
                add(acc, values, by_row[first:last], levels[first:last], first)
    return {level: acc[index].T for level, index in _SUM_LAYOUT.items()}


def _row_values(values, start: int, stop: int) -> np.ndarray:
    """(rows, 3, B) or (rows, 3, 1): the values of rows start..stop-1."""
    if isinstance(values, CodedValues):
        rows = np.take_along_axis(values.table[start:stop],
                                  values.code[start:stop][:, :, None], axis=1)  # (rows, B, 3)
        return np.ascontiguousarray(rows.transpose(0, 2, 1))
    return values[start:stop][:, :, None]


def _add_rows_in_order(acc: np.ndarray, values, by_row: np.ndarray, levels: np.ndarray,
                       start: int) -> None:
    """Add the rows of ``by_row`` (rows start... of ``values``, none with
    further copies; ``levels``: theirs) to the running sums ``acc`` (slot,
    metric, sample), one row after the other, as running_sums would."""
    rows = _row_values(values, start, start + len(by_row)) * (by_row > 0)[:, None, :]
    for slot, mask in ((0, levels == 0), (1, None), (2, levels == 1)):
        added = rows if mask is None else rows[mask]
        if len(added):
            sequence = np.concatenate([acc[slot][None], added])
            acc[slot] = np.add.accumulate(sequence, axis=0)[-1]


def _add_rows_with_copies(acc: np.ndarray, values, by_row: np.ndarray, levels: np.ndarray,
                          start: int) -> None:
    """Add the rows of ``by_row`` (rows start... of ``values``; ``levels``:
    theirs) to the running sums ``acc``, row after row, each row's copies
    one after the other: the first and the second copy to every sample
    (times 1 or 0), each further copy only to the samples that have it."""
    rows = _row_values(values, start, start + len(by_row))
    per_sample = rows.shape[2] > 1
    # Float factors (faster than bool ones).  A second copy is drawn in about
    # a quarter of the samples: adding it to all, times 0.0 where there is
    # none, costs less than picking those samples out; third and later
    # copies are rare enough to be picked out, each from the samples that
    # had the copy before.
    drawn = (by_row > 0).astype(np.float64)
    drawn_twice = (by_row > 1).astype(np.float64)
    targets = {0: acc[0:2], 1: acc[1:3]}                        # ALL and the row's level
    for i, (level, most) in enumerate(zip(levels.tolist(), by_row.max(axis=1).tolist())):
        target = targets.get(level, acc[1:2])
        value = rows[i]
        target += value * drawn[i]
        if most < 2:
            continue
        target += value * drawn_twice[i]
        samples = None
        for k in range(3, most + 1):
            copies = by_row[i]
            samples = np.flatnonzero(copies >= k) if samples is None else \
                samples[copies[samples] >= k]
            target[:, :, samples] += value[:, samples] if per_sample else value
