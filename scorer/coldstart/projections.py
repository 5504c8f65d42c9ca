"""From the counts table to the reported tables: SF rows, the LDC-MAX and
LDC-MEAN projections, and the ALL-Micro / ALL-Macro aggregates (spec §4.2-4.6).

Every aggregate is computed for a matrix of multiplicities (samples x SF
queries): the full data is the single sample in which every SF query counts
once, and a bootstrap sample counts each SF query as often as it was drawn
(spec §6.2).  Both run the very same code.

Exactness: the Perl adds a macro average's terms one row copy at a time, in
row order.  Here every term gets a *slot* (row, copy) in that order, and the
sum is a running sum over the slots (``numpy.add.accumulate``, which adds in
order), with 0.0 in the slots a sample does not use.  So each value is the
very double the Perl computes, and no Python loop runs per sample.
"""
from __future__ import annotations

import dataclasses
from typing import Optional

import numpy as np

from scorer import stats
from scorer.coldstart.counts import COUNT_COLUMNS, ec_sort_key
from scorer.problems import ScorerError

LEVELS = ("0", "1", "ALL")
VARIANTS = ("SF", "LDCMAX", "LDCMEAN")
MICRO, MACRO = "ALL-Micro", "ALL-Macro"
_GT = COUNT_COLUMNS.index("GT")
_SUBMITTED = COUNT_COLUMNS.index("SUBMITTED")
_RIGHT = COUNT_COLUMNS.index("RIGHT")
_IGNORED = COUNT_COLUMNS.index("IGNORED")
#: Elements (samples x slots x 3) a running sum may hold in memory at once.
_SUM_BLOCK_ELEMENTS = 6_000_000


@dataclasses.dataclass
class Aggregate:
    """One aggregate line (e.g. SF ALL-Macro level 1) for every sample."""

    exists: np.ndarray            # (B,) bool: the line exists (it has rows)
    p: np.ndarray                 # (B,)
    r: np.ndarray
    f: np.ndarray
    counts: Optional[np.ndarray] = None   # (B, len(COUNT_COLUMNS)) for micro lines


@dataclasses.dataclass
class TableLine:
    """A data line of a printed table."""

    name: str
    runid: str
    level: int
    counts: Optional[np.ndarray]   # None for LDC-MEAN lines (only GT is known)
    ground_truth: int
    p: float
    r: float
    f: float


class RunStructure:
    """Index arrays of one run's counts table, shared by all projections."""

    def __init__(self, table, has_index: bool):
        self.table = table
        self.has_index = has_index
        self.n_rows = len(table)
        self.names = table["name"].tolist()
        self.runids = table["runid"].tolist()
        self.levels = table["level"].to_numpy()
        self.counts = table[list(COUNT_COLUMNS)].to_numpy(dtype=np.int64)
        self.values = table[["P", "R", "F"]].to_numpy(dtype=float)
        self.sf_ids = sorted(set(table["query_id"]))
        column = {sf: i for i, sf in enumerate(self.sf_ids)}
        self.row_sf = np.array([column[q] for q in table["query_id"]], dtype=np.intp)
        if has_index:
            self._build_ldc_structures(table, column)

    def _build_ldc_structures(self, table, column):
        ldc_full_of_sf: dict = {}
        for q, sf_full, ldc_full in zip(table["query_id"], table["sf_full_id"],
                                        table["ldc_full_id"]):
            if ldc_full is None:
                raise ScorerError(f"Query {sf_full} is not an entry point of any expanded LDC "
                                  f"query, so the LDC-level scores cannot be made")
            ldc_full_of_sf[q] = ldc_full
        # LDC-MAX: per LDC query, its SF queries in string order of short id.
        groups: dict = {}
        for q in self.sf_ids:
            groups.setdefault(ldc_full_of_sf[q], []).append(column[q])
        self.ldc_names = sorted(groups)
        self.ldc_members = [np.array(groups[name], dtype=np.intp) for name in self.ldc_names]
        group_of_sf = np.zeros(len(self.sf_ids), dtype=np.intp)
        for g, members in enumerate(self.ldc_members):
            group_of_sf[members] = g
        self.row_group = group_of_sf[self.row_sf]
        self.rows_of_sf = [np.flatnonzero(self.row_sf == c) for c in range(len(self.sf_ids))]
        sums = np.array([self.counts[rows].sum(axis=0) for rows in self.rows_of_sf])
        _, _, self.sf_f1 = _prf(sums)
        suffixes = table["suffix"].tolist()
        self.ldc_row_names = [
            f"{ldc_full_of_sf[self.sf_ids[self.row_sf[j]]]}:{suffixes[j]}" if suffixes[j]
            else ldc_full_of_sf[self.sf_ids[self.row_sf[j]]] for j in range(self.n_rows)]
        # LDC-MAX rows in the printed order: LDC query, then its entry points, then ECs.
        self.ldc_max_rows = np.array([j for members in self.ldc_members for c in members
                                      for j in self.rows_of_sf[c]], dtype=np.intp)
        # LDC-MEAN: rows grouped by LDC name; members in string order of their names.
        mean_groups: dict = {}
        for j in range(self.n_rows):
            mean_groups.setdefault(self.ldc_row_names[j], []).append(j)
        names = sorted(mean_groups)
        names.sort(key=ec_sort_key)     # stable: the Perl sorts the string-sorted list
        self.mean_names = names
        self.mean_members = [sorted(mean_groups[n], key=lambda j: self.names[j]) for n in names]
        self.mean_levels = np.array([self.levels[m[0]] for m in self.mean_members],
                                    dtype=np.int64)


def _prf(counts: np.ndarray):
    right = counts[..., _RIGHT]
    return stats.prf_arrays(right, counts[..., _SUBMITTED] - counts[..., _IGNORED],
                            counts[..., _GT])


def _level_masks(levels: np.ndarray) -> dict:
    return {"0": levels == 0, "1": levels == 1, "ALL": np.ones(len(levels), dtype=bool)}


def ordered_sum(terms) -> np.ndarray:
    """Running sum over the slot axis of ``terms(start, stop)`` -> (b, slots, 3).

    ``terms`` is called per block of samples so memory stays bounded.
    """
    first = terms(0, 1)
    n_slots = first.shape[1]
    n_samples = terms.n_samples
    out = np.zeros((n_samples, 3))
    if n_slots == 0:
        return out
    step = max(1, _SUM_BLOCK_ELEMENTS // (n_slots * 3))
    for start in range(0, n_samples, step):
        block = terms(start, min(start + step, n_samples))
        out[start:start + step] = np.add.accumulate(block, axis=1)[:, -1, :]
    return out


class _Terms:
    """Terms of a running sum: values per slot, kept where ``include`` holds."""

    def __init__(self, n_samples, include, values):
        self.n_samples = n_samples
        self._include = include      # (start, stop) -> (b, slots) bool
        self._values = values        # (start, stop) -> (slots, 3) or (b, slots, 3)

    def __call__(self, start, stop):
        include = self._include(start, stop)
        values = self._values(start, stop)
        if values.ndim == 2:
            values = values[None, :, :]
        return np.where(include[:, :, None], values, 0.0)


def _copy_slots(rows: np.ndarray, most: np.ndarray):
    """Slots (row, copy) for ``rows`` in order, ``most[i]`` copies of rows[i]."""
    slot_row = np.repeat(rows, most)
    slot_copy = np.concatenate([np.arange(k) for k in most]) if len(most) else np.zeros(0, int)
    return slot_row, slot_copy.astype(np.int64)


def _macro(sums: np.ndarray, denominator: np.ndarray):
    """Macro means (spec §4.3): the sum over row copies divided by the copies
    whose GT is not 0; 0 when there are none."""
    with np.errstate(divide="ignore", invalid="ignore"):
        mean = np.where(denominator[:, None] > 0,
                        sums / np.maximum(denominator, 1)[:, None], 0.0)
    return mean[:, 0], mean[:, 1], mean[:, 2]


def sf_aggregates(structure: RunStructure, multiplicity: np.ndarray) -> dict:
    """SF ALL-Micro and ALL-Macro lines per level (spec §4.3)."""
    repeats = multiplicity[:, structure.row_sf]          # (B, rows)
    n_samples = multiplicity.shape[0]
    result = {}
    for level, mask in _level_masks(structure.levels).items():
        rows = np.flatnonzero(mask)
        level_repeats = repeats[:, rows]
        exists = (level_repeats > 0).any(axis=1)
        sums = level_repeats @ structure.counts[rows]
        p, r, f = _prf(sums)
        result[(MICRO, level)] = Aggregate(exists, p, r, f, sums)
        most = level_repeats.max(axis=0) if n_samples else np.zeros(len(rows), int)
        slot_row, slot_copy = _copy_slots(rows, most)
        slot_sf = structure.row_sf[slot_row]
        terms = _Terms(n_samples,
                       lambda a, b: multiplicity[a:b, slot_sf] > slot_copy,
                       lambda a, b: structure.values[slot_row])
        denominator = level_repeats @ (structure.counts[rows, _GT] != 0)
        p, r, f = _macro(ordered_sum(terms), denominator)
        result[(MACRO, level)] = Aggregate(exists, p, r, f)
    return result


def ldc_max_choice(structure: RunStructure, multiplicity: np.ndarray) -> np.ndarray:
    """Per sample and LDC query, the SF column of its best entry point (-1: none drawn).

    Best = highest F1 of the summed counts; ties go to the first SF query in
    string order of short id (spec decision 1, §7.12).
    """
    n_samples = multiplicity.shape[0]
    choice = np.full((n_samples, len(structure.ldc_names)), -1, dtype=np.intp)
    for g, members in enumerate(structure.ldc_members):
        drawn = multiplicity[:, members] > 0
        scores = np.where(drawn, structure.sf_f1[members], -np.inf)
        best = np.argmax(scores, axis=1)
        choice[:, g] = np.where(drawn.any(axis=1), members[best], -1)
    return choice


def ldc_max_aggregates(structure: RunStructure, multiplicity: np.ndarray,
                       choice: np.ndarray) -> dict:
    """LDC-MAX ALL-Micro and ALL-Macro lines: the chosen entry point's rows,
    renamed to the LDC query, with all their copies (spec §4.4, §6.2)."""
    n_samples = multiplicity.shape[0]
    rows_all = structure.ldc_max_rows
    # copies of each row in the LDC-MAX table: its SF query's multiplicity if chosen
    weights = np.where(choice[:, structure.row_group] == structure.row_sf,
                       multiplicity[:, structure.row_sf], 0)           # (B, rows)
    result = {}
    for level, mask in _level_masks(structure.levels).items():
        rows = rows_all[mask[rows_all]]
        level_weights = weights[:, rows]
        exists = (level_weights > 0).any(axis=1)
        sums = level_weights @ structure.counts[rows]
        p, r, f = _prf(sums)
        result[(MICRO, level)] = Aggregate(exists, p, r, f, sums)
        most = level_weights.max(axis=0) if n_samples else np.zeros(len(rows), int)
        slot_row, slot_copy = _copy_slots(rows, most)
        slot_sf = structure.row_sf[slot_row]
        slot_group = structure.row_group[slot_row]
        terms = _Terms(n_samples,
                       lambda a, b: ((choice[a:b, slot_group] == slot_sf)
                                     & (multiplicity[a:b, slot_sf] > slot_copy)),
                       lambda a, b: structure.values[slot_row])
        denominator = level_weights @ (structure.counts[rows, _GT] != 0)
        p, r, f = _macro(ordered_sum(terms), denominator)
        result[(MACRO, level)] = Aggregate(exists, p, r, f)
    return result


def ldc_mean_rows(structure: RunStructure, multiplicity: np.ndarray):
    """The combined LDC-MEAN rows for every sample (spec §4.5).

    Returns (repeats, values, gt): (B, names), (B, names, 3), (B, names).  A
    name's P/R/F is the mean over its drawn member rows (each member once,
    added in member order), its GT that of its first drawn member (spec
    decision 1), and it is repeated ceil(member copies / members drawn)
    times (0: not drawn).
    """
    n_samples = multiplicity.shape[0]
    n_names = len(structure.mean_names)
    width = max((len(m) for m in structure.mean_members), default=0)
    member = np.full((n_names, width), -1, dtype=np.intp)
    for i, members in enumerate(structure.mean_members):
        member[i, :len(members)] = members
    exists = member >= 0
    safe = np.where(exists, member, 0)
    copies = np.where(exists[None], multiplicity[:, structure.row_sf[safe]], 0)   # (B, n, w)
    drawn = copies > 0
    sums = np.zeros((n_samples, n_names, 3))
    for position in range(width):
        np.add(sums, structure.values[safe[:, position]][None],
               out=sums, where=drawn[:, :, position, None])
    count = drawn.sum(axis=2)
    values = sums / np.maximum(count, 1)[:, :, None]
    first = np.argmax(drawn, axis=2)
    first_row = np.take_along_axis(np.broadcast_to(safe, drawn.shape), first[:, :, None],
                                   axis=2)[:, :, 0]
    gt = np.where(count > 0, structure.counts[first_row, _GT], 0)
    repeats = -(-copies.sum(axis=2) // np.maximum(count, 1))
    return repeats, values, gt


def ldc_mean_aggregates(structure: RunStructure, multiplicity: np.ndarray) -> dict:
    repeats, values, gt = ldc_mean_rows(structure, multiplicity)
    n_samples = multiplicity.shape[0]
    result = {}
    for level, mask in _level_masks(structure.mean_levels).items():
        names = np.flatnonzero(mask)
        level_repeats = repeats[:, names]
        most = level_repeats.max(axis=0) if n_samples else np.zeros(len(names), int)
        slot_name, slot_copy = _copy_slots(names, most)
        terms = _Terms(n_samples,
                       lambda a, b: repeats[a:b, slot_name] > slot_copy,
                       lambda a, b: values[a:b, slot_name, :])
        denominator = (level_repeats * (gt[:, names] != 0)).sum(axis=1)
        p, r, f = _macro(ordered_sum(terms), denominator)
        exists = (level_repeats > 0).any(axis=1)
        result[(MACRO, level)] = Aggregate(exists, p, r, f)
    return result


def all_aggregates(structure: RunStructure, multiplicity: np.ndarray) -> dict:
    """(variant, aggregate, level) -> Aggregate, for every variant computed."""
    result = {("SF",) + key: value for key, value in sf_aggregates(structure, multiplicity).items()}
    if structure.has_index:
        choice = ldc_max_choice(structure, multiplicity)
        for key, value in ldc_max_aggregates(structure, multiplicity, choice).items():
            result[("LDCMAX",) + key] = value
        for key, value in ldc_mean_aggregates(structure, multiplicity).items():
            result[("LDCMEAN",) + key] = value
    return result


# -- full-data tables for printing ------------------------------------------------

def full_data(structure: RunStructure) -> np.ndarray:
    return np.ones((1, len(structure.sf_ids)), dtype=np.int64)


def _line(structure, j, name) -> TableLine:
    p, r, f = structure.values[j]
    return TableLine(name, structure.runids[j], int(structure.levels[j]), structure.counts[j],
                     int(structure.counts[j, _GT]), p, r, f)


def sf_lines(structure: RunStructure) -> list:
    return [_line(structure, j, structure.names[j]) for j in range(structure.n_rows)]


def ldc_max_lines(structure: RunStructure, choice: np.ndarray) -> list:
    """The rows of each LDC query's chosen entry point, renamed (full data)."""
    chosen = set(int(c) for c in choice[0] if c >= 0)
    lines = [_line(structure, j, structure.ldc_row_names[j])
             for j in range(structure.n_rows) if structure.row_sf[j] in chosen]
    lines.sort(key=lambda line: ec_sort_key(line.name))
    return lines


def ldc_mean_lines(structure: RunStructure) -> list:
    repeats, values, gt = ldc_mean_rows(structure, full_data(structure))
    lines = []
    for i, name in enumerate(structure.mean_names):
        first = structure.mean_members[i][0]
        p, r, f = values[0, i]
        for _copy in range(int(repeats[0, i])):
            lines.append(TableLine(name, structure.runids[first], int(structure.levels[first]),
                                   None, int(gt[0, i]), p, r, f))
    return lines
