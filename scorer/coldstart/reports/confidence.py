"""The bootstrap reports: ``.sample`` (the samples as read), ``.samplescores``
(every code for every sample) and ``.confidence`` (percentile intervals at
99/95/90 %, mean and full-data score per code) (spec §6.3-§6.6).
"""
from __future__ import annotations

from scorer.stats import CONFIDENCE_LEVELS, percentile_indices

CONFIDENCE_HEADER = " " * 22 + "99%(   95%(   90%(   mean   scr.   )90%   )95%   )99%\n"


def sample_lines(samples):
    """``.sample``: each sample with the first SF id of each drawn element
    (spec §7.27), line by line."""
    return samples.lines(render=lambda element: f"{element.group}:"
                                               f"{element.members[0] if element.members else ''}")


def render_samplescores(numbers, codes, values: dict, runid: str) -> str:
    out = ["Sample#" + "".join(f" {code}" for code in codes) + " #RUNID\n"]
    for i, number in enumerate(numbers):
        cells = "".join("               %0.4f" % float(values[code][i] or 0) for code in codes)
        out.append("%6d" % number + cells + f" #{runid}\n")
    return "".join(out)


def interval_line(code: str, texts: list, original) -> str:
    """One ``.confidence`` line.  Values sort numerically; a missing value
    counts as 0, sorts before a genuine 0.0000 and prints empty (spec
    decision 8)."""
    n = len(texts)
    order = sorted(range(n), key=lambda i: (float(texts[i] or 0), texts[i] is not None, i))
    ordered = [texts[i] for i in order]
    total = 0.0
    for text in texts:
        total += float(text or 0)
    mean = "%0.4f" % (total / n)
    scr = "%0.4f" % float(original) if original is not None else "%6s" % "-"
    bounds = {c: percentile_indices(n, c) for c in CONFIDENCE_LEVELS}

    def at(index):
        return ordered[index] if ordered[index] is not None else ""

    low = [at(bounds[c][0]) for c in CONFIDENCE_LEVELS]
    high = [at(bounds[c][1]) for c in reversed(CONFIDENCE_LEVELS)]
    return " ".join([code, *low, mean, scr, *high]) + "\n"


def render_confidence(codes, values: dict, originals: dict) -> str:
    out = [CONFIDENCE_HEADER]
    if values and any(values[code] for code in codes):
        for code in sorted(codes):
            out.append(interval_line(code, values[code], originals.get(code)))
    return "".join(out)
