"""Seeded fake tracks for the look package's tests and benchmark: TrackViews of
any size, shaped like the track command's tables (Cold Start or claims)."""
from __future__ import annotations

import itertools

import numpy as np
import pandas as pd

from scorer.display import plot
from scorer.display.view import TrackView

COLDSTART_METRICS = ("P", "R", "F1", "AP")
CLAIM_METRICS = ("abstract_label_only_precision", "abstract_label_only_recall",
                 "abstract_label_only_f1", "sentence_label_precision",
                 "sentence_label_recall", "sentence_label_f1")


def holm(p_values: np.ndarray) -> np.ndarray:
    """Holm's step-down adjustment (monotone, capped at 1)."""
    order = np.argsort(p_values, kind="stable")
    m = len(p_values)
    adjusted = np.empty(m)
    running = 0.0
    for position, index in enumerate(order):
        running = max(running, min(1.0, (m - position) * p_values[index]))
        adjusted[index] = running
    return adjusted


def fake_track(runs: int = 8, queries: int = 20, seed: int = 1, task: str = "coldstart",
               samples: bool = True, names=None) -> TrackView:
    """A track of ``runs`` runs over ``queries`` queries (claims), numbers drawn
    from ``default_rng(seed)``; ``names`` overrides the run names."""
    rng = np.random.default_rng(seed)
    names = list(names) if names is not None else [f"RUN{i:03d}" for i in range(1, runs + 1)]
    assert len(names) == runs
    claims = task != "coldstart"
    hops = ("ALL",) if claims else ("ALL", "0", "1")
    metrics = CLAIM_METRICS if claims else COLDSTART_METRICS
    query_ids = [f"claim{q}" if claims else f"CSSF17_ENG_{q:05d}" for q in range(queries)]
    skill = rng.uniform(0.1, 0.8, size=runs)

    # per query: one value per run x query x hop x metric, around the run's skill
    values = np.clip(skill[:, None, None, None]
                     + rng.normal(0, 0.25, size=(runs, queries, len(hops), len(metrics))), 0, 1)
    values = np.round(values, 6)
    index = pd.MultiIndex.from_product([names, query_ids, hops, metrics],
                                       names=["run", "query", "hop", "metric"])
    per_query = pd.DataFrame({"value": values.ravel()}, index=index).reset_index()

    headline_metric_index = metrics.index("AP" if not claims else "sentence_label_f1")
    scores = values[:, :, 0, headline_metric_index].mean(axis=1)
    order = np.argsort(-scores, kind="stable")
    half_width = rng.uniform(0.02, 0.08, size=runs)
    metric = "LDCMEAN_ALL_Macro_AP" if not claims else "sentence_label_f1"
    board = pd.DataFrame({
        "rank": np.arange(1, runs + 1),
        "run": [names[i] for i in order],
        "metric": metric,
        "score": scores[order],
        "ci95_low": (scores - half_width)[order] if samples else np.nan,
        "ci95_high": (scores + half_width)[order] if samples else np.nan,
    })
    for extra in (("SF_ALL_Micro_F1", "LDCMEAN_ALL_Micro_F1") if not claims
                  else ("abstract_label_only_f1",)):
        board[extra] = np.round(rng.uniform(0, 1, size=runs), 6)
    board["status"] = ["errors" if i == runs - 1 and runs > 3 else "ok" for i in range(runs)]

    significance = None
    if samples:
        pairs = list(itertools.combinations(range(runs), 2))
        ranked = list(order)
        rows = []
        for a, b in pairs:
            run_a, run_b = ranked[a], ranked[b]
            delta = scores[run_a] - scores[run_b]
            p = float(min(1.0, np.exp(-abs(delta) * 60) * rng.uniform(0.5, 1.5)))
            rows.append((names[run_a], names[run_b], metric, delta,
                         min(1.0, p * rng.uniform(0.8, 1.2)), p))
        significance = pd.DataFrame(rows, columns=["run_a", "run_b", "metric", "delta",
                                                   "p_bootstrap", "p_randomization"])
        significance["p_holm"] = holm(significance["p_randomization"].to_numpy())
        significance["significant"] = significance["p_holm"] < 0.05

    per_hop_rows = []
    variants = [("claims", "")] if claims else [
        (v, a) for v in ("SF", "LDCMAX", "LDCMEAN") for a in ("micro", "macro")]
    for name, s in zip(names, skill):
        for (variant, aggregate), hop, m in itertools.product(variants, hops, metrics):
            per_hop_rows.append((name, variant, aggregate, hop, m,
                                 round(float(np.clip(s + rng.normal(0, 0.05), 0, 1)), 6)))
    per_hop = pd.DataFrame(per_hop_rows, columns=["run", "variant", "aggregate", "hop",
                                                  "metric", "value"])
    extensions = ("summary", "json", "debug") if claims else ("sf", "summary", "ap", "debug")
    run_files = {name: [f"runs/{name}/run.{e}" for e in extensions] for name in names}
    return TrackView(
        metric=metric,
        metric_title="LDC-MEAN macro AP, all hops" if not claims else "sentence label F1",
        leaderboard=board, significance=significance, per_query=per_query, per_hop=per_hop,
        run_files=run_files,
        signature=f"scorer:0.1.0|{task}|policy:abc123|samples:{'1000' if samples else 'none'}|"
                  f"seed:{seed}",
        invocation=f"python -m scorer.track -output_dir out/{task} -bootstrap 1000 -seed {seed}",
        unit="claim" if claims else "query", units="claims" if claims else "queries")


#: Run names that HTML, SVG and the page's scripts must take as text.
ODD_NAMES = ["plain", "a&b", "<script>window.pwned=1</script>", 'quote"s\'', "ünï cødé",
             "--comment-->", "x" * 40]


def draw(view, directory, name="lb"):
    """The leaderboard picture of ``view`` in ``directory``: (png, svg, pdf) paths."""
    png, svg, pdf = (directory / f"{name}.{ext}" for ext in ("png", "svg", "pdf"))
    plot.leaderboard_plot(view, str(png), str(svg), str(pdf))
    return png, svg, pdf
