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


def test_generated_kb_with_events_validates_and_resolves(tmp_path):
    """bench/kb_workload.py --events: a KB validatekb passes (warnings only:
    the repairs it is meant to make), events and sentiment kept in the
    validated KB, the same for the same seed."""
    import kb_workload
    from scorer.coldstart import validate_kb

    first, again = tmp_path / "a", tmp_path / "b"
    kb_workload.generate(str(first), 3000, seed=3, queries=20, events=True)
    kb_workload.generate(str(again), 3000, seed=3, queries=20, events=True)
    for name in ("team.tac", "doclength.txt", "ldc-query.xml"):
        assert filecmp.cmp(first / name, again / name, shallow=False), name
    result = validate_kb(str(first / "team.tac"), docs=str(first / "doclength.txt"))
    assert result.log.error_count == 0, result.errlog
    valid = result.tac()
    lines = valid.splitlines()
    # each event argument has its entity-side inverse (those left out added)
    columns = [line.split("\t") for line in lines if line.startswith(":")]
    have = {(c[0], c[2], c[3]) for c in columns if len(c) > 3}
    arguments = [c for c in columns if c[0].startswith(":Event") and c[2].startswith(":Entity")]
    assert arguments
    assert all((c[2], c[0], c[3]) in have for c in arguments)
    assert any("\tconflict.attack:attacker.actual\t" in line for line in lines)
    assert any("\tcontact.meet:entity.actual\t" in line for line in lines)
    assert any(":conflict.attack_attacker.actual\t:Event" in line for line in lines)
    assert any(":likes\t" in line or ":dislikes\t" in line for line in lines)
    assert any(":is_liked_by\t" in line or ":is_disliked_by\t" in line for line in lines)
