#!/usr/bin/env python3
"""Time the claim tasks beside their reference scorers, whole process each.

    python bench/claims_bench.py [--repeat N] [--large-repeat N] [--sizes LIST]
                                 [--fever-scorer DIR] [--scifact-evaluator DIR]
                                 [--parity DIR] [--tools DIR]

Each comparison runs ``python -m scorer -policy configs/TASK.yaml`` (every
report written, FEVER's .debug too) and the reference on the same files:
``fever.scorer.fever_score`` of a checkout of sheffieldnlp/fever-scorer
(DIR/src/fever/scorer.py, the two files read with ``json.loads`` per line as
its own tests read them), ``evaluator/eval.py`` of a checkout of
allenai/scifact-evaluator.  The sizes and their targets (ours / theirs, CPU):

- ``fever-real``: the 9,999 real claims of PARITY/fever/real (max_evidence 5): 0.7
  (start-up is where the claim tasks lose at their real sizes);
- ``fever-100k``: 100,029 claims of ``gen_fever.py --seed 5 --random 100000``
  (../shared/tools): 0.33, and a lower peak memory than the reference's;
- ``fever-1m``: 1,000,029 claims of the same generator: 0.33 and under 1 GiB
  (--large-repeat runs, 1 by default: the reference takes about a minute);
- ``fever-1m-bootstrap``: ours alone with ``-bootstrap 1000 -seed 7``, judged
  against the reference's time without it: 0.33 and under 1 GiB;
- ``scifact-1k``: the 1,000 synthetic claims of PARITY/scifact/synthetic: 1.0
  (start-up, as fever-real);
- ``scifact-20k``: 20,000 claims of ``gen_scifact.py --seed 5``: 0.5.

Generated files are made once, under bench/out/claims-data.  Each line shows
our CPU seconds (user + system of the child) and peak memory, the
reference's, the ratio of the median CPU times (the two processes taking
turns, --repeat runs each; the best run's CPU in brackets), the target and
whether it is met, and whether the numbers are equal.  Exit status 1 when
our scorer failed or its numbers differ from the reference's (a missed
target is shown, not an error).  Both processes use this interpreter, with
bytecode cached; the references are read where they are, never copied.  A
reference that is not found is said so and its comparison skipped: the bench
never needs them.  Defaults: $FEVER_SCORER_DIR or ../fever-scorer,
$SCIFACT_EVALUATOR_DIR or ../scifact-evaluator, ../shared/parity,
../shared/tools (beside the project).
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
#: Per size: (task, ratio of CPU times (ours / the reference's) to stay within,
#: the most peak memory in MiB (None: below the reference's; 0: no bound)).
SIZES = {
    "fever-real": ("fever", 0.7, 0),
    "fever-100k": ("fever", 0.33, None),
    "fever-1m": ("fever", 0.33, 1024),
    "fever-1m-bootstrap": ("fever", 0.33, 1024),
    "scifact-1k": ("scifact", 1.0, 0),
    "scifact-20k": ("scifact", 0.5, 0),
}
DATA = os.path.join(HERE, "out", "claims-data")

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


def our_command(task: str, files: list, extra: tuple = ()) -> list:
    return [sys.executable, "-m", "scorer", "-policy",
            os.path.join(ROOT, "configs", f"{task}.yaml"), *extra, "-output_file", "run",
            "-error_file", "run.errlog", *files]


def generated(name: str, tools: str) -> Optional[list]:
    """The files of a generated size (made once), or None without the generators."""
    folder = os.path.join(DATA, name)
    if name.startswith("fever"):
        claims = 100_000 if name == "fever-100k" else 1_000_000
        files = [os.path.join(folder, "actual.jsonl"), os.path.join(folder, "predictions.jsonl")]
        command = [sys.executable, os.path.join(tools, "gen_fever.py"), "--seed", "5",
                   "--random", str(claims), "--out", folder]
    else:
        files = [os.path.join(folder, "gold.jsonl"), os.path.join(folder, "predictions.jsonl")]
        command = [sys.executable, os.path.join(tools, "gen_scifact.py"), "--seed", "5",
                   "--claims", "20000", "--gold", files[0], "--predictions", files[1]]
    if all(os.path.isfile(path) for path in files):
        return files
    if not os.path.isfile(command[1]):
        return None
    progress(f"{name}: generating the files (once)")
    os.makedirs(folder, exist_ok=True)
    import subprocess
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return files


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


def line(size: str, mine: tuple, theirs: Optional[tuple], note: str) -> tuple:
    """(text, did the scorer fail?) from (median, best) Measurements; a missed
    target is shown, not a failure."""
    _task, target, memory = SIZES[size]
    (median, best) = mine
    text = f"{size:19} scorer {median.cpu_seconds:6.2f} s cpu (best {best.cpu_seconds:5.2f}) " \
           f"{median.peak_mib:5.0f} MiB"
    if median.status != "ok":
        return f"{text}  SCORER {median.status}", True
    if theirs is None:
        return f"{text}  {note}", False
    (their_median, their_best) = theirs
    if their_median.status != "ok":
        return f"{text}  reference {their_median.status}", False
    ratio = median.cpu_seconds / their_median.cpu_seconds
    bound = their_median.peak_mib if memory is None else memory
    within = ratio <= target and (not bound or median.peak_mib < bound)
    memory_target = "" if not bound else \
        f", peak < {'the reference' if memory is None else f'{bound} MiB'}"
    return (f"{text} | reference {their_median.cpu_seconds:6.2f} s cpu (best "
            f"{their_best.cpu_seconds:5.2f}) {their_median.peak_mib:5.0f} MiB | ratio {ratio:4.2f} "
            f"cpu (target <= {target:g}{memory_target}: {'met' if within else 'MISSED'}); "
            f"{note}", False)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=5,
                        help="runs per process (the median judged, the best shown too)")
    parser.add_argument("--large-repeat", type=int, default=1,
                        help="runs per process at a million claims")
    parser.add_argument("--sizes", default=",".join(SIZES),
                        help=f"comma-separated, of {', '.join(SIZES)}")
    parser.add_argument("--fever-scorer", metavar="DIR",
                        default=os.environ.get("FEVER_SCORER_DIR") or beside("fever-scorer"))
    parser.add_argument("--scifact-evaluator", metavar="DIR",
                        default=os.environ.get("SCIFACT_EVALUATOR_DIR")
                        or beside("scifact-evaluator"))
    parser.add_argument("--parity", metavar="DIR", default=os.path.join(beside("shared"),
                                                                         "parity"))
    parser.add_argument("--tools", metavar="DIR", default=os.path.join(beside("shared"),
                                                                        "tools"))
    options = parser.parse_args()
    cache_bytecode()
    markers = {"fever": os.path.join(options.fever_scorer, "src", "fever", "scorer.py"),
               "scifact": os.path.join(options.scifact_evaluator, "evaluator", "eval.py")}
    repositories = {"fever": ("sheffieldnlp/fever-scorer", "--fever-scorer",
                              options.fever_scorer, fever_reference, fever_numbers),
                    "scifact": ("allenai/scifact-evaluator", "--scifact-evaluator",
                                options.scifact_evaluator, scifact_reference, scifact_numbers)}
    for task, marker in markers.items():
        if os.path.isfile(marker):
            # The reference's bytecode too, as an installed package has it.
            import compileall
            compileall.compile_dir(os.path.dirname(marker), quiet=1)
    lines, failures = [], 0
    reference_times: dict = {}
    for size in options.sizes.split(","):
        task = SIZES[size][0]
        if size == "fever-real":
            files = [os.path.join(options.parity, "fever", "real", name)
                     for name in ("actual.jsonl", "predictions.jsonl")]
        elif size == "scifact-1k":
            files = [os.path.join(options.parity, "scifact", "synthetic", name)
                     for name in ("gold.jsonl", "predictions.jsonl")]
        else:
            files = generated(size.replace("-bootstrap", ""), options.tools)
        if not files or not all(os.path.isfile(path) for path in files):
            lines.append(f"{size:19} skipped: its files are not there (--parity, --tools)")
            continue
        repository, switch, directory, reference, reference_numbers = repositories[task]
        extra = ("-bootstrap", "1000", "-seed", "7") if size.endswith("-bootstrap") else ()
        commands = {f"{size}-scorer": our_command(task, files, extra)}
        base = size.replace("-bootstrap", "")
        with_reference = os.path.isfile(markers[task]) and not extra
        if with_reference:
            commands[f"{size}-reference"] = reference(directory, files)
            progress(f"{size}: scorer and reference, taking turns")
        else:
            progress(f"{size}: scorer")
        repeat = options.large_repeat if "1m" in size else options.repeat
        results = timed_together(commands, repeat)
        *mine, out = results[f"{size}-scorer"]
        theirs = None
        if with_reference:
            *theirs, their_out = results[f"{size}-reference"]
            reference_times[size] = theirs
            my_numbers = our_numbers(out) if mine[0].status == "ok" else None
            their_numbers = reference_numbers(their_out) if theirs[0].status == "ok" else None
            note = same_numbers(my_numbers, their_numbers)
        elif extra and base in reference_times:
            theirs = reference_times[base]
            note = f"against the reference's time on {base} (it has no bootstrap)"
        else:
            note = (f"no reference to compare with: {markers[task]} not found (a checkout "
                    f"of {repository}; give its directory with {switch})")
        text, failed = line(size, mine, theirs, note)
        lines.append(text)
        failures += failed or note.startswith("DIFFER")
    print()
    print("\n".join(lines))
    print(f"\ncpu: user + system seconds of the whole process, median of {options.repeat} runs "
          f"({options.large_repeat} at a million claims), the scorer and the reference taking "
          f"turns, the best run's in brackets; MiB: peak resident memory; ratio: ours / the "
          f"reference's median cpu; {sys.executable}; load average "
          f"{os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
