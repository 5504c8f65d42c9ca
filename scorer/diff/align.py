"""Aligning two report sets: the queries ``-query`` names, as the sides spell
them, and the diff of the sides' task (``coldstartdiff.py`` for Cold Start,
``claimsdiff.py`` for a task whose ``.debug`` is blocks of facts); the
texts are ``render.py``'s."""
from __future__ import annotations

from typing import Optional

from scorer.countstable.debugblocks import ClaimsDebug
from scorer.diff.changes import Diff, Side
from scorer.diff.claimsdiff import diff_claims
from scorer.diff.coldstartdiff import diff_coldstart
from scorer.diff.debugfile import ColdStartDebug
from scorer.problems import ScorerError


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
        if ids and part.isdecimal() and f"{ids[-1]}:{part}" in rows:
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


def diff_sides(a: Side, b: Side, queries: Optional[frozenset] = None) -> Diff:
    if isinstance(a.debug, ColdStartDebug):
        return diff_coldstart(a, b, queries)
    assert isinstance(a.debug, ClaimsDebug)
    return diff_claims(a, b, queries)
