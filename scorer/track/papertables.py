"""The track's tables for a paper: ``leaderboard.tex`` and ``significance.tex``,
laid out to fit by :mod:`scorer.track.latex` (each compiles with pdflatex in
a document that loads ``booktabs``, ASCII whatever the run names hold).
The leaderboard drops the optional columns that matter least when the page
is too narrow (its precision and recall, a pair at a time, their F1 stays;
then its last metrics); the significance table the p-value of the other
correction, then p_bootstrap, then p_randomization; the caption says which.
"""
from __future__ import annotations

import math
import re
from typing import Optional

import pandas as pd

from scorer.display.view import ERRORS_NOTE
from scorer.metricnames import is_precision_or_recall, metric_named, precision_recall_family
from scorer.track.latex import HEADER, Column, escape, escape_tt, render

#: Run names wider than this are broken over lines (about 22 characters).
RUN_WIDTH_PT = 110.0
#: Significance tables show at most this many pairs (a paper prints no more;
#: significance.csv has every pair).
SIGNIFICANCE_ROWS = 120
DIGITS = 4
#: What a cell without a value shows.
MISSING = "\u2013"


def number(value, digits: int = DIGITS) -> str:
    try:
        value = float(value)
    except (TypeError, ValueError):
        return MISSING
    if not math.isfinite(value):
        return MISSING
    text = f"{value:.{digits}f}"
    return "\u2212" + text[1:] if text.startswith("-") else text


def p_value(value) -> str:
    """A p-value at DIGITS decimals; below the smallest one shown, '<0.0001'."""
    text = number(value)
    if text != MISSING and float(value) < 10.0 ** -DIGITS:
        return "<" + f"{10.0 ** -DIGITS:.{DIGITS}f}"
    return text


def _present(value) -> bool:
    try:
        return not pd.isna(value)
    except (TypeError, ValueError):
        return True


def _signature_tt(signature: str) -> str:
    # a break after every '|' so that the caption can wrap the long line
    return r"\texttt{" + r"\allowbreak ".join(escape_tt(part) + "|" for part in
                                             signature.split("|"))[:-1] + "}"


def _rank_range(low, high) -> str:
    if not (_present(low) and _present(high)):
        return MISSING
    low, high = int(low), int(high)
    return str(low) if low == high else f"{low}\u2013{high}"


def _group(value) -> str:
    if not _present(value):
        return MISSING
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _partners(metric: str) -> str:
    """The key a precision and its recall share: they are left out together,
    never one of them beside the F1 without the other ('' for another metric)."""
    family = precision_recall_family(metric)
    return "" if family is None else f"precision and recall of '{family}'"


def leaderboard_tex(board: pd.DataFrame, metric: str, metric_title: str, main_metrics,
                    signature: str, label: str) -> str:
    """``leaderboard.tex``: rank, run, the headline with its interval, the
    other ``main_metrics`` (those the leaderboard has), the rank range and
    group when the leaderboard has them."""
    has_interval = board["ci95_low"].notna().any() if len(board) else False
    ranks = [str(int(r)) if _present(r) else MISSING for r in board["rank"]]
    headline = []
    for score, low, high in zip(board["score"], board["ci95_low"], board["ci95_high"]):
        cell = number(score)
        if _present(low) and _present(high) and cell != MISSING:
            cell += f" [{number(low)}, {number(high)}]"
        headline.append(cell)
    # a run whose files have errors but which was scored (Cold Start scores the
    # lines it could read, as the Perl does) is marked: its number is not like the others'
    flagged = [_present(score) and str(status) == "errors" for score, status in
               zip(board["score"], board["status"] if "status" in board.columns
                   else [""] * len(board))]
    columns = [Column("Rank", ranks),
               Column("Run", [str(r) + ("*" if flag else "") for r, flag in
                              zip(board["run"], flagged)], "l", RUN_WIDTH_PT),
               Column(metric + ("\n[95\u2009% CI]" if has_interval else ""), headline)]
    others = [m for m in dict.fromkeys(main_metrics) if m != metric and m in board.columns]
    # precision and recall go first when the page is too narrow (the F1 beside them stays)
    columns += [Column(m, [number(v) for v in board[m]], optional=m,
                       priority=2 if is_precision_or_recall(m) else 1,
                       together=_partners(m))
                for m in others]
    notes = []
    # a column that would hold only dashes (no samples; no groups with -compare
    # adjacent or -baseline) is left out
    if {"rank_low", "rank_high"} <= set(board.columns) and board["rank_low"].notna().any():
        columns.append(Column("Rank range", [_rank_range(lo, hi) for lo, hi in
                                             zip(board["rank_low"], board["rank_high"])]))
        notes.append("Rank range: the run's ranks in 95\u2009% of the bootstrap samples.")
    if "group" in board.columns and board["group"].notna().any():
        columns.append(Column("Group", [_group(g) for g in board["group"]]))
        notes.append("Group: a run and the runs below it not significantly worse than it, "
                     "from the best down.")
    if any(flagged):
        notes.append(ERRORS_NOTE)
    if any(not _present(s) for s in board["score"]):
        notes.append(f"{MISSING}: not scored (errors in the run's files, or no response).")

    def caption(left_out: list) -> str:
        text = (f"{metric_named(metric_title, metric)} of each run, best first"
                + (", with its 95\u2009% bootstrap interval." if has_interval
                   else " (no bootstrap samples: no intervals)."))
        parts = [text] + notes
        if left_out:
            parts.append(f"Left out for width: {', '.join(left_out)} (every metric is in "
                         f"leaderboard.csv).")
        return escape(" ".join(parts)) + " Signature: " + _signature_tt(signature) + "."

    def continued(rows: list) -> str:
        shown = [ranks[i] for i in rows if ranks[i] != MISSING]
        span = f"ranks {shown[0]}\u2013{shown[-1]}" if shown else "runs not scored"
        return escape(f"{metric_named(metric_title, metric)}, continued: {span}.")

    return render(columns, caption, label, continued)


def significance_tex(rows: Optional[pd.DataFrame], runs: list, metric: str, metric_title: str,
                     signature: str, label: str, correction: str = "holm") -> str:
    """``significance.tex``: one row per pair tested (the headline metric's):
    the runs, delta (with its interval when significance.csv has one), the
    p-values, whether significant (by the adjusted p of ``correction``).  More than
    SIGNIFICANCE_ROWS pairs: the pairs of rank neighbours, best first, up to
    that many (every pair is in significance.csv)."""
    named = metric_named(metric_title, metric)
    if rows is None or rows.empty:
        why = ("the track had no bootstrap samples" if rows is None else "no pair was tested")
        caption = escape(f"No significance tests of {named}: {why}.") + \
            " Signature: " + _signature_tt(signature) + "."
        return "\n".join([HEADER,
                          r"\begin{table}[tbp]", r"\centering", f"\\caption{{{caption}}}",
                          f"\\label{{{label}}}", r"\end{table}"]) + "\n"
    rows = rows.reset_index(drop=True)
    position = {run: i for i, run in enumerate(runs)}
    tested = len(rows)
    shown_note = ""
    if tested > SIGNIFICANCE_ROWS:
        neighbours = rows[[abs(position.get(str(a), -9) - position.get(str(b), -99)) == 1
                           for a, b in zip(rows["run_a"], rows["run_b"])]]
        picked = neighbours if len(neighbours) else rows
        rows = picked.iloc[:SIGNIFICANCE_ROWS]
        shown_note = (f"Shown: {len(rows)} of the {tested} pairs tested"
                      + (", those of rank neighbours, best first" if len(neighbours) else "")
                      + " (every pair is in significance.csv).")
    columns = [Column("Run A", [str(r) for r in rows["run_a"]], "l", RUN_WIDTH_PT * 0.8),
               Column("Run B", [str(r) for r in rows["run_b"]], "l", RUN_WIDTH_PT * 0.8)]
    if {"delta_ci95_low", "delta_ci95_high"} <= set(rows.columns):
        columns.append(Column("\u0394\n[95\u2009% CI]", [
            number(d) + (f" [{number(lo)}, {number(hi)}]" if _present(lo) and _present(hi)
                         else "")
            for d, lo, hi in zip(rows["delta"], rows["delta_ci95_low"], rows["delta_ci95_high"])]))
    else:
        columns.append(Column("\u0394", [number(d) for d in rows["delta"]]))
    p_columns = [name for name in P_VALUES if name in rows.columns]
    deciding = "p_bh" if correction == "bh" and "p_bh" in rows.columns else "p_holm"
    # When the page is too narrow: the other correction's p first, then the
    # bootstrap's p, then the randomization's (the deciding adjusted p stays).
    priority = {"p_bootstrap": 2, "p_randomization": 1, "p_holm": 3, "p_bh": 3}
    columns += [Column(P_TITLES[name], [p_value(v) for v in rows[name]],
                       optional="" if name == deciding else name, priority=priority[name])
                for name in p_columns]
    columns.append(Column("Sig.", ["yes" if bool(s) else "no"
                                   for s in rows["significant"]], "l"))
    interval = " (with its 95\u2009% bootstrap interval)" if "delta_ci95_low" in rows.columns \
        else ""

    def caption(left_out: list) -> str:
        shown = [name for name in p_columns if name not in left_out]
        parts = [f"Paired tests of {named} between runs A and B: \u0394 is A's score minus "
                 f"B's{interval}"]
        pairs = f"{tested} pair" if tested == 1 else f"{tested} pairs"
        parts += [f"{P_TITLES[name]} ({name}): {P_VALUES[name].format(pairs=pairs)}"
                  for name in shown]
        parts.append(f"Sig.: significant at the 0.05 level by {P_TITLES[deciding]}")
        text = "; ".join(parts) + "."
        if shown_note:
            text += " " + shown_note
        if left_out:
            text += f" Left out for width: {', '.join(left_out)} (in significance.csv)."
        return escape(text) + " Signature: " + _signature_tt(signature) + "."

    def continued(chunk: list) -> str:
        return escape(f"Paired tests of {named}, continued.")

    return render(columns, caption, label, continued)


#: The p-value columns of significance.csv the table shows: their titles, and what each is.
P_TITLES = {"p_bootstrap": "p boot", "p_randomization": "p rand", "p_holm": "p Holm",
            "p_bh": "p BH"}
P_VALUES = {"p_bootstrap": "paired bootstrap",
            "p_randomization": "approximate randomization",
            "p_holm": "randomization p adjusted by Holm's method for the {pairs} tested",
            "p_bh": "randomization p adjusted by Benjamini-Hochberg's method for the {pairs} "
                    "tested"}


def label_for(kind: str, task: str, metric: str) -> str:
    """A label per table, task and metric (two tracks' tables in one paper differ)."""
    return "tab:" + "-".join(re.sub(r"[^A-Za-z0-9]+", "-", part).strip("-")
                             for part in (kind, task, metric))
