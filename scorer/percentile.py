"""The Perl scorer's percentile rule: where a bootstrap interval's ends stand
among the sorted sample scores, and the confidence levels the reports show.
The ``.confidence`` reports of every task and the track's intervals use it.
"""
from __future__ import annotations

import math

#: Confidence levels of the ``.confidence`` report, in column order.
CONFIDENCE_LEVELS = (99, 95, 90)


def percentile_indices(n: int, confidence: float) -> tuple[int, int]:
    """0-based positions of the lower and upper bound among ``n`` sorted values.

    The Perl scorer's rule (spec §6.5), no interpolation:
    ``lo = floor(n * (100 - c) * 0.5 / 100)``, ``hi = floor(n * (1 - that)) - 1``,
    computed in doubles in that order.  n = 100 at 95 % gives (2, 96).
    """
    low_fraction = (100 - confidence) * 0.5 / 100
    high_fraction = 1 - low_fraction
    return int(math.floor(n * low_fraction)), int(math.floor(n * high_fraction)) - 1
