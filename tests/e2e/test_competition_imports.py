"""The leaderboard's scoring program imports what it uses (a
submission is to be scored within 1.5x of a direct run): on a FEVER or SciFact
submission, zipped or not, none of numpy, pandas, scipy or matplotlib, nor
PyYAML (scoring.yaml is JSON; policy.yaml keeps to policyfile's subset),
dataclasses, inspect, typing, html (the page escapes by itself) or datetime."""
from __future__ import annotations

import os
import subprocess
import sys
import zipfile

import pytest

from scorer.competition.__main__ import main

from places import ROOT
from startup import not_at_start_up

FEVER = os.path.join(ROOT, "fixtures", "fever", "blind")
SCIFACT = os.path.join(ROOT, "fixtures", "scifact", "basic")
HEAVY = ("numpy", "pandas", "scipy", "matplotlib")
UNWANTED = HEAVY + ("yaml", "dataclasses", "inspect", "typing", "html", "datetime")


def platform(tmp_path, task: str, gold: str, predictions: str, zipped: bool):
    """INPUT (ref: the bundle's reference_data; res: the submission) for this task."""
    bundle = str(tmp_path / "bundle.zip")
    assert main(["-bundle", bundle, "-start", "2026-12-01", "-policy",
                 os.path.join(ROOT, "configs", f"{task}.yaml"), gold]) == 0
    with zipfile.ZipFile(bundle) as z:
        members = [name for name in z.namelist() if name.startswith("reference_data/")]
        z.extractall(tmp_path / "unpacked", members)
    os.makedirs(tmp_path / "input" / "res")
    os.rename(tmp_path / "unpacked" / "reference_data", tmp_path / "input" / "ref")
    if zipped:
        with zipfile.ZipFile(tmp_path / "input" / "res" / "upload.zip", "w") as z:
            z.write(predictions, "predictions.jsonl")
    else:
        with open(predictions, "rb") as source, \
                open(tmp_path / "input" / "res" / "predictions.jsonl", "wb") as target:
            target.write(source.read())
    return tmp_path / "input"


@pytest.mark.parametrize("task, gold, predictions, zipped", [
    ("fever", os.path.join(FEVER, "actual.jsonl"), os.path.join(FEVER, "predictions.jsonl"),
     True),
    ("scifact", os.path.join(SCIFACT, "gold.jsonl"), os.path.join(SCIFACT, "predictions.jsonl"),
     False),
])
def test_the_scoring_program_imports_none_of_them(tmp_path, task, gold, predictions, zipped):
    input_dir = platform(tmp_path, task, gold, predictions, zipped)
    output_dir = tmp_path / "output"
    script = (f"import sys; from scorer.competition.__main__ import main; "
              f"status = main([{str(input_dir)!r}, {str(output_dir)!r}]); "
              f"print(status, *sorted(m for m in {not_at_start_up(UNWANTED)!r} "
              f"if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["0"]
    # The record is real: the program scored and wrote its page.
    assert (output_dir / "scores.json").stat().st_size > 0
    assert "What counted" in (output_dir / "detailed_results.html").read_text(encoding="utf-8")
