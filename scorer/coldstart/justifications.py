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


def _discard_dependents(submissions, level, problems):
    """Lines of level+1 whose query no kept level line generates are discarded
    (again, if they were already: the Perl warns each time)."""
    good = {e.target_full_id for e in submissions
            if e.query.level == level and not e.discarded}
    for entry in submissions:
        if entry.query.level != level + 1:
            continue
        if entry.query.full_id not in good:
            entry.discarded = True
            problems.record("DISCARDED_DEPENDENT", f"\n{entry.line}\n", where=entry.where)


def _check_per_node(run_files, per_document, total, problems):
    submissions = run_files.submissions
    level_of_node = {}
    for entry in submissions:
        level_of_node[entry.fqnodeid] = entry.query.level
    nodes_of_level: dict = {}
    for fqnodeid in sorted(n for n in level_of_node if n is not None):
        nodes_of_level.setdefault(level_of_node[fqnodeid], []).append(fqnodeid)
    for level in sorted({e.query.level for e in submissions}):
        for fqnodeid in nodes_of_level.get(level, ()):
            lines = run_files.submissions_by_node.get(fqnodeid, ())
            if _loses_none(lines, per_document, total):
                continue
            by_document: dict = {}
            for entry in lines:
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
        _discard_dependents(submissions, level, problems)


def _loses_none(lines, per_document, total) -> bool:
    """A node with no more lines than ``total`` allows, nor in any one
    document than ``per_document`` allows, loses none (most nodes): the
    ranked lists below are no longer than those."""
    if total is not None and len(lines) > total:
        return False
    if per_document is None or len(lines) <= per_document:
        return True
    per_docid: dict = {}
    for entry in lines:
        per_docid[entry.docid] = per_docid.get(entry.docid, 0) + 1
    return max(per_docid.values()) <= per_document


def _discard(entry, problems):
    entry.discarded = True
    problems.record("DISCARDED_ENTRY", f"\n{entry.line}\n", where=entry.where)


def node_parent(fqnodeid: str) -> str:
    """The parent of a node as the Perl finds it (``/^(.*):(.*?)$/``): the
    text before the last colon; "" for a node id without one (and for lines
    without a node id, whose node is "")."""
    cut = fqnodeid.rfind(":")
    return fqnodeid[:cut] if cut >= 0 else ""


def _check_single_valued(run_files, total, problems):
    """Keep one child node per single-valued parent (the most confident), and
    warn about the lines of the others and the lines of the next level that
    then lose their generating line (spec §2.7, check 2).

    The Perl rescans every line after each parent; here each level's lines are
    scanned once, and afterwards only the lines of queries that lost their
    last generating line are looked at: the same lines go."""
    submissions = run_files.submissions
    first_query_of_node: dict = {}
    for entry in submissions:
        first_query_of_node.setdefault(entry.fqnodeid or "", entry.query)
    children: dict = {}
    quantity: dict = {}
    for fqnodeid in sorted(first_query_of_node, key=lambda n: (len(n), n)):
        parent = node_parent(fqnodeid)
        children.setdefault(parent, []).append(fqnodeid)
        if not quantity.get(parent):
            quantity[parent] = first_query_of_node[fqnodeid].quantity
    sweep = _DependentSweep(submissions, problems)
    for parent in sorted(children, key=lambda p: (len(p), p)):
        if quantity.get(parent) != "single":
            continue
        best = None
        level = None
        for child in children[parent]:
            lines = run_files.submissions_by_node.get(child, ())
            if lines and level is None:
                level = lines[0].query.level
            kept = [e for e in lines if not e.discarded]
            confidence = node_confidence(kept, total)
            first_line = min((e.line_number for e in kept), default=0)
            key = (-confidence, first_line)
            if best is None or key < best[0]:
                best = (key, child)
        if level is None:
            # Only lines without a node id (node id 0): nothing to choose
            # among (the Perl dies, "value of $level not defined").
            continue
        for child in children[parent]:
            if child == best[1]:
                continue
            for entry in run_files.submissions_by_node.get(child, ()):
                # Recorded even for lines discarded before, as the Perl does
                # (a different message: no trailing newline).
                problems.record("DISCARDED_ENTRY", f"\n{entry.line}", where=entry.where)
                sweep.discard(entry)
        sweep.dependents(level)


class _DependentSweep:
    """The lines of level L+1 whose query no kept line of level L generates,
    discarded (with DISCARDED_DEPENDENT) each time a parent of level L is done."""

    def __init__(self, submissions, problems):
        self.problems = problems
        self.submissions = submissions
        #: target query full id -> kept lines generating it
        self.generators: dict = {}
        #: query full id -> the lines answering it
        self.answers: dict = {}
        for entry in submissions:
            if not entry.discarded:
                key = entry.target_full_id
                self.generators[key] = self.generators.get(key, 0) + 1
            self.answers.setdefault(entry.query.full_id, []).append(entry)
        #: levels whose next level was swept whole; then the queries that lost
        #: their last generating line of that level since its last sweep
        self.swept: set = set()
        self.lost: dict = {}

    def discard(self, entry) -> None:
        if entry.discarded:
            return
        entry.discarded = True
        key = entry.target_full_id
        self.generators[key] -= 1
        if not self.generators[key]:
            self.lost.setdefault(entry.query.level, []).append(key)

    def dependents(self, level: int) -> None:
        if level not in self.swept:
            self.swept.add(level)
            self.lost.pop(level, None)
            candidates = [e for e in self.submissions
                          if not e.discarded and e.query.level == level + 1
                          and not self.generators.get(e.query.full_id)]
        else:
            candidates = [e for key in self.lost.pop(level, ())
                          for e in self.answers.get(key, ()) if not e.discarded]
        for entry in candidates:
            self.problems.record("DISCARDED_DEPENDENT", f"\n{entry.line}\n", where=entry.where)
            self.discard(entry)
