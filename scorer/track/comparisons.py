"""The track's statistics over its ranked runs: intervals, rank ranges, the pairs
compared and their tests, the adjustments, the groups, and the warnings a
reader must see.  Pure: arrays and options in, numbers out (``docs/statistics.md``
defines every column).
"""
from __future__ import annotations

import dataclasses
import math
from typing import Optional

import numpy as np

from scorer.problems import ScorerError
from scorer.progress import Progress
from scorer.results import SIGNIFICANCE_LEVEL
from scorer.track import statistics

#: Approximate randomization trials when -trials is not given; the tail beyond
#: what they resolve then comes from the exact sign test where the swap
#: distribution is one, else from the normal approximation.
DEFAULT_TRIALS = 10_000
#: The smallest adjusted p the family must be able to reach: the level over ten.
RESOLUTION_FACTOR = 10
#: The most work -trials may ask of the randomization, in cells of
#: :func:`work_per_trial` (a trial's swaps are drawn per unit and moved through
#: every run's sums, then each pair's difference is finished): 0.05 to 0.13 ns a
#: cell on one core, measured from 2 runs of 12 units to 100 runs of 100,000, so
#: 2 to 5 minutes.  -trials 100,000,000 on two runs of 10,000 claims (an hour) is
#: refused, a million trials there (20 s) are not.  The default trials are
#: always allowed.
MAX_WORK = 2 * 10 ** 12
#: Randomization shows its progress on a terminal once it has taken this long
#: (most tracks' trials take less, and say nothing).
PROGRESS_AFTER_S = 1.0
#: Drawing and unpacking a unit's swap costs about as much as moving the unit
#: through this many runs' sums ...
_UNIT_COST = 16
#: ... and a pair's difference in a trial as much as this many cells.
_PAIR_COST = 250


@dataclasses.dataclass
class Settings:
    """What the comparisons depend on besides the numbers."""

    compare: str = "all"                 # "all", "adjacent"
    baseline: Optional[str] = None       # a run name: every run against it
    correction: str = statistics.HOLM
    trials: Optional[int] = None         # None: DEFAULT_TRIALS and the tail rule
    seed: int = 0
    clusters: Optional[np.ndarray] = None  # each unit's cluster number, or None
    #: the most -trials the track allows (check_trials); None: no bound known
    most_trials: Optional[int] = None

    @property
    def n_trials(self) -> int:
        return DEFAULT_TRIALS if self.trials is None else self.trials

    @property
    def with_tail(self) -> bool:
        return self.trials is None


@dataclasses.dataclass
class Comparisons:
    intervals: dict = dataclasses.field(default_factory=dict)     # run -> (low, high)
    rank_ranges: dict = dataclasses.field(default_factory=dict)   # run -> (low, high)
    groups: dict = dataclasses.field(default_factory=dict)        # run -> group number
    rows: list = dataclasses.field(default_factory=list)          # significance rows
    warnings: list = dataclasses.field(default_factory=list)
    #: pairs whose p_randomization came from the tail rule ...
    tail_pairs: int = 0
    #: ... and how many of those were the exact sign test's
    exact_tail_pairs: int = 0


def pairs_for(names: list, settings: Settings) -> list:
    """The pairs ``(a, b)`` of rank positions compared: every pair (a above b),
    rank neighbours, or every run against the baseline (a the run, b the baseline)."""
    if settings.baseline is not None:
        base = names.index(settings.baseline) if settings.baseline in names else None
        if base is None:
            return []
        return [(i, base) for i in range(len(names)) if i != base]
    if settings.compare == "adjacent":
        return [(i, i + 1) for i in range(len(names) - 1)]
    return [(i, j) for i in range(len(names)) for j in range(i + 1, len(names))]


def pair_count(n_runs: int, settings: Settings) -> int:
    """How many pairs :func:`pairs_for` gives for ``n_runs`` runs."""
    if settings.baseline is not None or settings.compare == "adjacent":
        return max(n_runs - 1, 0)
    return n_runs * (n_runs - 1) // 2


def work_per_trial(n_units: int, n_runs: int, n_pairs: int) -> int:
    """The randomization's work in a trial, in cells: every unit's swap drawn
    and moved through every run's sums, then every pair's difference."""
    return n_units * (n_runs + _UNIT_COST) + _PAIR_COST * n_pairs


def most_trials(n_units: int, n_runs: int, n_pairs: int) -> int:
    """The most -trials a track of this shape may ask for (MAX_WORK), at least
    the default."""
    return max(DEFAULT_TRIALS, MAX_WORK // max(work_per_trial(n_units, n_runs, n_pairs), 1))


def check_trials(trials: Optional[int], n_units: int, n_runs: int, n_pairs: int,
                 units_word: str = "units") -> None:
    """Refuse, before the work, a -trials that would run for hours (see MAX_WORK),
    saying the most this track may take."""
    if trials is None or n_pairs == 0:
        return
    most = most_trials(n_units, n_runs, n_pairs)
    if trials > most:
        raise ScorerError(
            f"-trials {trials:,} asks the randomization for too much work: at most {most:,} "
            f"trials for {n_runs:,} runs ({_counted(n_pairs, 'pair')}) over {n_units:,} "
            f"{units_word} (the work grows as trials x {units_word} x runs, and as trials x "
            f"pairs); give fewer, or leave -trials out for {DEFAULT_TRIALS:,} trials and the "
            f"tail rule beyond them")


def _counted(count: int, word: str) -> str:
    return f"{count:,} {word}" + ("" if count == 1 else "s")


def compare(names: list, scores: list, metric: str, rule: str, if_empty: tuple,
            stacked: np.ndarray, sampled: np.ndarray, settings: Settings) -> Comparisons:
    """Everything the leaderboard and significance tables add to the scores, for
    the runs ``names`` (best first, with their full-data ``scores``), their
    stacked per-unit statistics, and their values in every sample (``sampled``,
    samples x runs)."""
    result = Comparisons()
    n = len(names)
    for i, name in enumerate(names):
        result.intervals[name] = statistics.percentile_interval(sampled[:, i], 95)
    for name, span in zip(names, statistics.rank_ranges(sampled)):
        result.rank_ranges[name] = span
    pairs = pairs_for(names, settings)
    if settings.baseline is not None and settings.baseline not in names:
        result.warnings.append(f"-baseline {settings.baseline} has no score (see its "
                               f"run.errlog): no pair was tested")
    observed = statistics.observed_differences(rule, if_empty, stacked, n, pairs)
    trials = settings.n_trials
    # (on a terminal, once it has taken a second: most tracks' trials take less)
    progress = Progress(f"randomization of {_counted(len(pairs), 'pair')}: trials", trials,
                        after=PROGRESS_AFTER_S, time_left=True)
    hits = statistics.randomization_hits(rule, if_empty, stacked, n, pairs, trials,
                                         settings.seed, settings.clusters,
                                         progress=progress.advance if pairs else None)
    progress.done()
    # The tests of a pair read two runs' columns of every unit: from a copy
    # stored column by column (contiguous) rather than across the rows of
    # ``stacked`` (4,950 pairs over 100,000 claims: a quarter of the time).
    # They count and compare, exactly: the same results from either copy.
    by_column = np.asfortranarray(stacked) if pairs else stacked
    p_random = []
    for pair, count in zip(pairs, hits):
        tail, exact = None, False
        if settings.with_tail and count < statistics.TAIL_HITS:
            tail, exact = statistics.tail_p(rule, if_empty, stacked, n, pair, settings.clusters,
                                            by_column)
            result.tail_pairs += 1
            result.exact_tail_pairs += exact
        p_random.append(statistics.resolved_p(int(count), trials, tail, exact))
    p_holm = statistics.holm(p_random)
    p_bh = statistics.benjamini_hochberg(p_random)
    chosen = p_holm if settings.correction == statistics.HOLM else p_bh
    worse = {}
    for (a, b), delta, pr, ph, pb_h, adjusted in zip(pairs, observed, p_random, p_holm, p_bh,
                                                     chosen):
        differences = statistics.bootstrap_differences(sampled[:, a], sampled[:, b])
        low, high = statistics.percentile_interval(differences, 95)
        counts = statistics.wins_ties_losses(rule, by_column, n, (a, b))
        wins, ties, losses = counts if counts is not None else (None, None, None)
        significant = adjusted < SIGNIFICANCE_LEVEL
        result.rows.append([names[a], names[b], metric, scores[a] - scores[b], low, high,
                            wins, ties, losses,
                            statistics.paired_bootstrap_p(sampled[:, a], sampled[:, b], delta),
                            pr, ph, pb_h, significant])
        if a < b:
            worse[(a, b)] = significant and scores[a] > scores[b]
    if settings.baseline is None and settings.compare == "all":
        for name, number in zip(names, statistics.groups(n, worse)):
            result.groups[name] = number
    result.warnings += resolution_warnings(len(pairs), settings)
    return result


def resolution_warnings(m: int, settings: Settings) -> list:
    """A warning when the given -trials cannot resolve the family: its smallest
    p_randomization, 1 / (trials + 1), adjusted over ``m`` pairs stays above the
    level over ten.  Holm's adjusted p of that floor is ``m / (trials + 1)``;
    Benjamini-Hochberg's is that for a pair that stands out alone, but smaller
    where many pairs share the floor (it multiplies the i-th smallest p by m / i),
    so its warning says how many must."""
    if settings.with_tail or m == 0:
        return []
    level = SIGNIFICANCE_LEVEL
    smallest = 1 / (settings.trials + 1)
    floor = statistics.smallest_attainable_adjusted(m, smallest)
    if floor * RESOLUTION_FACTOR <= level:
        return []
    needed = math.ceil(RESOLUTION_FACTOR * m / level) - 1
    resolution = level / RESOLUTION_FACTOR
    if settings.correction == statistics.BH:
        together = _pairs_needed(m, smallest, resolution)
        at_level = _pairs_needed(m, smallest, level)
        consequence = (f"and Benjamini-Hochberg multiplies the i-th smallest by {m}/i, so a "
                       f"bh-adjusted p can be below {_short(resolution)} (the level {level:g} "
                       f"over {RESOLUTION_FACTOR}) only where at least {together} pairs are at or "
                       f"near that smallest p together")
        if at_level > 1:
            consequence += f", and below {level:g} only where at least {at_level} are"
    else:
        consequence = (f"so no {settings.correction}-adjusted p can be below {_short(floor)} "
                       f"(the level {level:g} needs at most {_short(resolution)})")
    remedy = (f"give -trials {needed} or more, or leave -trials out"
              if settings.most_trials is None or needed <= settings.most_trials
              else f"leave -trials out (this track allows at most {settings.most_trials} trials)")
    return [f"-trials {settings.trials} is too small for the {m} pairs compared: no "
            f"p_randomization is below 1/{settings.trials + 1}, {consequence}; {remedy} "
            f"(10,000 trials and the tail rule beyond them)"]


def _pairs_needed(m: int, smallest_p: float, level: float) -> int:
    """The fewest pairs i at the smallest p with ``m p / i <= level`` (BH's step)."""
    return max(1, math.ceil(m * smallest_p / level * (1 - 1e-12)))


def _short(value: float) -> str:
    return f"{value:.3g}"
