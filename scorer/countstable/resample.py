"""The bootstrap over claims, vectorised.

A sample is a multiset of claims.  With the (samples x claims) multiplicity
matrix ``M`` (:meth:`scorer.bootstrap.sampleset.SampleSet.multiplicities`) and the
per-claim counts table ``T`` (claims x columns), every sample's column sums
are one matrix product ``M @ T``; the metric registry then turns the sums
into values with the same definitions the full-data scores use.  No Python
loop runs per sample.

Exactness and determinism: integer-valued columns are multiplied as doubles,
which is exact whatever order the BLAS adds in (all partial sums are whole
numbers below 2**53).  A column of fractions (FEVER per-claim precision) is
split by distinct value: ``sum_v v * (M @ [T == v])``, each count exact, the
few products added in increasing order of ``v``.  So the values do not depend
on the BLAS, the number of threads or the machine.
"""
from __future__ import annotations

import math
import operator
import os
import threading

import numpy as np
import pandas as pd

from scorer.bootstrap import MAX_SAMPLES, doubles, stream_of_doubles
from scorer.countstable.metrics import HarmonicMean, Mean, Ratio
from scorer.percentile import CONFIDENCE_LEVELS, percentile_indices
from scorer.problems import ScorerError
from scorer.textfile import sha256

#: Above this many distinct values a fractional column is summed group by group
#: (``reduceat``) instead of through an indicator matrix.
_MAX_INDICATOR_COLUMNS = 512


class ColumnPlan:
    """How :func:`column_sums` sums each column of a counts table: which
    columns hold whole numbers (one product for them all), and for each
    column of fractions its distinct values and their indicator matrix (or
    the claims' order by value).  Made once for a run whose samples are
    summed a block at a time (a FEVER run of 100,000 claims: 25 blocks, each
    sorting its fractional columns' values again before)."""

    def __init__(self, table: pd.DataFrame, columns):
        self.whole, self.fractional = [], []
        for column in dict.fromkeys(columns):
            values = table[column].to_numpy(dtype=np.float64)
            (self.whole if np.all(values == np.floor(values)) else self.fractional).append(column)
        self.whole_matrix = table[self.whole].to_numpy(dtype=np.float64) if self.whole else None
        #: (column, its distinct values, their indicator matrix or None, the
        #: claims by value and where each value starts, or None)
        self.parts = []
        for column in self.fractional:
            values = table[column].to_numpy(dtype=np.float64)
            distinct, which = np.unique(values, return_inverse=True)
            if len(distinct) <= _MAX_INDICATOR_COLUMNS:
                indicator = np.zeros((len(values), len(distinct)), dtype=np.float64)
                indicator[np.arange(len(values)), which] = 1.0
                self.parts.append((column, distinct, indicator, None))
            else:
                order = np.argsort(which, kind="stable")
                starts = np.searchsorted(which[order], np.arange(len(distinct)))
                self.parts.append((column, distinct, None, (order, starts)))


def column_sums(table: pd.DataFrame, multiplicities: np.ndarray, columns,
                plan: ColumnPlan = None) -> dict:
    """For each column, the vector (one value per sample) of its multiplicity-weighted
    sum (``plan``: the table's :class:`ColumnPlan` for these columns, when made already)."""
    if plan is None:
        plan = ColumnPlan(table, columns)
    weights = np.asarray(multiplicities, dtype=np.float64)
    sums: dict = {}
    if plan.whole:
        product = weights @ plan.whole_matrix
        for j, column in enumerate(plan.whole):
            sums[column] = product[:, j]
    for column, distinct, indicator, grouped in plan.parts:
        if indicator is not None:
            counts = weights @ indicator  # exact whole numbers
        else:
            order, starts = grouped
            counts = np.add.reduceat(weights[:, order], starts, axis=1)
        total = np.zeros(weights.shape[0], dtype=np.float64)
        for j, value in enumerate(distinct):
            total = total + value * counts[:, j]
        sums[column] = total
    return sums


def summed_columns(declared: tuple) -> list:
    """The counts table's columns the metrics ``declared`` sum."""
    return [c for m in declared for c in m.columns]


def sample_values(declared: tuple, table: pd.DataFrame, multiplicities: np.ndarray,
                  plan: ColumnPlan = None) -> pd.DataFrame:
    """Every metric ``declared`` for every sample: a (samples x metrics) DataFrame (``plan``: the table's
    :class:`ColumnPlan` of :func:`summed_columns`, when made already)."""
    sums = column_sums(table, multiplicities, summed_columns(declared), plan)
    return values_of_sums(declared, sums, np.asarray(multiplicities).shape[0])


def values_of_sums(declared: tuple, sums: dict, n_samples: int) -> pd.DataFrame:
    """Every metric ``declared`` for every sample from the samples' column sums."""
    metrics = declared
    values: dict = {}
    with np.errstate(divide="ignore", invalid="ignore"):
        # The ratios first, then what is made of them (as full_data does).
        for metric in metrics:
            if isinstance(metric, Ratio):
                numerator, denominator = sums[metric.numerator], sums[metric.denominator]
                values[metric.name] = np.where(
                    denominator != 0,
                    numerator / np.where(denominator != 0, denominator, 1.0),
                    metric.if_empty)
        for metric in metrics:
            if isinstance(metric, HarmonicMean):
                p, r = values[metric.precision], values[metric.recall]
                total = p + r
                values[metric.name] = np.where(
                    total != 0, 2 * p * r / np.where(total != 0, total, 1.0), 0.0)
            elif isinstance(metric, Mean):
                # One row per sample, summed along the row as the full data's mean is.
                parts = np.stack([np.broadcast_to(values[name], (n_samples,))
                                  for name in metric.of], axis=1)
                values[metric.name] = np.add.reduce(parts, axis=1) / len(metric.of)
    frame = pd.DataFrame({metric.name: np.asarray(values[metric.name],
                                                  dtype=np.float64).reshape(n_samples)
                          for metric in metrics})
    return frame


def confidence_rows(values: pd.DataFrame, full: dict,
                    levels=CONFIDENCE_LEVELS) -> list:
    """Per metric: ``(name, lows (levels order), mean, full-data value, highs (reverse))``.

    Percentile intervals with the Perl scorer's index rule
    (:func:`scorer.percentile.percentile_indices`), no interpolation; the mean is
    the exact mean of the sample values.  Empty when there are no samples.
    """
    n = len(values)
    if n == 0:
        return []
    ordered = np.sort(values.to_numpy(dtype=np.float64), axis=0, kind="stable")
    rows = []
    for j, name in enumerate(values.columns):
        column = ordered[:, j]
        bounds = [percentile_indices(n, level) for level in levels]
        lows = tuple(float(column[lo]) for lo, _hi in bounds)
        highs = tuple(float(column[hi]) for _lo, hi in reversed(bounds))
        mean = math.fsum(column.tolist()) / n
        rows.append((name, lows, mean, full.get(name), highs))
    return rows


def interval(values: pd.DataFrame, name: str, level: int) -> tuple | None:
    """``(low, high)`` of one metric at one confidence level (None without samples)."""
    n = len(values)
    if n == 0:
        return None
    lo, hi = percentile_indices(n, level)
    column = np.sort(values[name].to_numpy(dtype=np.float64), kind="stable")
    return float(column[lo]), float(column[hi])


class DrawnClaims:
    """Samples ``-bootstrap N -seed S`` draws over claims too many to keep
    (more than ``bootstrap.MAX_DRAWS`` draws: a thousand samples of a million
    claims are a thousand million draws, 4 GB as numbers and 7 GB as text).

    They are the samples :func:`scorer.bootstrap.draws.generate` draws, sample for
    sample (each claim is a group of one: its draws alone decide a sample),
    drawn a block at a time and turned into each sample's column sums at
    once: claims of the same row of counts are one *kind*, and a sample's
    sums are how often it drew each kind times the kind's row, whole numbers
    multiplied exactly and the fractional column added value by value in
    increasing order, as :func:`column_sums` adds them, so that the values
    are those of the samples kept.  They are not written out (no
    ``.bootsamples``); :meth:`digest` names them by the seed, the number of
    samples and the claims.
    """

    #: Draws made at once (their numbers take 8 bytes each, a few times over).
    CHUNK_DRAWS = 4_000_000
    #: The most draws one run may make this way (about ten seconds a thousand million).
    MAX_DRAWS = 5_000_000_000
    #: The most samples drawn this way (more are refused as too many draws).
    MAX_SAMPLES = 100_000

    def __init__(self, keys: list, n_samples: int, seed: int):
        if n_samples > MAX_SAMPLES:
            raise ScorerError(f"-bootstrap {n_samples:,}: at most {MAX_SAMPLES:,} samples")
        if n_samples * len(keys) > self.MAX_DRAWS:
            raise ScorerError(f"-bootstrap {n_samples:,} over {len(keys):,} claims would draw "
                              f"{n_samples * len(keys):,} claims; at most {self.MAX_DRAWS:,} "
                              f"draws (fewer samples, or fewer claims)")
        self.keys = keys
        self.seed = seed
        self.numbers = list(range(1, n_samples + 1))
        self._order = None

    def order(self) -> np.ndarray:
        """The claims' indices in the string order of their keys, the order
        the generator draws from (made once: the digest and the values both
        need it)."""
        if self._order is None:
            self._order = string_order(self.keys)
        return self._order

    def __len__(self) -> int:
        return len(self.numbers)

    def digest(self) -> str:
        """A short fingerprint of the samples: of how they are drawn (the
        generator's rule, the seed, their number) and of the claims drawn from."""
        claims = sha256(small=False)
        if self.keys:
            # Each key and a line end, in string order: one update of them all.
            in_order = self.order().tolist()
            keys = operator.itemgetter(*in_order)(self.keys) if len(in_order) > 1 else \
                [self.keys[in_order[0]]]
            claims.update(("\n".join(keys) + "\n").encode("utf-8"))
        text = f"claims bootstrap|seed:{self.seed}|B:{len(self)}|claims:{claims.hexdigest()}"
        return sha256(text.encode("utf-8")).hexdigest()[:12]

    def values(self, declared: tuple, columns: dict) -> pd.DataFrame:
        """Every metric ``declared`` for every sample (``columns``: the evaluation's counts table, column ->
        one value per claim)."""
        metrics = declared
        names = list(dict.fromkeys(c for m in metrics for c in m.columns))
        n = len(self.keys)
        # Kinds of claims: one per distinct row of the columns the metrics sum.
        kinds: dict = {}
        kind_of = np.fromiter((kinds.setdefault(row, len(kinds))
                               for row in zip(*(columns[name] for name in names))),
                              dtype=np.int64, count=n)
        table = np.array(list(kinds), dtype=np.float64).reshape(len(kinds), len(names))
        # The generator draws from the claims in the string order of their keys.
        kind_drawn = kind_of[self.order()]
        whole = [j for j in range(len(names)) if np.all(table[:, j] == np.floor(table[:, j]))]
        fractional = [j for j in range(len(names)) if j not in whole]
        n_samples, n_kinds = len(self), len(kinds)
        counts = np.zeros((n_samples, n_kinds), dtype=np.float64)
        # The kind of each claim in the order drawn from, in the smallest
        # integers that hold it: the table looked up a thousand million times
        # stays in the processor's cache.
        small = np.uint8 if n_kinds <= 256 else np.uint16 if n_kinds <= 65536 else np.int64
        kind_drawn = kind_drawn.astype(small)
        rows = max(1, self.CHUNK_DRAWS // max(n, 1))
        starts = list(range(0, n_samples, rows))
        workers = self.workers(n_samples * n)
        parts = [starts[worker::workers] for worker in range(workers)]
        if workers == 1:
            self._count(parts[0], rows, kind_drawn, n_kinds, counts)
        else:
            failures: list = []

            def work(part: list) -> None:
                try:
                    self._count(part, rows, kind_drawn, n_kinds, counts)
                except BaseException as error:      # (raised again below)
                    failures.append(error)

            threads = [threading.Thread(target=work, args=(part,), daemon=True)
                       for part in parts]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            if failures:
                raise failures[0]
        sums: dict = {}
        if whole:
            product = counts @ table[:, whole]
            for position, j in enumerate(whole):
                sums[names[j]] = product[:, position]
        for j in fractional:
            distinct, which = np.unique(table[:, j], return_inverse=True)
            by_value = np.zeros((n_samples, len(distinct)), dtype=np.float64)
            for kind, value_index in enumerate(which.ravel()):
                by_value[:, value_index] += counts[:, kind]
            total = np.zeros(n_samples, dtype=np.float64)
            for position, value in enumerate(distinct):
                total = total + value * by_value[:, position]
            sums[names[j]] = total
        return values_of_sums(declared, sums, n_samples)

    #: Draws above which the blocks are shared between two threads (numpy
    #: leaves the interpreter lock for each step of a block).
    THREADED_DRAWS = 50_000_000

    def workers(self, draws: int) -> int:
        """Threads counting the blocks: two for many draws where two
        processors are there, else one (the values are the same)."""
        if draws < self.THREADED_DRAWS:
            return 1
        available = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else \
            (os.cpu_count() or 1)
        return 2 if available >= 2 else 1

    #: Draws a sample's stream is read by at a time, where a sample has more
    #: claims than this: the buffers stay in the processor's cache from one
    #: step to the next (about a quarter of the draws' time).
    PIECE_DRAWS = 1 << 16

    def _count(self, starts: list, rows: int, kind_drawn: np.ndarray, n_kinds: int,
               counts: np.ndarray) -> None:
        """How often each sample of the blocks starting at ``starts`` (of
        ``rows`` samples) drew each kind, into ``counts``.  Each block reads
        its own part of the stream (PCG64 jumps ahead), so the blocks may be
        counted in any order, by any thread, with the same result."""
        n = len(kind_drawn)
        if n >= self.PIECE_DRAWS:
            self._count_in_pieces(starts, rows, kind_drawn, n_kinds, counts)
            return
        n_samples = len(counts)
        uniform = np.empty(rows * n, dtype=np.float64)
        chosen = np.empty(rows * n, dtype=np.int64)
        cells = np.empty(rows * n, dtype=kind_drawn.dtype)
        offsets = (np.arange(rows, dtype=np.int64) * n_kinds)[:, None]
        for start in starts:
            block = min(rows, n_samples - start)
            size = block * n
            doubles(self.seed, start * n, uniform[:size])
            # generate's floor(u * n), at most n - 1: the product as a double,
            # cut to a whole number as astype cuts it, the bound set by the
            # look-up itself (clip); into buffers made once (fresh arrays of
            # this size cost as much again in page faults)
            np.multiply(uniform[:size], float(n), out=uniform[:size])
            np.copyto(chosen[:size], uniform[:size], casting="unsafe")
            kind_drawn.take(chosen[:size], out=cells[:size], mode="clip")
            np.add(cells[:size].reshape(block, n), offsets[:block],
                   out=chosen[:size].reshape(block, n))
            counts[start:start + block] = np.bincount(
                chosen[:size], minlength=block * n_kinds).reshape(block, n_kinds)

    def _count_in_pieces(self, starts: list, rows: int, kind_drawn: np.ndarray, n_kinds: int,
                         counts: np.ndarray) -> None:
        """:meth:`_count` for many claims: each sample's draws read from the
        stream a piece at a time (the same numbers, in the same order), each
        piece's kinds counted on their own and added up."""
        n = len(kind_drawn)
        n_samples = len(counts)
        piece = self.PIECE_DRAWS
        uniform = np.empty(piece, dtype=np.float64)
        chosen = np.empty(piece, dtype=np.int64)
        cells = np.empty(piece, dtype=kind_drawn.dtype)
        for start in starts:
            fill = stream_of_doubles(self.seed, start * n)
            for sample in range(start, min(start + rows, n_samples)):
                row = np.zeros(n_kinds, dtype=np.int64)
                for first in range(0, n, piece):
                    size = min(piece, n - first)
                    fill(uniform[:size])
                    # as in _count: floor(u * n), at most n - 1 (clip)
                    np.multiply(uniform[:size], float(n), out=uniform[:size])
                    np.copyto(chosen[:size], uniform[:size], casting="unsafe")
                    kind_drawn.take(chosen[:size], out=cells[:size], mode="clip")
                    row += np.bincount(cells[:size], minlength=n_kinds)
                counts[sample] = row


#: Keys from which :func:`string_order` sorts as fixed-width numpy text.
_NUMPY_SORT_KEYS = 50_000
#: The longest key sorted so (each takes 4 bytes a character of the longest).
_NUMPY_SORT_CHARACTERS = 64


def string_order(keys: list) -> np.ndarray:
    """The indices of ``keys`` in the order ``sorted`` puts the strings (by
    code point; equal keys in index order), as int64.  Many short keys are
    sorted by numpy as fixed-width text (stable, code point by code point:
    the same order, in half the time), unless one holds a NUL, which numpy's
    padding would confuse with the end of a shorter key."""
    n = len(keys)
    if n >= _NUMPY_SORT_KEYS:
        longest = max(map(len, keys), default=0)
        if longest <= _NUMPY_SORT_CHARACTERS and "\x00" not in "".join(keys):
            text = np.array(keys, dtype=f"<U{max(longest, 1)}")
            return np.argsort(text, kind="stable").astype(np.int64, copy=False)
    return np.asarray(sorted(range(n), key=keys.__getitem__), dtype=np.int64)
