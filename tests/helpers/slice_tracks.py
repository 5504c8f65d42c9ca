"""Small random tracks of every claim task and classification, for -slices:
a gold (each line with a 'domain' beside the task's own keys) and runs that
answer it more or less well, and the same track cut down to a set of units
(the gold's lines and every run's predictions of those units alone)."""
from __future__ import annotations

import json
import random
from pathlib import Path

from places import ROOT

TASKS = ("scifact", "fever", "classification")
DOMAINS = ("bio", "news", "web")


def policy(task: str) -> str:
    return str(ROOT / "configs" / f"{task}.yaml")


def _scifact(rng: random.Random, n: int, runs: int) -> tuple:
    gold, predictions = [], [[] for _ in range(runs)]
    for i in range(1, n + 1):
        label = rng.choice(("SUPPORT", "CONTRADICT", None))
        docs = [100 * i + d for d in range(rng.randint(1, 2))]
        evidence = {} if label is None else {
            str(doc): [{"sentences": sorted(rng.sample(range(8), rng.randint(1, 2))),
                        "label": label}] for doc in docs}
        gold.append({"id": i, "claim": f"Claim {i}.", "evidence": evidence,
                     "cited_doc_ids": docs, "domain": rng.choice(DOMAINS)})
        for r in range(runs):
            answer = {}
            if rng.random() < 0.3 + 0.15 * r:
                for doc in docs[:rng.randint(1, len(docs))]:
                    answer[str(doc)] = {"sentences": sorted(rng.sample(range(8), rng.randint(1, 3))),
                                        "label": label if label and rng.random() < 0.7
                                        else rng.choice(("SUPPORT", "CONTRADICT"))}
            predictions[r].append({"id": i, "evidence": answer})
    return gold, predictions


_FEVER = ("SUPPORTS", "REFUTES", "NOT ENOUGH INFO")


def _fever(rng: random.Random, n: int, runs: int) -> tuple:
    gold, predictions = [], [[] for _ in range(runs)]
    for i in range(1, n + 1):
        label = rng.choice(_FEVER)
        page = f"Page{i}"
        if label == "NOT ENOUGH INFO":
            evidence = [[[i, None, None, None]]]
            sentences = []
        else:
            sentences = sorted(rng.sample(range(6), rng.randint(1, 2)))
            evidence = [[[i, 10 * i + s, page, s] for s in sentences]]
        gold.append({"id": i, "verifiable": "NOT VERIFIABLE" if label == _FEVER[2]
                     else "VERIFIABLE", "label": label, "claim": f"Claim {i}.",
                     "evidence": evidence, "domain": rng.choice(DOMAINS)})
        for r in range(runs):
            right = rng.random() < 0.4 + 0.15 * r
            guess = label if right else rng.choice(_FEVER)
            found = [[page, s] for s in sentences if rng.random() < 0.6 + 0.1 * r]
            found += [[page, 7]] if rng.random() < 0.3 else []
            predictions[r].append({"id": i, "predicted_label": guess,
                                   "predicted_evidence": found})
    return gold, predictions


_CLASSES = ("positive", "negative", "neutral")


def _classification(rng: random.Random, n: int, runs: int) -> tuple:
    gold, predictions = [], [[] for _ in range(runs)]
    for i in range(1, n + 1):
        label = rng.choice(_CLASSES)
        gold.append({"id": f"t{i:03d}", "label": label, "domain": rng.choice(DOMAINS)})
        for r in range(runs):
            guess = label if rng.random() < 0.4 + 0.15 * r else rng.choice(_CLASSES)
            predictions[r].append({"id": f"t{i:03d}", "label": guess})
    return gold, predictions


MAKERS = {"scifact": _scifact, "fever": _fever, "classification": _classification}


def unit_id(task: str, record: dict) -> str:
    return str(record["id"])


def write_track(folder: Path, task: str, gold: list, predictions: list,
                keep=None) -> list:
    """The track's files (gold first, then a run a file), keeping the units
    ``keep`` allows (None: all)."""
    folder.mkdir(parents=True, exist_ok=True)
    kept = (lambda record: True) if keep is None else \
        (lambda record: unit_id(task, record) in keep)
    paths = [folder / "gold.jsonl"]
    paths[0].write_text("".join(json.dumps(g) + "\n" for g in gold if kept(g)))
    for r, rows in enumerate(predictions):
        path = folder / f"team{r}.jsonl"
        path.write_text("".join(json.dumps(p) + "\n" for p in rows if kept(p)))
        paths.append(path)
    return [str(p) for p in paths]


def make(task: str, seed: int = 7, n: int = 40, runs: int = 4) -> tuple:
    """``(gold, predictions per run)`` of a random track."""
    return MAKERS[task](random.Random(seed), n, runs)
