"""How the tables and pictures name a metric to a reader, and which metrics
stand beside an F1 (what a table short of room leaves out first)."""
from __future__ import annotations

import re
from typing import Optional


def metric_named(title: str, metric: str) -> str:
    """A metric named once: its title, with its key in brackets when the title
    does not hold it ("FEVER strict_score", not "FEVER strict_score (strict_score)")."""
    return title if metric in title else f"{title} ({metric})"


def is_precision_or_recall(name: str) -> bool:
    """A metric that has an F1 beside it (``..._precision``, ``..._recall``,
    Cold Start's ``..._p``, ``..._r``)."""
    return re.search(r"(^|_)(precision|recall|p|r)$", name) is not None


def precision_recall_family(name: str) -> Optional[str]:
    """What a precision or recall shares with its partner and its F1: the name
    without ``precision``, ``recall``, ``p`` or ``r`` (``"ldcmean_macro_"`` of
    ``ldcmean_macro_r``, ``""`` of FEVER's ``precision``); None for another metric."""
    found = re.search(r"(^|_)(precision|recall|p|r)$", name)
    return name[:found.start(2)] if found else None
