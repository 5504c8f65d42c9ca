"""A scored Cold Start run as per-unit statistics, for statistics across samples
and runs: the AP-based scores and the P/R/F1 lines of ``.summary`` at hop ALL.

The unit is what the bootstrap draws: the LDC query with ``-expand``, else
the SF query.  Each metric's full-data value is the very number the reports
print (taken from the same functions); its per-unit statistics add up to it
(up to the order of floating-point additions).
"""
from __future__ import annotations

import numpy as np

from scorer import unitstatistic
from scorer.coldstart.ap import LEVEL_ORDER, ldc_mean_ap_lines, macro_ap, sf_ap_lines
from scorer.coldstart.counts import COUNT_COLUMNS
from scorer.coldstart.metrics import BY_NAME, Metric, available
from scorer.coldstart.projections import (MACRO, MICRO, all_aggregates, full_data, ldc_max_choice,
                                          ldc_mean_rows)
from scorer.prf import prf_arrays
from scorer.results import RunResult, wants_statistic

_GT = COUNT_COLUMNS.index("GT")
_SUBMITTED = COUNT_COLUMNS.index("SUBMITTED")
_RIGHT = COUNT_COLUMNS.index("RIGHT")
_IGNORED = COUNT_COLUMNS.index("IGNORED")


class RunUnits:
    """One run's metrics: exact full-data values and per-unit statistics."""

    def __init__(self, scores):
        self.scores = scores
        structure = scores.structure
        self.has_index = structure.has_index
        if self.has_index:
            self.row_unit = [structure.ldc_names[g] for g in structure.row_group]
        else:
            self.row_unit = list(structure.columns["sf_full_id"])
        self._aggregates = all_aggregates(structure, full_data(structure))
        self._ap_lines = sf_ap_lines(scores.ap_rows)

    # -- full-data values, as the reports print them ---------------------------
    def value(self, metric: Metric) -> float:
        if metric.aggregate == "AP":
            return macro_ap(self._ap_table(metric.variant)).get("ALL", 0.0)
        line = self._aggregates.get((metric.variant, metric.aggregate, "ALL"))
        if line is None or not line.exists[0]:
            return 0.0
        return float(getattr(line, metric.letter.lower())[0])

    def _ap_table(self, variant: str) -> list:
        if variant == "SF":
            return self._ap_lines
        return ldc_mean_ap_lines(self._ap_lines, self.scores.sf_to_ldc,
                                 self.scores.ldc_full_ids.__getitem__)

    # -- per-unit statistics ----------------------------------------------------
    def statistic(self, metric: Metric, level: str = "ALL") -> unitstatistic.UnitStatistic:
        """Per-unit statistics of ``metric`` (AP metrics: at any ``level``)."""
        if metric.aggregate == "AP":
            return self._ap_statistic(metric.variant, level)
        structure = self.scores.structure
        rows = np.arange(structure.n_rows)
        if metric.variant == "LDCMAX":
            choice = ldc_max_choice(structure, full_data(structure))[0]
            rows = rows[choice[structure.row_group] == structure.row_sf]
        if metric.variant == "LDCMEAN":
            return self._ldc_mean_statistic(metric)
        counts = structure.counts[rows]
        units = [self.row_unit[j] for j in rows]
        if metric.aggregate == MICRO:
            columns = np.stack([counts[:, _RIGHT], counts[:, _SUBMITTED] - counts[:, _IGNORED],
                                counts[:, _GT]], axis=1).astype(np.float64)
            rule = {"P": unitstatistic.PRECISION, "R": unitstatistic.RECALL, "F": unitstatistic.F1}
            return _by_unit(units, columns, rule[metric.letter])
        value = structure.values[rows, "PRF".index(metric.letter)]
        columns = np.stack([value, (counts[:, _GT] != 0).astype(np.float64)], axis=1)
        return _by_unit(units, columns, unitstatistic.RATIO)

    def _ldc_mean_statistic(self, metric: Metric) -> unitstatistic.UnitStatistic:
        structure = self.scores.structure
        repeats, mean_values, gt = ldc_mean_rows(structure, full_data(structure))
        letter = "PRF".index(metric.letter)
        units, columns = [], []
        for i, members in enumerate(structure.mean_members):
            copies = float(repeats[0, i])
            units.append(structure.ldc_names[structure.row_group[members[0]]])
            columns.append((copies * mean_values.row(i)[letter, 0],
                            copies * float(gt[0, i] != 0)))
        return _by_unit(units, np.array(columns, dtype=np.float64).reshape(-1, 2),
                        unitstatistic.RATIO)

    def ap_levels(self, variant: str) -> dict:
        """Full-data ALL-Macro AP per level present (as ``.ap`` prints it)."""
        return macro_ap(self._ap_table(variant))

    def _ap_statistic(self, variant: str, level: str = "ALL") -> unitstatistic.UnitStatistic:
        lines = [line for line in self._ap_table(variant) if line.level == level]
        if variant == "LDCMEAN":
            units = [line.name for line in lines]
        elif self.has_index:
            units = [self.scores.ldc_full_ids[self.scores.sf_to_ldc[line.query_id]]
                     for line in lines]
        else:
            units = [line.name for line in lines]
        columns = np.array([(line.ap, 1.0 if line.ground_truth else 0.0) for line in lines],
                           dtype=np.float64).reshape(-1, 2)
        return _by_unit(units, columns, unitstatistic.RATIO)

    def units(self) -> list:
        """Every unit of the run, sorted."""
        return sorted(set(self.row_unit))


def _by_unit(units: list, columns: np.ndarray, rule: str) -> unitstatistic.UnitStatistic:
    """Rows of ``columns`` summed per unit; units sorted."""
    names = sorted(set(units))
    position = {unit: i for i, unit in enumerate(names)}
    matrix = np.zeros((len(names), columns.shape[1]))
    np.add.at(matrix, np.array([position[u] for u in units], dtype=np.intp), columns)
    return unitstatistic.UnitStatistic(names, matrix, rule)


def run_result(run_name: str, outcome, status: str = "ok", statistics=True):
    """The data of one scored run (scorer.results.RunResult; ``outcome``: the
    driver's, its first run id), the per-unit statistics only of the metrics
    asked for (scorer.results.wants_statistic)."""
    result = RunResult(run_name, status)
    if not outcome.runs:
        return result
    scores = outcome.runs[0]
    run_units = RunUnits(scores)
    for metric in available(scores.structure.has_index):
        result.values[metric.name] = run_units.value(metric)
        if wants_statistic(statistics, metric.name):
            result.statistics[metric.name] = run_units.statistic(metric)
    # A metric's statistics at one hop (``METRIC@LEVEL``: -slices hop), AP metrics only
    for name in statistics if isinstance(statistics, (tuple, list)) else ():
        base, _, level = name.partition("@")
        if level and base in result.values and BY_NAME[base].aggregate == "AP":
            result.statistics[name] = run_units.statistic(BY_NAME[base], level)
    structure = scores.structure
    for (variant, aggregate, level), line in sorted(
            all_aggregates(structure, full_data(structure)).items()):
        if line.exists[0]:
            for name, values in (("P", line.p), ("R", line.r), ("F1", line.f)):
                result.per_hop.append((variant, "micro" if aggregate == MICRO else "macro",
                                       level, name, float(values[0])))
    for variant in ("SF", "LDCMEAN") if structure.has_index else ("SF",):
        for level, value in run_units.ap_levels(variant).items():
            result.per_hop.append((variant, "macro", level, "AP", float(value)))
    # Per SF query and hop: the counts of its rows, P/R/F1 from them, and AP.
    table = structure.table
    counted = ["GT", "SUBMITTED", "RIGHT", "WRONG", "IGNORED"]
    by_level = table.groupby(["sf_full_id", "level"], sort=True)[counted].sum()
    ap = {(row.query_full_id, row.level): row.ap for row in scores.ap_rows}
    for query in sorted(set(table["sf_full_id"])):
        levels = by_level.loc[query]
        for hop in LEVEL_ORDER:
            if hop == "ALL":
                sums = levels.sum()
            elif int(hop) in levels.index:
                sums = levels.loc[int(hop)]
            else:
                continue
            p, r, f = prf_arrays(sums["RIGHT"], sums["SUBMITTED"] - sums["IGNORED"], sums["GT"])
            for name in counted:
                result.per_query.append((query, hop, name, float(sums[name])))
            result.per_query += [(query, hop, "P", float(p)), (query, hop, "R", float(r)),
                                 (query, hop, "F1", float(f))]
            if (query, hop) in ap:
                result.per_query.append((query, hop, "AP", float(ap[(query, hop)])))
    return result
