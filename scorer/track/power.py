"""How many units a difference needs (``-power SIZES``): from a pilot track's
runs, the smallest headline difference a pair of runs like these would show
as significant with 80 % power, at the track's size and at other sizes, and
for each pair of rank neighbours the units that would make its observed
difference significant.

Each pair's headline difference is linearized unit by unit (the gradient of
the finishing rule at the two runs' mean sums, as the randomization's normal
tail does): ``d_i = N ∇f · (x_a,i − x_b,i)``, whose mean is the difference to
first order (exactly, for a mean of per-unit values).

By default (``-power_method simulation``) the power is that of a paired
bootstrap simulation at each size ``m``: :data:`SIMULATIONS` tracks of ``m``
units drawn with replacement from the pair's centred differences ``c_i``,
each shifted by a planted difference ``δ`` (the same draws for every ``δ``:
common random numbers) and tested as the track's swap test does beyond its
trials, by the swap distribution's normal tail: significant when
``Σ u_j ≥ z_{1−α/2} √(Σ u_j²)``, ``u_j = c_j + δ``.  That ratio grows with
``δ`` (Cauchy-Schwarz), so each simulated track has one smallest significant
shift, found in closed form, ``δ_s = −c̄ + z √(v / (m − z²))`` (``c̄`` and ``v``
the draw's mean and variance); the 80 % point is their 80th percentile, and
its interval the order statistics where the simulated power is 80 % give or
take its own binomial error.  ``-power_method normal`` gives the normal
approximation instead (:func:`min_detectable`).

Corrected: ``α`` divided by the tests in the correction's family (the first
step of Holm, and of Benjamini-Hochberg for one discovery).
"""
from __future__ import annotations

import io
import math
import os
from statistics import NormalDist

import numpy as np
import pandas as pd

from scorer import unitstatistic
from scorer.display import blocks
from scorer.display.blocks import Column
from scorer.display.page import inline_svg
from scorer.display.plot import FONT_PT, METADATA, METRIC_COLOURS, RC, _quiet_about_glyphs
from scorer.output import write_bytes_atomically
from scorer.results import SIGNIFICANCE_LEVEL
from scorer.track import statistics, tables

POWER = 0.8
DEFAULT_SIZES = (0.5, 1.0, 2.0, 4.0)
SIMULATION, NORMAL = "simulation", "normal"
METHODS = (SIMULATION, NORMAL)
#: Simulated tracks at each size: the 80 % point's Monte Carlo error is then
#: about ±1.8 points of power (95 %).
SIMULATIONS = 2000
#: The simulations' own stream, apart from the bootstrap's and the trials'.
_STREAM = 0x90E7
#: Cells of draws made at once (bounds memory at any size).
_CELLS = 1 << 22
#: A unit drawn by its index costs about this many times less than a distinct
#: value's binomial in a multinomial draw: below, draw indices.
_INDEX_ADVANTAGE = 8
#: units_needed is searched to within this ratio (the simulation's own error
#: is larger).
_SEARCH_RATIO = 1.01
#: The most units a search tries (beyond: no number of units is given).
_MOST_UNITS = 1 << 40
SIZE_COLUMNS = ("units", "min_detectable_difference", "simulation_low", "simulation_high",
                "test", "alpha", "sigma", "multiple", "method", "run_a", "run_b")
PAIR_COLUMNS = ("run_a", "run_b", "metric", "delta", "sigma", "units", "units_needed",
                "units_needed_corrected", "method")


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


def check_method(method: str) -> str:
    if method not in METHODS:
        raise ValueError(f"-power_method must be one of {', '.join(METHODS)}, not "
                         f"'{method}'")
    return method


def per_unit_differences(rule: str, if_empty: tuple, stacked: np.ndarray, n_runs: int,
                         pair: tuple) -> np.ndarray:
    """``d_i`` of the pair ``(a, b)`` (see the module's text)."""
    a, b = pair
    k = stacked.shape[1] // max(n_runs, 1)
    first, second = stacked[:, a * k:(a + 1) * k], stacked[:, b * k:(b + 1) * k]
    middle = (first.sum(axis=0) + second.sum(axis=0)) / 2
    gradient = statistics._gradient(rule, if_empty, middle)
    return len(stacked) * ((first - second) @ gradient)


# -- the normal approximation (-power_method normal) -----------------------------

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


# -- the paired bootstrap simulation (the default) --------------------------------

class Differences:
    """A pair's per-unit differences, as the simulation draws them: centred,
    their distinct values and how often each occurs (a draw of many units from
    few values is a multinomial one, whatever the units).  Where every unit's
    difference is 0 or ``±c`` (accuracy-like metrics, FEVER's strict score),
    the track's swap test is the exact sign test, and a planted difference
    moves units between wins and losses rather than shifting them:
    ``lattice`` is then ``c`` and ``ties`` the share of units at 0."""

    def __init__(self, d: np.ndarray):
        d = np.asarray(d, dtype=np.float64)
        self.centred = d - d.mean() if len(d) else d
        self.values, counts = np.unique(self.centred, return_counts=True)
        self.shares = counts / max(len(d), 1)
        size = np.abs(d)
        largest = float(size.max(initial=0.0))
        differs = size > 1e-9 * max(largest, 1e-300)
        self.lattice = None
        if differs.any() and largest - float(np.min(size, where=differs, initial=np.inf)) \
                <= 1e-9 * largest:
            self.lattice = largest
            self.ties = float(np.count_nonzero(~differs)) / len(d)

    def moments(self, units: int, rng) -> tuple:
        """``(means, variances)`` of :data:`SIMULATIONS` draws of ``units``
        with replacement (variances over ``units``, not ``units − 1``)."""
        distinct = len(self.values)
        sums, squares = [], []
        by_index = units * _INDEX_ADVANTAGE < distinct
        step = max(1, _CELLS // max(units if by_index else distinct, 1))
        done = 0
        while done < SIMULATIONS:
            block = min(step, SIMULATIONS - done)
            if by_index:
                drawn = self.centred[rng.integers(0, len(self.centred), (block, units))]
                sums.append(drawn.sum(axis=1))
                squares.append((drawn * drawn).sum(axis=1))
            else:
                counts = rng.multinomial(units, self.shares, size=block).astype(np.float64)
                sums.append(counts @ self.values)
                squares.append(counts @ (self.values * self.values))
            done += block
        mean = np.concatenate(sums) / units
        variance = np.maximum(np.concatenate(squares) / units - mean * mean, 0.0)
        return mean, variance

    def sign_test_shifts(self, units: int, alpha: float, rng) -> np.ndarray:
        """Each simulated track's smallest planted difference that the exact
        sign test finds significant at ``alpha`` (two-sided, wins ahead): the
        ties drawn (binomial, the pilot's share), then the wins among the ``n``
        units that differ by one uniform ``u`` each, ``W = F⁻¹(u; n, q)``,
        which grows with ``q`` (common random numbers), so the smallest
        significant ``q`` is where ``P(W < w*) = u``, ``w*`` the fewest wins
        significant: ``q = 1 − I⁻¹(u; n − w* + 1, w*)`` (the regularized
        incomplete beta), and the difference ``c (n / m) (2q − 1)``."""
        # scipy for -power alone: a track without it never imports scipy.
        from scipy import special
        differing = units - rng.binomial(units, self.ties, size=SIMULATIONS)
        uniform = rng.random(SIMULATIONS)
        wins = _fewest_significant_wins(differing, alpha)
        shifts = np.full(SIMULATIONS, math.inf)
        possible = wins <= differing
        n, w = differing[possible], wins[possible]
        q = 1 - special.betaincinv(n - w + 1, w, uniform[possible])
        shifts[possible] = self.lattice * (n / units) * (2 * q - 1)
        return shifts


def _fewest_significant_wins(differing: np.ndarray, alpha: float) -> np.ndarray:
    """For each ``n``, the fewest wins ``w > n/2`` whose exact two-sided sign-test
    p, ``2 P(W ≥ w)``, is below ``alpha`` (``n + 1`` where none is)."""
    from scipy import special    # (see sign_test_shifts)
    n = differing.astype(np.int64)
    low = n // 2                        # not significant (p = 1 at w = n/2)
    high = n + 1                        # "significant" by convention
    while True:
        open_ = high - low > 1
        if not open_.any():
            return high
        middle = (low + high) // 2
        p = 2 * special.bdtrc(middle - 1, n, 0.5)
        significant = (p < alpha) & open_
        high = np.where(significant, middle, high)
        low = np.where(open_ & ~significant, middle, low)


def smallest_significant_shifts(mean: np.ndarray, variance: np.ndarray, units: int,
                                alpha: float) -> np.ndarray:
    """Each simulated track's smallest shift ``δ`` that the swap test's normal
    tail finds significant at ``alpha`` (two-sided, in the shift's direction):
    ``−c̄ + z √(v / (m − z²))``; infinite where ``m ≤ z²`` (no difference of
    ``m`` units can pass the test)."""
    z = NormalDist().inv_cdf(1 - alpha / 2)
    if units <= z * z:
        return np.full(len(mean), math.inf)
    return -mean + z * np.sqrt(variance / (units - z * z))


def power_point(shifts: np.ndarray, power: float = POWER) -> tuple:
    """``(point, low, high)``: the smallest shift significant in ``power`` of the
    simulated tracks, and the shifts where the simulated power is ``power``
    give or take 1.96 times its binomial error (the simulation's own interval)."""
    ordered = np.sort(shifts, kind="stable")
    n = len(ordered)
    if n == 0:
        return math.nan, math.nan, math.nan
    spread = 1.96 * math.sqrt(n * power * (1 - power))

    def at(rank: float) -> float:
        value = float(ordered[min(n, max(1, int(rank))) - 1])
        return value if math.isfinite(value) else math.nan
    return at(math.ceil(n * power)), at(math.floor(n * power - spread)), \
        at(math.ceil(n * power + spread))


def simulated_min_detectable(differences: Differences, units: int, levels: tuple,
                             rng) -> list:
    """``[(point, low, high)]`` for each level in ``levels``, from one draw."""
    if differences.lattice is not None:
        state = rng.bit_generator.state
        found = []
        for level in levels:
            rng.bit_generator.state = state          # the same draws for every level
            found.append(power_point(differences.sign_test_shifts(units, level, rng)))
        return found
    mean, variance = differences.moments(units, rng)
    return [power_point(smallest_significant_shifts(mean, variance, units, level))
            for level in levels]


def simulated_units_needed(differences: Differences, delta: float, alpha: float,
                           sigma: float, seed) -> object:
    """The fewest units (to within 1 %, ``_SEARCH_RATIO``) at which the pair's
    observed ``delta`` is significant in 80 % of the simulated tracks; None for
    no difference.  Every size tried draws from the same seed."""
    delta = abs(delta)
    if delta == 0 or not math.isfinite(delta) or not math.isfinite(sigma):
        return None
    z = NormalDist().inv_cdf(1 - alpha / 2)
    least = max(2, math.floor(z * z) + 1)

    def detects(units: int) -> bool:
        point = simulated_min_detectable(differences, units, (alpha,),
                                         np.random.default_rng(seed))[0][0]
        return math.isfinite(point) and point <= delta
    start = max(least, units_needed(sigma, delta, alpha) or least)
    low, high = start, start
    if detects(start):
        while low > least:
            low = max(least, low // 2)
            if not detects(low):
                break
            high = low
        else:
            return high
    else:
        while True:
            if high >= _MOST_UNITS:
                return None
            low, high = high, min(_MOST_UNITS, high * 2)
            if detects(high):
                break
    while high > low + 1 and high > low * _SEARCH_RATIO:
        middle = max(low + 1, min(high - 1, round(math.sqrt(low * high))))
        if detects(middle):
            high = middle
        else:
            low = middle
    return high


# -- the tables ----------------------------------------------------------------

def compute(names: list, metric: str, rule: str, if_empty: tuple, stacked: np.ndarray,
            sizes: tuple, n_pairs: int, method: str = SIMULATION, seed: int = 0,
            stream: int = 0) -> tuple:
    """``(sizes frame, pairs frame)``: SIZE_COLUMNS a row per size and test,
    PAIR_COLUMNS a row per pair of rank neighbours.  ``n_pairs``: the tests
    in the correction's family; ``seed`` the simulation's (the track's), and
    ``stream`` its stream within the seed's.  Every slice draws from the
    track's stream, as a separate track of the slice's units would."""
    n = len(names)
    units = len(stacked)
    alpha = SIGNIFICANCE_LEVEL
    corrected = alpha / max(n_pairs, 1)
    pairs = [(i, i + 1) for i in range(n - 1)]
    k = stacked.shape[1] // max(n, 1)
    totals = stacked.sum(axis=0).reshape(n, k) if n else np.zeros((0, k))
    values = unitstatistic.finish(rule, totals, if_empty) if n else []
    rows, sigmas, drawn = [], [], []
    for number, (a, b) in enumerate(pairs):
        d = per_unit_differences(rule, if_empty, stacked, n, (a, b))
        sigma = float(np.std(d, ddof=1)) if units > 1 else math.nan
        sigmas.append(sigma)
        delta = float(values[a] - values[b])
        if method == NORMAL:
            needed = [units_needed(sigma, delta, level) for level in (alpha, corrected)]
        else:
            differences = Differences(d)
            drawn.append(differences)
            needed = [simulated_units_needed(differences, delta, level, sigma,
                                             [seed, _STREAM, stream, 1, number])
                      for level in (alpha, corrected)]
        rows.append([names[a], names[b], metric, delta, sigma, units, *needed, method])
    pair_frame = pd.DataFrame(rows, columns=list(PAIR_COLUMNS))
    for column in ("units_needed", "units_needed_corrected"):
        pair_frame[column] = pair_frame[column].astype("Int64")
    # "a pair of runs like these": the rank neighbours of the median spread
    # (the lower of the two middle ones)
    middle = sorted(range(len(sigmas)), key=lambda i: (sigmas[i], i))[(len(sigmas) - 1) // 2] \
        if sigmas else None
    sigma = sigmas[middle] if middle is not None else math.nan
    reference = (names[pairs[middle][0]], names[pairs[middle][1]]) if middle is not None \
        else ("", "")
    tests = ((f"uncorrected, alpha {alpha:g}", alpha),
             (f"corrected for {n_pairs} tests, alpha {alpha:g}/{n_pairs}", corrected))
    size_rows = []
    for position, multiple in enumerate(sizes):
        count = max(2, round(multiple * units))
        if method == NORMAL or middle is None:
            found = [(min_detectable(sigma, count, level), math.nan, math.nan)
                     for _test, level in tests]
        else:
            found = simulated_min_detectable(
                drawn[middle], count, tuple(level for _test, level in tests),
                np.random.default_rng([seed, _STREAM, stream, 0, position]))
        for (test, level), (point, low, high) in zip(tests, found):
            size_rows.append([count, point, low, high, test, level, sigma, multiple, method,
                              *reference])
    return pd.DataFrame(size_rows, columns=list(SIZE_COLUMNS)), pair_frame


def compute_sliced(overall: tuple, sliced, names: list, metric: str, rule: str,
                   if_empty: tuple, stacked: np.ndarray, units: list, slicing, sizes: tuple,
                   method: str = SIMULATION, seed: int = 0, own: dict = None) -> tuple:
    """-power with -slices: ``overall`` (compute's frames over every unit) as
    the slice ``all``, then each slice's, on its units alone with its own
    ranking's rank neighbours, a ``slice`` column first: what ``compute``
    gives a track of the slice's units alone (the same draws).  Corrected, α is the
    level over the slice x pair tests the correction covers together
    (``sliced.family_size``; without samples, the pairs each slice would
    compare).  ``own``: slice -> its own statistics (as slices.compute takes them)."""
    n = len(names)
    k = stacked.shape[1] // max(n, 1)
    where = {name: i for i, name in enumerate(names)}
    position = {unit: i for i, unit in enumerate(units)}
    boards = sliced.leaderboards
    ranked = {name: [run for run, rank in zip(boards["run"][boards["slice"] == name],
                                              boards["rank"][boards["slice"] == name])
                     if not pd.isna(rank)]
              for name in sliced.names}
    family = sliced.family_size or sum(max(len(runs) - 1, 0) * len(runs) // 2
                                       for runs in ranked.values())
    size_frames, pair_frames = [_with_slice(overall[0], OVERALL)], \
        [_with_slice(overall[1], OVERALL)]
    for name in sliced.names:
        runs = ranked[name]
        rows = np.array(sorted({position[u] for u in slicing.slices[name] if u in position}),
                        dtype=np.intp)
        if len(runs) < 2 or len(rows) < 2:
            continue
        columns = np.concatenate([np.arange(where[run] * k, (where[run] + 1) * k)
                                  for run in runs])
        frames = compute(runs, metric, rule, if_empty,
                         np.ascontiguousarray((own[name] if own is not None else stacked)
                                              [np.ix_(rows, columns)]), sizes, family,
                         method, seed)
        size_frames.append(_with_slice(frames[0], name))
        pair_frames.append(_with_slice(frames[1], name))
    together = [pd.concat(frames, ignore_index=True) for frames in (size_frames, pair_frames)]
    for column in ("units_needed", "units_needed_corrected"):
        together[1][column] = together[1][column].astype("Int64")
    return tuple(together)


def _with_slice(frame: pd.DataFrame, name: str) -> pd.DataFrame:
    frame = frame.copy()
    frame.insert(0, "slice", name)
    return frame


def note(metric: str, sizes: pd.DataFrame) -> str:
    """What the power tables say under themselves."""
    method = set(sizes["method"]) if len(sizes) else {SIMULATION}
    how = (f"paired bootstrap simulation, {SIMULATIONS:,} simulated tracks at each size "
           f"(simulation_low, simulation_high: its own 95 % interval)" if method == {SIMULATION}
           else "the normal approximation")
    return (f"Smallest difference of {metric} significant with {POWER:.0%} power, by {how}; "
            f"units_needed: the fewest units at which a pair's observed difference is "
            f"significant with that power (docs/statistics.md#power).")


def page_section(folder: str, frames: tuple, metric: str) -> tuple:
    """The page's section: the curve (power.svg, made by :func:`write`), the
    sizes table and the rank neighbours' units needed."""
    sizes, pairs = frames
    with open(os.path.join(folder, "power.svg"), encoding="utf-8") as f:
        svg = f.read()
    shown_sizes = [c for c in ("slice", "units", "multiple", "test", "min_detectable_difference",
                               "simulation_low", "simulation_high") if c in sizes.columns]
    shown_pairs = [c for c in ("slice", "run_a", "run_b", "delta", "sigma", "units",
                               "units_needed", "units_needed_corrected") if c in pairs.columns]
    texts = ("slice", "test", "run_a", "run_b")

    def rows(frame, shown):
        return [[None if (not isinstance(v, str) and pd.isna(v)) else v for v in row]
                for row in frame[shown].itertuples(index=False, name=None)]
    parts = [f"<p>{blocks.esc(note(metric, sizes))}</p>",
             f'<div class="plot">{inline_svg(svg)}</div>',
             blocks.table([Column(c, numeric=c not in texts) for c in shown_sizes],
                          rows(sizes, shown_sizes), table_id="power-sizes"),
             f"<h3>{blocks.esc('Units each pair of rank neighbours needs')}</h3>",
             blocks.table([Column(c, numeric=c not in texts) for c in shown_pairs],
                          rows(pairs, shown_pairs), table_id="power-pairs"),
             f"<p>{blocks.esc('For a paper: power.pdf; every number: ')}</p>",
             blocks.links(["power.csv", "power_pairs.csv"])]
    return ("power", "Power (how many units a difference needs)", "".join(parts))


def write(write, folder: str, frames: tuple, metric: str, width_in: float) -> None:
    """power.csv/.json/.md, power_pairs.csv/.json/.md and the curve
    (power.png/.svg/.pdf: the smallest detectable difference against units)."""
    sizes, pairs = frames
    text = note(metric, sizes)
    for stem, frame in (("power", sizes), ("power_pairs", pairs)):
        write(f"{stem}.csv", tables.csv_text(frame))
        write(f"{stem}.json", tables.json_text(frame))
        write(f"{stem}.md", tables.markdown_text(frame, text))
    _curve(sizes, metric, width_in, {fmt: os.path.join(folder, f"power.{fmt}")
                                     for fmt in ("png", "svg", "pdf")})


#: The ``slice`` of the rows over every unit (with -slices).
OVERALL = "all"

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
        overall = sizes[sizes["slice"] == OVERALL] if "slice" in sizes.columns else sizes
        for colour, (test, rows) in zip(METRIC_COLOURS, overall.groupby("test", sort=False)):
            rows = rows.sort_values("units", kind="stable")
            if (rows["method"] == NORMAL).all():
                sigma = float(rows["sigma"].iloc[0])
                level = float(rows["alpha"].iloc[0])
                low, high = int(rows["units"].min()), int(rows["units"].max())
                grid = np.unique(np.geomspace(max(low, 2), max(high, 3), 60).round()
                                 .astype(int))
                axes.plot(grid, [min_detectable(sigma, int(u), level) for u in grid],
                          color=colour, lw=1.2, label=test)
                axes.plot(rows["units"], rows["min_detectable_difference"], "o",
                          color=colour, ms=3.5)
            else:
                # the simulated points, joined, with the simulation's own interval
                point = rows["min_detectable_difference"].to_numpy(dtype=np.float64)
                below = np.nan_to_num(point - rows["simulation_low"].to_numpy(np.float64))
                above = np.nan_to_num(rows["simulation_high"].to_numpy(np.float64) - point)
                axes.errorbar(rows["units"], point, yerr=[below, above], color=colour,
                              lw=1.2, ms=3.5, marker="o", capsize=2, label=test)
        axes.set_xscale("log")
        # the sizes asked for as the ticks, as whole numbers (the log axis's own
        # labels are mathtext, which the house's settings do not render)
        from matplotlib.ticker import FixedLocator, FuncFormatter, NullFormatter, NullLocator
        axes.xaxis.set_major_locator(FixedLocator(sorted(set(overall["units"].tolist()))))
        axes.xaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:,.0f}"))
        axes.xaxis.set_minor_locator(NullLocator())
        axes.xaxis.set_minor_formatter(NullFormatter())
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
