"""scorer/coldstart/units.py: the demo run as per-unit statistics.  Each
metric's full-data value is the number the golden ``.summary`` and ``.ap``
print at hop ALL; its per-unit statistics, summed and finished, give it back;
its units are the LDC queries (with -expand)."""
from __future__ import annotations

import pytest

from scorer import unitstatistic
from scorer.coldstart.driver import RunScores
from scorer.coldstart.metrics import BY_NAME, METRICS
from scorer.coldstart.units import RunUnits

from coldstart_demo import RUNID, expected, scored

SUMMARY_PREFIX = {"SF": "SF", "LDCMAX": "LDC-MAX", "LDCMEAN": "LDC-MEAN"}
COLUMN = {"P": 3, "R": 4, "F": 5}


def _run_units() -> RunUnits:
    demo = scored()
    ldc_full_ids = {ldc: demo.queries.get(ldc).full_id for ldc in set(demo.index.values())}
    return RunUnits(RunScores(RUNID, demo.structure, demo.ap_rows, dict(demo.index),
                              ldc_full_ids))


def _printed(metric) -> str:
    if metric.aggregate == "AP":
        prefix = "SF-ALL-Macro" if metric.variant == "SF" else "LDC-MEAN-ALL-Macro"
        line = next(l for l in expected("ap").splitlines() if l.startswith(prefix + " ")
                    and l.split()[2] == "ALL")
        return line.split()[3]
    prefix = f"{SUMMARY_PREFIX[metric.variant]}-{metric.aggregate}"
    line = next(l for l in expected("summary").splitlines()
                if l.split()[:3] == [prefix, RUNID, "ALL"])
    return line.split()[COLUMN[metric.letter]]


@pytest.mark.parametrize("metric", METRICS, ids=lambda m: m.name)
def test_each_metric_is_the_printed_number_and_the_sum_of_its_units(metric):
    units = _run_units()
    value = units.value(metric)
    assert "%0.4f" % value == _printed(metric)
    statistic = units.statistic(metric)
    again = float(unitstatistic.finish(statistic.rule, statistic.matrix.sum(axis=0),
                                       statistic.if_empty))
    assert again == pytest.approx(value, rel=1e-12, abs=1e-15)
    assert set(statistic.units) <= {"CS17_0001", "CS17_0002", "CS17_0003"}
    assert statistic.units == sorted(statistic.units)


def test_the_units_are_the_ldc_queries_and_ap_levels_are_the_ap_reports():
    units = _run_units()
    assert units.units() == sorted(set(units.row_unit)) and units.has_index
    assert {k: "%0.4f" % v for k, v in units.ap_levels("SF").items()} == \
        {"0": "0.8750", "1": "0.5000", "ALL": "0.7292"}
    hop1 = units.statistic(BY_NAME["sf_ap"], "1")
    assert "%0.4f" % float(unitstatistic.finish(hop1.rule, hop1.matrix.sum(axis=0))) == "0.5000"
