"""AP-based scores (spec §4.7): the node tree of a run, node confidence under
``-justifications A:B``, the breadth-first mapping of nodes to equivalence
classes, graded V values, the ground-truth count and AP per level.

Deliberate differences from the Perl (spec "Decisions" 2 and 4): a node's V
is capped at 1.0 with a warning instead of dying with "AP is greater than
1.0"; only the scored run's submissions form the node tree, and AP rows carry
the scored run's id.
"""
from __future__ import annotations

import dataclasses
import functools
from typing import Optional

from scorer.coldstart.counts import ec_sort_key
from scorer.coldstart.policy import justification_limits
from scorer.problems import Problems


def node_confidence(entries, k: Optional[int]) -> float:
    """Σ c_i / i over the best min(n, K) confidences, divided by Σ_{i<=K} 1/i
    (K = None: over all n, divided by Σ_{i<=n} 1/i) (spec §4.7.2)."""
    confidences = sorted((e.confidence for e in entries), reverse=True)
    if k is not None:
        confidences = confidences[:k]
    numerator = 0.0
    for i, confidence in enumerate(confidences, 1):
        numerator += confidence / i
    # With K, the denominator does not depend on how many justifications there were.
    denominator = _harmonic(len(confidences) if k is None else k)
    return numerator / denominator if denominator else 0.0


@functools.lru_cache(maxsize=None)
def _harmonic(n: int) -> float:
    """Σ_{i<=n} 1/i, added in that order (computed once per n)."""
    total = 0.0
    for i in range(1, n + 1):
        total += 1 / i
    return total


class Node:
    __slots__ = ("nodeid", "entries", "line_number", "confidence", "children", "ec", "score")

    def __init__(self, nodeid, entries):
        self.nodeid = nodeid
        self.entries = entries
        self.line_number = min(e.line_number for e in entries)
        self.confidence = 0.0
        self.children: dict = {}
        self.ec: Optional[str] = None
        self.score = 0.0


@dataclasses.dataclass
class RankedNode:
    nodeid: str
    confidence: float
    ec: Optional[str]
    v: float
    line_number: int


@dataclasses.dataclass
class Ranking:
    ecs: list = dataclasses.field(default_factory=list)
    ground_truth: Optional[int] = None
    nodes: dict = dataclasses.field(default_factory=dict)
    #: ordered()'s list, kept: AP and .debug both walk it, and nodes are only added
    _order: Optional[list] = dataclasses.field(default=None, repr=False, compare=False)

    def ordered(self) -> list:
        """Confidence descending, then first line; node id breaks the rare
        remaining ties (the Perl's hash order)."""
        if self._order is None or len(self._order) != len(self.nodes):
            self._order = sorted(self.nodes.values(),
                                 key=lambda n: (-n.confidence, n.line_number, n.nodeid))
        return self._order


@dataclasses.dataclass
class APRow:
    query_full_id: str
    query_id: str
    level: str
    runid: str
    ap: float
    ground_truth: Optional[int]
    ranking: Ranking


def _ranking(rankings: dict, level: str) -> Ranking:
    """The ranking of ``level``, made if missing (not one per call, as
    ``setdefault(level, Ranking())`` would)."""
    ranking = rankings.get(level)
    if ranking is None:
        ranking = rankings[level] = Ranking()
    return ranking


def average_precision(ranking: Ranking) -> float:
    """Σ over ranks i with V > 0 of (running ΣV) / i, over the ground truth (spec §4.7.6)."""
    running = 0.0
    total = 0.0
    for rank, entry in enumerate(ranking.ordered(), 1):
        if entry.v > 0:
            running += entry.v
            total += running / rank
    return total / ranking.ground_truth if ranking.ground_truth else 0.0


class APScorer:
    def __init__(self, run_files, queries, policy, problems: Problems):
        self.run_files = run_files
        self.queries = queries
        _per_document, self.k = justification_limits(policy.justifications)
        self.problems = problems
        self._documents_by_ec: dict = {}

    def _documents(self, base: str, ec: str) -> int:
        """N: distinct documents among the assessments of the EC."""
        per_base = self._documents_by_ec.get(base)
        if per_base is None:
            per_base = {}
            for assessment in self.run_files.assessments_by_base.get(base, ()):
                per_base.setdefault(assessment.value_ec, set()).add(assessment.docid)
            self._documents_by_ec[base] = per_base
        return len(per_base.get(ec, ()))

    def score_query(self, query, evaluation) -> list:
        """AP rows (levels present among 0, 1, ALL) of one SF query for one run."""
        full_id = query.full_id
        base = query.short_id
        by_node: dict = {}
        for submission in self.run_files.submissions_by_base.get(base, ()):
            if (submission.runid == evaluation.runid and submission.fqnodeid
                    and submission.fqnodeid.startswith(full_id)):
                by_node.setdefault(submission.fqnodeid, []).append(submission)
        tree: dict = {}
        by_level: dict = {0: {}, 1: {}}
        for nodeid in sorted(by_node, key=lambda n: (len(n), n)):
            parts = nodeid.split(":")
            hop0_id = f"{parts[0]}:{parts[1] if len(parts) > 1 else ''}"
            entries = by_node[nodeid]
            hop0 = tree.get(hop0_id)
            if hop0 is None:
                hop0 = tree[hop0_id] = Node(hop0_id, entries)
            if len(parts) > 2 and parts[2]:
                child = hop0.children[nodeid] = Node(nodeid, entries)
                by_level[1][nodeid] = child
            else:
                by_level[0][nodeid] = hop0
        for hop0 in tree.values():
            hop0.confidence = node_confidence(hop0.entries, self.k)
            for child in hop0.children.values():
                child.confidence = node_confidence(child.entries, self.k) * hop0.confidence
        self._map_nodes(by_level, base, evaluation, full_id)
        rankings = self._rankings(tree)
        self._ground_truth(rankings, query, base)
        rows = []
        for level in sorted(rankings):
            ranking = rankings[level]
            rows.append(APRow(full_id, query.short_id, level, evaluation.runid,
                              self._ap(ranking, full_id, level), ranking.ground_truth, ranking))
        return rows

    def _ap(self, ranking: Ranking, full_id: str, level: str) -> float:
        ap = average_precision(ranking)
        if ap > 1.0:
            self.problems.record("AP_ABOVE_ONE", full_id, level, f"{ap:.4f}")
        return ap

    def _usable(self, node: Node, evaluation) -> list:
        """Justifications that can map a node to an EC (spec §4.7.3)."""
        usable = []
        for entry in node.entries:
            assessment = evaluation.assessment_of.get(entry)
            if assessment is None or assessment.assessment not in ("CORRECT", "INEXACT"):
                continue
            flags = evaluation.flags.get(entry, ())
            if "WRONG" in flags or ("IGNORE" in flags and "REDUNDANT" not in flags):
                continue
            usable.append((entry, assessment))
        return usable

    def _map_nodes(self, by_level: dict, base: str, evaluation, full_id: str) -> None:
        taken: set = set()
        for level in (0, 1):
            nodes = sorted(by_level[level].items(),
                           key=lambda item: (-item[1].confidence, item[1].line_number, item[0]))
            for nodeid, node in nodes:
                candidates: dict = {}
                for entry, assessment in self._usable(node, evaluation):
                    if entry.fqnodeid == nodeid and assessment.value_ec not in ("", "0"):
                        candidates.setdefault(assessment.value_ec, []).append(entry)
                best = None
                for ec, entries in candidates.items():
                    if ec in taken:
                        continue
                    ranked = sorted(entries, key=lambda e: (-e.confidence, e.line_number))
                    counted = ranked if self.k is None else ranked[:self.k]
                    denominator = self._documents(base, ec)
                    queries_fed = len({e.query_id for e in counted})
                    if self.k is not None and self.k * queries_fed < denominator:
                        denominator = self.k * queries_fed
                    score = len(counted) / denominator if denominator else 0.0
                    line = min(e.line_number for e in entries)
                    # Highest score; ties go to the later line (spec §7.19).
                    key = (score, line)
                    if best is None or key > best[0]:
                        best = (key, ec)
                if best is not None:
                    (score, _line), ec = best
                    if score > 1.0:
                        self.problems.record("AP_NODE_VALUE_CAPPED", full_id, nodeid,
                                             f"{score:.4f}")
                        score = 1.0
                    node.ec, node.score = ec, score
                    taken.add(ec)

    def _rankings(self, tree: dict) -> dict:
        rankings: dict = {}
        for hop0 in tree.values():
            self._rank(rankings, hop0, "0", hop0.score if hop0.ec else 0.0)
            for child in hop0.children.values():
                v = child.score if child.ec else 0.0
                if not (hop0.ec and hop0.score):
                    v = 0.0
                self._rank(rankings, child, "1", v)
        return rankings

    @staticmethod
    def _rank(rankings: dict, node: Node, level: str, v: float) -> None:
        entry = RankedNode(node.nodeid, node.confidence, node.ec, v, node.line_number)
        _ranking(rankings, level).nodes[node.nodeid] = entry
        _ranking(rankings, "ALL").nodes[node.nodeid] = entry

    def _ground_truth(self, rankings: dict, query, base: str) -> None:
        """NUM_GROUND_TRUTH per level (spec §4.7.5)."""
        ecs = sorted({a.value_ec for a in self.run_files.assessments_by_base.get(base, ())
                      if a.value_ec not in ("", "0")})
        for ec in ecs:
            level = str(ec.count(":") - 1)
            _ranking(rankings, level).ecs.append(ec)
            _ranking(rankings, "ALL").ecs.append(ec)
        slot0, slot1 = query.slot_quantity(0), query.slot_quantity(1)
        if slot0:
            _ranking(rankings, "0")
        if slot1:
            _ranking(rankings, "1")
        for ranking in rankings.values():
            ranking.ground_truth = len(ranking.ecs)
        level0 = _ranking(rankings, "0")
        if slot0 == "single" and level0.ground_truth:
            level0.ground_truth = 1
        if slot1 == "single" and rankings["1"].ground_truth:
            # One answer per hop-0 answer, whether or not it has any (spec §7.16).
            rankings["1"].ground_truth = level0.ground_truth or 0
        total = level0.ground_truth
        if slot1:
            total = (total or 0) + (rankings["1"].ground_truth or 0)
        _ranking(rankings, "ALL").ground_truth = total


# -- AP tables: per SF query, per LDC query (LDC-MEAN), and their macro means --

#: Levels of the AP tables, in printed order.
LEVEL_ORDER = ("0", "1", "ALL")


@dataclasses.dataclass
class APLine:
    """One line of an AP table: a query (SF or LDC) at one level."""

    name: str
    runid: str
    level: str
    ap: float
    ground_truth: Optional[int]
    query_id: Optional[str] = None


def sf_ap_lines(ap_rows) -> list:
    """The SF table: one line per AP row, in string order of the SF query id."""
    return [APLine(row.query_full_id, row.runid, row.level, row.ap, row.ground_truth,
                   row.query_id)
            for row in sorted(ap_rows, key=lambda r: r.query_full_id)]


def ldc_mean_ap_lines(sf_lines, sf_to_ldc, ldc_full_id_of) -> list:
    """Per level and LDC query: the mean AP of its entry points, the largest
    ground truth of any of them (spec §5.3)."""
    groups: dict = {}
    for line in sorted(sf_lines, key=lambda l: l.name):
        ldc = ldc_full_id_of(sf_to_ldc[line.query_id])
        groups.setdefault((line.level, ldc), []).append(line)
    result = []
    for level in LEVEL_ORDER:
        for (group_level, ldc) in sorted(k for k in groups if k[0] == level):
            members = groups[(group_level, ldc)]
            total = 0.0
            for line in members:
                total += line.ap
            ground_truth = max((m.ground_truth or 0) for m in members)
            result.append(APLine(ldc, members[0].runid, level, total / len(members),
                                 ground_truth))
    result.sort(key=lambda l: ec_sort_key(l.name))
    return result


def macro_ap(lines) -> dict:
    """ALL-Macro AP per level present: Σ AP over the lines, in row order, divided
    by the lines whose ground truth is not 0 (0 when there are none)."""
    result = {}
    ordered = sorted(lines, key=lambda l: ec_sort_key(l.name))
    for level in LEVEL_ORDER:
        members = [line for line in ordered if line.level == level]
        if not members:
            continue
        total = 0.0
        for line in members:
            total += line.ap
        counted = sum(1 for line in members if line.ground_truth)
        result[level] = total / counted if counted else 0.0
    return result
