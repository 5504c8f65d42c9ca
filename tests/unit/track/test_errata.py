"""scorer/track/errata.py and published.py: the gold's units compared (JSON
lines by id: added, removed, changed and in which keys; tab-separated lines
by their first column: in which columns), per-unit outcomes flipped, a
signature cut into its parts, numbers compared exactly."""
from __future__ import annotations

import json

import pandas as pd

from scorer.track import errata, published


def _digest(path) -> str:
    from scorer.textfile import fingerprints
    return fingerprints([str(path)])[0][2]


def test_gold_changes_of_json_lines_and_of_tab_lines(tmp_path):
    old, new = tmp_path / "old.jsonl", tmp_path / "new.jsonl"
    old.write_text("".join(json.dumps(r) + "\n" for r in [
        {"id": 1, "label": "SUPPORTS", "evidence": [[1]]}, {"id": 2, "label": "REFUTES"},
        {"id": 3, "label": "REFUTES"}]))
    new.write_text("".join(json.dumps(r) + "\n" for r in [
        {"id": 1, "label": "REFUTES", "evidence": [[2]]}, {"id": 3, "label": "REFUTES"},
        {"id": 4, "label": "SUPPORTS"}]))
    assert errata.gold_changes([(str(old), _digest(old))], [(str(new), _digest(new))]) == [
        ("new.jsonl", "1", "changed", "label, evidence"), ("new.jsonl", "4", "added", ""),
        ("new.jsonl", "2", "removed", "")]
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("r1\tq\tC\tX\nr2\tq\tW\tY\n")
    b.write_text("r1\tq\tW\tX\nr2\tq\tW\tY\n")
    assert errata.gold_changes([(str(a), _digest(a))], [(str(b), _digest(b))]) == [
        ("b.txt", "r1", "changed", "column 3")]
    assert errata.gold_changes([(str(a), "same")], [(str(b), "same")]) == []


def test_flipped_outcomes_count_units():
    def frame(rows):
        return pd.DataFrame(rows, columns=["run", "query", "hop", "metric", "value"])
    old = frame([("a", "1", "ALL", "correct", 1.0), ("a", "2", "ALL", "correct", 0.0),
                 ("b", "1", "ALL", "correct", 1.0)])
    new = frame([("a", "1", "ALL", "correct", 0.0), ("a", "2", "ALL", "correct", 0.0),
                 ("a", "3", "ALL", "correct", 1.0), ("b", "1", "ALL", "correct", 1.0)])
    assert errata.flipped(old, new) == {"a": 2, "b": 0}


def test_signatures_and_numbers():
    assert published.signature_parts("scorer:1|seed:7|compare:baseline=x:y") == {
        "scorer": "1", "seed": "7", "compare": "baseline=x:y"}
    assert published.same_number(1, 1.0) and published.same_number(None, None)
    assert not published.same_number(0.1 + 0.2, 0.3) and not published.same_number(None, 0.0)
