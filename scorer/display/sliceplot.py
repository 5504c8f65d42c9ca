"""The slices' picture (``-slices``): small multiples, one panel per slice,
the runs in every panel in the track's order (best on top), each run's score
on the slice as a dot and its 95 % interval as a bar, the score axis shared
by all panels so that they compare.  The same bytes for the same numbers
(plot.py's settings: no dates, a fixed SVG salt, text kept as text)."""
from __future__ import annotations

import io
import math

from scorer.display.plot import (FONT_PT, FOOTNOTE_PT, INTERVAL_COLOUR, METADATA, OTHER_COLOUR, RC,
                                 _quiet_about_glyphs)
from scorer.output import write_bytes_atomically

#: Panels side by side at most.
PANELS_ACROSS = 4
#: A run's row in a panel (pt), and the room of a panel's title and axis.
ROW_PT = 11.0
PANEL_EXTRA_PT = 42.0
NAME_SHARE = 0.4
DPI = 200


def figure(table, slice_names: list, sizes: dict, metric: str, width_in: float):
    """The matplotlib figure of ``table`` (slices.run_slice_table's rows)."""
    # (matplotlib when a picture is drawn: see scorer.display.plot.leaderboard_plot)
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    runs = [str(run) for run in table["run"]]
    across = max(1, min(PANELS_ACROSS, len(slice_names)))
    down = max(1, math.ceil(len(slice_names) / across))
    panel_pt = len(runs) * ROW_PT + PANEL_EXTRA_PT
    height_in = (down * panel_pt + 42.0) / 72.0
    shown = Figure(figsize=(width_in, height_in), dpi=100)
    FigureCanvasAgg(shown)
    values = [v for name in slice_names for column in (name, f"{name}_ci95_low",
                                                         f"{name}_ci95_high")
              for v in table[column] if _finite(v)]
    low, high = (min(values), max(values)) if values else (0.0, 1.0)
    pad = (high - low) * 0.05 or 0.05
    # the names' room: their longest at about 0.6 of the font's size a character
    longest = max((len(run) for run in runs), default=1)
    left = min(NAME_SHARE, (longest * FONT_PT * 0.6 + 12.0) / (width_in * 72.0))
    grid = shown.add_gridspec(down, across, left=left, right=0.98, top=1 - 18 / (height_in * 72),
                              bottom=36 / (height_in * 72), wspace=0.08,
                              hspace=PANEL_EXTRA_PT / panel_pt)
    rows = list(range(len(runs)))
    for number, name in enumerate(slice_names):
        axes = shown.add_subplot(grid[number // across, number % across])
        scores = [float(v) if _finite(v) else math.nan for v in table[name]]
        lows = table[f"{name}_ci95_low"].tolist()
        highs = table[f"{name}_ci95_high"].tolist()
        for row, score, lo, hi in zip(rows, scores, lows, highs):
            if _finite(lo) and _finite(hi):
                axes.plot([float(lo), float(hi)], [row, row], color=INTERVAL_COLOUR, lw=1.2,
                          solid_capstyle="butt")
        axes.plot(scores, rows, "o", color=OTHER_COLOUR, ms=3.5)
        axes.set_xlim(low - pad, high + pad)
        axes.set_ylim(len(runs) - 0.5, -0.5)
        axes.set_yticks(rows)
        axes.set_yticklabels(runs if number % across == 0 else [""] * len(runs),
                             fontsize=FONT_PT)
        axes.tick_params(axis="x", labelsize=FOOTNOTE_PT)
        axes.set_title(f"{name} (n={sizes[name]:,})", fontsize=FONT_PT)
        axes.grid(axis="x", color="#dddddd", lw=0.5)
        axes.set_axisbelow(True)
    shown.text(0.5, 3 / (height_in * 72), f"{metric} on each slice, with 95 % intervals "
               f"(runs in the track's order)", ha="center", va="bottom", fontsize=FOOTNOTE_PT)
    return shown


def _finite(value) -> bool:
    try:
        return math.isfinite(float(value))
    except (TypeError, ValueError):
        return False


def write(table, slice_names: list, sizes: dict, metric: str, width_in: float,
          paths: dict) -> None:
    """The picture into ``paths`` (format -> path: png, svg, pdf)."""
    # (matplotlib when a picture is drawn: see scorer.display.plot.leaderboard_plot)
    import matplotlib
    with matplotlib.rc_context(RC), _quiet_about_glyphs():
        shown = figure(table, slice_names, sizes, metric, width_in)
        for fmt, path in paths.items():
            buffer = io.BytesIO()
            shown.savefig(buffer, format=fmt, dpi=DPI if fmt == "png" else 100,
                          metadata=METADATA[fmt])
            write_bytes_atomically(path, buffer.getvalue())
