"""The diff of two report sets of a task whose ``.debug`` is blocks of facts,
a block a unit (a claim of SciFact or FEVER, an item): units aligned by id,
read through the task's layout (``Task.debug_layout``); a change scores when
it changes the unit's counts."""
from __future__ import annotations

from collections import Counter
from typing import Optional

from scorer.diff.changes import (NOT_LISTED, Change, Diff, Side, claim_order, selected,
                                 summary_changes)


def diff_claims(a: Side, b: Side, queries: Optional[frozenset] = None) -> Diff:
    in_a = {claim.id: claim for claim in a.debug.claims if selected(claim.id, claim.id, queries)}
    in_b = {claim.id: claim for claim in b.debug.claims if selected(claim.id, claim.id, queries)}
    transitions: Counter = Counter()
    verdicts: Counter = Counter()
    changes = []
    for claim_id in sorted(in_a.keys() | in_b.keys(), key=claim_order):
        ca, cb = in_a.get(claim_id), in_b.get(claim_id)
        transitions[(ca.predicted if ca else NOT_LISTED, cb.predicted if cb else NOT_LISTED)] += 1
        verdicts[(ca.label if ca else NOT_LISTED, cb.label if cb else NOT_LISTED)] += 1
        change = _claim_change(a.debug.layout, ca, cb)
        if change is not None:
            changes.append(change)
    aggregates = summary_changes(a.summary, b.summary) if queries is None else []
    return Diff(a.debug.task, a, b, queries, transitions, changes, [], [], [], aggregates,
                len(in_a.keys() | in_b.keys()), [c.query for c in changes], [],
                verdicts=verdicts)


def _claim_state(layout, claim) -> str:
    if claim is None:
        return NOT_LISTED
    parts = [f"label {claim.predicted} ({claim.label}, gold {claim.gold})"]
    if layout.strict:
        word, _in_a_change, none = layout.strict
        parts.append(f"{word} {','.join(claim.strict) or none}")
    if claim.scores:
        parts.append(" ".join(f"{name}={value}" for name, value in claim.scores))
    return "; ".join(parts)


def _claim_change(layout, ca, cb) -> Optional[Change]:
    either = ca if ca is not None else cb
    if ca is not None and cb is not None:
        words, detail = [], []
        if ca.predicted != cb.predicted:
            words.append(f"label {ca.predicted} -> {cb.predicted} ({ca.label} -> {cb.label})")
        elif ca.label != cb.label:
            words.append(f"label {ca.predicted} ({ca.label} -> {cb.label})")
        if ca.gold != cb.gold:
            words.append(f"gold label {ca.gold} -> {cb.gold}")
        if ca.strict != cb.strict:
            _in_a_state, word, none = layout.strict
            words.append(f"{word} {','.join(ca.strict) or none} -> "
                         f"{','.join(cb.strict) or none}")
        lost, gained = sorted(ca.evidence - cb.evidence), sorted(cb.evidence - ca.evidence)
        if lost or gained:
            words.append(f"evidence -{len(lost)} +{len(gained)}")
            detail += [f"evidence only in A: {e}" for e in lost]
            detail += [f"evidence only in B: {e}" for e in gained]
        if ca.scores != cb.scores:
            moved = [f"{name} {va} -> {vb}" for (name, va), (_, vb) in zip(ca.scores, cb.scores)
                     if va != vb]
            words.append("counts")
            detail += moved
        if not words:
            return None
        counts = ca.label != cb.label or ca.strict != cb.strict or ca.scores != cb.scores
        side = "both"
    else:
        side = "A" if cb is None else "B"
        words, detail, counts = [f"only in {side}"], [], True
    return Change(either.id, "", "", either.id, side, ", ".join(words),
                  _claim_state(layout, ca), _claim_state(layout, cb), counts, detail)
