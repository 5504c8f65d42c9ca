"""The scored result of one run of a counts-table task
(:class:`~scorer.countstable.evaluation.Evaluation`): its counts table (one row per unit, as column lists
and, when first wanted, a DataFrame), the units' keys, the outcomes its
``.debug`` explains, and the full-data metric values; and how the units are
keyed for samples files (:func:`~scorer.countstable.evaluation.claim_keys`)."""
from __future__ import annotations

import re

from scorer.countstable.jsonl import shows

# Plain classes, not dataclasses: a claim run imports neither ``dataclasses``
# (which pulls in ``inspect``) nor ``typing``; they cost more start-up time
# than scoring a thousand claims.


class Evaluation:
    """One scored run of a claim task."""

    __slots__ = ("task", "files", "keys", "columns", "outcomes", "metrics", "max_evidence",
                 "key_source", "debug", "declared", "_counts")

    def __init__(self, task: str, files: tuple, keys: list, columns: dict, outcomes: list,
                 metrics: dict, max_evidence: int | None = None, key_source: str = "id",
                 debug=None, *, declared: tuple):
        self.task = task
        #: Paths of the files read, in the order given (gold first).
        self.files = files
        #: Claim identifiers in file order (unique; resampling draws these).
        self.keys = keys
        #: The counts table as plain lists: column -> one value per claim, file order.
        self.columns = columns
        #: Per-claim outcomes for the ``.debug`` report, in file order (None
        #: when ``debug`` holds the report's text already).
        self.outcomes = outcomes
        #: The ``.debug`` report's claims, written as they were scored (its
        #: ``pieces()``; FEVER), or None.
        self.debug = debug
        #: Full-data metric values, declaration order.
        self.metrics = metrics
        self.max_evidence = max_evidence
        #: How claim keys were made ("id" or "line"), stated in the reports.
        self.key_source = key_source
        #: The metric declarations ``metrics`` follow (scorer.countstable.metrics)
        self.declared = tuple(declared)
        self._counts = None

    @property
    def counts(self):
        """The counts table as a DataFrame: one row per claim (index: ``keys``),
        sufficient statistics as columns.  Built on first use, so that a plain
        scoring run never imports pandas."""
        if self._counts is None:
            self._counts = counts_frame(self.columns, self.keys)
        return self._counts


def claim_columns(rows: list, columns: tuple) -> dict:
    """The counts table as column lists: ``rows`` are tuples in ``columns``
    order, one per claim (transposed by ``zip``: no lookup per cell)."""
    if not rows:
        return {column: [] for column in columns}
    return dict(zip(columns, map(list, zip(*rows))))


def counts_frame(columns: dict, keys: list):
    """The counts table as a DataFrame (index: the claim keys)."""
    # pandas (half a second to import) for the API and the samples: a plain run
    # writes its reports from the columns.
    import pandas as pd
    table = pd.DataFrame(columns) if keys else \
        pd.DataFrame({column: pd.Series(dtype="int64") for column in columns})
    table.index = pd.Index(keys, name="claim", dtype=object)
    return table


#: What a claim key may not hold: it is a token of a samples file line.
_UNUSABLE_IN_KEY = re.compile(r"[\s:,]")


def claim_names(ids: list) -> list:
    """Claim ids as text: a string as it is, any other JSON value as written."""
    kinds = set(map(type, ids))
    if kinds == _INT:
        return list(map(int.__repr__, ids))       # FEVER's ids: one C loop
    if kinds == _STR:
        return list(ids)
    return [value if type(value) is str else text for value, text in zip(ids, shows(ids))]


_INT, _STR = {int}, {str}


def claim_keys(texts: list | None, lines: list) -> tuple[list, str]:
    """Identifiers for resampling: the ids as text (:func:`claim_names`) when they
    are unique and fit in a samples file (no blank, ':' or ','), else (or when
    ``texts`` is None) ``line<N>``."""
    if texts is None:
        return [f"line{line}" for line in lines], "line"
    # One search of all the texts joined: one of them holds a blank, ':' or ','
    # exactly when the whole does.
    usable = all(texts) and _UNUSABLE_IN_KEY.search("".join(texts)) is None
    if usable and len(set(texts)) == len(texts):
        return texts, "id"
    return [f"line{line}" for line in lines], "line"
