"""Aligning two report sets and saying what changed: the transitions, the
changed responses (claims), the scores that moved; the ``.diff`` text and the
``.diff.csv`` rows.  Pure functions: read sides in, text out.

Cold Start responses are aligned by the content of their submission line
(which names the query), never by position.  A difference *scores* when a
score differs: P, R or F1 of a ``.sf``/``.ldcmax`` row or a ``.summary`` line,
or an AP.  Without a ``.sf`` on both sides, the counts of each SF row (its
responses' pre-policy/post-policy pairs, from the ``.debug``) stand in for its
P/R/F1.  Differences the Perl's hash order makes are reported as such and do
not score (spec §0.3): labels that move between the responses of one row,
leaving its counts as they were (a single-valued slot with several correct
answers, item 3); LDC-MAX rows of another entry point of equal combined F1
(item 1) and the aggregates that follow (``hashorder.py``).
"""
from __future__ import annotations

import csv
import dataclasses
import io
import math
from collections import Counter
from typing import Optional

from scorer import task
from scorer.diff import hashorder
from scorer.diff.debugfile import ClaimsDebug, ColdStartDebug, exact_ap
from scorer.diff.scoretables import exact_f1, number
from scorer.problems import ScorerError

#: The post-policy state of a response the .debug does not list (its only
#: membership is its own pre-policy category, spec §5.4) or that is absent.
NOT_LISTED = "(not listed)"
#: The columns of PREFIX.diff.csv.
CSV_COLUMNS = ("query", "hop", "row", "id", "side", "change", "before", "after", "counts",
               "f1_a", "f1_b", "f1_delta", "ap_a", "ap_b", "ap_delta")
RULE = "=" * 80
#: The score columns of .sf and .ldcmax rows.
SCORE_COLUMNS = ("Prec", "Recall", "F1")


@dataclasses.dataclass
class Side:
    """One side of the diff: its name as given, its .debug, and the tables
    found beside it (None when absent)."""

    name: str
    debug: object                 # ColdStartDebug or ClaimsDebug
    sf: Optional[dict] = None     # read_table(.sf)
    ldcmax: Optional[dict] = None
    summary: Optional[dict] = None

    def files(self) -> str:
        found = [".debug"] + [f".{name}" for name in ("sf", "ldcmax", "summary")
                              if getattr(self, name) is not None]
        return " ".join(found)


@dataclasses.dataclass
class Change:
    """A response (Cold Start) or a claim that differs between A and B."""

    query: str
    hop: str
    row: str
    id: str
    side: str          # A, B or both
    change: str        # what changed, in a few words
    before: str
    after: str
    counts: bool       # does it change the counts of its row (claim)?
    detail: list = dataclasses.field(default_factory=list)  # lines for the .diff text
    #: F1 of its .sf row and AP of its query at its hop: A, B, change (for the .csv)
    scores: tuple = ("",) * 6


@dataclasses.dataclass(frozen=True)
class Score:
    """A score as precisely as the reports give it: ``value`` (NaN: absent);
    ``exact``: at full precision (recomputed from a row's counts, an AP
    computation's ranking), else the report's 4 decimals; ``text``, what
    .diff.csv writes: the shortest text that reads back as ``value`` when
    exact, the report's text otherwise, '' when absent."""

    value: float
    exact: bool
    text: str


ABSENT = Score(math.nan, False, "")


def _printed(text: Optional[str]) -> Score:
    return Score(number(text), False, text) if text else ABSENT


def _full(value: float) -> Score:
    return Score(value, True, repr(value))


def f1_score(row: Optional[dict]) -> Score:
    """The F1 of a .sf/.ldcmax row: from its counts when it has them."""
    if row is None:
        return ABSENT
    exact = exact_f1(row)
    return _full(exact) if exact is not None else _printed(row.get("F1"))


def ap_score(computation) -> Score:
    """The AP of a .debug AP computation: from its ranking when every V is 0 or 1."""
    if computation is None:
        return ABSENT
    exact = exact_ap(computation)
    return _full(exact) if exact is not None else _printed(computation.ap)


def delta_text(a: Score, b: Score) -> str:
    """B - A for .diff.csv: at full precision when both are ('+' shown), else
    to the 4 decimals of the reports; '' when either is absent."""
    if not a.text or not b.text:
        return ""
    if a.exact and b.exact:
        return format(b.value - a.value, "+")
    return "%+0.4f" % (b.value - a.value)


@dataclasses.dataclass
class ScoreMove:
    key: tuple
    a: Score
    b: Score

    @property
    def delta(self) -> float:
        if math.isnan(self.a.value) or math.isnan(self.b.value):
            return math.inf
        return self.b.value - self.a.value


@dataclasses.dataclass
class Diff:
    task: str
    a: Side
    b: Side
    queries: Optional[frozenset]
    transitions: Counter          # (state in A, state in B) -> count
    changes: list                 # of Change, in report order
    ap_changes: list              # of (key, a, b, node lines, scoring)
    f1_moves: list                # of ScoreMove (.sf rows whose P/R/F1 differ)
    ap_moves: list                # of ScoreMove (AP computations)
    aggregates: list              # of (key, column, a, b)
    queries_total: int
    queries_touched: list
    sf_counts_only: list = dataclasses.field(default_factory=list)   # .sf keys
    ldcmax_moves: list = dataclasses.field(default_factory=list)     # of ScoreMove
    ldcmax_counts_only: list = dataclasses.field(default_factory=list)  # .ldcmax keys
    ldcmax_ties: list = dataclasses.field(default_factory=list)      # (LDC query, run)
    hash_aggregates: list = dataclasses.field(default_factory=list)  # like aggregates
    scores_known: bool = False    # a .sf on both sides: P/R/F1 decide, not counts
    #: claims: (RIGHT/WRONG in A, in B) -> count (``transitions`` holds their labels)
    verdicts: Counter = dataclasses.field(default_factory=Counter)

    @property
    def scoring(self) -> bool:
        if self.f1_moves or self.ldcmax_moves or self.ap_moves or self.aggregates:
            return True
        return not self.scores_known and any(c.counts for c in self.changes)

    def scoring_queries(self) -> set:
        found = {m.key[1] for m in self.ap_moves} | \
            {m.key[0].split(":", 1)[0] for m in self.f1_moves}
        if not self.scores_known:
            found |= {c.query for c in self.changes if c.counts}
        return found


def _selected(query: str, row: str, queries: Optional[frozenset]) -> bool:
    return queries is None or query in queries or row in queries


def _known_ids(side: Side) -> tuple:
    """(query ids, row ids) a side holds: SF queries (claims), LDC queries,
    and the SF and LDC-MAX rows below them."""
    if isinstance(side.debug, ClaimsDebug):
        return {claim.id for claim in side.debug.claims}, set()
    rows = set(side.debug.rows) | {r.row for r in side.debug.responses}
    queries = {key[1] for key in side.debug.ap}
    for table in (side.sf, side.ldcmax):
        rows |= {key[0] for key in table or () if not key[0].startswith("ALL-")}
    queries |= {row.split(":", 1)[0] for row in rows}
    return queries, rows


def select_queries(a: Side, b: Side, wanted: Optional[tuple]) -> Optional[frozenset]:
    """The ids -query names (given split at ':'), as the sides spell them.

    A row (``Q:1``) comes back whole where it was split; a short id
    (``47a114c77c``, spec §2.2: the last part of a full id) stands for the one
    full id it ends; an id in neither side is an error, so that a mistyped id
    never reads as "no difference"."""
    if wanted is None:
        return None
    queries, rows = _known_ids(a)
    more_queries, more_rows = _known_ids(b)
    queries |= more_queries
    rows |= more_rows
    ids, unknown = [], []
    for part in wanted:
        if ids and part.isdigit() and f"{ids[-1]}:{part}" in rows:
            ids[-1] = f"{ids[-1]}:{part}"     # the row Q:1, split at its ':'
        elif part in queries or part in rows:
            ids.append(part)
        else:
            full = sorted(q for q in queries if "_" in q and q.rsplit("_", 1)[1] == part)
            if len(full) > 1:
                raise ScorerError(f"-query: {part} is the short id of {len(full)} queries "
                                  f"({', '.join(full[:3])}); give the full id")
            if full:
                ids.append(full[0])
            else:
                unknown.append(part)
    if unknown:
        claims = isinstance(a.debug, ClaimsDebug)
        unit = ("claim" if claims else "query") if len(unknown) == 1 else \
            ("claims" if claims else "queries")
        examples = _id_examples(a) or _id_examples(b) or "they hold none"
        raise ScorerError(f"-query: neither {a.name} nor {b.name} holds {unit} "
                          f"{', '.join(unknown)} ({examples})")
    return frozenset(ids)


def _id_examples(side: Side) -> str:
    """What a side's ids look like, for the message of an unknown one."""
    if isinstance(side.debug, ClaimsDebug):
        found = [claim.id for claim in side.debug.claims[:3]]
        return f"claim ids there are like {', '.join(found)}" if found else ""
    rows = side.debug.rows
    ldc = [key[0] for key in side.ldcmax or () if not key[0].startswith("ALL-")]
    examples = sorted(r for r in rows if ":" not in r)[:1] + \
        sorted(r for r in rows if ":" in r)[:1] + sorted(ldc)[:1]
    return f"ids there are like {', '.join(examples)}" if examples else ""


# ----------------------------------------------------------------- Cold Start

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
        if _selected(response.query, response.row, queries):
            by_line_a.setdefault(response.submission, []).append(response)
    for response in b.debug.responses:
        if _selected(response.query, response.row, queries):
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
    aggregates = _aggregates(a.summary, b.summary) if queries is None else []
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
        if not _selected(key[1], key[1], queries):
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
        if key[0].startswith("ALL-") or not _selected(key[0].split(":", 1)[0], key[0], queries):
            continue
        ra, rb = table_a.get(key), table_b.get(key)
        if ra == rb:
            continue
        if ra is None or rb is None or any(ra.get(c) != rb.get(c) for c in SCORE_COLUMNS):
            moves.append(ScoreMove(key, f1_score(ra), f1_score(rb)))
        else:
            counts_only.append(key)
    return moves, counts_only


def _aggregates(summary_a: Optional[dict], summary_b: Optional[dict]) -> list:
    if summary_a is None or summary_b is None:
        return []
    found = []
    for key in list(summary_a) + [k for k in summary_b if k not in summary_a]:
        ra, rb = summary_a.get(key, {}), summary_b.get(key, {})
        for column in list(ra) + [c for c in rb if c not in ra]:
            if ra.get(column) != rb.get(column):
                found.append((key, column, ra.get(column, "-"), rb.get(column, "-")))
    return found


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


# ------------------------------------------------------------------- claims

def diff_claims(a: Side, b: Side, queries: Optional[frozenset] = None) -> Diff:
    in_a = {claim.id: claim for claim in a.debug.claims if _selected(claim.id, claim.id, queries)}
    in_b = {claim.id: claim for claim in b.debug.claims if _selected(claim.id, claim.id, queries)}
    transitions: Counter = Counter()
    verdicts: Counter = Counter()
    changes = []
    for claim_id in sorted(in_a.keys() | in_b.keys(), key=_claim_order):
        ca, cb = in_a.get(claim_id), in_b.get(claim_id)
        transitions[(ca.predicted if ca else NOT_LISTED, cb.predicted if cb else NOT_LISTED)] += 1
        verdicts[(ca.label if ca else NOT_LISTED, cb.label if cb else NOT_LISTED)] += 1
        change = _claim_change(a.debug.layout, ca, cb)
        if change is not None:
            changes.append(change)
    aggregates = _aggregates(a.summary, b.summary) if queries is None else []
    return Diff(a.debug.task, a, b, queries, transitions, changes, [], [], [], aggregates,
                len(in_a.keys() | in_b.keys()), [c.query for c in changes], [],
                verdicts=verdicts)


def _claim_order(claim_id: str) -> tuple:
    return (0, int(claim_id), "") if claim_id.isdigit() else (1, 0, claim_id)


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


# ------------------------------------------------------------------- texts

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


def diff_text(diff: Diff, top: int) -> str:
    out = [f"scorer.diff: {diff.task}",
           f"A: {diff.a.name} ({diff.a.files()})",
           f"B: {diff.b.name} ({diff.b.files()})"]
    if diff.queries is not None:
        out.append("queries: " + " ".join(sorted(diff.queries))
                   + " (aggregates not compared)")
    out += ["", "SUMMARY", "",
            "Scoring differences: " + ("yes" if diff.scoring else "none")]
    responses = isinstance(diff.a.debug, ColdStartDebug)
    record = task.get(diff.task)
    unit = record.units
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
    for query in sorted(by_query, key=str if responses else _claim_order):
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


def diff_sides(a: Side, b: Side, queries: Optional[frozenset] = None) -> Diff:
    if isinstance(a.debug, ColdStartDebug):
        return diff_coldstart(a, b, queries)
    assert isinstance(a.debug, ClaimsDebug)
    return diff_claims(a, b, queries)
