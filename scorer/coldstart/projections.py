"""From the counts table to the reported tables: SF rows, the LDC-MAX and
LDC-MEAN projections, and the ALL-Micro / ALL-Macro aggregates (spec §4.2-4.6).

Every aggregate is computed for a matrix of multiplicities (samples x SF
queries): the full data is the single sample in which every SF query counts
once, and a bootstrap sample counts each SF query as often as it was drawn
(spec §6.2).  Both therefore run the very same code.

The Perl adds macro averages one row copy at a time, left to right; the sums
here do the same (vectorised over samples, not over rows), so each value is
the same double the Perl computes.
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


@dataclasses.dataclass
class Aggregate:
    """One aggregate line (e.g. SF ALL-Macro level 1) for every sample."""

    exists: np.ndarray            # (B,) bool
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
        self.p = table["P"].to_numpy(dtype=float)
        self.r = table["R"].to_numpy(dtype=float)
        self.f = table["F"].to_numpy(dtype=float)
        self.sf_ids = sorted(set(table["query_id"]))
        column = {sf: i for i, sf in enumerate(self.sf_ids)}
        self.row_sf = np.array([column[q] for q in table["query_id"]], dtype=np.intp)
        self.sf_full_ids = {}
        for q, full in zip(table["query_id"], table["sf_full_id"]):
            self.sf_full_ids.setdefault(q, full)
        if has_index:
            self._build_ldc_structures(table, column)

    def _build_ldc_structures(self, table, column):
        ldc_full_of_sf: dict = {}
        for q, ldc_full in zip(table["query_id"], table["ldc_full_id"]):
            if ldc_full is None:
                raise ScorerError(f"Query {self.sf_full_ids[q]} is not an entry point of any "
                                  f"expanded LDC query, so the LDC-level scores cannot be made")
            ldc_full_of_sf[q] = ldc_full
        # LDC-MAX: per LDC query, its SF queries in string order of short id.
        groups: dict = {}
        for q in self.sf_ids:
            groups.setdefault(ldc_full_of_sf[q], []).append(column[q])
        self.ldc_names = sorted(groups)
        self.ldc_members = [np.array(groups[name], dtype=np.intp) for name in self.ldc_names]
        # Each SF query's rows, in row (EC) order; and the F1 of their summed counts.
        self.rows_of_sf = [np.flatnonzero(self.row_sf == c) for c in range(len(self.sf_ids))]
        sums = np.array([self.counts[rows].sum(axis=0) for rows in self.rows_of_sf])
        _, _, self.sf_f1 = _prf(sums)
        self.ldc_row_names = [
            self._ldc_row_name(ldc_full_of_sf[self.sf_ids[self.row_sf[j]]], j)
            for j in range(self.n_rows)]
        # LDC-MEAN: rows grouped by LDC name; members in string order of their row name.
        mean_groups: dict = {}
        for j in range(self.n_rows):
            mean_groups.setdefault(self.ldc_row_names[j], []).append(j)
        names = sorted(mean_groups)
        # Sorted as the table rows are (stable on the string order above).
        names.sort(key=ec_sort_key)
        self.mean_names = names
        self.mean_members = [np.array(sorted(mean_groups[n], key=lambda j: self.names[j]),
                                      dtype=np.intp) for n in names]

    def _ldc_row_name(self, ldc_full: str, j: int) -> str:
        suffix = self.table["suffix"].iat[j]
        return f"{ldc_full}:{suffix}" if suffix else ldc_full


def _prf(counts: np.ndarray):
    right = counts[..., _RIGHT]
    return stats.prf_arrays(right, counts[..., _SUBMITTED] - counts[..., _IGNORED],
                            counts[..., _GT])


def _level_masks(levels: np.ndarray) -> dict:
    return {"0": levels == 0, "1": levels == 1, "ALL": np.ones(len(levels), dtype=bool)}


def _sequential_repeated_sum(values: np.ndarray, repeats: np.ndarray, acc: np.ndarray) -> None:
    """acc[b] += values[j] repeats[b, j] times, one addition at a time, j in order.

    ``values`` (n, k) or (n,); ``repeats`` (B, n); ``acc`` (B, k) or (B,), in place.
    """
    for j in range(repeats.shape[1]):
        reps = repeats[:, j]
        most = int(reps.max()) if len(reps) else 0
        value = values[j]
        for copy in range(most):
            mask = reps > copy
            if values.ndim == 1:
                np.add(acc, value, out=acc, where=mask)
            else:
                np.add(acc, value, out=acc, where=mask[:, None])


def _macro(values: np.ndarray, repeats: np.ndarray, ground_truth: np.ndarray):
    """Macro averages of P, R, F (spec §4.3): the sum over row copies divided by
    the number of copies whose GT is not 0 (0 when there are none)."""
    n_samples = repeats.shape[0]
    acc = np.zeros((n_samples, 3))
    _sequential_repeated_sum(values, repeats, acc)
    denominator = (repeats * (ground_truth != 0)).sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        mean = np.where(denominator[:, None] > 0, acc / np.maximum(denominator, 1)[:, None], 0.0)
    return mean[:, 0], mean[:, 1], mean[:, 2]


def sf_aggregates(structure: RunStructure, multiplicity: np.ndarray) -> dict:
    """SF ALL-Micro and ALL-Macro lines per level (spec §4.3)."""
    repeats = multiplicity[:, structure.row_sf]          # (B, n_rows)
    values = np.stack([structure.p, structure.r, structure.f], axis=1)
    result = {}
    for level, mask in _level_masks(structure.levels).items():
        level_repeats = repeats[:, mask]
        exists = (level_repeats > 0).any(axis=1)
        sums = level_repeats @ structure.counts[mask]
        p, r, f = _prf(sums)
        result[(MICRO, level)] = Aggregate(exists, p, r, f, sums)
        p, r, f = _macro(values[mask], level_repeats, structure.counts[mask, _GT])
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
    masks = _level_masks(structure.levels)
    n_counts = len(COUNT_COLUMNS)
    sums = {level: np.zeros((n_samples, n_counts), dtype=np.int64) for level in LEVELS}
    exists = {level: np.zeros(n_samples, dtype=bool) for level in LEVELS}
    acc = {level: np.zeros((n_samples, 3)) for level in LEVELS}
    denominators = {level: np.zeros(n_samples, dtype=np.int64) for level in LEVELS}
    values = np.stack([structure.p, structure.r, structure.f], axis=1)
    for g, members in enumerate(structure.ldc_members):
        for column in members:
            chosen = choice[:, g] == column
            if not chosen.any():
                continue
            copies = np.where(chosen, multiplicity[:, column], 0)
            for j in structure.rows_of_sf[column]:
                row_repeats = copies[:, None]
                for level in LEVELS:
                    if not masks[level][j]:
                        continue
                    sums[level] += np.outer(copies, structure.counts[j])
                    exists[level] |= copies > 0
                    _sequential_repeated_sum(values[j:j + 1], row_repeats, acc[level])
                    if structure.counts[j, _GT] != 0:
                        denominators[level] += copies
    result = {}
    for level in LEVELS:
        p, r, f = _prf(sums[level])
        result[(MICRO, level)] = Aggregate(exists[level], p, r, f, sums[level])
        denominator = denominators[level]
        with np.errstate(divide="ignore", invalid="ignore"):
            mean = np.where(denominator[:, None] > 0,
                            acc[level] / np.maximum(denominator, 1)[:, None], 0.0)
        result[(MACRO, level)] = Aggregate(exists[level], mean[:, 0], mean[:, 1], mean[:, 2])
    return result


def ldc_mean_rows(structure: RunStructure, multiplicity: np.ndarray):
    """The combined LDC-MEAN rows for every sample (spec §4.5).

    Returns (repeats, p, r, f, gt), each (B, n_names): a name's P/R/F is the
    mean over its drawn member rows (each member once, added in member
    order), its GT that of its first drawn member (spec decision 1), and it is
    repeated ceil(member copies / members drawn) times (0: not drawn).
    """
    n_samples = multiplicity.shape[0]
    shape = (n_samples, len(structure.mean_names))
    repeats = np.zeros(shape, dtype=np.int64)
    means = np.zeros(shape + (3,))
    gt = np.zeros(shape, dtype=np.int64)
    values = np.stack([structure.p, structure.r, structure.f], axis=1)
    for i, members in enumerate(structure.mean_members):
        copies = multiplicity[:, structure.row_sf[members]]      # (B, members)
        drawn = copies > 0
        count = drawn.sum(axis=1)
        acc = np.zeros((n_samples, 3))
        for position, j in enumerate(members):
            np.add(acc, values[j], out=acc, where=drawn[:, position][:, None])
        means[:, i, :] = acc / np.maximum(count, 1)[:, None]
        first = np.argmax(drawn, axis=1)
        gt[:, i] = np.where(count > 0, structure.counts[members[first], _GT], 0)
        total = copies.sum(axis=1)
        repeats[:, i] = -(-total // np.maximum(count, 1))
    return repeats, means[:, :, 0], means[:, :, 1], means[:, :, 2], gt


def ldc_mean_aggregates(structure: RunStructure, multiplicity: np.ndarray) -> dict:
    repeats, p, r, f, gt = ldc_mean_rows(structure, multiplicity)
    levels = np.array([structure.levels[members[0]] for members in structure.mean_members],
                      dtype=np.int64)
    result = {}
    for level, mask in _level_masks(levels).items():
        values = np.stack([p[:, mask], r[:, mask], f[:, mask]], axis=2)   # (B, n, 3)
        level_repeats = repeats[:, mask]
        n_samples = multiplicity.shape[0]
        acc = np.zeros((n_samples, 3))
        for j in range(level_repeats.shape[1]):
            reps = level_repeats[:, j]
            for copy in range(int(reps.max()) if len(reps) else 0):
                np.add(acc, values[:, j, :], out=acc, where=(reps > copy)[:, None])
        denominator = (level_repeats * (gt[:, mask] != 0)).sum(axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            mean = np.where(denominator[:, None] > 0,
                            acc / np.maximum(denominator, 1)[:, None], 0.0)
        exists = (level_repeats > 0).any(axis=1)
        result[(MACRO, level)] = Aggregate(exists, mean[:, 0], mean[:, 1], mean[:, 2])
    return result


# -- full-data tables for printing ------------------------------------------------

def full_data(structure: RunStructure) -> np.ndarray:
    return np.ones((1, len(structure.sf_ids)), dtype=np.int64)


def sf_lines(structure: RunStructure) -> list:
    return [TableLine(structure.names[j], structure.runids[j], int(structure.levels[j]),
                      structure.counts[j], int(structure.counts[j, _GT]),
                      structure.p[j], structure.r[j], structure.f[j])
            for j in range(structure.n_rows)]


def ldc_max_lines(structure: RunStructure, choice: np.ndarray) -> list:
    """The rows of each LDC query's chosen entry point, renamed (full data)."""
    chosen = set(int(c) for c in choice[0] if c >= 0)
    lines = [TableLine(structure.ldc_row_names[j], structure.runids[j], int(structure.levels[j]),
                       structure.counts[j], int(structure.counts[j, _GT]),
                       structure.p[j], structure.r[j], structure.f[j])
             for j in range(structure.n_rows) if structure.row_sf[j] in chosen]
    lines.sort(key=lambda line: ec_sort_key(line.name))
    return lines


def ldc_mean_lines(structure: RunStructure) -> list:
    multiplicity = full_data(structure)
    repeats, p, r, f, gt = ldc_mean_rows(structure, multiplicity)
    lines = []
    for i, name in enumerate(structure.mean_names):
        first = structure.mean_members[i][0]
        for _copy in range(int(repeats[0, i])):
            lines.append(TableLine(name, structure.runids[first], int(structure.levels[first]),
                                   None, int(gt[0, i]), p[0, i], r[0, i], f[0, i]))
    return lines


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
