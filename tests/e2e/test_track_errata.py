"""python -m scorer.track -errata and -verify: a published track scored
again on a corrected gold, and what changed (errata.md, .csv, .tex: the
golds' SHA-256 and both signatures first, every run's old and new headline,
interval, rank, range and group, the gold's units changed, each run's
flipped outcomes); a published leaderboard recomputed from its files,
exit 0 only when every number is reproduced, else each differing number and
the part of the signature (or the gold) that differs named."""
from __future__ import annotations

import csv
import os
import json
import shutil

import pytest

from scorer.textfile import fingerprints
from scorer.track.__main__ import main as track_main

from places import CONFIGS, DEMO, FIXTURES

GOLD = FIXTURES / "scifact" / "basic" / "gold.jsonl"
RUN_A = FIXTURES / "scifact" / "basic" / "predictions.jsonl"
RUN_B = FIXTURES / "scifact" / "sets_shape" / "predictions.jsonl"
SWITCHES = ["-policy", str(CONFIGS / "scifact.yaml"), "-bootstrap", "100", "-seed", "7",
            "-trials", "200", "-jobs", "1"]


@pytest.fixture
def world(tmp_path):
    """The published track (on gold.jsonl, which stays where it was) and a
    corrected gold: claim 2's evidence changed, claim 3 given evidence (a
    claim task's predictions answer every gold claim: none added or removed;
    tests/unit/track/test_errata.py has those)."""
    gold = tmp_path / "gold.jsonl"
    shutil.copyfile(GOLD, gold)
    runs = tmp_path / "runs"
    runs.mkdir()
    shutil.copyfile(RUN_A, runs / "team_a.jsonl")
    shutil.copyfile(RUN_B, runs / "team_b.jsonl")
    published = tmp_path / "published"
    files = [str(runs / "team_a.jsonl"), str(runs / "team_b.jsonl")]
    assert track_main([*SWITCHES, "-output_dir", str(published), str(gold), *files]) == 0
    lines = [json.loads(line) for line in GOLD.read_text().splitlines()]
    lines[1]["evidence"]["20"][0]["sentences"] = [2, 3]
    lines[2]["evidence"] = {"30": [{"sentences": [1], "label": "SUPPORT"}]}
    corrected = tmp_path / "corrected.jsonl"
    corrected.write_text("".join(json.dumps(r) + "\n" for r in lines))
    return tmp_path, gold, corrected, published, files


def test_errata_after_a_gold_correction(world, capsys):
    tmp_path, gold, corrected, published, files = world
    out = tmp_path / "rescored"
    assert track_main([*SWITCHES, "-errata", str(published), "-output_dir", str(out),
                       str(corrected), *files]) == 0, capsys.readouterr().err
    # The new track is the track of the corrected gold, as scorer.track writes it.
    plain = tmp_path / "plain"
    assert track_main([*SWITCHES, "-output_dir", str(plain), str(corrected), *files]) == 0
    for name in ("leaderboard.csv", "significance.csv", "track.bootsamples"):
        assert (out / name).read_text() == (plain / name).read_text()
    before = {r["run"]: r for r in json.loads((published / "leaderboard.json").read_text())}
    after = {r["run"]: r for r in json.loads((out / "leaderboard.json").read_text())}
    with open(out / "errata.csv", encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    # The digests of both golds and both signatures come first.
    [(_p, _s, old_digest)] = fingerprints([str(gold)])
    [(_p, _s, new_digest)] = fingerprints([str(corrected)])
    assert rows[0] == {"section": "gold", "name": "corrected.jsonl", "field": "sha256",
                       "old": old_digest, "new": new_digest, "changed": "True"}
    signature = (published / "track.params").read_text().rstrip().rsplit("\n", 1)[-1]
    assert rows[1]["section"] == "signature" and rows[1]["old"] == signature
    # Every run's numbers, old and new, exactly.
    for row in rows:
        if row["section"] == "run" and row["field"] != "flipped":
            run, field = row["name"], row["field"]
            assert float(row["old"]) == before[run][field]
            assert float(row["new"]) == after[run][field]
            assert (row["changed"] == "True") == (before[run][field] != after[run][field])
    flips = {row["name"]: int(row["new"]) for row in rows if row["field"] == "flipped"}
    assert set(flips) == {"team_a", "team_b"} and all(count >= 1 for count in flips.values())
    units = sorted((row["name"], row["field"], row["new"]) for row in rows
                   if row["section"] == "unit")
    assert units == [("2", "changed", "evidence"), ("3", "changed", "evidence")]
    text = (out / "errata.md").read_text()
    assert text.index(old_digest) < text.index("## Runs") < text.index("## Gold units")
    assert "2 unit(s): 0 added, 0 removed, 2 changed" in text
    tex = (out / "errata.tex").read_text()
    assert tex.startswith("% errata.tex") and old_digest in tex.split("\\begin")[0]
    assert "team\\_a" in tex and tex.isascii()


def test_errata_reads_the_published_gold_only_as_it_was(world, capsys):
    tmp_path, gold, corrected, published, files = world
    gold.write_text(gold.read_text().replace("Claim one", "Claim 1"))     # changed since
    out = tmp_path / "rescored"
    assert track_main([*SWITCHES, "-errata", str(published), "-output_dir", str(out),
                       str(corrected), *files]) == 255
    assert "give the published gold with -old_gold" in capsys.readouterr().err
    assert not out.exists()
    original = tmp_path / "original.jsonl"
    shutil.copyfile(GOLD, original)
    assert track_main([*SWITCHES, "-errata", str(published), "-old_gold", str(original),
                       "-output_dir", str(out), str(corrected), *files]) == 0
    assert "| corrected.jsonl | 2 | changed | evidence |" in (out / "errata.md").read_text()
    assert track_main([*SWITCHES, "-errata", str(published), "-output_dir", str(published),
                       str(corrected), *files]) == 255
    assert "is the published track" in capsys.readouterr().err


def test_verify_reproduces_every_number(world, capsys):
    tmp_path, gold, corrected, published, files = world
    leaderboard = str(published / "leaderboard.json")
    assert track_main([*SWITCHES, "-verify", leaderboard, str(gold), *files]) == 0
    assert "every number reproduced exactly" in capsys.readouterr().out


def test_verify_names_what_differs(world, capsys):
    tmp_path, gold, corrected, published, files = world
    leaderboard = str(published / "leaderboard.json")
    # Another seed: the intervals move, and the signature says why.
    moved = [s if s != "7" else "8" for s in SWITCHES]
    assert track_main([*moved, "-verify", leaderboard, str(gold), *files]) == 1
    out = capsys.readouterr().out
    assert "ci95_" in out and "-seed (seed): published 7, now 8" in out
    assert "score:" not in out.replace("ci95", "")      # the scores themselves reproduce
    # Another gold: the gold digest is named.
    assert track_main([*SWITCHES, "-verify", leaderboard, str(corrected), *files]) == 1
    out = capsys.readouterr().out
    assert "the gold digest: corrected.jsonl has SHA-256" in out and ", score: published" in out
    # An edited number: named, with nothing else to blame.
    rows = json.loads((published / "leaderboard.json").read_text())
    rows[0]["score"] = 0.99
    (published / "leaderboard.json").write_text(json.dumps(rows))
    assert track_main([*SWITCHES, "-verify", leaderboard, str(gold), *files]) == 1
    out = capsys.readouterr().out
    assert f"run {rows[0]['run']}, score: published 0.99, recomputed" in out
    assert "the leaderboard was edited" in out


def test_verify_and_errata_of_a_coldstart_track(tmp_path, capsys):
    switches = ["-expand", "CSSF17", "-bootstrap", "30", "-seed", "2", "-jobs", "1"]
    inputs = [str(DEMO / "ldc-query.xml"), str(DEMO / "qrel.txt"), str(DEMO / "DEMORUN.tab.txt")]
    published = tmp_path / "published"
    assert track_main([*switches, "-output_dir", str(published), *inputs]) == 0
    assert track_main([*switches, "-verify", str(published / "leaderboard.json"),
                       *inputs]) == 0
    lines = (DEMO / "qrel.txt").read_text().splitlines()
    # The second correct filler of an equivalence class of two judged wrong after all.
    columns = lines[1].split("\t")
    assert columns[5] == columns[7] == "C" and columns[8] == lines[0].split("\t")[8]
    columns[5], columns[7], columns[8] = "W", "W", "0"
    qrel = tmp_path / "qrel.txt"
    qrel.write_text("\n".join([lines[0], "\t".join(columns)] + lines[2:]) + "\n")
    out = tmp_path / "rescored"
    assert track_main([*switches, "-errata", str(published), "-output_dir", str(out),
                       inputs[0], str(qrel), inputs[2]]) == 0, capsys.readouterr().err
    text = (out / "errata.md").read_text()
    assert f"| qrel.txt | {columns[0]} | changed | column 6, 8, 9 |" in text
    assert "1 unit(s): 0 added, 0 removed, 1 changed" in text


@pytest.mark.parametrize("arguments, message", [
    (["-errata", "nowhere", "-output_dir", "o"], "-errata nowhere: not a folder"),
    (["-verify", "nowhere.json"], "Could not open nowhere.json"),
    (["-verify", "x.json", "-output_dir", "o"], "give no -output_dir"),
    (["-old_gold", "g.jsonl", "-output_dir", "o"], "-old_gold goes with -errata"),
])
def test_errata_and_verify_mistakes(tmp_path, capsys, monkeypatch, arguments, message):
    monkeypatch.chdir(tmp_path)
    status = track_main([*SWITCHES, *arguments, str(GOLD), str(RUN_A)])
    captured = capsys.readouterr()
    assert status == 255 and message in captured.err + captured.out
    assert os.listdir(tmp_path) == []
