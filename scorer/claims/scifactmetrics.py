"""SciFact's metrics, as the leaderboard's evaluator (allenai/scifact-evaluator)
names and computes them: declarations over the counts table of
``scorer/claims/scifact.py`` (its ``COLUMNS``), carried by the task's record
(``scorer/tasks/scifact.py``)."""
from __future__ import annotations

from scorer.countstable.metrics import CLAIMS, Ratio, precision_recall_f1

#: The twelve keys of the leaderboard evaluator's verbose output, then label accuracy.
METRICS = (
    *precision_recall_f1(
        "abstract_label_only",
        "Abstracts predicted with the gold label of a gold abstract of the claim",
        "abstract_correct_label_only", "abstract_retrieved", "abstract_relevant"),
    *precision_recall_f1(
        "abstract_rationalized",
        "Abstracts with the gold label whose first max(max_evidence, shortest gold "
        "rationale) predicted sentences contain a whole gold rationale",
        "abstract_correct_rationalized", "abstract_retrieved", "abstract_relevant"),
    *precision_recall_f1(
        "sentence_selection",
        "Predicted sentences of a gold abstract whose whole gold rationale is predicted",
        "sentence_correct_selection", "sentence_retrieved", "sentence_relevant"),
    *precision_recall_f1(
        "sentence_label",
        "Sentences correct for sentence_selection in an abstract predicted with its gold label",
        "sentence_correct_label", "sentence_retrieved", "sentence_relevant"),
    Ratio("label_accuracy",
          "Claims whose predicted claim label equals the gold claim label / claims "
          "(claim label: NOT_ENOUGH_INFO without abstracts, else the label most of its "
          "abstracts carry, ties to the later label in alphabetical order; the "
          "evidence-sets shape gives its own top-level label)",
          "label_correct", CLAIMS),
)
