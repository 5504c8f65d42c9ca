"""python -m scorer.competition -collect: the platform's export (a folder, or
a zip of submission zips) read with its team names, each team's ranked
submission chosen (last, best, all), the whole scorer.track folder written
as scorer.track writes it for those runs, and the submissions listed with
what became of each; a submission failing the checks is listed with its
messages and left out.  Hostile exports (a zip inside a zip inside a zip,
two teams with one name, a team name holding markup, a 2 GB member, an empty
export) get a message and nothing is written."""
from __future__ import annotations

import csv
import io
import os
import struct
import zipfile

import pytest

from scorer.competition.__main__ import main
from scorer.track.__main__ import main as track_main

from places import CONFIGS, FIXTURES

GOLD = FIXTURES / "scifact" / "basic" / "gold.jsonl"
A = (FIXTURES / "scifact" / "basic" / "predictions.jsonl").read_text()      # F1 0.5833
B = (FIXTURES / "scifact" / "sets_shape" / "predictions.jsonl").read_text()  # F1 0.6087
POLICY = str(CONFIGS / "scifact.yaml")
SAMPLES = ["-bootstrap", "100", "-seed", "5", "-jobs", "1"]


def zipped(members: dict) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members.items():
            z.writestr(name, data)
    return buffer.getvalue()


def export_folder(tmp_path, files: dict, manifest: str | None = None):
    root = tmp_path / "export"
    for name, data in files.items():
        target = root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data if isinstance(data, bytes) else data.encode())
    if manifest is not None:
        (root / "submissions.csv").write_text(manifest)
    return root


def collect(tmp_path, export, *more) -> tuple:
    out = tmp_path / "track"
    status = main(["-collect", str(export), "-policy", POLICY, "-output_dir", str(out),
                   *SAMPLES, *more, str(GOLD)])
    return status, out


def listing(out) -> list:
    with open(out / "submissions.csv", encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


MANIFEST = ("file,team,team_id,submitted,id\n"
            "u1.zip,Team Alpha,7,2027-01-12 10:00:00,11\n"
            "u2.zip,Team Alpha,7,2027-01-14 09:00:00,15\n"
            "u3.zip,Beta,9,2027-01-13 08:00:00,12\n"
            "u4.zip,Gamma,4,2027-01-13 08:30:00,13\n")


def _platform_export(tmp_path):
    """Alpha submits A then B; Beta submits A; Gamma a broken file."""
    return export_folder(tmp_path, {
        "u1.zip": zipped({"preds.jsonl": A}), "u2.zip": zipped({"preds.jsonl": B}),
        "u3.zip": zipped({"mine/preds.jsonl": A}),
        "u4.zip": zipped({"preds.jsonl": '{"claim_id": 1, "labels": \n'})}, MANIFEST)


def test_the_track_of_each_teams_last_submission(tmp_path, capsys):
    status, out = collect(tmp_path, _platform_export(tmp_path))
    err = capsys.readouterr().err
    assert status == 0, err
    rows = listing(out)
    assert [(r["team"], r["submission"], r["status"], r["run"]) for r in rows] == [
        ("Beta", "u3.zip", "ranked", "Beta"),
        ("Gamma", "u4.zip", "failed", ""),
        ("Team Alpha", "u1.zip", "not ranked", ""),
        ("Team Alpha", "u2.zip", "ranked", "Team Alpha")]
    assert "preds.jsonl line 1" in rows[1]["message"] and "u4.zip" in err
    # The track is scorer.track's, of the chosen files named after their teams.
    direct = tmp_path / "direct"
    direct.mkdir()
    (direct / "Team Alpha.jsonl").write_text(B)
    (direct / "Beta.jsonl").write_text(A)
    assert track_main(["-policy", POLICY, "-output_dir", str(tmp_path / "expected"), *SAMPLES,
                       str(GOLD), str(direct / "Team Alpha.jsonl"),
                       str(direct / "Beta.jsonl")]) == 0
    for name in ("leaderboard.csv", "significance.csv", "leaderboard.md", "track.bootsamples"):
        assert (out / name).read_text() == (tmp_path / "expected" / name).read_text(), name
    assert "Gamma" not in (out / "leaderboard.csv").read_text()
    # The ranked files are kept, as scored, for -errata and -verify.
    assert sorted(os.listdir(out / "submissions")) == ["Beta.jsonl", "Team Alpha.jsonl"]
    assert (out / "submissions" / "Team Alpha.jsonl").read_text() == B
    assert "| failed |" in (out / "submissions.md").read_text()


def test_a_quote_is_a_names_own(tmp_path, capsys):
    status, out = collect(tmp_path, export_folder(tmp_path, {"O'Brien \"Lab\"/x.jsonl": A}))
    assert status == 0, capsys.readouterr().err
    assert [r["run"] for r in listing(out)] == ["O'Brien \"Lab\""]


@pytest.mark.parametrize("ranked, runs", [
    ("best", {"Team Alpha": "u2.zip", "Beta": "u3.zip"}),
    ("all", {"Team Alpha-1": "u1.zip", "Team Alpha-2": "u2.zip", "Beta-1": "u3.zip"}),
])
def test_ranked_submission_best_and_all(tmp_path, capsys, ranked, runs):
    status, out = collect(tmp_path, _platform_export(tmp_path), "-ranked_submission", ranked)
    assert status == 0, capsys.readouterr().err
    assert {r["run"]: r["submission"] for r in listing(out) if r["status"] == "ranked"} == runs
    with open(out / "leaderboard.csv", encoding="utf-8") as f:
        assert sorted(row["run"] for row in csv.DictReader(f)) == sorted(runs)


def test_the_policy_section_chooses_and_a_zip_of_zips_is_read(tmp_path, capsys):
    policy = tmp_path / "policy.yaml"
    policy.write_text(open(POLICY).read() + "competition:\n  ranked_submission: best\n")
    export = tmp_path / "export.zip"
    # No manifest: each folder is a team; the earlier submission is the better one.
    export.write_bytes(zipped({"alpha/1.zip": zipped({"p.jsonl": B}),
                               "alpha/2.zip": zipped({"p.jsonl": A}),
                               "beta/only.jsonl": A, "__MACOSX/alpha/._1.zip": "fork"}))
    out = tmp_path / "track"
    assert main(["-collect", str(export), "-policy", str(policy), "-output_dir", str(out),
                 *SAMPLES, str(GOLD)]) == 0, capsys.readouterr().err
    ranked = {r["team"]: r["submission"] for r in listing(out) if r["status"] == "ranked"}
    assert ranked == {"alpha": "alpha/1.zip", "beta": "beta/only.jsonl"}


def _two_gigabytes(data: bytes) -> bytes:
    """A zip whose one member's headers declare 2 GB (its bytes are few)."""
    raw = bytearray(zipped({"huge.jsonl": b"x"}))
    size = struct.pack("<I", 2 * 1024 ** 3)
    local = raw.find(b"PK\x03\x04")
    raw[local + 22:local + 26] = size
    central = raw.find(b"PK\x01\x02")
    raw[central + 24:central + 28] = size
    return bytes(raw)


@pytest.mark.parametrize("make, message", [
    (lambda t: export_folder(t, {"team/u.zip": zipped({"inner.zip": zipped({"p.jsonl": A})})}),
     "holds another archive, inner.zip"),
    (lambda t: export_folder(t, {"a.zip": zipped({"p.jsonl": A}),
                                 "b.zip": zipped({"p.jsonl": B})},
                             "file,team,team_id\na.zip,Hydra,1\nb.zip,Hydra,2\n"),
     "two teams with one name"),
    (lambda t: export_folder(t, {"Team A/a.jsonl": A, "team  a/b.jsonl": B}),
     "two teams with one name"),
    (lambda t: export_folder(t, {"a.zip": zipped({"p.jsonl": A})},
                             "file,team\na.zip,<script>alert(1)</script>\n"),
     "holds markup"),
    (lambda t: export_folder(t, {"team/u.zip": _two_gigabytes(b"")}),
     "more than the limit"),
    (lambda t: export_folder(t, {}), "holds no submission"),
    (lambda t: export_folder(t, {"a&b/x.jsonl": A}), "holds markup"),
    (lambda t: export_folder(t, {"a.zip": zipped({"p.jsonl": A})}, "file,team\nz.zip,Z\n"),
     "does not hold: z.zip"),
])
def test_hostile_exports_write_nothing(tmp_path, capsys, make, message):
    export = make(tmp_path)
    export.mkdir(exist_ok=True)
    status, out = collect(tmp_path, export)
    err = capsys.readouterr().err
    assert status == 255 and message in err, err
    assert "Traceback" not in err and not out.exists()


def test_a_hostile_zip_export_writes_nothing(tmp_path, capsys):
    export = tmp_path / "export.zip"
    export.write_bytes(zipped({"team/u.zip": zipped({"w.zip": zipped({"x.zip": zipped(
        {"p.jsonl": A})})})}))
    status, out = collect(tmp_path, export)
    err = capsys.readouterr().err
    assert status == 255 and "holds another archive" in err and not out.exists()
    export.write_bytes(_two_gigabytes(b""))
    status, out = collect(tmp_path, export)
    assert status == 255 and "more than the limit" in capsys.readouterr().err
    assert not out.exists()
    empty = tmp_path / "empty.zip"
    empty.write_bytes(zipped({}))
    status, out = collect(tmp_path, empty)
    assert status == 255 and "holds no submission" in capsys.readouterr().err


DEMO = FIXTURES / "coldstart" / "demo" / "input"
TASKS = {
    "scifact": (["-policy", POLICY], [GOLD], FIXTURES / "scifact" / "basic" / "predictions.jsonl"),
    "fever": (["-policy", str(CONFIGS / "fever.yaml")], [FIXTURES / "fever" / "blind" /
                                                          "actual.jsonl"],
              FIXTURES / "fever" / "blind" / "predictions.jsonl"),
    "classification": (["-policy", str(CONFIGS / "classification.yaml")],
                       [FIXTURES / "classification" / "semeval" / "input" / "gold.jsonl"],
                       FIXTURES / "classification" / "semeval" / "input" / "predictions.tsv"),
    "coldstart": (["-expand", "CSSF17"], [DEMO / "ldc-query.xml", DEMO / "qrel.txt"],
                  DEMO / "DEMORUN.tab.txt"),
}


@pytest.mark.parametrize("task", sorted(TASKS))
def test_every_task_collects_and_verifies(tmp_path, capsys, task):
    """Each task: a team's zipped submission collected into a track, which
    -verify then reproduces from the files the track kept."""
    from scorer.track.__main__ import main as track
    switches, gold, run = TASKS[task]
    export = export_folder(tmp_path, {"team_x/upload.zip": zipped({run.name: run.read_bytes()})})
    out = tmp_path / "track"
    common = [*switches, "-bootstrap", "20", "-seed", "3", "-jobs", "1"]
    assert main(["-collect", str(export), *common, "-output_dir", str(out),
                 *map(str, gold)]) == 0, capsys.readouterr().err
    ranked = [r["run"] for r in listing(out) if r["status"] == "ranked"]
    assert ranked == (["DEMORUN"] if task == "coldstart" else ["team_x"])   # (a run id)
    [kept] = os.listdir(out / "submissions")
    assert kept.startswith("team_x.") and (out / "submissions" / kept).read_bytes() == \
        run.read_bytes()
    assert track([*common, "-verify", str(out / "leaderboard.json"), *map(str, gold),
                  str(out / "submissions" / kept)]) == 0, capsys.readouterr().out


def test_codabenchs_download_names_the_owner_phase_and_order(tmp_path, capsys):
    """Codabench names each downloaded submission ID_OWNER_PhaseIdN_DATE_FILE
    (its date has no hour: the id orders a team's submissions)."""
    export = tmp_path / "export.zip"
    export.write_bytes(zipped({
        "31_ann_lee_PhaseId7_2027-01-12:10-05_p.zip": zipped({"p.jsonl": A}),
        "35_ann_lee_PhaseId7_2027-01-12:02-00_p.zip": zipped({"p.jsonl": B}),
        "33_bob_PhaseId7_2027-01-13:00-00_mine.zip": zipped({"mine.jsonl": A}),
        "12_bob_PhaseId6_2026-12-20:00-00_practice.zip": zipped({"p.jsonl": B})}))
    status, out = collect(tmp_path, export)
    assert status == 255 and "phases 6, 7; give -phase_id" in capsys.readouterr().err
    assert not out.exists()
    status, out = collect(tmp_path, export, "-phase_id", "7")
    assert status == 0, capsys.readouterr().err
    rows = listing(out)
    assert [(r["team"], r["status"]) for r in rows] == [
        ("ann_lee", "not ranked"), ("ann_lee", "ranked"), ("bob", "ranked")]
    assert rows[1]["submission"].startswith("35_") and rows[1]["submitted"] == "2027-01-12:02-00"
