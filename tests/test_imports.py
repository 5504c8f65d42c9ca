"""A run imports what it uses: numpy, pandas and scipy serve the bootstrap,
the track and the pictures, not a plain scoring run (issue 11: their import
is most of a small run's time)."""
from __future__ import annotations

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
