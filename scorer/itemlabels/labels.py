"""The labels of a policy as the record and the scoring both treat them: a
label as its metrics' names spell it, the characters no id or label may hold,
and the labels the averages go over."""
from __future__ import annotations

import re

#: What a per-label metric name keeps of a label (anything else becomes "_"):
#: letters and digits of any script (labels in Chinese or Arabic, SemEval's
#: multilingual tasks, each kept apart: ASCII alone made them all '_'), '.', '-'.
_NAME_CHARACTERS = re.compile(r"[^\w.-]")
#: What no id or label may hold: it would split a line of the .debug.
CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def label_name(label: str) -> str:
    """A label as it is spelt in its metrics' names (``f1_NOT_ENOUGH_INFO``)."""
    return _NAME_CHARACTERS.sub("_", label)


def averaged(policy) -> tuple:
    """The labels the averages go over."""
    return policy.average_labels or policy.labels
