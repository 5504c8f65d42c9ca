"""Pictures of scores: a track's leaderboard with its intervals, and a single
run's per-hop scores.

matplotlib is imported inside the functions (``python -m scorer`` starts
without it), and drives its Agg canvas directly rather than through pyplot, so
no global backend or figure state is touched.  The same input gives the same
bytes: no dates or software versions in the files, a fixed SVG hash salt, text
kept as text in the SVG.
"""
from __future__ import annotations

import io
import math
import textwrap

import pandas as pd

from scorer.look.view import INTERVAL_COLUMNS, METRIC_ORDER, PER_HOP_COLUMNS, \
    SIGNIFICANCE_LEVEL, TrackView, ordered, require_columns
from scorer.output import write_bytes_atomically

DPI = 100
#: Leaderboard figure: a fixed width, and a height that grows by one row a run.
LEADERBOARD_WIDTH_IN = 10.0
ROW_IN = 0.24        # 24 pixels a run: a 9-point name with room between rows
MIN_PLOT_IN = 1.5    # the plot area of a track with very few runs
BOTTOM_IN = 0.9      # axis label and legend room below the rows
TOP_AXIS_RUNS = 25   # from this many runs on, the score axis is shown on top too
LABEL_CHARS = 48     # longer run names are shortened on the axis (the page has them whole)

RC = {
    "svg.hashsalt": "scorer",  # element ids from content, not from a random salt
    "svg.fonttype": "none",    # names stay text: searchable, small, escaped by the writer
    "font.size": 9,
    "font.family": "DejaVu Sans",  # shipped with matplotlib: the same glyphs on every machine
}
#: No creation date or software version in the files.
METADATA = {"png": {"Software": None}, "svg": {"Date": None, "Creator": None}}

BEST_COLOUR, TIED_COLOUR, OTHER_COLOUR = "#000000", "#d95f02", "#1b6ca8"
METRIC_COLOURS = ("#1b6ca8", "#d95f02", "#1b9e77", "#7570b3", "#e7298a", "#66a61e",
                  "#a6761d", "#666666")
PANEL_HOPS = ("0", "1", "ALL")  # left to right, top to bottom in a run's plot
VARIANT_ORDER = ("SF", "LDCMAX", "LDCMEAN")


def leaderboard_height_in(runs: int, title_lines: int) -> float:
    """The leaderboard figure's height in inches for this many runs."""
    return _top_in(title_lines, runs) + max(MIN_PLOT_IN, ROW_IN * runs) + BOTTOM_IN


def _top_in(title_lines: int, runs: int = 0) -> float:
    # tall figures repeat the score axis on top, under the title
    return 0.35 + 0.19 * title_lines + (0.2 if runs > TOP_AXIS_RUNS else 0)


def leaderboard_plot(view: TrackView, png_path: str, svg_path: str) -> None:
    """Write the leaderboard picture as PNG and SVG: one row per run, best on
    top, the headline score as a dot and its 95 % interval as a bar (none when
    the track had no samples), the runs not significantly different from the
    best (group 1 under the track's correction) in their own colour; the title names the
    metric and the signature."""
    import matplotlib

    with matplotlib.rc_context(RC):
        figure = _leaderboard_figure(view)
        write_bytes_atomically(png_path, _render(figure, "png"))
        write_bytes_atomically(svg_path, _render(figure, "svg"))


def _render(figure, fmt: str) -> bytes:
    buffer = io.BytesIO()
    figure.savefig(buffer, format=fmt, dpi=DPI, metadata=METADATA[fmt])
    return buffer.getvalue()


def _new_figure(width_in: float, height_in: float):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(width_in, height_in), dpi=DPI)
    FigureCanvasAgg(figure)
    return figure


def _short(name: str) -> str:
    return name if len(name) <= LABEL_CHARS else name[:LABEL_CHARS - 1] + "\u2026"


def _finite(value) -> bool:
    try:
        return math.isfinite(float(value))
    except (TypeError, ValueError):
        return False


def _leaderboard_figure(view: TrackView):
    board = view.leaderboard
    runs = view.runs
    tied = view.tied_with_best()
    with_tests = view.significance is not None
    title = f"{view.metric_title} ({view.metric})"
    signature_lines = textwrap.wrap(view.signature, 110) or [""]
    title_lines = 1 + len(signature_lines)

    height_in = leaderboard_height_in(len(runs), title_lines)
    figure = _new_figure(LEADERBOARD_WIDTH_IN, height_in)
    label_in = min(0.25 + 0.068 * max([len(_short(r)) for r in runs] or [4]), 3.6)
    left, right = label_in / LEADERBOARD_WIDTH_IN, 1 - 0.35 / LEADERBOARD_WIDTH_IN
    bottom, top = BOTTOM_IN / height_in, 1 - _top_in(title_lines, len(runs)) / height_in
    axes = figure.add_axes((left, bottom, right - left, top - bottom))

    rows = range(len(runs))
    scores = [float(s) if _finite(s) else math.nan for s in board["score"]]
    lows = [float(v) if _finite(v) else math.nan for v in board["ci95_low"]]
    highs = [float(v) if _finite(v) else math.nan for v in board["ci95_high"]]
    kinds = ["best" if i == 0 else "tied" if run in tied else "other" for i, run in enumerate(runs)]
    styles = {
        "best": (BEST_COLOUR, "D", "best run"),
        "tied": (TIED_COLOUR, "o", f"group 1: not significantly worse than the best "
                                   f"({view.correction_name}-adjusted p \u2265 "
                                   f"{SIGNIFICANCE_LEVEL:g})"),
        "other": (OTHER_COLOUR, "o", "significantly worse than the best" if with_tests
                  else "other runs"),
    }
    for kind, (colour, marker, label) in styles.items():
        members = [i for i in rows if kinds[i] == kind]
        bars = [i for i in members if _finite(lows[i]) and _finite(highs[i])]
        if bars:
            axes.hlines([i for i in bars], [lows[i] for i in bars], [highs[i] for i in bars],
                        colors=colour, linewidth=1.6)
        dots = [i for i in members if _finite(scores[i])]
        if dots:
            axes.plot([scores[i] for i in dots], dots, linestyle="none", marker=marker,
                      markersize=5, color=colour, label=label)

    axes.set_ylim(len(runs) - 0.5 if runs else 0.5, -0.5)  # best on top
    axes.set_yticks(list(rows))
    axes.set_yticklabels([_short(r) for r in runs])
    axes.tick_params(axis="x", labeltop=len(runs) > TOP_AXIS_RUNS,
                     top=len(runs) > TOP_AXIS_RUNS)
    axes.grid(axis="x", color="#dddddd", linewidth=0.6)
    axes.grid(axis="y", color="#f0f0f0", linewidth=0.6)
    axes.set_axisbelow(True)
    axes.set_xlabel(view.metric_title + ("" if any(_finite(v) for v in lows)
                                          else "  (no samples: no intervals, no tests)"))
    axes.set_title(title + "\n" + "\n".join(signature_lines), fontsize=9, loc="left")
    if any(_finite(score) for score in scores):   # else nothing has a label to show
        figure.legend(loc="lower left", bbox_to_anchor=(left, 0.04 / height_in), ncol=3,
                      frameon=False, fontsize=8)
    return figure


def run_plot(per_hop: pd.DataFrame, intervals, title: str, png_path: str) -> None:
    """Write a single run's picture (``-plot``) as PNG: one panel per hop (0, 1,
    ALL), in it P, R and F1 (and AP, when given) of each variant and aggregate,
    each as a dot with its 95 % interval as a bar when ``intervals`` has one.
    Claims: one panel, every metric with its interval.

    ``per_hop``: columns variant, aggregate, hop, metric, value (one run; a
    ``run`` column, if any, is ignored).  ``intervals``: None, or a DataFrame
    with the columns variant, aggregate, hop, metric, low, high (``view.
    INTERVAL_COLUMNS``), matched to ``per_hop`` on the first four.
    """
    write_bytes_atomically(png_path, run_png(per_hop, intervals, title))


def run_png(per_hop: pd.DataFrame, intervals, title: str) -> bytes:
    """:func:`run_plot`'s picture as PNG bytes (for a caller that writes it
    with the rest of a report set)."""
    import matplotlib

    require_columns(per_hop, PER_HOP_COLUMNS, "per_hop")
    if "run" in per_hop.columns and per_hop["run"].nunique() > 1:
        raise ValueError(f"per_hop holds several runs ({sorted(set(per_hop['run']))[:3]}...); "
                         "a run's picture shows one")
    if intervals is not None:
        require_columns(intervals, INTERVAL_COLUMNS, "intervals")
    with matplotlib.rc_context(RC):
        return _render(_run_figure(per_hop, intervals, title), "png")


def _key_frame(frame: pd.DataFrame) -> pd.DataFrame:
    frame = frame.copy()
    for column in ("variant", "aggregate", "hop", "metric"):
        frame[column] = frame[column].fillna("").astype(str)
    return frame


def _run_figure(per_hop: pd.DataFrame, intervals, title: str):
    scores = _key_frame(per_hop[list(PER_HOP_COLUMNS)])
    keys = ["variant", "aggregate", "hop", "metric"]
    if intervals is not None:
        scores = scores.merge(_key_frame(intervals[list(INTERVAL_COLUMNS)]), on=keys, how="left")
    else:
        scores = scores.assign(low=math.nan, high=math.nan)
    hops = ordered(scores["hop"], PANEL_HOPS)
    # known variants in their order, each with its aggregates as they come
    groups = sorted(dict.fromkeys(zip(scores["variant"], scores["aggregate"])),
                    key=lambda group: VARIANT_ORDER.index(group[0])
                    if group[0] in VARIANT_ORDER else len(VARIANT_ORDER))
    metrics = ordered(scores["metric"], METRIC_ORDER)
    by_metric = len(groups) == 1  # claims: the metrics themselves along the axis

    slots = len(metrics) if by_metric else len(groups)
    width_in = max(6.0, 0.75 * slots + 1.6)
    figure = _new_figure(width_in, 2.5 * len(hops) + 0.9)
    panels = figure.subplots(len(hops), 1, squeeze=False)[:, 0] if hops else []
    values = pd.to_numeric(scores["value"], errors="coerce")
    in_unit = bool(((values >= 0) & (values <= 1) | values.isna()).all())

    for axes, hop in zip(panels, hops):
        rows = scores[scores["hop"] == hop]
        for m, metric in enumerate(metrics):
            colour = METRIC_COLOURS[m % len(METRIC_COLOURS)]
            xs, ys, lows, highs = [], [], [], []
            for g, group in enumerate(groups):
                match = rows[(rows["variant"] == group[0]) & (rows["aggregate"] == group[1])
                             & (rows["metric"] == metric)]
                if match.empty or not _finite(match["value"].iloc[0]):
                    continue
                offset = 0 if by_metric else (m - (len(metrics) - 1) / 2) * 0.8 / len(metrics)
                xs.append(m if by_metric else g + offset)
                ys.append(float(match["value"].iloc[0]))
                lows.append(float(match["low"].iloc[0]) if _finite(match["low"].iloc[0]) else None)
                highs.append(float(match["high"].iloc[0]) if _finite(match["high"].iloc[0]) else None)
            colour = METRIC_COLOURS[0] if by_metric else colour
            axes.plot(xs, ys, linestyle="none", marker="o", markersize=4.5, color=colour,
                      label=None if by_metric else metric)
            bars = [i for i in range(len(xs)) if lows[i] is not None and highs[i] is not None]
            if bars:
                axes.vlines([xs[i] for i in bars], [lows[i] for i in bars],
                            [highs[i] for i in bars], colors=colour, linewidth=1.4)
        labels = metrics if by_metric else [f"{v}\n{a}" if a else v for v, a in groups]
        axes.set_xticks(list(range(len(labels))))
        axes.set_xticklabels(labels, rotation=30 if by_metric else 0,
                             ha="right" if by_metric else "center", fontsize=8)
        axes.set_xlim(-0.6, len(labels) - 0.4)
        if in_unit:
            axes.set_ylim(0, 1.02)
        axes.grid(axis="y", color="#dddddd", linewidth=0.6)
        axes.set_axisbelow(True)
        axes.set_ylabel("score" if hops == ["ALL"] else "hops ALL" if hop == "ALL"
                        else f"hop {hop}")
    if len(panels) and not by_metric:
        panels[0].legend(loc="lower left", bbox_to_anchor=(0, 1.0), ncol=len(metrics),
                         frameon=False, fontsize=8)
    figure.suptitle(title, fontsize=10, x=0.01, ha="left")
    figure.set_layout_engine("constrained")
    return figure
