"""``-stats_file``: counts of a validated KB, as CS-ValidateKB 2017.2.0
writes them: the run id, whether its confidence values differ, then
tab-separated ``SECTION  KEY  COUNT`` lines (sections and keys in string
order): the assertions written (ASSERTED) and left out (OMITTED) by the
subject's type (DOMAIN) and by predicate (typed as in the output), the nodes
by type (ENTITY), and the assertions rejected while reading by why
(REJECTED_ASSERTIONS).
"""
from __future__ import annotations

from scorer.coldstart.toolkit.kb import perl_number

_UNTYPED = frozenset(("type", "mention", "canonical_mention", "link"))


def _count(table: dict, *keys) -> None:
    for key in keys[:-1]:
        table = table.setdefault(key, {})
    table[keys[-1]] = table.get(keys[-1], 0) + 1


def _lines(header: str, table: dict, out: list) -> None:
    for key in sorted(table):
        value = table[key]
        if isinstance(value, dict):
            _lines(f"{header}:{key}" if header else key, value, out)
        else:
            out.append(f"{header}\t{key}\t{value}\n")


def stats_text(kb) -> str:
    stats: dict = {}
    if kb.rejected:
        stats["REJECTED_ASSERTIONS"] = dict(kb.rejected)
    several = False
    previous = None
    for assertion in kb.assertions:
        status = "OMITTED" if assertion.omit else "ASSERTED"
        domain = assertion.subject_entity.type()
        _count(stats, status, "DOMAIN", domain)
        _count(stats, status, "DOMAIN", "ALL")
        predicate = assertion.verb
        if predicate not in _UNTYPED:
            predicate = f"{domain}:{predicate}"
        _count(stats, status, "PREDICATE", predicate)
        confidence = perl_number(assertion.confidence)
        if previous is not None and previous != confidence:
            several = True
        previous = confidence
    for entity in kb.entities.values():
        _count(stats, "ENTITY", entity.type())
        _count(stats, "ENTITY", "ALL")
    out = [f"RUNID\t\t{kb.runid}\n", f"HAS_MULTIPLE_CONFIDENCES\t\t{'YES' if several else 'NO'}\n"]
    _lines("", stats, out)
    return "".join(out)
