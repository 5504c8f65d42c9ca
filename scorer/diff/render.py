"""A diff written: the ``.diff`` text (the transitions, the changes, the
scores that moved, the queries they touch) and the ``.diff.csv`` rows.
Pure functions: a diff (``changes.Diff``) in, text out."""
from __future__ import annotations

import csv
import io
import math
from collections import Counter

from scorer import registry
from scorer.diff.changes import (NOT_LISTED, Change, Diff, ScoreMove, ap_score, claim_order,
                                 delta_text)
from scorer.diff.debugfile import ColdStartDebug


#: The columns of PREFIX.diff.csv.
CSV_COLUMNS = ("query", "hop", "row", "id", "side", "change", "before", "after", "counts",
               "f1_a", "f1_b", "f1_delta", "ap_a", "ap_b", "ap_delta")


RULE = "=" * 80


def _matrix(transitions: Counter) -> list:
    states_a = sorted({a for a, _ in transitions}, key=_state_order)
    states_b = sorted({b for _, b in transitions}, key=_state_order)
    corner = "A \\ B"
    first = max([len(corner)] + [len(s) for s in states_a])
    widths = [max(len(s), max(len(str(transitions[(a, s)])) for a in states_a)) for s in states_b]
    lines = ["  " + corner.ljust(first) + "  " + "  ".join(s.rjust(w) for s, w in
                                                           zip(states_b, widths))]
    for a in states_a:
        lines.append("  " + a.ljust(first) + "  " + "  ".join(
            str(transitions[(a, s)]).rjust(w) for s, w in zip(states_b, widths)))
    return lines


def _state_order(state: str) -> tuple:
    return (state == NOT_LISTED, state)


def _score(value: float) -> str:
    return "-" if math.isnan(value) else "%0.4f" % value


def _top(moves: list, top: int, key_names: tuple, what: str) -> list:
    if not moves:
        return [f"  no {what} changed"]
    ordered = sorted(moves, key=lambda m: (-abs(m.delta), m.key))[:top]
    cells = [[*(str(k) for k in m.key), _score(m.a.value), _score(m.b.value),
              "-" if math.isinf(m.delta) else "%+0.4f" % m.delta] for m in ordered]
    header = [*key_names, f"{what} A", f"{what} B", "change"]
    widths = [max(len(str(row[i])) for row in [header] + cells) for i in range(len(header))]
    return ["  " + "  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip()
            for row in [header] + cells]


def run_ids(debug: ColdStartDebug) -> set:
    """The run ids of a Cold Start ``.debug``'s responses (their submission's
    third column)."""
    return {r.submission.split("\t")[2] for r in debug.responses
            if r.submission.count("\t") >= 2}


def _other_runs_note(diff: Diff) -> list:
    """Where A and B share no run id they are two systems' runs, not one run
    scored two ways: nothing can align, which the reader should not take for
    a finding."""
    runs_a, runs_b = run_ids(diff.a.debug), run_ids(diff.b.debug)
    if not runs_a or not runs_b or runs_a & runs_b:
        return []
    return [f"Run ids: A {', '.join(sorted(runs_a))}, B {', '.join(sorted(runs_b))}: none "
            f"in common.",
            "  Responses align by submission line and rows by run id, so every response is",
            "  only in A or only in B: scorer.diff compares one run scored two ways (two",
            "  policies, the Perl's reports and ours). Two runs compare query by query in a",
            "  track's per_query.csv.gz."]


def diff_text(diff: Diff, top: int) -> str:
    out = [f"scorer.diff: {diff.task}",
           f"A: {diff.a.name} ({diff.a.files()})",
           f"B: {diff.b.name} ({diff.b.files()})"]
    record = registry.get(diff.task)
    unit = record.units
    if diff.queries is not None:
        out.append(f"{unit}: " + " ".join(sorted(diff.queries)) + " (aggregates not compared)")
    out += ["", "SUMMARY", "",
            "Scoring differences: " + ("yes" if diff.scoring else "none")]
    responses = isinstance(diff.a.debug, ColdStartDebug)
    if responses:
        out += _other_runs_note(diff)
    scoring_queries = diff.scoring_queries()
    out.append(f"{unit.capitalize()} touched: {len(diff.queries_touched)} of "
               f"{diff.queries_total} ({len(scoring_queries)} with a scoring difference)")
    only_a = sum(c.side == "A" for c in diff.changes)
    only_b = sum(c.side == "B" for c in diff.changes)
    changed = sum(c.side == "both" for c in diff.changes)
    unscoring = sum(not c.counts for c in diff.changes)
    what = "responses" if responses else record.units
    counts = "row" if responses else record.unit
    out.append(f"{what.capitalize()}: {changed} changed, {only_a} only in A, {only_b} only "
               f"in B; {unscoring} of these leave their {counts}'s counts unchanged")
    label = "post-policy assessments" if responses else "predicted labels"
    out += ["", f"Transitions of {label} (rows A, columns B; {NOT_LISTED}: not in that "
                f".debug):"]
    out += _matrix(diff.transitions) if diff.transitions else ["  (nothing to align)"]
    if diff.verdicts:
        out += ["", "Transitions of label verdicts (the predicted label against the gold "
                    "label):"]
        out += _matrix(diff.verdicts)
    if responses:
        out += ["", f"Top {top} .sf rows by change in F1:"]
        if diff.a.sf is None or diff.b.sf is None:
            out.append("  F1 not compared: no .sf beside " +
                       " and ".join(s.name for s in (diff.a, diff.b) if s.sf is None))
        else:
            out += _top(diff.f1_moves, top, ("QID/EC", "RunID", "Hop"), "F1")
            if diff.sf_counts_only:
                out.append(f"  {len(diff.sf_counts_only)} more .sf row(s) whose counts "
                           f"differ at equal P/R/F1:")
                out += [f"    {' '.join(key)}" for key in diff.sf_counts_only]
        if diff.a.ldcmax is not None and diff.b.ldcmax is not None:
            out += ["", "LDC-MAX (.ldcmax):"]
            if diff.ldcmax_moves:
                out += _top(diff.ldcmax_moves, top, ("LDC query", "RunID", "Hop"), "F1")
            else:
                out.append("  no P/R/F1 changed" + (" but by entry-point ties"
                                                    if diff.ldcmax_ties else ""))
            if diff.ldcmax_counts_only:
                out.append("  rows whose counts differ at equal P/R/F1:")
                out += [f"    {' '.join(key)}" for key in diff.ldcmax_counts_only]
            if diff.ldcmax_ties:
                out.append("  entry-point ties: another entry point of equal combined F1 "
                           "chosen, as the Perl's hash order does (no scoring difference):")
                out += [f"    {query} {run}" for query, run in diff.ldcmax_ties]
        out += ["", f"Top {top} queries by change in AP:"]
        keys = ("Run", "QUERY_ID", "LEVEL") if any(m.key[0] for m in diff.ap_moves) \
            else ("QUERY_ID", "LEVEL")
        moves = diff.ap_moves if keys[0] == "Run" else \
            [ScoreMove(m.key[1:], m.a, m.b) for m in diff.ap_moves]
        out += _top(moves, top, keys, "AP")
    if diff.queries is None:
        out += ["", "Aggregates (.summary):"]
        if diff.a.summary is None or diff.b.summary is None:
            out.append("  not compared: no .summary beside " +
                       " and ".join(s.name for s in (diff.a, diff.b) if s.summary is None))
        elif not diff.aggregates and not diff.hash_aggregates:
            out.append("  no aggregate changed")
        else:
            for key, column, va, vb in diff.aggregates:
                out.append(f"  {' '.join(key)} {column}: {va} -> {vb}")
            if diff.hash_aggregates:
                out.append("  moved only by the Perl's hash order (LDC-MAX entry-point ties, "
                           "LDC-MEAN GT; no scoring difference):")
            for key, column, va, vb in diff.hash_aggregates:
                out.append(f"    {' '.join(key)} {column}: {va} -> {vb}")
    out += ["", "CHANGES", ""]
    if not diff.changes and not diff.ap_changes:
        out.append("none")
    out += _changes_text(diff)
    return "\n".join(out) + "\n"


def _changes_text(diff: Diff) -> list:
    by_query: dict = {}
    for change in diff.changes:
        by_query.setdefault(change.query, []).append(("response", change))
    for item in diff.ap_changes:
        by_query.setdefault(item[0][1], []).append(("ap", item))
    out = []
    responses = isinstance(diff.a.debug, ColdStartDebug)
    head = "" if responses else diff.a.debug.layout.head + " "
    for query in sorted(by_query, key=str if responses else claim_order):
        out += [RULE, head + query]
        row = None
        for kind, item in by_query[query]:
            if kind == "response":
                if responses and item.row != row:
                    row = item.row
                    out.append(f"  row {row} (hop {item.hop})")
                out += _change_lines(item, responses)
            else:
                key, pa, pb, lines, scoring = item
                run = f" run {key[0]}" if key[0] else ""
                values = f"{pa.ap if pa else '-'} -> {pb.ap if pb else '-'}"
                note = "" if scoring else " (AP unchanged)"
                out.append(f"  AP{run} level {key[2]}: {values}{note}")
                out += [f"      {line}" for line in lines]
    return out


def _change_lines(change: Change, responses: bool) -> list:
    """``responses``: a Cold Start response's change (else a claim's, an item's)."""
    mark = {"A": "-", "B": "+", "both": "~"}[change.side]
    indent = "    " if responses else "  "
    lines = [f"{indent}{mark} {change.change}"]
    if responses:
        lines.append(f"{indent}    {change.before}  ->  {change.after}")
        lines.append(f"{indent}    SUBMISSION: {change.id}")
    else:
        lines.append(f"{indent}    A: {change.before}")
        lines.append(f"{indent}    B: {change.after}")
    lines += [f"{indent}    {line}" for line in change.detail]
    return lines


def csv_text(diff: Diff) -> str:
    """One row per changed response (claim) and per changed AP computation."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    rows = []
    for change in diff.changes:
        rows.append((change.query, change.hop, change.row, change.id, change.side,
                     change.change, change.before, change.after,
                     "yes" if change.counts else "no", *change.scores))
    for key, pa, pb, lines, scoring in diff.ap_changes:
        ap_a, ap_b = ap_score(pa), ap_score(pb)
        side = "both" if pa and pb else ("A" if pa else "B")
        rows.append((key[1], key[2], "", f"AP level {key[2]}" + (f" run {key[0]}" if key[0]
                                                                  else ""),
                     side, "; ".join(lines) or "AP", pa.ap if pa else "", pb.ap if pb else "",
                     "", "", "", "", ap_a.text, ap_b.text, delta_text(ap_a, ap_b)))
    rows.sort(key=lambda r: (r[0], r[1], r[2], r[3], r[4]))
    writer.writerows(rows)
    return buffer.getvalue()
