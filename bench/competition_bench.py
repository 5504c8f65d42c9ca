#!/usr/bin/env python3
"""Time the leaderboard's scoring program against a direct run.

    python bench/competition_bench.py [--claims 10000] [--repeat 5]

A FEVER gold file and a submission of CLAIMS claims are generated (seeded,
cached under bench/out/); a bundle is made with ``python -m scorer.competition
-bundle``, unpacked, and its metadata.yaml command is run on the submission
zipped, as the platform would.  The direct run is ``python -m scorer
-policy configs/fever.yaml -output_file run GOLD PREDICTIONS``.  Target:
the scoring program within 1.5x of the direct run.
"""
from __future__ import annotations

import argparse
import compileall
import json
import os
import random
import shlex
import shutil
import sys
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

from run_bench import OUT, best_of, cache_bytecode, measure  # noqa: E402

LABELS = ("SUPPORTS", "REFUTES", "NOT ENOUGH INFO")


def make_fever(directory: str, claims: int, seed: int = 1) -> tuple:
    gold_path = os.path.join(directory, "actual.jsonl")
    predictions_path = os.path.join(directory, "predictions.jsonl")
    if os.path.exists(predictions_path):
        return gold_path, predictions_path
    os.makedirs(directory, exist_ok=True)
    rng = random.Random(seed)
    with open(gold_path, "w", encoding="utf-8") as gold, \
            open(predictions_path, "w", encoding="utf-8") as predictions:
        for claim in range(claims):
            label = rng.choice(LABELS)
            pages = [f"Page_{rng.randrange(5000)}" for _ in range(3)]
            if label == "NOT ENOUGH INFO":
                evidence = [[[claim, None, None, None]]]
            else:
                evidence = [[[claim, g, pages[g], rng.randrange(20)]
                             for g in range(rng.randint(1, 2))] for _ in range(rng.randint(1, 2))]
            gold.write(json.dumps({"id": claim, "verifiable": "NOT VERIFIABLE" if label ==
                                   "NOT ENOUGH INFO" else "VERIFIABLE", "label": label,
                                   "claim": f"Claim {claim}.", "evidence": evidence}) + "\n")
            predicted = [[rng.choice(pages), rng.randrange(20)] for _ in range(rng.randint(0, 6))]
            predictions.write(json.dumps({"id": claim, "predicted_label": rng.choice(LABELS),
                                          "predicted_evidence": predicted}) + "\n")
    return gold_path, predictions_path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--claims", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    cache_bytecode()
    python = sys.executable
    work = os.path.join(OUT, f"competition-fever-{args.claims}")
    gold, predictions = make_fever(work, args.claims)
    policy = os.path.join(ROOT, "configs", "fever.yaml")

    platform = os.path.join(work, "platform")
    shutil.rmtree(platform, ignore_errors=True)
    os.makedirs(platform)
    bundle = os.path.join(platform, "bundle.zip")
    made = measure([python, "-m", "scorer.competition", "-bundle", bundle, "-policy", policy,
                    gold], work, os.path.join(platform, "bundle"))
    if made.status != "ok":
        print(f"the bundle failed: {made.status}; see {platform}/bundle.stderr")
        return 1
    with zipfile.ZipFile(bundle) as z:
        z.extractall(os.path.join(platform, "unpacked"))
    program = os.path.join(platform, "unpacked", "scoring_program")
    # Its own copy of scorer, compiled as the direct run's is (cache_bytecode):
    # with PYTHONDONTWRITEBYTECODE set, each timed run would compile it anew
    # (about 45 ms here).  A platform that unpacks the bundle for every
    # submission pays that too; the target compares the programs, not that.
    compileall.compile_dir(program, quiet=1)
    reference = os.path.join(platform, "unpacked", "reference_data")
    res = os.path.join(platform, "input", "res")
    os.makedirs(res)
    os.symlink(reference, os.path.join(platform, "input", "ref"))
    with zipfile.ZipFile(os.path.join(res, "submission.zip"), "w", zipfile.ZIP_DEFLATED) as z:
        z.write(predictions, "predictions.jsonl")
    with open(os.path.join(program, "metadata.yaml"), encoding="utf-8") as f:
        command = next(line for line in f if line.startswith("command:"))[len("command:"):]
    direct, scored = [], []
    for attempt in range(args.repeat):
        direct_dir = os.path.join(platform, f"direct{attempt}")
        os.makedirs(direct_dir)
        direct.append(measure([python, "-m", "scorer", "-policy", policy, "-output_file",
                               os.path.join(direct_dir, "run"), gold, predictions], work,
                              os.path.join(direct_dir, "log")))
        output = os.path.join(platform, f"output{attempt}")
        words = shlex.split(command.replace("$program", program).replace(
            "$input", os.path.join(platform, "input")).replace("$output", output))
        scored.append(measure([python if words[0] == "python3" else words[0], *words[1:]],
                              platform, output + ".log"))
    direct_best, scored_best = best_of(direct), best_of(scored)
    ratio = scored_best.seconds / direct_best.seconds
    # CPU seconds too: on a loaded machine (2 cores shared) wall times of a few
    # tenths swing by tens of percent, CPU times much less.
    print(f"FEVER, {args.claims} claims (best of {args.repeat}: wall and CPU seconds; "
          f"peak memory; load average {os.getloadavg()[0]:.2f})")
    print(f"  python -m scorer (direct)         {direct_best.seconds:6.3f} s  "
          f"{direct_best.cpu_seconds:6.3f} s CPU  {direct_best.peak_mib:5.0f} MiB  "
          f"{direct_best.status}")
    print(f"  scoring program (zipped upload)   {scored_best.seconds:6.3f} s  "
          f"{scored_best.cpu_seconds:6.3f} s CPU  {scored_best.peak_mib:5.0f} MiB  "
          f"{scored_best.status}")
    print(f"  ratio {ratio:.2f} wall, {scored_best.cpu_seconds / direct_best.cpu_seconds:.2f} "
          f"CPU (target: at most 1.5, wall)")
    return 0 if ratio <= 1.5 and scored_best.status == "ok" else 1


if __name__ == "__main__":
    sys.exit(main())
