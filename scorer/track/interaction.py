"""Does a pair's difference depend on the slice?  A permutation test of the
run x slice interaction, for each pair the track compares.

For runs a and b, ``d_s`` is a's headline minus b's on slice s (the metric
finished on the slice's summed per-unit statistics), ``d`` the same on every
unit in some slice, ``n_s`` the slice's units.  The statistic is
``T = Σ_s n_s (d_s − d)²`` (Cochran's Q for a mean of per-unit values, up to
the variance).  Under the null hypothesis that the difference does not
depend on the slice, the units' membership is exchangeable: each permutation
deals the units' per-unit statistics (both runs' together, so the pairing
stays) to the slices' places at random, keeping every slice's size and the
slices' overlaps; ``p = (1 + #{T_π ≥ T}) / (1 + P)``.  The same permutations
serve every pair.  The p-values are adjusted over the pairs (Holm and
Benjamini-Hochberg, ``-correction`` deciding ``significant``).
"""
from __future__ import annotations

import numpy as np

from scorer.results import SIGNIFICANCE_LEVEL
from scorer.track import statistics

#: Permutations of the units (the smallest p is 1 / (1 + PERMUTATIONS)).
PERMUTATIONS = 1000
#: Permuted membership rows made at once (bounds the product's memory).
_CELLS = 1 << 23
#: Relative tolerance of ``T_π ≥ T`` (equal statistics reached through other sums).
_TOLERANCE = 1e-9

COLUMNS = ("run_a", "run_b", "metric", "slices", "delta", "delta_min", "delta_max",
           "statistic", "permutations", "p_interaction", "p_holm", "p_bh", "significant")


def statistic(values: np.ndarray, overall: np.ndarray, sizes: np.ndarray,
              pairs: list) -> np.ndarray:
    """``T`` of each pair: ``values`` (..., slices, runs), ``overall`` (runs,)."""
    a = np.array([p[0] for p in pairs], dtype=np.intp)
    b = np.array([p[1] for p in pairs], dtype=np.intp)
    d = values[..., a] - values[..., b]                      # (..., slices, pairs)
    centre = overall[a] - overall[b]
    return np.einsum("s,...sp->...p", sizes.astype(np.float64), (d - centre) ** 2)


def test(rule: str, if_empty: tuple, stacked: np.ndarray, n_runs: int, membership: np.ndarray,
         pairs: list, seed: int, permutations: int = PERMUTATIONS) -> tuple:
    """``(per-slice differences (slices, pairs), T (pairs,), p (pairs,))``.
    ``membership``: slices x units, 1 where the unit is in the slice (the
    units: ``stacked``'s rows)."""
    used = np.flatnonzero(membership.any(axis=0))
    rows = np.ascontiguousarray(stacked[used])
    member = np.ascontiguousarray(membership[:, used], dtype=np.float64)
    sizes = member.sum(axis=1)
    k = stacked.shape[1] // max(n_runs, 1)
    overall = statistics.run_values(rule, if_empty, rows.sum(axis=0)[None, :], n_runs)[0]
    observed_values = statistics.run_values(rule, if_empty, member @ rows, n_runs)
    observed = statistic(observed_values, overall, sizes, pairs)
    a = [p[0] for p in pairs]
    b = [p[1] for p in pairs]
    differences = observed_values[:, a] - observed_values[:, b]
    rng = np.random.default_rng([seed, 0x51CE])       # a stream of its own (not the trials')
    n_slices, n_units = member.shape
    hits = np.zeros(len(pairs), dtype=np.int64)
    bound = observed * (1 - _TOLERANCE)
    block = max(1, _CELLS // max(n_slices * n_units, 1))
    done = 0
    del k
    while done < permutations:
        size = min(block, permutations - done)
        # A permutation deals the units' rows to the slices' places: the slice
        # of place i takes row π(i), i.e. membership's columns permuted by π⁻¹.
        dealt = np.empty((size, n_slices, n_units))
        for j in range(size):
            dealt[j][:, rng.permutation(n_units)] = member
        sums = dealt.reshape(size * n_slices, n_units) @ rows
        values = statistics.run_values(rule, if_empty, sums, n_runs).reshape(
            size, n_slices, n_runs)
        hits += np.count_nonzero(statistic(values, overall, sizes, pairs) >= bound, axis=0)
        done += size
    p = (1 + hits) / (1 + permutations)
    return differences, observed, p


def rows(names: list, metric: str, pairs: list, differences: np.ndarray, observed: np.ndarray,
         p: np.ndarray, overall: list, n_slices: int, permutations: int,
         correction: str) -> list:
    """A row per pair (COLUMNS), adjusted over the pairs."""
    held = statistics.holm(p.tolist())
    bh = statistics.benjamini_hochberg(p.tolist())
    chosen = held if correction == statistics.HOLM else bh
    out = []
    for j, (a, b) in enumerate(pairs):
        out.append([names[a], names[b], metric, n_slices, overall[a] - overall[b],
                    float(differences[:, j].min()), float(differences[:, j].max()),
                    float(observed[j]), permutations, float(p[j]), held[j], bh[j],
                    chosen[j] < SIGNIFICANCE_LEVEL])
    return out
