"""A run imports what it uses: numpy, pandas and scipy serve the bootstrap,
the track and the pictures, not a plain scoring run (issue 11: their import
is most of a small run's time).  The claim modules (scorer/claims) import
neither ``dataclasses`` (which pulls in ``inspect``) nor ``typing`` on a
plain run: together they cost a SciFact run a fifth of the reference
evaluator's whole time."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures"
DEMO = FIXTURES / "coldstart" / "demo" / "input"
HEAVY = ("numpy", "pandas", "scipy", "matplotlib")


def heavy_modules_after(arguments: list, cwd: Path) -> tuple:
    """(exit status, the heavy modules imported) of ``python -m scorer ARGUMENTS``."""
    script = (f"import sys; from scorer.cli import main; status = main({arguments!r}); "
              f"print(status, *sorted(m for m in {HEAVY!r} if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=cwd)
    assert done.returncode == 0, done.stderr
    status, *modules = done.stdout.splitlines()[-1].split()
    return int(status), modules


@pytest.mark.parametrize("task, files", [
    ("scifact", [str(FIXTURES / "scifact" / "basic" / name)
                 for name in ("gold.jsonl", "predictions.jsonl")]),
    ("fever", [str(FIXTURES / "fever" / "inline" / "predictions.jsonl")]),
])
def test_plain_claim_runs_import_none(tmp_path, task, files):
    arguments = ["-policy", str(ROOT / "configs" / f"{task}.yaml"),
                 "-output_file", str(tmp_path / "run"), *files]
    assert heavy_modules_after(arguments, tmp_path) == (0, [])
    assert (tmp_path / "run.debug").stat().st_size > 0


def test_plain_coldstart_run_imports_numpy_only(tmp_path):
    arguments = ["-expand", "CSSF17", "-output_file", str(tmp_path / "run"),
                 "-error_file", str(tmp_path / "run.errlog"),
                 "ldc-query.xml", "qrel.txt", "DEMORUN.tab.txt"]
    assert heavy_modules_after(arguments, DEMO) == (0, ["numpy"])
    assert (tmp_path / "run.summary").stat().st_size > 0


def test_version_imports_none(tmp_path):
    assert heavy_modules_after(["-version"], tmp_path) == (0, [])


#: What the claim modules must not import on a plain run (start-up time).
SLOW_TO_IMPORT = ("dataclasses", "typing", "inspect")


def imports_by_claim_modules(arguments: list, cwd: Path) -> tuple:
    """(exit status, [(importer, module)]) of every import statement a module
    of scorer.claims executes during ``python -m scorer ARGUMENTS``: the
    statements themselves are recorded (through ``builtins.__import__``), so a
    module another one has imported already still counts."""
    script = f"""
import builtins, json, sys
seen, real = [], builtins.__import__
def record(name, globals=None, locals=None, fromlist=(), level=0):
    importer = (globals or {{}}).get("__name__") or ""
    if importer.startswith("scorer.claims") and level == 0:
        seen.append((importer, name))
    return real(name, globals, locals, fromlist, level)
builtins.__import__ = record
from scorer.cli import main
status = main({arguments!r})
print(json.dumps([status, seen]))
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=cwd)
    assert done.returncode == 0, done.stderr
    status, seen = json.loads(done.stdout.splitlines()[-1])
    return status, [tuple(pair) for pair in seen]


@pytest.mark.parametrize("task, files", [
    ("scifact", [str(FIXTURES / "scifact" / "basic" / name)
                 for name in ("gold.jsonl", "predictions.jsonl")]),
    ("fever", [str(FIXTURES / "fever" / "blind" / name)
               for name in ("actual.jsonl", "predictions.jsonl")]),
])
def test_plain_claim_runs_import_no_slow_module_from_claim_modules(tmp_path, task, files):
    arguments = ["-policy", str(ROOT / "configs" / f"{task}.yaml"),
                 "-output_file", str(tmp_path / "run"), *files]
    status, seen = imports_by_claim_modules(arguments, tmp_path)
    assert status == 0
    # The record is real: the claim modules' own imports are in it.
    assert ("scorer.claims.driver", "scorer.claims") in seen
    slow = [(importer, name) for importer, name in seen
            if name.split(".")[0] in SLOW_TO_IMPORT + HEAVY]
    assert slow == []
