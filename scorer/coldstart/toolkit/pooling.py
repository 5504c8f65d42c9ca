"""``validatesf -depth SCHEME:D``: NIST's pooling, keeping the best D nodes of
hop 0 and the best D x D of hop 1 of each run (by node confidence, a hop-1
node's times its parent's), the lines of the other nodes and their hop-1
answers dropped.

Scheme A counts the D hop-0 nodes over all queries together (queries in
string order: the Perl takes them in its random hash order) and keeps hop-1
nodes below kept parents only, without a warning for the nodes it drops;
scheme B counts per query and keeps the parents of the hop-1 nodes it keeps,
with DISCARDED_ENTRY_DEPTH for each line dropped.
"""
from __future__ import annotations

import re

from scorer.coldstart.ap import node_confidence
from scorer.coldstart.justifications import node_parent

#: What -depth must look like (the Perl's check: the scheme in capitals).
DEPTH_PATTERN = re.compile(r"[AB]:\d")
DEPTH_MESSAGE = ('-depth should be of the form "[AB]:d".\n'
                 "A/B is used to select\n"
                 "A: top d nodes \n"
                 "B: top d nodes from hop-0 and top dxd nodes from hop-1 (including parents "
                 "to insure that there are no orphans)\n"
                 "with respect to confidence value, in the validated output.\n")


def parse_depth(text: str) -> tuple:
    """(scheme, d) of ``-depth``: the scheme before the first colon, d the
    leading number after it (the Perl reads ``A:3x`` as 3)."""
    scheme, rest = text.split(":", 1)
    return scheme.upper(), int(re.match(r"\d+", rest).group())


class _Node:
    __slots__ = ("entries", "confidence", "line_number", "parent", "included")

    def __init__(self, entries, parent):
        self.entries = entries
        self.line_number = min(e.line_number for e in entries)
        self.parent = parent
        self.confidence = 0.0
        self.included = False


def keep_best_nodes(responses, depth: tuple, total, log) -> None:
    """Drop the lines of the nodes beyond the best (``depth``: (scheme, d);
    ``total``: the -justifications B, for node confidences)."""
    scheme, d = depth
    submissions = responses.submissions
    level_of = {}
    for entry in submissions:
        level_of[entry.fqnodeid or ""] = entry.query.level
    kept_by_node: dict = {}
    for entry in submissions:
        if not entry.discarded:
            kept_by_node.setdefault(entry.fqnodeid or "", []).append(entry)
    # root query -> level -> node -> _Node
    roots: dict = {}
    for fqnodeid in sorted(kept_by_node, key=lambda n: (len(n), n)):
        level = level_of[fqnodeid]
        parent = node_parent(fqnodeid) if level == 1 else None
        roots.setdefault(fqnodeid.split(":", 1)[0], {}).setdefault(level, {})[fqnodeid] = \
            _Node(kept_by_node[fqnodeid], parent)
    for levels in roots.values():
        for level in sorted(levels):
            for node in levels[level].values():
                node.confidence = node_confidence(node.entries, total)
                if level == 1:
                    parent = levels.get(0, {}).get(node.parent)
                    node.confidence *= parent.confidence if parent is not None else 0.0
    if scheme == "A":
        _include_overall(roots, d)
    else:
        _include_per_query(roots, d)
    dropped = "DISCARDED_ENTRY_DEPTH" if scheme == "B" else None
    for root in sorted(roots):
        for level in sorted(roots[root]):
            for node in roots[root][level].values():
                if node.included:
                    continue
                for entry in node.entries:
                    if not entry.discarded:
                        entry.discarded = True
                        if dropped:
                            log.record(dropped, f"\n{entry.line}\n", where=entry.where)
    dependent = "DISCARDED_DEPENDENT_DEPTH" if scheme == "B" else "DISCARDED_DEPENDENT"
    for level in (0, 1):
        good = {e.target_full_id for e in submissions
                if e.query.level == level and not e.discarded}
        for entry in submissions:
            if not entry.discarded and entry.query.level == level + 1 \
                    and entry.query.full_id not in good:
                entry.discarded = True
                log.record(dependent, f"\n{entry.line}\n", where=entry.where)


def _include_overall(roots: dict, d: int) -> None:
    """Scheme A: d hop-0 nodes in all (ties: the later line first), then d x d
    hop-1 nodes below included parents."""
    count = 1
    for root in sorted(roots):
        nodes = roots[root].get(0, {})
        for node in sorted(nodes.values(), key=lambda n: (-n.confidence, -n.line_number)):
            if count > d:
                break
            node.included = True
            count += 1
    count = 1
    for root in sorted(roots):
        parents = roots[root].get(0, {})
        nodes = roots[root].get(1, {})
        for node in sorted(nodes.values(), key=lambda n: (-n.confidence, -n.line_number)):
            if count > d * d:
                break
            parent = parents.get(node.parent)
            if parent is None or not parent.included:
                continue
            node.included = True
            count += 1


def _include_per_query(roots: dict, d: int) -> None:
    """Scheme B: per query, d hop-0 nodes and d x d hop-1 nodes with their
    parents (ties: the earlier line first)."""
    for root in sorted(roots):
        nodes = roots[root].get(0, {})
        ranked = sorted(nodes.values(), key=lambda n: (-n.confidence, n.line_number))
        for node in ranked[:d]:
            node.included = True
        parents = nodes
        ranked = sorted(roots[root].get(1, {}).values(),
                        key=lambda n: (-n.confidence, n.line_number))
        for node in ranked[:d * d]:
            node.included = True
            parent = parents.get(node.parent)
            if parent is not None:
                parent.included = True
