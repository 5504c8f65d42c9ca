"""What a diff of two report sets is made of: the two sides (each a ``.debug``
and the score tables beside it), the changes of responses or claims, the
scores as precisely as the reports give them and the moves between them,
and the ``Diff`` that the texts are written from."""
from __future__ import annotations

import dataclasses
import math
from collections import Counter
from typing import Optional

from scorer.diff.debugfile import exact_ap
from scorer.diff.scoretables import exact_f1, number


#: The post-policy state of a response the .debug does not list (its only
#: membership is its own pre-policy category, spec §5.4) or that is absent.
NOT_LISTED = "(not listed)"


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


def selected(query: str, row: str, queries: Optional[frozenset]) -> bool:
    return queries is None or query in queries or row in queries


def summary_changes(summary_a: Optional[dict], summary_b: Optional[dict]) -> list:
    """(line key, column, A's cell, B's cell) of every ``.summary`` cell that
    differs (none without a ``.summary`` on both sides)."""
    if summary_a is None or summary_b is None:
        return []
    found = []
    for key in list(summary_a) + [k for k in summary_b if k not in summary_a]:
        ra, rb = summary_a.get(key, {}), summary_b.get(key, {})
        for column in list(ra) + [c for c in rb if c not in ra]:
            if ra.get(column) != rb.get(column):
                found.append((key, column, ra.get(column, "-"), rb.get(column, "-")))
    return found


def claim_order(claim_id: str) -> tuple:
    """The order units are shown in: whole-number ids by value first, then the others."""
    # (isdecimal: the digits int() reads; isdigit() passes '²', which it refuses)
    return (0, int(claim_id), "") if claim_id.isdecimal() else (1, 0, claim_id)
