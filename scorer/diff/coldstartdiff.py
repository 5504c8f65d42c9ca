"""The diff of two Cold Start report sets.

Responses are aligned by the content of their submission line (which names
the query), never by position.  A difference *scores* when a score differs:
P, R or F1 of a ``.sf``/``.ldcmax`` row or a ``.summary`` line, or an AP.
Without a ``.sf`` on both sides, the counts of each SF row (its responses'
pre-policy/post-policy pairs, from the ``.debug``) stand in for its P/R/F1.
Differences the Perl's hash order makes are reported as such and do not
score (spec §0.3): labels that move between the responses of one row,
leaving its counts as they were (a single-valued slot with several correct
answers, item 3); LDC-MAX rows of another entry point of equal combined F1
(item 1) and the aggregates that follow (``hashorder.py``).
"""
from __future__ import annotations

from collections import Counter
from typing import Optional

from scorer.diff import hashorder
from scorer.diff.changes import (NOT_LISTED, Change, Diff, ScoreMove, Side, ap_score,
                                 delta_text, f1_score, selected, summary_changes)
from scorer.diff.debugfile import ColdStartDebug


#: The score columns of .sf and .ldcmax rows.
SCORE_COLUMNS = ("Prec", "Recall", "F1")


def _post(response) -> str:
    return NOT_LISTED if response is None else response.postpolicy


def _state(response) -> str:
    if response is None:
        return NOT_LISTED
    return f"{response.prepolicy}/{response.postpolicy}"


def _pair_up(a_items: list, b_items: list) -> list:
    """Pairs of responses with one submission line: same row first, then in order."""
    pairs, rest_b = [], list(b_items)
    rest_a = []
    for a in a_items:
        match = next((b for b in rest_b if b.row == a.row), None)
        if match is not None:
            rest_b.remove(match)
            pairs.append((a, match))
        else:
            rest_a.append(a)
    for index in range(max(len(rest_a), len(rest_b))):
        pairs.append((rest_a[index] if index < len(rest_a) else None,
                      rest_b[index] if index < len(rest_b) else None))
    return pairs


def diff_coldstart(a: Side, b: Side, queries: Optional[frozenset] = None) -> Diff:
    by_line_a, by_line_b = {}, {}
    for response in a.debug.responses:
        if selected(response.query, response.row, queries):
            by_line_a.setdefault(response.submission, []).append(response)
    for response in b.debug.responses:
        if selected(response.query, response.row, queries):
            by_line_b.setdefault(response.submission, []).append(response)
    pairs = []
    for line in by_line_a.keys() | by_line_b.keys():
        pairs += _pair_up(by_line_a.get(line, []), by_line_b.get(line, []))

    # The counts of each SF row, as (pre, post) pairs: equal counts, equal scores.
    counts_a: dict = {}
    counts_b: dict = {}
    for ra, rb in pairs:
        for response, counts in ((ra, counts_a), (rb, counts_b)):
            if response is not None:
                row = counts.get(response.row)
                if row is None:         # (not setdefault: a Counter made per response)
                    row = counts[response.row] = Counter()
                row[(response.prepolicy, response.postpolicy)] += 1
    moved_rows = {row for row in counts_a.keys() | counts_b.keys()
                  if counts_a.get(row) != counts_b.get(row)}

    transitions: Counter = Counter()
    changes = []
    for ra, rb in pairs:
        transitions[(_post(ra), _post(rb))] += 1
        change = _response_change(ra, rb, moved_rows)
        if change is not None:
            changes.append(change)

    ap_changes, ap_moves = _ap_changes(a.debug, b.debug, queries)
    f1_moves, sf_counts_only = _table_changes(a.sf, b.sf, queries)
    ldcmax_moves, ldcmax_counts_only = _table_changes(a.ldcmax, b.ldcmax, queries)
    ties = set()
    if None not in (a.sf, b.sf, a.ldcmax, b.ldcmax):
        ties = hashorder.ldcmax_ties(a.ldcmax, b.ldcmax, a.sf, b.sf)
    tied = {key for key in [m.key for m in ldcmax_moves] + ldcmax_counts_only
            if (key[0].split(":", 1)[0], key[1]) in ties}
    ties = {(key[0].split(":", 1)[0], key[1]) for key in tied}  # those -query kept
    ldcmax_moves = [m for m in ldcmax_moves if m.key not in tied]
    ldcmax_counts_only = [key for key in ldcmax_counts_only if key not in tied]
    aggregates = summary_changes(a.summary, b.summary) if queries is None else []
    # Aggregates that only the Perl's hash order moves (hashorder.py).
    sf_same = a.sf is not None and b.sf is not None and not f1_moves and not sf_counts_only
    ldcmax_explained = sf_same and not ldcmax_moves and not ldcmax_counts_only
    hash_aggregates = [line for line in aggregates
                       if (line[0][0].startswith("LDC-MAX") and ldcmax_explained)
                       or (line[0][0].startswith("LDC-MEAN") and sf_same)]
    aggregates = [line for line in aggregates if line not in hash_aggregates]

    _add_score_deltas(changes, a, b)
    changes.sort(key=lambda c: (c.query, c.row, c.id, c.side))
    all_queries = ({r.query for r in a.debug.responses} | {r.query for r in b.debug.responses}
                   | {row.split(":", 1)[0] for row in a.debug.rows + b.debug.rows}
                   | {key[1] for key in a.debug.ap} | {key[1] for key in b.debug.ap})
    if queries is not None:
        all_queries = {q for q in all_queries
                       if q in queries or any(i.split(":", 1)[0] == q for i in queries)}
    touched = ({c.query for c in changes} | {key[1] for key, *_ in ap_changes}
               | {key[0].split(":", 1)[0] for key in sf_counts_only}
               | {m.key[0].split(":", 1)[0] for m in f1_moves})
    return Diff(a.debug.task, a, b, queries, transitions, changes, ap_changes, f1_moves,
                ap_moves, aggregates, len(all_queries), sorted(touched), sf_counts_only,
                ldcmax_moves, ldcmax_counts_only, sorted(ties), hash_aggregates,
                scores_known=a.sf is not None and b.sf is not None)


def _response_change(ra, rb, moved_rows: set) -> Optional[Change]:
    either = ra if ra is not None else rb
    if ra is not None and rb is not None:
        fields = [name for name in ("row", "prepolicy", "postpolicy", "assessment", "fqnodeid",
                                    "target_qid") if getattr(ra, name) != getattr(rb, name)]
        if not fields:
            return None
        labels = {"prepolicy", "postpolicy", "row"} & set(fields)
        counts = bool(labels) and (ra.row in moved_rows or rb.row in moved_rows)
        words = []
        if labels:
            words.append("assessment" if {"prepolicy", "postpolicy"} & labels else "row")
            redundant_a = "REDUNDANT" in ra.postpolicy.split(",")
            if redundant_a != ("REDUNDANT" in rb.postpolicy.split(",")):
                words.append("REDUNDANT gained" if not redundant_a else "REDUNDANT lost")
            if not counts:
                words.append("labels moved within the row, its counts unchanged (as the "
                             "Perl's hash order does)")
        else:
            words.append("unscored fields")
        side, detail = "both", []
        for name in fields:
            if name not in ("prepolicy", "postpolicy"):
                detail.append(f"{name.upper()}: {getattr(ra, name)}  ->  {getattr(rb, name)}")
        change = ", ".join(words) + ("" if labels else ": " + ", ".join(fields))
    else:
        side = "A" if rb is None else "B"
        counts = either.row in moved_rows
        change = f"only in {side}"
        if not counts:
            change += " (row counts unchanged)"
        detail = []
    return Change(either.query, str(either.hop), either.row, either.submission, side, change,
                  _state(ra), _state(rb), counts, detail)


def _ap_changes(a: ColdStartDebug, b: ColdStartDebug, queries) -> tuple:
    changes, moves = [], []
    for key in sorted(a.ap.keys() | b.ap.keys()):
        if not selected(key[1], key[1], queries):
            continue
        pa, pb = a.ap.get(key), b.ap.get(key)
        if pa is not None and pb is not None and pa.ap == pb.ap \
                and pa.ground_truth_count == pb.ground_truth_count \
                and pa.ground_truth == pb.ground_truth and pa.ranking == pb.ranking:
            continue
        lines = []
        if pa is None or pb is None:
            lines.append(f"only in {'A' if pb is None else 'B'}")
        else:
            if pa.ground_truth_count != pb.ground_truth_count:
                lines.append(f"NUM_GROUND_TRUTH: {pa.ground_truth_count or '-'} -> "
                             f"{pb.ground_truth_count or '-'}")
            lost = sorted(set(pa.ground_truth) - set(pb.ground_truth))
            gained = sorted(set(pb.ground_truth) - set(pa.ground_truth))
            lines += [f"ground truth only in A: {ec}" for ec in lost]
            lines += [f"ground truth only in B: {ec}" for ec in gained]
            lines += _ranking_lines(pa.ranking, pb.ranking)
        scoring = pa is None or pb is None or pa.ap != pb.ap
        changes.append((key, pa, pb, lines, scoring))
        if scoring:
            moves.append(ScoreMove(key, ap_score(pa), ap_score(pb)))
    return changes, moves


def _ranking_lines(ranking_a: tuple, ranking_b: tuple) -> list:
    """Nodes whose rank, confidence, mapped EC or V differ (by node id)."""
    in_a = {entry.nodeid: entry for entry in ranking_a}
    in_b = {entry.nodeid: entry for entry in ranking_b}
    lines = []
    for nodeid in sorted(in_a.keys() | in_b.keys()):
        ea, eb = in_a.get(nodeid), in_b.get(nodeid)
        if ea == eb:
            continue
        if eb is None or ea is None:
            entry = ea or eb
            lines.append(f"node {nodeid} only in {'A' if eb is None else 'B'}: rank "
                         f"{entry.rank}, confidence {entry.confidence}, mapped EC "
                         f"{entry.mapped_ec}, V {entry.v}")
            continue
        parts = []
        for name, label in (("rank", "rank"), ("confidence", "confidence"),
                            ("mapped_ec", "mapped EC"), ("v", "V")):
            va, vb = getattr(ea, name), getattr(eb, name)
            if va != vb:
                parts.append(f"{label} {va} -> {vb}")
        lines.append(f"node {nodeid}: " + ", ".join(parts))
    return lines


def _table_changes(table_a: Optional[dict], table_b: Optional[dict], queries) -> tuple:
    """(ScoreMoves of rows whose P/R/F1 differ or that one side lacks, keys of
    rows whose counts alone differ) of a .sf or .ldcmax pair; ALL- rows are
    aggregates, compared in .summary."""
    if table_a is None or table_b is None:
        return [], []
    moves, counts_only = [], []
    for key in sorted(table_a.keys() | table_b.keys()):
        if key[0].startswith("ALL-") or not selected(key[0].split(":", 1)[0], key[0], queries):
            continue
        ra, rb = table_a.get(key), table_b.get(key)
        if ra == rb:
            continue
        if ra is None or rb is None or any(ra.get(c) != rb.get(c) for c in SCORE_COLUMNS):
            moves.append(ScoreMove(key, f1_score(ra), f1_score(rb)))
        else:
            counts_only.append(key)
    return moves, counts_only


def _add_score_deltas(changes: list, a: Side, b: Side) -> None:
    """Each changed response gets the F1 of its .sf row and the AP of its query
    at its hop, in A and in B (for the .csv)."""
    for change in changes:
        run = change.id.split("\t")[2] if change.id.count("\t") >= 2 else ""
        f1 = [f1_score((side.sf or {}).get((change.row, run, change.hop))) for side in (a, b)]
        ap = []
        for side in (a, b):
            # Keys name the run only when a .debug holds several (debugfile.read).
            computation = side.debug.ap.get(("", change.query, change.hop)) or \
                side.debug.ap.get((run, change.query, change.hop))
            ap.append(ap_score(computation))
        change.scores = (f1[0].text, f1[1].text, delta_text(*f1),
                         ap[0].text, ap[1].text, delta_text(*ap))
