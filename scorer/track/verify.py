"""``python -m scorer.track -verify leaderboard.json FILES...``: recompute a
published leaderboard from the files named (with the same switches) and say
whether every number is reproduced exactly.

Every row of the published leaderboard.json is matched to the recomputed
run of its name, and every number compared exactly (the JSON holds each
double's shortest text, which reads back as the same double).  Each number
that differs is named (run, column, published, recomputed), then the part
of the signature that differs (track.params beside the leaderboard: the
version, the policy digest, the samples, a switch such as the seed or the
trials), and the gold digest where a shared file's SHA-256 is not the one
recorded.  Exit status 0 when every number is reproduced, 1 when one is not,
255 on an error (a file that cannot be read).
"""
from __future__ import annotations

import os

from scorer.textfile import fingerprints
from scorer.track import published as published_module
from scorer.track.published import same_number

#: What each signature part is, for the reader.
PART_NAMES = {"scorer": "the version", "task": "the task", "policy": "the policy digest",
              "metric": "the headline metric (-metric)", "samples": "the samples' digest",
              "B": "the number of samples (-bootstrap)", "compare": "-compare / -baseline",
              "correction": "-correction", "trials": "-trials", "seed": "-seed",
              "clusters": "-clusters", "expand": "-expand", "queries": "-queries"}


def differences(published, result, shared: list) -> tuple:
    """(numbers that differ, signature parts that differ, gold notes): texts."""
    new = {row["run"]: row for row in published_module.new_rows(result)}
    numbers = []
    for row in published.rows:
        run = row["run"]
        again = new.get(run)
        if again is None:
            numbers.append(f"run {run}: published, not among the runs recomputed")
            continue
        for column, value in row.items():
            if column == "run":
                continue
            if column not in again:
                numbers.append(f"run {run}, {column}: published {value!r}, not recomputed")
            elif not same_number(value, again[column]):
                numbers.append(f"run {run}, {column}: published {value!r}, recomputed "
                               f"{again[column]!r}")
    for run in new:
        if run not in {row["run"] for row in published.rows}:
            numbers.append(f"run {run}: recomputed, not in the published leaderboard")
    parts = []
    if published.signature:
        old = published.signature_parts()
        now = published_module.signature_parts(result.signature)
        for name in dict.fromkeys([*old, *now]):
            if old.get(name) != now.get(name):
                parts.append(f"{PART_NAMES.get(name, name)} ({name}): published "
                             f"{old.get(name, '(none)')}, now {now.get(name, '(none)')}")
    else:
        parts.append("no track.params beside the leaderboard: the signature is not compared")
    gold = []
    recorded = published.shared
    now_files = fingerprints(shared)
    if recorded and len(recorded) != len(now_files):
        gold.append(f"the gold digest: the published track shared {len(recorded)} file(s), "
                    f"{len(now_files)} are given")
    for (old_path, _s, old_digest), (new_path, _n, new_digest) in zip(recorded, now_files):
        if old_digest != new_digest:
            gold.append(f"the gold digest: {os.path.basename(new_path)} has SHA-256 "
                        f"{new_digest}; the published track's {old_path} had {old_digest}")
    return numbers, parts, gold


def report(numbers: list, parts: list, gold: list, leaderboard: str) -> tuple:
    """(exit status, the text to print)."""
    if not numbers:
        lines = [f"{leaderboard}: every number reproduced exactly"]
        lines += [f"NOTE: {text}" for text in parts + gold]
        return 0, "\n".join(lines) + "\n"
    lines = [f"{leaderboard}: {len(numbers)} number(s) not reproduced:"]
    lines += [f"  {text}" for text in numbers]
    if parts or gold:
        lines.append("What differs in what was scored:")
        lines += [f"  {text}" for text in gold + parts]
    else:
        lines.append("The signature and the gold are the same: the files named differ, or "
                     "the leaderboard was edited.")
    return 1, "\n".join(lines) + "\n"
