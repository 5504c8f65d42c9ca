"""Leaderboards per slice (``-slices``): each slice's runs ranked on that
slice's units alone, with intervals, rank ranges, groups and paired tests.

The point estimates are the metric finished on the sums of the slice's
per-unit statistics: what a track scored on that slice's units alone gives.
The intervals and the bootstrap tests come from the track's one draw,
restricted to the slice's units (each sample's multiplicities of those
units), so the slices share their samples and are comparable.  The
randomization of a slice swaps the slice's units.  One correction (Holm or
Benjamini-Hochberg, ``-correction``) runs over every slice's pairs together;
``significant`` and the groups follow it.  The track's own leaderboard and
tests are those of a track without ``-slices``, untouched.
"""
from __future__ import annotations

import dataclasses
import math
import types

import numpy as np
import pandas as pd

from scorer.results import SIGNIFICANCE_COLUMNS, SIGNIFICANCE_LEVEL
from scorer.track import comparisons, interaction, statistics, tables
from scorer.track.signaturetext import signature_text

#: Columns added before a leaderboard's and a significance table's own.
SLICE_COLUMNS = ("slice", "units")
#: Where each significance row holds its p-values (SIGNIFICANCE_COLUMNS).
_P_RANDOM = SIGNIFICANCE_COLUMNS.index("p_randomization")
_P_HOLM = SIGNIFICANCE_COLUMNS.index("p_holm")
_P_BH = SIGNIFICANCE_COLUMNS.index("p_bh")
_SIGNIFICANT = SIGNIFICANCE_COLUMNS.index("significant")


@dataclasses.dataclass
class SliceResult:
    spec: str
    digest: str
    names: list                  # the slices, in the slicing's order
    sizes: dict                  # slice -> its units among the track's
    leaderboards: object         # DataFrame: SLICE_COLUMNS + a leaderboard's, slice by slice
    significance: object         # DataFrame: SLICE_COLUMNS + significance's
    table: object                # DataFrame: run x slice headlines with intervals
    #: what a reader must know (a -trials too small for the whole family, ...)
    warnings: list = dataclasses.field(default_factory=list)
    #: the slice x pair tests the correction covered together
    family_size: int = 0
    #: DataFrame (interaction.COLUMNS): does each pair's difference depend on the
    #: slice (empty without samples, or with fewer than two slices or runs)
    interaction: object = None
    #: slice -> the level of the statistics it took (Cold Start's hops), else None
    levels: object = None


def compute(slicing, results: list, metric: str, units: list, rule: str, if_empty: tuple,
            stacked, multiplicity, settings: comparisons.Settings, overall,
            level_stacked: dict = None) -> SliceResult:
    """Every slice's leaderboard and tests.  ``results``: every run's result
    (the scored ones, best first, are the columns of ``stacked``, ``k`` a
    run; those without the metric are listed unranked, as on the track's
    leaderboard); ``units`` the rows of ``stacked`` and the columns of
    ``multiplicity`` (None: no samples); ``overall`` the track's leaderboard;
    ``level_stacked``: slice -> the slice's own statistics, rows ``units`` (Cold Start's
    hops), else each slice takes ``stacked``'s rows of its units."""
    scored = tables.ranked(results, metric)
    n = len(scored)
    position = {unit: i for i, unit in enumerate(units)}
    k = stacked.shape[1] // n if n and stacked is not None else 0
    boards, tests, sizes, warnings = [], [], {}, []
    per_slice = []            # (slice, ranked proxies, Comparisons)
    for name, members in slicing.slices.items():
        rows = np.array(sorted({position[u] for u in members if u in position}), dtype=np.intp)
        sizes[name] = len(rows)
        source = level_stacked[name] if level_stacked is not None else stacked
        sub = source[rows] if source is not None else None
        values = statistics.run_values(rule, if_empty, sub.sum(axis=0)[None, :], n)[0] \
            if n else []
        proxies = [types.SimpleNamespace(name=r.name, status=r.status,
                                         values={metric: float(v)})
                   for r, v in zip(scored, values)]
        order = sorted(range(n), key=lambda i: (-proxies[i].values[metric], proxies[i].name))
        found = comparisons.Comparisons()
        if multiplicity is not None and n:
            columns = np.concatenate([np.arange(i * k, (i + 1) * k) for i in order])
            ordered = np.ascontiguousarray(sub[:, columns])
            sampled = statistics.bootstrap_values(rule, if_empty, ordered, n,
                                                  multiplicity[:, rows])
            restricted = dataclasses.replace(
                settings, clusters=settings.clusters[rows] if settings.clusters is not None
                else None)
            found = comparisons.compare([proxies[i].name for i in order],
                                        [proxies[i].values[metric] for i in order], metric,
                                        rule, if_empty, ordered, sampled, restricted)
            own = comparisons.resolution_warnings(
                len(comparisons.pairs_for([p.name for p in proxies], restricted)), restricted)
            warnings += [w for w in found.warnings if w not in own and w not in warnings]
        unscored = [types.SimpleNamespace(name=r.name, status=r.status, values={})
                    for r in results if metric not in r.values]
        per_slice.append((name, [proxies[i] for i in order], unscored, found))
    family = sum(len(found.rows) for *_rest, found in per_slice)
    _correct_together(per_slice, settings)
    warnings += comparisons.resolution_warnings(family, settings)
    for name, ranked_proxies, unscored, found in per_slice:
        board = tables.leaderboard(ranked_proxies + unscored, metric, [], found.intervals,
                                   found.rank_ranges, found.groups)
        board.insert(0, "units", sizes[name])
        board.insert(0, "slice", name)
        boards.append(board)
        test = tables.significance(found.rows)
        test.insert(0, "units", sizes[name])
        test.insert(0, "slice", name)
        tests.append(test)
    leaderboards = pd.concat(boards, ignore_index=True)
    significance = pd.concat(tests, ignore_index=True)
    for column in ("units",):
        leaderboards[column] = leaderboards[column].astype("int64")
        significance[column] = significance[column].astype("int64")
    return SliceResult(slicing.spec, slicing.digest(), list(slicing.slices), sizes,
                       leaderboards, significance, run_slice_table(overall, leaderboards),
                       warnings, family,
                       _interaction(slicing, scored, metric, units, position, rule, if_empty,
                                    stacked, multiplicity is not None and level_stacked is None,
                                    settings),
                       slicing.levels)


def _correct_together(per_slice: list, settings: comparisons.Settings) -> None:
    """Holm's and Benjamini-Hochberg's p over every slice's pairs as one family;
    ``significant`` by the chosen one, and each slice's groups again from it."""
    rows = [row for *_rest, found in per_slice for row in found.rows]
    p = [row[_P_RANDOM] for row in rows]
    held, bh = statistics.holm(p), statistics.benjamini_hochberg(p)
    chosen = held if settings.correction == statistics.HOLM else bh
    for row, ph, pb, adjusted in zip(rows, held, bh, chosen):
        row[_P_HOLM], row[_P_BH], row[_SIGNIFICANT] = ph, pb, adjusted < SIGNIFICANCE_LEVEL
    if settings.baseline is not None or settings.compare != "all":
        return
    for _name, ranked_proxies, _unscored, found in per_slice:
        names = [p.name for p in ranked_proxies]
        where = {name: i for i, name in enumerate(names)}
        scores = [p.values[next(iter(p.values))] for p in ranked_proxies]
        worse = {}
        for row in found.rows:
            a, b = where[row[0]], where[row[1]]
            if a < b:
                worse[(a, b)] = bool(row[_SIGNIFICANT]) and scores[a] > scores[b]
        found.groups = dict(zip(names, statistics.groups(len(names), worse)))


def run_slice_table(overall, leaderboards) -> pd.DataFrame:
    """One row per run in the track's order: its headline over all units and on
    every slice, each with its 95 % interval."""
    frame = pd.DataFrame({"run": list(overall["run"]), "rank": overall["rank"],
                          "all": overall["score"], "all_ci95_low": overall["ci95_low"],
                          "all_ci95_high": overall["ci95_high"]})
    for name in dict.fromkeys(leaderboards["slice"]):
        board = leaderboards[leaderboards["slice"] == name].set_index("run")
        for column, source in ((name, "score"), (f"{name}_ci95_low", "ci95_low"),
                               (f"{name}_ci95_high", "ci95_high")):
            frame[column] = [board[source].get(run, math.nan) for run in frame["run"]]
    frame["rank"] = frame["rank"].astype("Int64")
    return frame


def signature_part(result: SliceResult) -> str:
    return f"slices:{signature_text(result.spec)}@{result.digest}"


def _interaction(slicing, scored: list, metric: str, units: list, position: dict, rule: str,
                 if_empty: tuple, stacked, has_samples: bool,
                 settings: comparisons.Settings) -> pd.DataFrame:
    """The permutation test of the run x slice interaction, a row per pair the
    track compares (track/interaction.py)."""
    names = [r.name for r in scored]
    pairs = comparisons.pairs_for(names, settings)
    if not has_samples or len(slicing.slices) < 2 or not pairs:
        return pd.DataFrame([], columns=list(interaction.COLUMNS))
    membership = np.zeros((len(slicing.slices), len(units)), dtype=bool)
    for s, members in enumerate(slicing.slices.values()):
        membership[s, [position[u] for u in members if u in position]] = True
    n = len(scored)
    differences, observed, p = interaction.test(rule, if_empty, stacked, n, membership, pairs,
                                                settings.seed)
    used = np.flatnonzero(membership.any(axis=0))
    overall = statistics.run_values(rule, if_empty, stacked[used].sum(axis=0)[None, :], n)[0]
    frame = pd.DataFrame(interaction.rows(names, metric, pairs, differences, observed, p,
                                          [float(v) for v in overall], len(slicing.slices),
                                          interaction.PERMUTATIONS, settings.correction),
                         columns=list(interaction.COLUMNS))
    frame["significant"] = frame["significant"].astype(bool)
    return frame
