"""How many units a difference needs (``-power SIZES``): from a pilot track's
runs, the smallest headline difference a pair of runs like these would show
as significant with 80 % power, at the track's size and at other sizes, and
for each pair of rank neighbours the units that would make its observed
difference significant.

Each pair's headline difference is linearized unit by unit (the gradient of
the finishing rule at the two runs' mean sums, as the randomization's normal
tail does): ``d_i = N ∇f · (x_a,i − x_b,i)``, whose mean is the difference to
first order (exactly, for a mean of per-unit values).  Its standard deviation
``σ`` is the spread of the paired per-unit differences.  With ``n`` units like
these, a two-sided test at level ``α`` detects a difference ``δ`` with power
``1 − β`` when ``√n δ ≥ z_{1−α/2} √(σ² + δ²) + z_{1−β} σ`` (the normal
approximation of the swap test, whose null spread is that of the uncentred
d_i; see :func:`min_detectable`).  Corrected: ``α`` divided by the pairs compared (the first step of
Holm, and of Benjamini-Hochberg for one discovery).
"""
from __future__ import annotations

import io
import math
import os
from statistics import NormalDist

import numpy as np
import pandas as pd

from scorer import unitstatistic
from scorer.display.plot import FONT_PT, METADATA, METRIC_COLOURS, RC, _quiet_about_glyphs
from scorer.output import write_bytes_atomically
from scorer.results import SIGNIFICANCE_LEVEL
from scorer.track import statistics, tables

POWER = 0.8
DEFAULT_SIZES = (0.5, 1.0, 2.0, 4.0)
SIZE_COLUMNS = ("units", "min_detectable_difference", "test", "alpha", "sigma", "multiple")
PAIR_COLUMNS = ("run_a", "run_b", "metric", "delta", "sigma", "units", "units_needed",
                "units_needed_corrected")


def read_sizes(text: str) -> tuple:
    """-power's value: multiples of the track's units, ``0.5,1,2,4``."""
    sizes = []
    for part in text.split(","):
        try:
            value = float(part)
        except ValueError:
            value = math.nan
        if not (math.isfinite(value) and 0 < value <= 1000):
            raise ValueError(f"-power takes multiples of the track's units such as "
                             f"0.5,1,2,4, not '{text}'")
        sizes.append(value)
    return tuple(dict.fromkeys(sizes))


def per_unit_differences(rule: str, if_empty: tuple, stacked: np.ndarray, n_runs: int,
                         pair: tuple) -> np.ndarray:
    """``d_i`` of the pair ``(a, b)`` (see the module's text)."""
    a, b = pair
    k = stacked.shape[1] // max(n_runs, 1)
    first, second = stacked[:, a * k:(a + 1) * k], stacked[:, b * k:(b + 1) * k]
    middle = (first.sum(axis=0) + second.sum(axis=0)) / 2
    gradient = statistics._gradient(rule, if_empty, middle)
    return len(stacked) * ((first - second) @ gradient)


def min_detectable(sigma: float, units: int, alpha: float, power: float = POWER) -> float:
    """The smallest ``δ`` with ``√n δ = z_{1−α/2} √(σ² + δ²) + z_{power} σ``: the
    swap test's null spread is the root of the mean *uncentred* square of the
    d_i (σ² + δ²), the observed mean's spread around δ is σ.  Solved by
    iterating from the centred answer (a contraction: it converges in a few
    steps for any δ below σ)."""
    if not math.isfinite(sigma) or units < 1:
        return math.nan
    z = NormalDist().inv_cdf
    za, zb = z(1 - alpha / 2), z(power)
    root = math.sqrt(units)
    delta = (za + zb) * sigma / root
    for _ in range(100):
        following = (za * math.sqrt(sigma ** 2 + delta ** 2) + zb * sigma) / root
        if abs(following - delta) <= 1e-15 * max(delta, 1e-300):
            return following
        delta = following
    return delta


def units_needed(sigma: float, delta: float, alpha: float, power: float = POWER):
    """The fewest units for ``delta`` to be significant with ``power`` (None: no
    difference to detect): ``n = ((z_{1−α/2} √(σ² + δ²) + z_{power} σ) / δ)²``."""
    if delta == 0 or not math.isfinite(delta) or not math.isfinite(sigma):
        return None
    z = NormalDist().inv_cdf
    needed = ((z(1 - alpha / 2) * math.sqrt(sigma ** 2 + delta ** 2) + z(power) * sigma)
              / abs(delta)) ** 2
    return max(2, math.ceil(needed * (1 - 1e-12)))


def compute(names: list, metric: str, rule: str, if_empty: tuple, stacked: np.ndarray,
            sizes: tuple, n_pairs: int) -> tuple:
    """``(sizes frame, pairs frame)``: SIZE_COLUMNS a row per size and test,
    PAIR_COLUMNS a row per pair of rank neighbours.  ``n_pairs``: the pairs
    the track compares (the correction's family)."""
    n = len(names)
    units = len(stacked)
    alpha = SIGNIFICANCE_LEVEL
    corrected = alpha / max(n_pairs, 1)
    pairs = [(i, i + 1) for i in range(n - 1)]
    k = stacked.shape[1] // max(n, 1)
    totals = stacked.sum(axis=0).reshape(n, k) if n else np.zeros((0, k))
    values = unitstatistic.finish(rule, totals, if_empty) if n else []
    rows, sigmas = [], []
    for a, b in pairs:
        d = per_unit_differences(rule, if_empty, stacked, n, (a, b))
        sigma = float(np.std(d, ddof=1)) if units > 1 else math.nan
        sigmas.append(sigma)
        delta = float(values[a] - values[b])
        rows.append([names[a], names[b], metric, delta, sigma, units,
                     units_needed(sigma, delta, alpha), units_needed(sigma, delta, corrected)])
    pair_frame = pd.DataFrame(rows, columns=list(PAIR_COLUMNS))
    for column in ("units_needed", "units_needed_corrected"):
        pair_frame[column] = pair_frame[column].astype("Int64")
    # "a pair of runs like these": the median spread of the rank neighbours' differences
    sigma = float(np.median(sigmas)) if sigmas else math.nan
    size_rows = []
    for multiple in sizes:
        count = max(2, round(multiple * units))
        for test, level in ((f"uncorrected, alpha {alpha:g}", alpha),
                            (f"corrected for {n_pairs} pairs, alpha {alpha:g}/{n_pairs}",
                             corrected)):
            size_rows.append([count, min_detectable(sigma, count, level), test, level, sigma,
                              multiple])
    return pd.DataFrame(size_rows, columns=list(SIZE_COLUMNS)), pair_frame


def write(write, folder: str, frames: tuple, metric: str, width_in: float) -> None:
    """power.csv/.json/.md, power_pairs.csv/.json/.md and the curve
    (power.png/.svg/.pdf: the smallest detectable difference against units)."""
    sizes, pairs = frames
    note = (f"Smallest difference of {metric} significant with {POWER:.0%} power "
            f"(docs/statistics.md#power).")
    for stem, frame in (("power", sizes), ("power_pairs", pairs)):
        write(f"{stem}.csv", tables.csv_text(frame))
        write(f"{stem}.json", tables.json_text(frame))
        write(f"{stem}.md", tables.markdown_text(frame, note))
    _curve(sizes, metric, width_in, {fmt: os.path.join(folder, f"power.{fmt}")
                                     for fmt in ("png", "svg", "pdf")})


NAMES = tuple(f"{stem}.{ext}" for stem in ("power", "power_pairs")
              for ext in ("csv", "json", "md")) + ("power.png", "power.svg", "power.pdf")


def _curve(sizes, metric: str, width_in: float, paths: dict) -> None:
    # (matplotlib when a picture is drawn: see scorer.display.plot.leaderboard_plot)
    import matplotlib
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    with matplotlib.rc_context(RC), _quiet_about_glyphs():
        figure = Figure(figsize=(min(width_in, 5.0), 3.0), dpi=100)
        FigureCanvasAgg(figure)
        axes = figure.add_subplot(1, 1, 1)
        for colour, (test, rows) in zip(METRIC_COLOURS, sizes.groupby("test", sort=False)):
            sigma = float(rows["sigma"].iloc[0])
            level = float(rows["alpha"].iloc[0])
            low, high = int(rows["units"].min()), int(rows["units"].max())
            grid = np.unique(np.geomspace(max(low, 2), max(high, 3), 60).round().astype(int))
            axes.plot(grid, [min_detectable(sigma, int(u), level) for u in grid], color=colour,
                      lw=1.2, label=test)
            axes.plot(rows["units"], rows["min_detectable_difference"], "o", color=colour,
                      ms=3.5)
        axes.set_xscale("log")
        axes.set_xlabel("units", fontsize=FONT_PT)
        axes.set_ylabel(f"smallest {metric} difference\n({POWER:.0%} power)", fontsize=FONT_PT)
        axes.tick_params(labelsize=FONT_PT - 1)
        axes.grid(color="#dddddd", lw=0.5)
        axes.legend(fontsize=FONT_PT - 1.5, frameon=False)
        figure.tight_layout()
        for fmt, path in paths.items():
            buffer = io.BytesIO()
            figure.savefig(buffer, format=fmt, dpi=200 if fmt == "png" else 100,
                           metadata=METADATA[fmt])
            write_bytes_atomically(path, buffer.getvalue())
