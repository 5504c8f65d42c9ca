"""FEVER's metrics, as sheffieldnlp/fever-scorer's ``fever_score`` names and
computes them: declarations over the counts table of ``scorer/claims/fever.py``
(its ``COLUMNS``), carried by the task's record (``scorer/tasks/fever.py``)."""
from __future__ import annotations

from scorer.countstable.metrics import CLAIMS, HarmonicMean, Ratio

#: The five values of fever-scorer's ``fever_score``.
METRICS = (
    Ratio("strict_score",
          "Claims with the right label and, unless NOT ENOUGH INFO, a whole gold evidence "
          "group among the first max_evidence predicted sentences / claims",
          "strict", CLAIMS),
    Ratio("label_accuracy", "Claims with the right label (case-insensitive) / claims",
          "label_correct", CLAIMS),
    Ratio("precision",
          "Mean over claims with a verifiable gold label of: predicted sentences read "
          "that are in any gold group / sentences read (1 when none is read); 1 when no "
          "claim is verifiable",
          "precision", "precision_counted", if_empty=1.0),
    Ratio("recall",
          "Claims with a verifiable gold label whose first max_evidence predicted "
          "sentences hold a whole gold group (or whose gold evidence is empty) / such "
          "claims; 0 when no claim is verifiable",
          "recall", "recall_counted", if_empty=0.0),
    HarmonicMean("f1", "2PR/(P+R) of precision and recall (0 when both are 0)",
                 "precision", "recall"),
)
