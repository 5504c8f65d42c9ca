"""The track's tables as DataFrames, and their files, written by pandas' own
writers: CSV and JSON for programs, Markdown and LaTeX for people and papers.
"""
from __future__ import annotations

import math

import pandas as pd

LEADERBOARD_HEAD = ["rank", "run", "metric", "score", "ci95_low", "ci95_high"]
SIGNIFICANCE_COLUMNS = ["run_a", "run_b", "metric", "delta", "p_bootstrap", "p_randomization",
                        "p_holm", "significant"]
NO_SAMPLES_NOTE = ("No bootstrap samples were given (-bootstrap N -seed S, or -samples FILE): "
                   "no intervals and no significance tests.")


def ranked(results: list, metric: str) -> list:
    """The runs that have ``metric``, best first, ties in run-name order."""
    return sorted((r for r in results if metric in r.values),
                  key=lambda r: (-r.values[metric], r.name))


def leaderboard(results: list, metric: str, metric_names: list, intervals: dict) -> pd.DataFrame:
    """One row per run, best first; ties share a rank and go in run-name order;
    runs without numbers (a fatal error in their files) come last, unranked."""
    scored = ranked(results, metric)
    unscored = sorted((r for r in results if metric not in r.values), key=lambda r: r.name)
    rows = []
    for position, result in enumerate(scored):
        score = result.values[metric]
        rank = 1 + sum(1 for other in scored if other.values[metric] > score)
        low, high = intervals.get(result.name, (math.nan, math.nan))
        rows.append([rank, result.name, metric, score, low, high]
                    + [result.values.get(name, math.nan) for name in metric_names]
                    + [result.status])
    for result in unscored:
        rows.append([None, result.name, metric, math.nan, math.nan, math.nan]
                    + [math.nan] * len(metric_names) + [result.status])
    frame = pd.DataFrame(rows, columns=LEADERBOARD_HEAD + list(metric_names) + ["status"])
    frame["rank"] = frame["rank"].astype("Int64")
    return frame


def significance(rows: list) -> pd.DataFrame:
    frame = pd.DataFrame(rows, columns=SIGNIFICANCE_COLUMNS)
    frame["significant"] = frame["significant"].astype(bool)
    return frame


# -- files --------------------------------------------------------------------------

def csv_text(frame: pd.DataFrame) -> str:
    """Full precision (shortest repr of each double); an empty cell where there is no value."""
    return frame.to_csv(index=False, lineterminator="\n")


def json_text(frame: pd.DataFrame) -> str:
    return frame.to_json(orient="records", double_precision=15, indent=1) + "\n"


def markdown_text(frame: pd.DataFrame, note: str = "") -> str:
    text = frame.to_markdown(index=False, floatfmt=".4f", missingval="") + "\n"
    return text + (f"\n{note}\n" if note else "")


def latex_text(frame: pd.DataFrame, caption: str) -> str:
    styler = frame.style.hide(axis="index")
    styler = styler.format(precision=4, na_rep="--", escape="latex")
    styler = styler.format_index(escape="latex", axis=1)
    return styler.to_latex(hrules=True, caption=caption)
