#!/usr/bin/env python3
"""Time the claim tasks beside their reference scorers, whole process each.

    python bench/claims_bench.py [--repeat N] [--fever-scorer DIR]
                                 [--scifact-evaluator DIR] [--parity DIR]

- FEVER: the 9,999 real claims of PARITY/fever/real (max_evidence 5), scored by
  ``python -m scorer -policy configs/fever.yaml`` (every report written) and
  by ``fever.scorer.fever_score`` of a checkout of sheffieldnlp/fever-scorer
  (DIR/src/fever/scorer.py), the two files read as its own tests read them;
  target: no slower than the reference.
- SciFact: the 1,000 synthetic claims of PARITY/scifact/synthetic, scored by
  ``python -m scorer -policy configs/scifact.yaml`` and by ``eval.py`` of a
  checkout of allenai/scifact-evaluator (DIR/evaluator/eval.py); target:
  within 2x of it.

Each line shows our wall and CPU seconds (user + system of the child) and the
reference's, the median of --repeat runs, the two processes taking turns, with
the best run's CPU in brackets; the ratios (ours / theirs) and whether the
numbers are equal.  The ratio judged against the target is that of the median
CPU times, as the issue measured: other work on the machine inflates wall
times, and the best of a few runs favours the process whose time varies
more (the FEVER reference's varies by a fifth from run to run, with its
garbage collector and the freeing of every object at exit; ours by 3 %).
Exit status 1 when our scorer failed or its numbers differ from the
reference's (a missed target is shown, not an error).
Both processes use this interpreter; the references are read where they are,
never copied.  A reference that is not found is said so and its comparison
skipped: the bench never needs them.
Defaults: $FEVER_SCORER_DIR or ../fever-scorer, $SCIFACT_EVALUATOR_DIR or
../scifact-evaluator, ../shared/parity (beside the project).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from typing import Optional

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

from run_bench import (Measurement, best_of, cache_bytecode, fresh_directory, measure,  # noqa: E402
                       progress)

OUT = os.path.join(HERE, "out", "claims")
#: Ratio of CPU times (ours / the reference's) each task must stay within.
TARGETS = {"fever": 1.0, "scifact": 2.0}

#: The reference's whole process for FEVER, as its tests use it: read both
#: files with json.loads per line, call fever_score, print the five numbers.
FEVER_REFERENCE = """\
import json, sys
sys.path[:0] = sys.argv[1:3]
from fever.scorer import fever_score
actual = [json.loads(line) for line in open(sys.argv[3])]
predictions = [json.loads(line) for line in open(sys.argv[4])]
print(json.dumps(fever_score(predictions, actual, max_evidence=5)))
"""
FEVER_NAMES = ("strict_score", "label_accuracy", "precision", "recall", "f1")


def beside(name: str) -> str:
    return os.path.join(os.path.dirname(ROOT), name)


def six_shim() -> str:
    """A directory holding ``six`` for the FEVER reference (it uses only
    six.string_types), when this interpreter has none."""
    directory = os.path.join(OUT, "shim")
    try:
        import six  # noqa: F401
        return directory
    except ImportError:
        os.makedirs(directory, exist_ok=True)
        with open(os.path.join(directory, "six.py"), "w", encoding="utf-8") as f:
            f.write("string_types = (str,)\n")
        return directory


def warmed(command: list, label: str) -> str:
    """The output directory of ``command``, after one run not counted that
    may write the bytecode caches (even where PYTHONDONTWRITEBYTECODE is set:
    without them every run compiles every module, which is not what a
    user's runs do)."""
    out = os.path.join(OUT, label)
    fresh_directory(out)
    env = {name: value for name, value in os.environ.items()
           if name != "PYTHONDONTWRITEBYTECODE"}
    measure(command, out, os.path.join(out, "process"), env=env)
    return out


def timed_together(commands: dict, repeat: int) -> dict:
    """{label: (median Measurement, best Measurement, output directory)} of ``repeat`` runs of
    each command, the commands taking turns (first one first, then the other,
    and so on): a machine that slows down or speeds up during the bench
    weighs on both alike."""
    outs = {label: warmed(command, label) for label, command in commands.items()}
    runs: dict = {label: [] for label in commands}
    order = list(commands)
    for round_number in range(repeat):
        for label in (order if round_number % 2 == 0 else order[::-1]):
            fresh_directory(outs[label])
            runs[label].append(measure(commands[label], outs[label],
                                       os.path.join(outs[label], "process")))
    return {label: (median_of(runs[label]), best_of(runs[label]), outs[label])
            for label in commands}


def median_of(runs: list) -> Measurement:
    failed = [run for run in runs if run.status != "ok"]
    if failed:
        return failed[0]
    return Measurement(statistics.median(r.seconds for r in runs),
                       statistics.median(r.cpu_seconds for r in runs),
                       max(r.peak_mib for r in runs), "ok")


def our_command(task: str, files: list) -> list:
    return [sys.executable, "-m", "scorer", "-policy",
            os.path.join(ROOT, "configs", f"{task}.yaml"), "-output_file", "run",
            "-error_file", "run.errlog", *files]


def our_numbers(out: str) -> dict:
    with open(os.path.join(out, "run.json"), encoding="utf-8") as f:
        return json.load(f)["metrics"]


def fever_reference(directory: str, files: list) -> list:
    return [sys.executable, "-c", FEVER_REFERENCE, os.path.join(directory, "src"), six_shim(),
            *files]


def fever_numbers(out: str) -> dict:
    with open(os.path.join(out, "process.stdout"), encoding="utf-8") as f:
        return dict(zip(FEVER_NAMES, json.loads(f.read())))


def scifact_reference(directory: str, files: list) -> list:
    return [sys.executable, os.path.join(directory, "evaluator", "eval.py"),
            "--labels_file", files[0], "--preds_file", files[1],
            "--metrics_output_file", "metrics.json", "--verbose"]


def scifact_numbers(out: str) -> dict:
    with open(os.path.join(out, "metrics.json"), encoding="utf-8") as f:
        return json.load(f)


def same_numbers(mine: Optional[dict], theirs: Optional[dict]) -> str:
    if mine is None or theirs is None:
        return "-"
    unequal = [name for name, value in theirs.items() if mine.get(name) != value]
    return "numbers equal" if not unequal else "DIFFER: " + ", ".join(unequal)


def line(task: str, mine: tuple, theirs: Optional[tuple], note: str) -> tuple:
    """(text, did the scorer fail?) from (median, best) Measurements; a missed
    target is shown, not a failure."""
    (median, best) = mine
    text = f"{task:8} scorer {median.seconds:5.2f} s wall {median.cpu_seconds:5.2f} s cpu " \
           f"(best {best.cpu_seconds:4.2f}) {median.peak_mib:4.0f} MiB"
    if median.status != "ok":
        return f"{text}  SCORER {median.status}", True
    if theirs is None:
        return f"{text}  {note}", False
    (their_median, their_best) = theirs
    if their_median.status != "ok":
        return f"{text}  reference {their_median.status}", False
    ratio = median.cpu_seconds / their_median.cpu_seconds
    verdict = "met" if ratio <= TARGETS[task] else "MISSED"
    return (f"{text} | reference {their_median.seconds:5.2f} s wall "
            f"{their_median.cpu_seconds:5.2f} s cpu (best {their_best.cpu_seconds:4.2f}) "
            f"{their_median.peak_mib:4.0f} MiB | ratio {median.seconds / their_median.seconds:4.2f} "
            f"wall {ratio:4.2f} cpu, {best.cpu_seconds / their_best.cpu_seconds:4.2f} of the "
            f"bests (target <= {TARGETS[task]:g}: {verdict}); {note}", False)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=5,
                        help="runs per process (the median judged, the best shown too)")
    parser.add_argument("--fever-scorer", metavar="DIR",
                        default=os.environ.get("FEVER_SCORER_DIR") or beside("fever-scorer"))
    parser.add_argument("--scifact-evaluator", metavar="DIR",
                        default=os.environ.get("SCIFACT_EVALUATOR_DIR")
                        or beside("scifact-evaluator"))
    parser.add_argument("--parity", metavar="DIR", default=os.path.join(beside("shared"),
                                                                         "parity"))
    options = parser.parse_args()
    cache_bytecode()
    cases = {
        "fever": ([os.path.join(options.parity, "fever", "real", name)
                   for name in ("actual.jsonl", "predictions.jsonl")],
                  os.path.join(options.fever_scorer, "src", "fever", "scorer.py"),
                  fever_reference, fever_numbers, options.fever_scorer,
                  "sheffieldnlp/fever-scorer", "--fever-scorer"),
        "scifact": ([os.path.join(options.parity, "scifact", "synthetic", name)
                     for name in ("gold.jsonl", "predictions.jsonl")],
                    os.path.join(options.scifact_evaluator, "evaluator", "eval.py"),
                    scifact_reference, scifact_numbers, options.scifact_evaluator,
                    "allenai/scifact-evaluator", "--scifact-evaluator"),
    }
    lines, failures = [], 0
    for task, (files, marker, reference, reference_numbers, directory, repository,
               switch) in cases.items():
        if not all(os.path.isfile(path) for path in files):
            lines.append(f"{task:8} skipped: the data {', '.join(files)} are not there")
            continue
        commands = {f"{task}-scorer": our_command(task, files)}
        if os.path.isfile(marker):
            commands[f"{task}-reference"] = reference(directory, files)
            progress(f"{task}: scorer and reference, taking turns")
        else:
            progress(f"{task}: scorer")
        results = timed_together(commands, options.repeat)
        *mine, out = results[f"{task}-scorer"]
        my_numbers = our_numbers(out) if mine[0].status == "ok" else None
        theirs = None
        if f"{task}-reference" in results:
            *theirs, their_out = results[f"{task}-reference"]
            their_numbers = reference_numbers(their_out) if theirs[0].status == "ok" else None
            note = same_numbers(my_numbers, their_numbers)
        else:
            note = (f"no reference to compare with: {marker} not found (a checkout of "
                    f"{repository}; give its directory with {switch})")
        text, failed = line(task, mine, theirs, note)
        lines.append(text)
        failures += failed or note.startswith("DIFFER")
    print()
    print("\n".join(lines))
    print(f"\nwall and cpu (user+system) seconds of the whole process, median of "
          f"{options.repeat} runs (the scorer and the reference taking turns), the best run's "
          f"cpu in brackets; "
          f"ratio: ours / the reference's, judged on the median cpu; {sys.executable}; load average "
          f"{os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
