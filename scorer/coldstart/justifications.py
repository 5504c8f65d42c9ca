"""The ``-justifications A:B`` checks run after each submission file (spec §2.7).

They mark lines as discarded and warn about them, but the Perl still scores
discarded lines (spec §7.4), so these checks produce warnings only; scoring
never reads the marks.
"""
from __future__ import annotations

from scorer.coldstart.ap import node_confidence
from scorer.problems import Problems


def _by_confidence(entry):
    return (-entry.confidence, entry.line_number)


def check_justifications(run_files, per_document, total, problems: Problems) -> None:
    """Both checks, over every submission loaded so far."""
    _check_per_node(run_files, per_document, total, problems)
    _check_single_valued(run_files, total, problems)


def _discard_dependents(submissions, level, problems, only_kept):
    good = {e.target_query.full_id for e in submissions
            if e.query.level == level and not e.discarded}
    for entry in submissions:
        if entry.query.level != level + 1 or (only_kept and entry.discarded):
            continue
        if entry.query.full_id not in good:
            entry.discarded = True
            problems.record("DISCARDED_DEPENDENT", f"\n{entry.line}\n", where=entry.where)


def _check_per_node(run_files, per_document, total, problems):
    submissions = run_files.submissions
    level_of_node = {}
    for entry in submissions:
        level_of_node[entry.fqnodeid] = entry.query.level
    for level in sorted({e.query.level for e in submissions}):
        for fqnodeid in sorted(n for n in level_of_node if n is not None):
            if level_of_node[fqnodeid] != level:
                continue
            by_document: dict = {}
            for entry in run_files.submissions_by_node.get(fqnodeid, ()):
                by_document.setdefault(entry.docid, []).append(entry)
            kept = []
            for entries in by_document.values():
                ranked = sorted((e for e in entries if not e.discarded), key=_by_confidence)
                for position, entry in enumerate(ranked):
                    kept.append(entry)
                    if per_document is not None and position >= per_document:
                        _discard(entry, problems)
            ranked = sorted((e for e in kept if not e.discarded), key=_by_confidence)
            for position, entry in enumerate(ranked):
                if total is not None and position >= total:
                    _discard(entry, problems)
        _discard_dependents(submissions, level, problems, only_kept=False)


def _discard(entry, problems):
    entry.discarded = True
    problems.record("DISCARDED_ENTRY", f"\n{entry.line}\n", where=entry.where)


def _check_single_valued(run_files, total, problems):
    submissions = run_files.submissions
    children: dict = {}
    quantity: dict = {}
    nodes = sorted({e.fqnodeid for e in submissions if e.fqnodeid}, key=lambda n: (len(n), n))
    first_query_of_node = {}
    for entry in submissions:
        if entry.fqnodeid:
            first_query_of_node.setdefault(entry.fqnodeid, entry.query)
    for fqnodeid in nodes:
        parent = fqnodeid.rsplit(":", 1)[0]
        children.setdefault(parent, []).append(fqnodeid)
        if parent not in quantity:
            quantity[parent] = first_query_of_node[fqnodeid].quantity
    for parent in sorted(children, key=len):
        if quantity.get(parent) != "single":
            continue
        level = None
        best = None
        for child in children[parent]:
            entries = run_files.submissions_by_node.get(child, ())
            if entries and level is None:
                level = entries[0].query.level
            kept = [e for e in entries if not e.discarded]
            confidence = node_confidence(kept, total)
            first_line = min((e.line_number for e in kept), default=0)
            key = (-confidence, first_line)
            if best is None or key < best[0]:
                best = (key, child)
        for child in children[parent]:
            if child == best[1]:
                continue
            for entry in run_files.submissions_by_node.get(child, ()):
                entry.discarded = True
                problems.record("DISCARDED_ENTRY", f"\n{entry.line}", where=entry.where)
        if level is not None:
            _discard_dependents(submissions, level, problems, only_kept=True)
