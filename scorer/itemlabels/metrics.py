"""The task's metrics, as scikit-learn defines them (``accuracy_score`` and
``precision_recall_fscore_support(..., zero_division=0)``): declarations over
the counts table of ``scorer/itemlabels/counts.py``, which follow the
policy's labels, and what each metric is (``-help``, the reference page)."""
from __future__ import annotations

from scorer.countstable.metrics import Mean, Ratio
from scorer.itemlabels.labels import averaged, label_name

#: Each metric, what it is (the per-label ones as of a label LABEL).
EXPLANATIONS = (
    ("macro_f1", "The mean of f1_LABEL over the averaged labels (the headline)"),
    ("accuracy", "Items whose predicted label is the gold label / items"),
    ("micro_f1", "2 tp / (gold + predicted), each summed over the averaged labels"),
    ("macro_precision", "The mean of precision_LABEL over the averaged labels"),
    ("macro_recall", "The mean of recall_LABEL over the averaged labels"),
    ("precision_LABEL", "Items predicted LABEL whose gold label is LABEL / items predicted "
                        "LABEL (0 when none is)"),
    ("recall_LABEL", "Items of gold label LABEL predicted LABEL / items of gold label LABEL "
                     "(0 when none is)"),
    ("f1_LABEL", "2 tp / (gold + predicted) of LABEL: its F1 from the counts (0 when LABEL is "
                 "neither a gold nor a predicted label)"),
)


def declarations(policy) -> tuple:
    """The metrics of a policy, as the counts table's ratios and their means:
    the reports' order (the ratios are computed first, the means after)."""
    over = averaged(policy)
    per_label = []
    for label in policy.labels:
        name = label_name(label)
        per_label += [
            Ratio(f"precision_{name}", f"Items predicted {label} whose gold label is {label} / "
                                       f"items predicted {label}", f"tp:{label}",
                  f"predicted:{label}"),
            Ratio(f"recall_{name}", f"Items of gold label {label} predicted {label} / items "
                                    f"of gold label {label}", f"tp:{label}", f"gold:{label}"),
            Ratio(f"f1_{name}", f"2 tp / (gold + predicted) of {label}", f"2tp:{label}",
                  f"gold+predicted:{label}"),
        ]
    names = [label_name(label) for label in over]
    return (
        Mean("macro_f1", "The mean of the per-label F1 over " + ", ".join(over),
             [f"f1_{name}" for name in names]),
        Ratio("accuracy", "Items whose predicted label is the gold label / items", "correct",
              "items"),
        Ratio("micro_f1", "2 tp / (gold + predicted), each summed over " + ", ".join(over),
              "2tp", "gold+predicted"),
        Mean("macro_precision", "The mean of the per-label precision over " + ", ".join(over),
             [f"precision_{name}" for name in names]),
        Mean("macro_recall", "The mean of the per-label recall over " + ", ".join(over),
             [f"recall_{name}" for name in names]),
        *per_label,
    )
