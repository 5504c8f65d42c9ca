"""Differences the Perl scorer's hash order makes (spec §0.3), recognised from
the reports alone, so that an official result checked against a re-score
shows them as what they are rather than as scoring differences.

* LDC-MAX (item 1): an LDC query's rows are those of its entry point (SF
  query) with the greatest combined F1; between entry points of equal F1 the
  Perl's choice follows its hash order.  Two sides differ by such a tie when
  each side's rows are the renamed rows of one SF query, both SF queries'
  ``.sf`` rows are the same on both sides, and their combined F1 is equal.
* The LDC-MAX aggregates then follow those choices; the LDC-MEAN aggregates
  (item 2: the GT of a combined row is that of its first member in hash order;
  item 5: summation order) depend on nothing else when the ``.sf`` rows are the
  same on both sides.
"""
from __future__ import annotations

from scorer import prf


def _groups(table: dict) -> dict:
    """{(query, run): {(suffix, hop): cells}}: a table's rows by query (the
    name before the first ':'), ``ALL-`` aggregates left out."""
    groups: dict = {}
    for (name, run, hop), cells in table.items():
        if name.startswith("ALL-"):
            continue
        query, _, suffix = name.partition(":")
        groups.setdefault((query, run), {})[(suffix, hop)] = cells
    return groups


def _signature(rows: dict) -> frozenset:
    # (each row's cells as a set of their items: equal exactly where the rows
    # are, without sorting ten thousand rows' cells)
    return frozenset((key, frozenset(cells.items())) for key, cells in rows.items())


def _combined_f1(rows: dict) -> float:
    """F1 of the summed counts of all rows of an SF query (spec §4.4, §4.1)."""
    def total(column):
        return sum(int(cells.get(column, 0) or 0) for cells in rows.values())
    right = total("Right")
    p = prf.precision(right, total("Submitted") - total("Ignored"))
    r = prf.recall(right, total("GT"))
    return prf.f1(p, r)


def ldcmax_ties(ldcmax_a: dict, ldcmax_b: dict, sf_a: dict, sf_b: dict) -> set:
    """The (LDC query, run) pairs whose .ldcmax rows differ between the sides
    only because another entry point of equal combined F1 was chosen."""
    ldc_a, ldc_b = _groups(ldcmax_a), _groups(ldcmax_b)
    sf_groups_a, sf_groups_b = _groups(sf_a), _groups(sf_b)
    by_signature_a: dict = {}
    for key, rows in sf_groups_a.items():
        by_signature_a.setdefault((key[1], _signature(rows)), []).append(key)
    ties = set()
    for key in ldc_a.keys() & ldc_b.keys():
        rows_a, rows_b = ldc_a[key], ldc_b[key]
        if rows_a == rows_b:
            continue
        run = key[1]
        chosen_a = by_signature_a.get((run, _signature(rows_a)), [])
        chosen_b = by_signature_a.get((run, _signature(rows_b)), [])
        # Both candidates must score alike on both sides, and tie on F1.
        stable = [q for q in chosen_a + chosen_b if sf_groups_b.get(q) == sf_groups_a[q]]
        f1_a = {_combined_f1(sf_groups_a[q]) for q in chosen_a if q in stable}
        f1_b = {_combined_f1(sf_groups_a[q]) for q in chosen_b if q in stable}
        if f1_a & f1_b:
            ties.add(key)
    return ties
