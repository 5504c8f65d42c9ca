"""The benchmark's workload generator (bench/workload.py) keeps writing inputs
the scorer accepts without errors, the same for the same seed, so
``make bench`` does not rot between runs."""
from __future__ import annotations

import filecmp

from coldstart_cases import score
import workload

FILES = ["ldc-query.xml", "qrel.txt", "BENCHRUN.tab.txt"]


def test_generated_workload_scores_cleanly_and_is_reproducible(tmp_path):
    first, again = tmp_path / "a", tmp_path / "b"
    workload.generate(str(first), 12, seed=5)
    workload.generate(str(again), 12, seed=5)
    for name in FILES + ["qids.txt"]:
        assert filecmp.cmp(first / name, again / name, shallow=False), name
    status, texts, stderr = score(str(first), FILES, "-queries", "qids.txt")
    assert status == 0, texts.get("errlog", stderr)
    assert "ERROR" not in texts["errlog"]
    # every LDC query shows up in the LDC-level tables
    assert texts["ldcmax"].count("\n") > 12
