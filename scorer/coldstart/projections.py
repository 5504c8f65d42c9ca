"""From the counts table to the reported tables: SF rows, the LDC-MAX and
LDC-MEAN projections, and the ALL-Micro / ALL-Macro aggregates (spec §4.2-4.6).

Every aggregate is computed for a matrix of multiplicities (samples x SF
queries): the full data is the single sample in which every SF query counts
once, and a bootstrap sample counts each SF query as often as it was drawn
(spec §6.2).  Both run the very same code.

Exactness: the macro averages' sums are the Perl's running sums
(``runningsums.py``): each value is the very double the Perl computes.
"""
from __future__ import annotations

import dataclasses
from typing import Optional

import numpy as np

from scorer import prf
from scorer.coldstart.counts import COUNT_COLUMNS, counts_frame, ec_sort_key
from scorer.coldstart.metrics import MACRO, MICRO
from scorer.coldstart.runningsums import CodedValues, running_sums_by_row
from scorer.problems import ScorerError

LEVELS = ("0", "1", "ALL")
VARIANTS = ("SF", "LDCMAX", "LDCMEAN")
_GT = COUNT_COLUMNS.index("GT")
_SUBMITTED = COUNT_COLUMNS.index("SUBMITTED")
_RIGHT = COUNT_COLUMNS.index("RIGHT")
_IGNORED = COUNT_COLUMNS.index("IGNORED")


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
    counts: Optional[list]         # None for LDC-MEAN lines (only GT is known)
    ground_truth: int
    p: float
    r: float
    f: float


class RunStructure:
    """Index arrays of one run's counts table, shared by all projections."""

    def __init__(self, table, has_index: bool):
        """``table``: the counts table, columns by name (counts.counts_table's
        dict, or a DataFrame)."""
        self.columns = table
        self._table = None
        self.has_index = has_index
        self.names = list(table["name"])
        self.n_rows = len(self.names)
        self.runids = list(table["runid"])
        self.levels = np.asarray(table["level"])
        self.counts = np.array([table[c] for c in COUNT_COLUMNS], dtype=np.int64,
                               ndmin=2).reshape(len(COUNT_COLUMNS), self.n_rows).T
        self.values = np.array([table[c] for c in ("P", "R", "F")], dtype=float,
                               ndmin=2).reshape(3, self.n_rows).T
        self.sf_ids = sorted(set(table["query_id"]))
        column = {sf: i for i, sf in enumerate(self.sf_ids)}
        self.row_sf = np.array([column[q] for q in table["query_id"]], dtype=np.intp)
        if has_index:
            self._build_ldc_structures(table, column)

    @property
    def table(self):
        """The counts table as a DataFrame, made on first use (pandas is not
        imported by a plain run)."""
        if self._table is None:
            self._table = counts_frame(self.columns)
        return self._table

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
        # Rows of each SF query (in table order): one stable sort, not a scan per query.
        by_sf = np.argsort(self.row_sf, kind="stable")
        bounds = np.searchsorted(self.row_sf[by_sf], np.arange(len(self.sf_ids) + 1))
        self.rows_of_sf = [by_sf[bounds[c]:bounds[c + 1]] for c in range(len(self.sf_ids))]
        sums = np.zeros((len(self.sf_ids), self.counts.shape[1]), dtype=self.counts.dtype)
        np.add.at(sums, self.row_sf, self.counts)
        _, _, self.sf_f1 = _prf(sums)
        self.ldc_row_names = [f"{ldc_full_of_sf[q]}:{suffix}" if suffix else ldc_full_of_sf[q]
                              for q, suffix in zip(table["query_id"], table["suffix"])]
        # LDC-MAX rows in the printed order: LDC query, then its entry points, then ECs.
        self.ldc_max_rows = np.concatenate(
            [self.rows_of_sf[c] for members in self.ldc_members for c in members]
            or [np.zeros(0, dtype=np.intp)]).astype(np.intp)
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
    return prf.prf_arrays(right, counts[..., _SUBMITTED] - counts[..., _IGNORED],
                            counts[..., _GT])


def _level_masks(levels: np.ndarray) -> dict:
    return {"0": levels == 0, "1": levels == 1, "ALL": np.ones(len(levels), dtype=bool)}


def _integer_product(left: np.ndarray, right: np.ndarray) -> np.ndarray:
    """``left @ right`` for non-negative counts, through BLAS: in single
    precision when every partial sum stays below 2**24 (so it is exact),
    else in double precision (exact below 2**53)."""
    bound = int(left.sum(axis=1).max(initial=0)) * int(right.max(initial=0))
    kind = np.float32 if bound < 2 ** 24 else np.float64
    return np.rint(left.astype(kind) @ right.astype(kind)).astype(np.int64)


def _macro(sums: np.ndarray, denominator: np.ndarray):
    """Macro means (spec §4.3): the sum over row copies divided by the copies
    whose GT is not 0; 0 when there are none."""
    with np.errstate(divide="ignore", invalid="ignore"):
        mean = np.where(denominator[:, None] > 0,
                        sums / np.maximum(denominator, 1)[:, None], 0.0)
    return mean[:, 0], mean[:, 1], mean[:, 2]


def sf_aggregates(structure: RunStructure, multiplicity: np.ndarray) -> dict:
    """SF ALL-Micro and ALL-Macro lines per level (spec §4.3)."""
    return _aggregates(structure, None, _by_sf(multiplicity))


def _by_sf(multiplicity: np.ndarray) -> np.ndarray:
    """The multiplicities SF query by SF query (SF queries, B): the layout
    the row gathers and running sums read."""
    return np.ascontiguousarray(multiplicity.T)


def _sf_columns(structure: RunStructure) -> np.ndarray:
    """Per SF query and level: its rows' summed counts, its rows, and its
    rows with ground truth (the macro denominator), side by side; made once
    a structure.  A sample's micro sums are its SF multiplicities times
    these: exact integers, whatever the order of the rows."""
    cached = getattr(structure, "_sf_columns", None)
    if cached is None:
        counts = structure.counts
        has_truth = counts[:, _GT] != 0
        columns = []
        for mask in _level_masks(structure.levels).values():
            mask = mask[:, None]
            columns += [counts * mask, mask, has_truth[:, None] & mask]
        cached = np.zeros((len(structure.sf_ids), sum(c.shape[1] for c in columns)),
                          dtype=np.int64)
        np.add.at(cached, structure.row_sf, np.hstack(columns))
        structure._sf_columns = cached
    return cached


def _macro_rows(structure: RunStructure, rows: Optional[np.ndarray]) -> tuple:
    """(rows, their SF columns, values, levels) of ``rows`` (None: table
    order) whose P, R and F are not all 0.0: only these can change a running
    sum (see runningsums.running_sums); made once a structure and row order."""
    key = "table" if rows is None else "ldcmax"
    cache = structure.__dict__.setdefault("_macro_rows", {})
    if key not in cache:
        order = np.arange(structure.n_rows) if rows is None else rows
        values = structure.values[order]
        kept = np.flatnonzero((values != 0).any(axis=1))
        cache[key] = (structure.row_sf[order[kept]], values[kept],
                      structure.levels[order[kept]])
    return cache[key]


def _aggregates(structure: RunStructure, rows: Optional[np.ndarray],
                weights: np.ndarray) -> dict:
    """Micro and macro lines over all rows in the order ``rows`` (None:
    table order), each row counted ``weights[c, b]`` times in sample b, c
    its SF query's column."""
    totals = _integer_product(weights.T, _sf_columns(structure))
    row_sf, values, levels = _macro_rows(structure, rows)
    macro_sums = running_sums_by_row(values, weights[row_sf], levels)
    result = {}
    width = structure.counts.shape[1] + 2
    for i, level in enumerate(LEVELS):
        block = totals[:, i * width:(i + 1) * width]
        sums, drawn, denominator = block[:, :-2], block[:, -2], block[:, -1]
        exists = drawn > 0
        p, r, f = _prf(sums)
        result[(MICRO, level)] = Aggregate(exists, p, r, f, sums)
        p, r, f = _macro(macro_sums[level], denominator)
        result[(MACRO, level)] = Aggregate(exists, p, r, f)
    return result


def ldc_max_choice(structure: RunStructure, multiplicity: np.ndarray) -> np.ndarray:
    """Per sample and LDC query, the SF column of its best entry point (-1: none drawn).

    Best = highest F1 of the summed counts; ties go to the first SF query in
    string order of short id (spec decision 1, §7.12).
    """
    return _ldc_max_choice(structure, _by_sf(multiplicity)).T


def _ldc_max_choice(structure: RunStructure, by_sf: np.ndarray) -> np.ndarray:
    """ldc_max_choice of the multiplicities ``by_sf`` (SF queries, B): (LDC queries, B)."""
    n_samples = by_sf.shape[1]
    n_groups = len(structure.ldc_names)
    if not n_groups or not n_samples:
        return np.full((n_groups, n_samples), -1, dtype=np.intp)
    # Members of each LDC query one after the other, in member order, and one
    # maximum per segment for all LDC queries at once (segments of rows: the
    # reduction runs along rows).  The value maximised encodes both choices:
    # F1 as its rank among the F1 values (the same order and ties, 1 = lowest,
    # 0 = not drawn) times n, plus n - 1 - position, so that of equal F1 the
    # first position is the largest.
    order = np.concatenate(structure.ldc_members)
    sizes = np.array([len(m) for m in structure.ldc_members])
    starts = np.cumsum(sizes) - sizes
    _, rank = np.unique(structure.sf_f1[order], return_inverse=True)
    n = len(order)
    kind = np.int32 if (int(rank.max(initial=0)) + 2) * n < 2 ** 31 else np.int64
    key = (by_sf[order] > 0) * ((rank.astype(kind) + 1) * n)[:, None]
    key += (n - 1 - np.arange(n, dtype=kind))[:, None]
    best = np.maximum.reduceat(key, starts, axis=0)                    # (groups, B)
    # a key of n or more: a drawn member's (not drawn: n - 1 - position, below n)
    return np.where(best >= n, order[n - 1 - best % n], -1)


def ldc_max_aggregates(structure: RunStructure, multiplicity: np.ndarray,
                       choice: np.ndarray) -> dict:
    """LDC-MAX ALL-Micro and ALL-Macro lines: the chosen entry point's rows,
    renamed to the LDC query, with all their copies (spec §4.4, §6.2)."""
    return _ldc_max_aggregates(structure, _by_sf(multiplicity), choice.T)


def _ldc_max_aggregates(structure: RunStructure, by_sf: np.ndarray, choice: np.ndarray) -> dict:
    """ldc_max_aggregates of ``by_sf`` (SF queries, B) and ``choice`` (LDC queries, B)."""
    # copies of each SF query in the LDC-MAX table: its multiplicity if chosen
    chosen = np.zeros(by_sf.shape, dtype=bool)
    group, sample = np.nonzero(choice >= 0)
    chosen[choice[group, sample], sample] = True
    return _aggregates(structure, structure.ldc_max_rows, by_sf * chosen)


def _mean_tables(structure: RunStructure):
    """Per name and subset of drawn members: the mean P/R/F (members added in
    member order, then divided, as the Perl does), the GT of the first drawn
    member, and the number of members drawn."""
    n_names = len(structure.mean_names)
    width = max((len(m) for m in structure.mean_members), default=0)
    subsets = 2 ** width
    drawn_count = np.zeros(subsets, dtype=np.int32)
    for code in range(subsets):
        drawn_count[code] = bin(code).count("1")
    # Python floats: the same double additions and divisions as numpy's,
    # without a numpy call for each.
    values = structure.values.tolist()
    truth = structure.counts[:, _GT].tolist()
    table_rows, gt_rows = [], []
    for members in structure.mean_members:
        means, firsts = [[0.0, 0.0, 0.0]] * subsets, [0] * subsets
        for code in range(1, 2 ** len(members)):
            chosen = [row for k, row in enumerate(members) if code >> k & 1]
            total = [0.0, 0.0, 0.0]
            for row in chosen:
                total = [t + v for t, v in zip(total, values[row])]
            means[code] = [t / len(chosen) for t in total]
            firsts[code] = truth[chosen[0]]
        table_rows.append(means)
        gt_rows.append(firsts)
    table = np.array(table_rows, dtype=float).reshape(n_names, subsets, 3)
    gt = np.array(gt_rows, dtype=np.int64).reshape(n_names, subsets)
    return table, gt, drawn_count


def ldc_mean_rows(structure: RunStructure, multiplicity: np.ndarray):
    """The combined LDC-MEAN rows for every sample (spec §4.5).

    Returns (repeats (B, names), CodedValues, gt (B, names)).  A name's P/R/F
    is the mean over its drawn member rows (each member once, added in member
    order), its GT that of its first drawn member (spec decision 1), and it
    is repeated ceil(member copies / members drawn) times (0: not drawn).
    """
    repeats, values = _ldc_mean_by_name(structure, _by_sf(multiplicity))
    gt = np.take_along_axis(structure._mean_tables[1], values.code, axis=1)
    return repeats.T, values, gt.T


def _member_positions(structure: RunStructure) -> list:
    """Per member position k: (the names with a k-th member, or None for
    all names; those members' SF columns); made once a structure."""
    cached = getattr(structure, "_member_positions", None)
    if cached is None:
        members = structure.mean_members
        width = max((len(m) for m in members), default=0)
        cached = []
        for position in range(width):
            present = [i for i, m in enumerate(members) if len(m) > position]
            rows = np.array([members[i][position] for i in present], dtype=np.intp)
            names = None if len(present) == len(members) else np.array(present, dtype=np.intp)
            cached.append((names, structure.row_sf[rows]))
        structure._member_positions = cached
    return cached


def _ldc_mean_by_name(structure: RunStructure, by_sf: np.ndarray):
    """ldc_mean_rows of ``by_sf`` (SF queries, B), names first, without GT:
    (repeats (names, B), CodedValues)."""
    if not hasattr(structure, "_mean_tables"):
        structure._mean_tables = _mean_tables(structure)
    table, _gt_table, drawn_count = structure._mean_tables
    positions = _member_positions(structure)
    if not positions:
        empty = np.zeros((0, by_sf.shape[1]), dtype=np.int32)
        return empty, CodedValues(table, empty)
    # every name has a first member: its copies and drawn bit start the sums
    repeats = by_sf[positions[0][1]].astype(np.int32)            # member copies, for now
    code = (repeats > 0).astype(np.int32)
    for position, (names, columns) in enumerate(positions[1:], start=1):
        copies = by_sf[columns]                                  # (names here, B)
        bits = (copies > 0).astype(np.int32) << position
        if names is None:
            code |= bits
            repeats += copies
        else:
            code[names] |= bits
            repeats[names] += copies
    if len(positions) > 1:
        # ceil(member copies / members drawn), for the names with members to
        # share (exact in integers; a single member's copies are its repeats)
        several = slice(None) if positions[1][0] is None else positions[1][0]
        drawn = np.maximum(drawn_count[code[several]], 1)
        repeats[several] = -(-repeats[several] // drawn)
    return repeats, CodedValues(table, code)


def _ldc_mean_aggregates(structure: RunStructure, by_sf: np.ndarray) -> dict:
    repeats, values = _ldc_mean_by_name(structure, by_sf)      # (names, B)
    macro_sums = running_sums_by_row(values, repeats, structure.mean_levels)
    # copies with ground truth (the macro denominator), and copies, per name
    if not hasattr(structure, "_mean_truth"):
        structure._mean_truth = structure._mean_tables[1] != 0
    with_truth = repeats * np.take_along_axis(structure._mean_truth, values.code, axis=1)
    drawn = repeats > 0
    result = {}
    for level, mask in _level_masks(structure.mean_levels).items():
        every = level == "ALL"
        denominator = (with_truth if every else with_truth[mask]).sum(axis=0)
        exists = (drawn if every else drawn[mask]).any(axis=0)
        p, r, f = _macro(macro_sums[level], denominator)
        result[(MACRO, level)] = Aggregate(exists, p, r, f)
    return result


def all_aggregates(structure: RunStructure, multiplicity: np.ndarray,
                   variants=VARIANTS) -> dict:
    """(variant, aggregate, level) -> Aggregate, for the variants asked for
    (the LDC variants only where there is an SF -> LDC index)."""
    by_sf = _by_sf(multiplicity)
    result = {("SF",) + key: value
              for key, value in _aggregates(structure, None, by_sf).items()}
    if structure.has_index and set(variants) & {"LDCMAX", "LDCMEAN"}:
        choice = _ldc_max_choice(structure, by_sf)
        for key, value in _ldc_max_aggregates(structure, by_sf, choice).items():
            result[("LDCMAX",) + key] = value
        for key, value in _ldc_mean_aggregates(structure, by_sf).items():
            result[("LDCMEAN",) + key] = value
    return result


# -- full-data tables for printing ------------------------------------------------

def full_data(structure: RunStructure) -> np.ndarray:
    return np.ones((1, len(structure.sf_ids)), dtype=np.int64)


class _Rows:
    """The counts table's rows as Python lists: the printed tables format them
    one by one, which numpy scalars make several times slower."""

    def __init__(self, structure: RunStructure):
        self.structure = structure
        self.levels = structure.levels.tolist()
        self.counts = structure.counts.tolist()
        self.values = structure.values.tolist()

    def line(self, j: int, name: str) -> TableLine:
        counts = self.counts[j]
        p, r, f = self.values[j]
        return TableLine(name, self.structure.runids[j], self.levels[j], counts, counts[_GT],
                         p, r, f)


def sf_lines(structure: RunStructure) -> list:
    rows = _Rows(structure)
    return [rows.line(j, structure.names[j]) for j in range(structure.n_rows)]


def ldc_max_lines(structure: RunStructure, choice: np.ndarray) -> list:
    """The rows of each LDC query's chosen entry point, renamed (full data)."""
    chosen = set(int(c) for c in choice[0] if c >= 0)
    rows = _Rows(structure)
    row_sf = structure.row_sf.tolist()
    lines = [rows.line(j, structure.ldc_row_names[j])
             for j in range(structure.n_rows) if row_sf[j] in chosen]
    lines.sort(key=lambda line: ec_sort_key(line.name))
    return lines


def ldc_mean_lines(structure: RunStructure) -> list:
    repeats, values, gt = ldc_mean_rows(structure, full_data(structure))
    # Python numbers, as for the other tables (see _Rows)
    repeats, scores, gt = repeats[0].tolist(), values.sample(0).tolist(), gt[0].tolist()
    levels = structure.levels.tolist()
    lines = []
    for i, name in enumerate(structure.mean_names):
        first = structure.mean_members[i][0]
        p, r, f = scores[i]
        for _copy in range(repeats[i]):
            lines.append(TableLine(name, structure.runids[first], levels[first],
                                   None, gt[i], p, r, f))
    return lines
