"""The evaluation model: where each response belongs and what it counts as.

For one run and one SF query this builds the equivalence-class tree of the
assessments, finds each submission's assessment under the matching
discipline, places it in the tree, and decides per tree node its pre-policy
category (CORRECT, INCORRECT, INEXACT, INCORRECT_PARENT, UNASSESSED, ...) and
its post-policy lists (RIGHT, WRONG, IGNORE, REDUNDANT) (spec §3).  This is
where RIGHT and WRONG are decided.
"""
from __future__ import annotations

from typing import Optional

from scorer.coldstart import ids, slots
from scorer.coldstart.queries import expand_query
from scorer.coldstart.policy import justification_limits
from scorer.coldstart.runs import RunFiles
from scorer.policy import Policy
from scorer.problems import Problems, ScorerError

#: Count columns of a row, in the order of the Perl's lists (spec §3.6).
LABELS = ("CORRECT", "IGNORE", "INCORRECT", "INCORRECT_PARENT", "INEXACT", "REDUNDANT",
          "RIGHT", "SUBMITTED", "UNASSESSED", "WRONG")
POST_POLICY_OPTIONS = ("RIGHT", "WRONG", "IGNORE")


class TreeNode:
    """A node of the equivalence-class tree: ``Q``, ``Q:1``, ``Q:1:2``, ``Q:0``, ..."""

    __slots__ = ("name", "incorrect_bin", "quantity", "assessments", "submissions", "children",
                 "_first_by_target")

    def __init__(self, name, incorrect_bin=False, quantity=None):
        self.name = name
        self.incorrect_bin = incorrect_bin
        self.quantity = quantity
        self.assessments: list = []
        self.submissions: list = []
        self.children: dict = {}
        self._first_by_target = None

    def first_submission_with_target(self, target_query_id):
        if self._first_by_target is None:
            self._first_by_target = {}
            for submission in self.submissions:
                self._first_by_target.setdefault(submission.target_query_id, submission)
        return self._first_by_target.get(target_query_id)


class ECTree:
    def __init__(self):
        self.roots: dict = {}
        #: every node by name (the same names are looked up again and again)
        self._nodes: dict = {}

    def get(self, ec_name: str, quantity: Optional[str] = None) -> TreeNode:
        """The node named ``ec_name``, created with its ancestors if missing
        (``quantity``: of a root made here)."""
        node = self._nodes.get(ec_name)
        if node is None:
            node = self._nodes[ec_name] = self._make(ec_name, quantity)
        return node

    def _make(self, ec_name: str, quantity: Optional[str]) -> TreeNode:
        components = ec_name.split(":")
        root_name = components[0]
        node = self.roots.get(root_name)
        if node is None:
            node = self.roots[root_name] = TreeNode(root_name, quantity=quantity)
        name = root_name
        incorrect = False
        for component in components[1:]:
            if component == "0":
                incorrect = True
            name = f"{name}:{component}"
            child = node.children.get(name)
            if child is None:
                child = node.children[name] = TreeNode(name, incorrect)
            node = child
        return node


class Row:
    """One row of the P/R/F1 tables: a tree node with children."""

    __slots__ = ("name", "query_id", "level", "runid", "ground_truth", "counts", "lists")

    def __init__(self, name, query_id, level, runid, ground_truth, counts, lists):
        self.name = name
        self.query_id = query_id
        self.level = level
        self.runid = runid
        self.ground_truth = ground_truth
        self.counts = counts
        #: label -> submissions, for the .debug file
        self.lists = lists


class RunEvaluation:
    """What scoring one run decided about its submissions (the AP step reads it)."""

    def __init__(self, runid):
        self.runid = runid
        self.rows: list = []
        #: submission -> the assessment it matched (absent: unassessed)
        self.assessment_of: dict = {}
        #: submission -> set of labels it was listed under
        self.flags: dict = {}


class Evaluator:
    """Scores the queries of one run against the assessments."""

    def __init__(self, run_files: RunFiles, queries, policy: Policy, problems: Problems):
        self.run_files = run_files
        self.queries = queries
        self.policy = policy
        self.problems = problems
        self.right_names = frozenset(policy.right)
        self.duplicate_list = _duplicate_list(policy)
        # The policy's settings as read once (they are read per tree node).
        _per_document, self.k = justification_limits(policy.justifications)
        self.post_policy = tuple((option, tuple(getattr(policy, option.lower())))
                                 for option in POST_POLICY_OPTIONS)
        self._ec_cache: dict = {}
        self._candidates_by_base: dict = {}
        self._scored_queries: dict = {}

    def scored_queries(self, short_id: str, expand: Optional[str]) -> list:
        """:func:`scored_queries`, worked out once per query (re-expanding
        hashes every entry point; scoring and AP both ask)."""
        key = (short_id, expand)
        found = self._scored_queries.get(key)
        if found is None:
            found = self._scored_queries[key] = scored_queries(self.queries, short_id, expand)
        return found

    # -- equivalence class names (spec §3.3, §3.4) ---------------------------
    def query_ec(self, full_query_id: str) -> str:
        """The EC a query's answers belong under: the query itself at hop 0,
        else the EC of the assessment that generated it, else ``<parent EC>:0``."""
        cached = self._ec_cache.get(full_query_id)
        if cached is not None:
            return cached
        short_id = ids.parse_query_id(full_query_id).short_id
        query = self.queries.get(short_id)
        if query is not None and query.level == 0:
            result = full_query_id
        else:
            parent_assessment = self.run_files.parent_assessment.get(short_id)
            if parent_assessment is not None:
                result = parent_assessment.value_ec
            else:
                parent_id = self.run_files.parent_query.get(short_id)
                if parent_id is None:
                    # The Perl dies here ("queryid undefined in QuerySet->get()").
                    raise ScorerError(f"Query {full_query_id} is not a hop-0 query and no "
                                      f"assessment or response generates it, so the "
                                      f"equivalence class of its answers is unknown")
                result = self.query_ec(self.queries.get(parent_id).full_id) + ":0"
        self._ec_cache[full_query_id] = result
        return result

    def parent_ec(self, entry) -> str:
        return self.query_ec(entry.full_query_id)

    def target_ec(self, entry) -> str:
        return self.query_ec(entry.target_query.full_id)

    # -- matching a submission to its assessment (spec §3.3) -----------------
    def _candidates(self, base: str) -> tuple:
        """The assessments of this base, in load order: by parent EC, and by
        parent EC and the fields a response must share to be assessed by one
        (query, value, both provenances)."""
        found = self._candidates_by_base.get(base)
        if found is None:
            by_ec: dict = {}
            by_response: dict = {}
            for assessment in self.run_files.assessments_by_base.get(base, ()):
                ec = self.parent_ec(assessment)
                by_ec.setdefault(ec, []).append(assessment)
                by_response.setdefault(_response_key(ec, assessment), []).append(assessment)
            found = self._candidates_by_base[base] = (by_ec, by_response)
        return found

    def find_assessment(self, submission):
        by_ec, by_response = self._candidates(submission.base)
        ec = self.parent_ec(submission)
        assessed = by_response.get(_response_key(ec, submission))
        if assessed:
            choices = assessed
        elif self.policy.discipline == "ASSESSED":
            choices = []
        else:
            choices = [a for a in by_ec.get(ec, ()) if self._discipline_match(submission, a)]
        if not choices:
            return None
        if len(choices) == 1:
            return choices[0]
        correct = [a for a in choices if a.assessment == "CORRECT"]
        if len(correct) == 1:
            return correct[0]
        if not correct:
            return choices[0]
        self.problems.record("MULTIPLE_CORRECT_GROUND_TRUTH", submission.query_id,
                             where=submission.where)
        return correct[0]

    def _discipline_match(self, submission, assessment) -> bool:
        if submission.base != assessment.base or submission.level != assessment.level:
            return False
        if self.policy.discipline == "STRING_EXACT":
            return submission.value == assessment.value
        return submission.value.lower() == assessment.value.lower()

    # -- the tree ------------------------------------------------------------
    def _assessment_node(self, tree: ECTree, assessment):
        if assessment.value_ec != "0":
            return tree.get(assessment.value_ec, slots.quantity(assessment.slot_name))
        if assessment.query.level == 0:
            return tree.get(f"{assessment.full_query_id}:0", slots.quantity(assessment.slot_name))
        parent = self.run_files.parent_assessment.get(assessment.query_id)
        if parent is None:
            return None
        parent_node = self._assessment_node(tree, parent)
        return tree.get(f"{parent_node.name}:0", slots.quantity(assessment.slot_name))

    def build_tree(self, base: str, submissions, evaluation: RunEvaluation) -> ECTree:
        tree = ECTree()
        node_of: dict = {}
        assessments = self.run_files.assessments_by_base.get(base, ())
        for assessment in assessments:
            node = self._assessment_node(tree, assessment)
            if node is None:
                parents = "\n".join(a.line for a in self.run_files.assessments
                                    if a.target_query_id == assessment.query_id)
                self.problems.record("UNEXPECTED_ASSESSMENT_ENTRY",
                                     f"\nUnexpected child: \n{assessment.line}\n",
                                     f"\nAll parents:\n{parents}\n", where=assessment.where)
                continue
            node.assessments.append(assessment)
            if not node.quantity:
                node.quantity = assessment.target_query.quantity
            node_of[assessment] = node
            if assessment.assessment == "CORRECT" and node.name.count(":") >= 2:
                parent_node = tree.get(node.name.rsplit(":", 1)[0])
                if not any(a.assessment in ("CORRECT", "INEXACT") for a in parent_node.assessments):
                    raise ScorerError(f"Equivalence class without correct parent entry:\n\t"
                                      f"{assessment.line}\n({assessment.file} line "
                                      f"{assessment.line_number})")
        for submission in submissions:
            assessment = self.find_assessment(submission)
            if assessment is not None:
                evaluation.assessment_of[submission] = assessment
                node = node_of.get(assessment)
                if node is None:
                    node = tree.get(self.target_ec(submission), slots.quantity(assessment.slot_name))
            else:
                node = tree.get(self.target_ec(submission), slots.quantity(submission.slot_name))
            node.submissions.append(submission)
        return tree

    # -- categories (spec §3.5, §3.6) ----------------------------------------
    def path_is_right(self, tree: ECTree, ec_name: str, query_id: str,
                      evaluation: RunEvaluation) -> bool:
        """A hop-1 response counts only if the response that generated its query
        is in the parent EC, was assessed, and is right under the policy."""
        depth = ec_name.count(":")
        if depth == 1:
            return True
        parent_name = ec_name.rsplit(":", 1)[0] if depth else ""
        parent = tree.get(parent_name)
        generator = parent.first_submission_with_target(query_id)
        if generator is None:
            return False
        assessment = evaluation.assessment_of.get(generator)
        if assessment is not None and assessment.assessment in self.right_names:
            return self.path_is_right(tree, parent_name, generator.query_id, evaluation)
        return False

    def categorize(self, tree: ECTree, node: TreeNode, evaluation: RunEvaluation) -> dict:
        lists: dict = {}
        for submission in node.submissions:
            if not self.path_is_right(tree, node.name, submission.query_id, evaluation):
                category = "INCORRECT_PARENT"
            else:
                assessment = evaluation.assessment_of.get(submission)
                category = "UNASSESSED" if assessment is None else assessment.assessment
            lists.setdefault(category, []).append(submission)
        for option, items in self.post_policy:
            for item in items:
                if item in lists:
                    # Note: the pre-policy category IGNORE (code I) shares its
                    # name with the post-policy IGNORE list (spec §7.6).
                    lists.setdefault(option, []).extend(lists[item])
        right = lists.get("RIGHT")
        if right and len(right) > 1:
            # Prefer a named mention over a nominal one as the RIGHT response.
            named = [s for s in right if evaluation.assessment_of[s].value_mention_type != "NOM"]
            nominal = [s for s in right if evaluation.assessment_of[s].value_mention_type == "NOM"]
            lists["RIGHT"] = [named.pop(0)] if named else [nominal.pop(0)]
            lists.setdefault("REDUNDANT", []).extend(named + nominal)
        if lists.get("REDUNDANT"):
            lists.setdefault(self.duplicate_list, []).extend(lists["REDUNDANT"])
        return lists

    def score_node(self, tree: ECTree, node: TreeNode, query_id: str,
                   evaluation: RunEvaluation) -> Row:
        ground_truth = sum(1 for child in node.children.values() if not child.incorrect_bin)
        if node.quantity == "single" and ground_truth > 1:
            ground_truth = 1
        lists: dict = {}
        # Children in string order of their names: the deterministic choice for
        # the Perl's hash order (spec decision 1, §7.9).
        for name in sorted(node.children):
            child = node.children[name]
            child_lists = self.categorize(tree, child, evaluation)
            child_lists.setdefault("SUBMITTED", []).extend(child.submissions)
            for label, members in child_lists.items():
                # categorize's lists are new and not kept: the first one is taken as it is
                merged = lists.get(label)
                if merged is None:
                    lists[label] = members
                else:
                    merged.extend(members)
        if node.quantity == "single" and lists.get("RIGHT"):
            kept = lists["RIGHT"].pop()
            demoted = lists["RIGHT"]
            lists.setdefault("REDUNDANT", []).extend(demoted)
            lists["RIGHT"] = [kept]
            lists.setdefault(self.duplicate_list, []).extend(demoted)
        flags = evaluation.flags
        _flag(flags, lists.get("WRONG", ()), "WRONG")
        self._apply_nominal_rule(lists, evaluation)
        counts = dict.fromkeys(LABELS, 0)
        for label in LABELS:
            members = lists.get(label)
            if members:
                counts[label] = len(members)
                _flag(flags, members, label)
        level = node.name.count(":")
        return Row(node.name, query_id, level, evaluation.runid, ground_truth, counts, lists)

    def _apply_nominal_rule(self, lists: dict, evaluation: RunEvaluation) -> None:
        """A node whose first K assessed justifications are all nominal (and not
        wrong) has its right answers ignored (spec §3.6, §7.38)."""
        if not lists.get("RIGHT") and not lists.get("REDUNDANT"):
            return      # nothing that the rule could move
        k = self.k
        by_node: dict = {}
        for submission in lists.get("SUBMITTED", ()):
            by_node.setdefault(submission.fqnodeid or "", []).append(submission)
        ignorable = {}
        for fqnodeid, members in by_node.items():
            ignore = True
            counted = 0
            for submission in sorted(members, key=lambda s: (-s.confidence, s.line_number)):
                assessment = evaluation.assessment_of.get(submission)
                if assessment is None:
                    continue
                counted += 1
                if "WRONG" not in evaluation.flags.get(submission, ()):
                    if (assessment.value_mention_type == "NAM"
                            or assessment.ec_mention_type == "NOM"):
                        ignore = False
                if k is not None and counted == k:
                    break
            ignorable[fqnodeid] = ignore
        moved = []
        for label in ("RIGHT", "REDUNDANT"):
            if label not in lists:
                continue
            kept = []
            for submission in lists[label]:
                (moved if ignorable.get(submission.fqnodeid or "") else kept).append(submission)
            lists[label] = kept
        if moved:
            ignored = lists.setdefault("IGNORE", [])
            for submission in moved:
                if not any(other.line_number == submission.line_number for other in ignored):
                    ignored.append(submission)

    def score_tree(self, tree: ECTree, evaluation: RunEvaluation) -> list:
        """Rows of every node with children, children before parents."""
        rows = []

        def visit(node: TreeNode, query_id: str):
            for name in sorted(node.children):
                visit(node.children[name], query_id)
            if node.children:
                rows.append(self.score_node(tree, node, query_id, evaluation))

        for root_name in sorted(tree.roots):
            visit(tree.roots[root_name], ids.parse_query_id(root_name).short_id)
        return rows

    def evaluate_run(self, runid: str, queries_to_score: dict, expand: Optional[str],
                     progress=None) -> RunEvaluation:
        """Rows of one run, for every query to score (string order of short id),
        keeping rows whose level is within the query's hop limit."""
        evaluation = RunEvaluation(runid)
        for short_id in sorted(queries_to_score):
            if progress is not None:
                progress.advance()
            for query in self.scored_queries(short_id, expand):
                base = ids.parse_query_id(query.full_id).base
                submissions = [s for s in self.run_files.submissions_by_base.get(base, ())
                               if s.runid == runid]
                tree = self.build_tree(base, submissions, evaluation)
                for row in self.score_tree(tree, evaluation):
                    limit = queries_to_score.get(row.query_id)
                    if row.level <= (limit or 0):
                        evaluation.rows.append(row)
        return evaluation


def _response_key(parent_ec: str, entry) -> tuple:
    """What an assessment and a response share when one assessed the other."""
    return (parent_ec, entry.query_id, entry.value, entry.relation_provenance,
            entry.value_provenance)


def _flag(flags: dict, submissions, label: str) -> None:
    """Add ``label`` to the labels each of ``submissions`` was listed under."""
    for submission in submissions:
        labels = flags.get(submission)
        if labels is None:
            flags[submission] = {label}
        else:
            labels.add(label)


def scored_queries(queries, short_id: str, expand: Optional[str]) -> list:
    """The queries a selected query is scored as: itself, or with ``-expand``
    its re-expansion (for an SF query, itself again; spec §3.1)."""
    query = queries.get(short_id)
    if query is None:
        return []
    if not expand:
        return [query]
    return [queries.get(expanded.short_id) or expanded for expanded in expand_query(query, expand)]


def _duplicate_list(policy: Policy) -> str:
    """The list redundant responses join: the last of RIGHT, WRONG, IGNORE that
    names DUPLICATE ('' if none: they then count in Submitted only)."""
    chosen = ""
    for option in POST_POLICY_OPTIONS:
        if "DUPLICATE" in ":".join(getattr(policy, option.lower())):
            chosen = option
    return chosen
