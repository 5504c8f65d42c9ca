"""python -m scorer.track and scorer.score_track: per-run reports equal single
runs, the statistics behave as tests must (identical runs, clearly different
runs, exchangeable runs), claim tracks equal run.json, bad input is refused."""
from __future__ import annotations

import filecmp
import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import scorer
import scorer.cli  # (scorer.cli.main below: the package does not import it)
from scorer.problems import ScorerError
from scorer.track.__main__ import main as track_main
from scorer.track.folder import exact_floats

from places import ROOT
import workload

PARITY = ROOT.parent / "shared" / "parity"


def _submission_lines(path: Path) -> list:
    return path.read_text(encoding="utf-8").splitlines()


def _sf_query(line: str) -> str:
    """An SF query (or a hop-1 query's SF query) of a submission line."""
    return "_".join(line.split("\t")[0].split("_")[:3])


def _write_run(path: Path, lines: list, runid: str) -> None:
    out = []
    for line in lines:
        columns = line.split("\t")
        columns[2] = runid
        out.append("\t".join(columns))
    path.write_text("".join(line + "\n" for line in out), encoding="utf-8")


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """A generated Cold Start case (60 LDC queries) and its one run's lines."""
    directory = tmp_path_factory.mktemp("world")
    workload.generate(str(directory), 60, seed=3)
    lines = _submission_lines(directory / f"{workload.RUNID}.tab.txt")
    return directory, lines


def _keep_queries(lines: list, keep) -> list:
    return [line for line in lines if keep(_sf_query(line))]


@pytest.mark.slow
def test_each_run_folder_equals_the_single_run_outputs(world, tmp_path):
    directory, lines = world
    runs = tmp_path / "runs"
    runs.mkdir()
    queries = sorted({_sf_query(line) for line in lines})
    _write_run(runs / "A.tab.txt", lines, "RUNA")
    _write_run(runs / "B.tab.txt", _keep_queries(lines, lambda q: queries.index(q) % 3), "RUNB")
    # One file holding two run ids: each is its own run, scored with -runids
    # (and validated alone: each run's hop-1 lines with their parents).
    _write_run(runs / "CD.tab.txt", _keep_queries(lines, lambda q: queries.index(q) % 2),
               "RUNC")
    with open(runs / "CD.tab.txt", "a", encoding="utf-8") as f:
        for line in _keep_queries(lines, lambda q: not queries.index(q) % 2):
            columns = line.split("\t")
            columns[2] = "RUND"
            f.write("\t".join(columns) + "\n")
    common = ["-expand", "CSSF17", "-bootstrap", "40", "-seed", "5"]
    inputs = [str(directory / "ldc-query.xml"), str(directory / "qrel.txt")]
    out = tmp_path / "track"
    status = track_main(common + ["-jobs", "1", "-output_dir", str(out)] + inputs + [str(runs)])
    assert status == 0
    assert sorted(os.listdir(out / "runs")) == ["RUNA", "RUNB", "RUNC", "RUND"]
    for name, files, extra in (("RUNA", ["A.tab.txt"], []), ("RUNB", ["B.tab.txt"], []),
                               ("RUNC", ["CD.tab.txt"], ["-runids", "RUNC"]),
                               ("RUND", ["CD.tab.txt"], ["-runids", "RUND"])):
        single = tmp_path / f"single-{name}"
        single.mkdir()
        # (a track validates its runs, as -validate does)
        code = scorer.cli.main(common + extra + ["-validate", "-output_file", str(single / "run"),
                                                 "-error_file", str(single / "run.errlog")]
                               + inputs + [str(runs / f) for f in files])
        assert code == 0
        written = sorted(os.listdir(single))
        assert written == sorted(os.listdir(out / "runs" / name))
        for report in written:
            if report != "run.params":      # the time of day differs
                assert (single / report).read_bytes() == (out / "runs" / name / report
                                                          ).read_bytes(), (name, report)
    board = pd.read_csv(out / "leaderboard.csv", **exact_floats())
    assert list(board.columns[:6]) == ["rank", "run", "metric", "score", "ci95_low", "ci95_high"]
    assert board["status"].tolist() == ["ok"] * 4
    assert board["score"].is_monotonic_decreasing
    # The headline is the .ap report's LDC-MEAN-ALL-Macro line at hop ALL.
    for _, row in board.iterrows():
        ap = (out / "runs" / row["run"] / "run.ap").read_text()
        line = [l for l in ap.splitlines() if l.startswith("LDC-MEAN-ALL-Macro")
                and l.split()[2] == "ALL"][0]
        assert line.split()[-1] == f"{row['score']:.4f}"
        assert row["ci95_low"] <= row["ci95_high"]
    # The interval of the headline is the 95 % line of the run's own .apconfidence.
    for _, row in board.iterrows():
        text = (out / "runs" / row["run"] / "run.apconfidence").read_text()
        cells = [l.split() for l in text.splitlines() if l.startswith("ALLEP_LDCMEAN_Ma_A_AP")][0]
        assert cells[2] == f"{row['ci95_low']:.4f}" and cells[7] == f"{row['ci95_high']:.4f}"
    significance = pd.read_csv(out / "significance.csv", **exact_floats())
    assert len(significance) == 6
    assert list(significance.columns) == ["run_a", "run_b", "metric", "delta", "delta_ci95_low",
                                          "delta_ci95_high", "wins", "ties", "losses",
                                          "p_bootstrap", "p_randomization", "p_holm", "p_bh",
                                          "significant"]
    # The samples are stored once: every run's copy is the track's file (hard links).
    for name in ("RUNA", "RUNB", "RUNC", "RUND"):
        assert os.path.samefile(out / "track.bootsamples", out / "runs" / name / "run.bootsamples")
        assert os.path.samefile(out / "runs" / "RUNA" / "run.sample",
                                out / "runs" / name / "run.sample")
    assert (out / "track.bootsamples").read_bytes() == \
        (out / "runs" / "RUNA" / "run.bootsamples").read_bytes()
    # The pictures and the page of scorer.display, from the same tables.
    page = (out / "index.html").read_text(encoding="utf-8")
    svg = (out / "leaderboard.svg").read_text(encoding="utf-8")
    for name in ("RUNA", "RUNB", "RUNC", "RUND"):
        assert name in page and name in svg and f"runs/{name}/run.summary" in page
    assert (out / "leaderboard.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parity
def test_a_one_run_track_on_a_parity_case_equals_the_perl_files(tmp_path):
    case = PARITY / "coldstart" / "synthetic" / "seed305_justM-M_samples50"
    if not case.is_dir():
        pytest.skip(f"{case} is not here (the reference cases live in ../shared/parity)")
    args = (case / "input" / "args").read_text().split()
    cwd = os.getcwd()
    os.chdir(case / "input")
    try:
        files = [a for a in args if os.path.exists(a) and not a.startswith("-")
                 and a not in ("qids.txt", "boot.txt")]
        switches = [a for a in args if a not in files]
        # The Perl scored the raw run: a track validates its runs unless told not to.
        raw = tmp_path / "raw.yaml"
        raw.write_text("task: coldstart\nvalidate: false\n")
        out = tmp_path / "track"
        assert track_main(switches + ["-policy", str(raw), "-jobs", "1", "-output_dir", str(out)]
                          + files) == 0
    finally:
        os.chdir(cwd)
    (run,) = os.listdir(out / "runs")
    for expected in sorted(os.listdir(case / "expected")):
        if expected in ("run.params", "run.errlog"):
            continue
        assert (case / "expected" / expected).read_bytes() == \
            (out / "runs" / run / expected).read_bytes(), expected


@pytest.mark.slow
def test_identical_runs_differ_by_nothing_and_a_gutted_run_is_significantly_worse(world,
                                                                                    tmp_path):
    directory, lines = world
    runs = tmp_path / "runs"
    runs.mkdir()
    queries = sorted({_sf_query(line) for line in lines})
    _write_run(runs / "full.tab.txt", lines, "FULL")
    _write_run(runs / "copy.tab.txt", lines, "COPY")
    _write_run(runs / "gutted.tab.txt",
               _keep_queries(lines, lambda q: queries.index(q) % 5 == 0), "GUTTED")
    track = scorer.score_track([str(directory / "ldc-query.xml"), str(directory / "qrel.txt"),
                                str(runs)], expand="CSSF17", bootstrap=500, seed=11,
                               trials=2000)
    rows = {(r.run_a, r.run_b): r for r in track.significance.itertuples()}
    same = rows.get(("COPY", "FULL")) or rows.get(("FULL", "COPY"))
    assert same.delta == 0 and same.p_bootstrap == 1 and same.p_randomization == 1
    assert not same.significant
    for better in ("COPY", "FULL"):
        row = rows[(better, "GUTTED")]
        assert row.delta > 0
        assert row.p_bootstrap < 0.01 and row.p_randomization < 0.01 and row.significant
    assert track.exit_status == 0


@pytest.mark.slow
def test_exchangeable_runs_are_rejected_about_five_percent_of_the_time(world):
    """Runs that keep each SF query's answers with the same probability are
    exchangeable per LDC query: at 0.05, the randomization test should reject
    in about 5 % of the pairs (not 0 %, not 20 %)."""
    directory, lines = world
    import tempfile
    with tempfile.TemporaryDirectory() as scratch:
        runs = Path(scratch)
        rng = random.Random(7)
        queries = sorted({_sf_query(line) for line in lines})
        for r in range(20):
            kept = {q for q in queries if rng.random() < 0.6}
            _write_run(runs / f"R{r:02d}.tab.txt", _keep_queries(lines, kept.__contains__),
                       f"R{r:02d}")
        track = scorer.score_track([str(directory / "ldc-query.xml"),
                                    str(directory / "qrel.txt"), str(runs)],
                                   expand="CSSF17", bootstrap=200, seed=3, trials=1000)
    rejected = float((track.significance["p_randomization"] < 0.05).mean())
    assert len(track.significance) == 190
    assert 0.005 < rejected < 0.15, rejected


@pytest.mark.slow
def test_jobs_do_not_change_the_folder(world, tmp_path):
    directory, lines = world
    runs = tmp_path / "runs"
    runs.mkdir()
    queries = sorted({_sf_query(line) for line in lines})
    for r in range(3):
        _write_run(runs / f"R{r}.tab.txt",
                   _keep_queries(lines, lambda q: queries.index(q) % 5 != r), f"R{r}")
    folders = []
    out = tmp_path / "track"        # one name: the page shows the invocation
    for jobs in ("1", "2"):
        assert track_main(["-expand", "CSSF17", "-bootstrap", "30", "-seed", "2", "-jobs", jobs,
                           "-output_dir", str(out), str(directory / "ldc-query.xml"),
                           str(directory / "qrel.txt"), str(runs)]) == 0
        folders.append(shutil.copytree(out, tmp_path / f"jobs{jobs}"))
    compared = filecmp.dircmp(folders[0], folders[1])

    def differing(comparison, path=""):
        found = [os.path.join(path, name) for name in comparison.diff_files]
        found += [os.path.join(path, name) for name in comparison.left_only + comparison.right_only]
        for name, sub in comparison.subdirs.items():
            found += differing(sub, os.path.join(path, name))
        return found

    # Only the invocation (-jobs) and the reports' time of day differ.
    different = sorted(differing(compared))
    assert "track.params" in different
    assert all(name.endswith("run.params") for name in different if name != "track.params")
    assert len(differing(filecmp.dircmp(folders[0], folders[0]))) == 0


@pytest.mark.slow
@pytest.mark.parametrize("task", ["scifact", "fever"])
def test_claim_track_numbers_equal_each_runs_json(task, tmp_path):
    if task == "scifact":
        gold = ROOT / "fixtures" / "scifact" / "basic" / "gold.jsonl"
        predictions = ROOT / "fixtures" / "scifact" / "basic" / "predictions.jsonl"
    else:
        gold = ROOT / "fixtures" / "fever" / "blind" / "actual.jsonl"
        predictions = ROOT / "fixtures" / "fever" / "blind" / "predictions.jsonl"
    rows = predictions.read_text().splitlines()
    (tmp_path / "first.jsonl").write_text("\n".join(rows) + "\n")
    # The second run predicts nothing for its first claim.
    first = json.loads(rows[0])
    if task == "scifact":
        first["evidence"] = {}
    else:
        first["predicted_label"], first["predicted_evidence"] = "NOT ENOUGH INFO", []
    (tmp_path / "second.jsonl").write_text("\n".join([json.dumps(first)] + rows[1:]) + "\n")
    out = tmp_path / "track"
    status = track_main(["-policy", str(ROOT / "configs" / f"{task}.yaml"), "-bootstrap", "50",
                         "-seed", "1", "-output_dir", str(out), str(gold),
                         str(tmp_path / "first.jsonl"), str(tmp_path / "second.jsonl")])
    assert status == 0
    board = pd.read_csv(out / "leaderboard.csv", **exact_floats())
    headline = "sentence_label_f1" if task == "scifact" else "strict_score"
    assert set(board["metric"]) == {headline}
    for _, row in board.iterrows():
        numbers = json.loads((out / "runs" / row["run"] / "run.json").read_text())
        metrics = numbers.get("metrics", numbers)
        assert row["score"] == metrics[headline]
        for name, value in metrics.items():
            if name in board.columns:
                assert row[name] == value, name
    records = json.loads((out / "leaderboard.json").read_text())
    assert [r["run"] for r in records] == board["run"].tolist()


@pytest.mark.slow
def test_a_broken_run_is_reported_and_the_others_still_scored(world, tmp_path):
    directory, lines = world
    runs = tmp_path / "runs"
    runs.mkdir()
    _write_run(runs / "good.tab.txt", lines, "GOOD")
    broken = [line.replace("\t", " ", 1) if i == 3 else line for i, line in enumerate(lines)]
    _write_run(runs / "broken.tab.txt", broken, "BROKEN")
    (runs / "junk.tab.txt").write_text("this is not a run file\n")
    out = tmp_path / "track"
    status = track_main(["-expand", "CSSF17", "-jobs", "1", "-output_dir", str(out),
                         str(directory / "ldc-query.xml"), str(directory / "qrel.txt"),
                         str(runs)])
    assert status == 255
    board = pd.read_csv(out / "leaderboard.csv", **exact_floats())
    status_of = dict(zip(board["run"], board["status"]))
    assert status_of == {"GOOD": "ok", "BROKEN": "errors", "junk": "errors"}
    assert "line 4" in (out / "runs" / "BROKEN" / "run.errlog").read_text()
    assert "Unknown file type" in (out / "runs" / "junk" / "run.errlog").read_text()
    assert os.listdir(out / "runs" / "junk") == ["run.errlog"]
    assert pd.isna(board.set_index("run").loc["junk", "rank"])
    # No samples: no intervals, no tests, and the tables say so.
    assert board["ci95_low"].isna().all()
    assert "No bootstrap samples" in (out / "leaderboard.md").read_text()
    assert "No bootstrap samples" in (out / "significance.md").read_text()


def test_bad_track_inputs_are_refused_before_anything_is_written(world, tmp_path, capsys):
    directory, lines = world
    inputs = [str(directory / "ldc-query.xml"), str(directory / "qrel.txt")]
    runs = tmp_path / "runs"
    runs.mkdir()
    _write_run(runs / "a.tab.txt", lines, "A")
    out = tmp_path / "track"
    assert track_main(["-expand", "CSSF17", "-metric", "nosuch", "-output_dir", str(out)]
                      + inputs + [str(runs)]) == 255
    assert "unknown -metric 'nosuch'" in capsys.readouterr().err
    assert not out.exists()
    # A folder holding other files is refused.
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    assert track_main(["-expand", "CSSF17", "-output_dir", str(out)] + inputs + [str(runs)]) \
        == 255
    assert "notes.txt" in capsys.readouterr().err
    assert os.listdir(out) == ["notes.txt"]
    # Broken shared input (no assessments): fatal, nothing written.
    fresh = tmp_path / "fresh"
    assert track_main(["-expand", "CSSF17", "-output_dir", str(fresh), inputs[0],
                       str(runs)]) == 255
    assert "no assessment file" in capsys.readouterr().err
    assert not fresh.exists()
    assert not [n for n in os.listdir(tmp_path) if n.startswith(".fresh")]
    # Two claim runs with the same name.
    gold = ROOT / "fixtures" / "scifact" / "basic" / "gold.jsonl"
    (tmp_path / "x").mkdir()
    shutil.copy(ROOT / "fixtures" / "scifact" / "basic" / "predictions.jsonl",
                tmp_path / "x" / "same.jsonl")
    shutil.copy(ROOT / "fixtures" / "scifact" / "basic" / "predictions.jsonl",
                tmp_path / "same.jsonl")
    with pytest.raises(ScorerError, match="two runs are named same"):
        scorer.score_track([str(gold), str(tmp_path / "x" / "same.jsonl"),
                            str(tmp_path / "same.jsonl")],
                           policy=str(ROOT / "configs" / "scifact.yaml"))
    # Switches the track decides itself.
    with pytest.raises(ScorerError, match="-output_file is not a track switch"):
        scorer.score_track(inputs + [str(runs)], expand="CSSF17", output_file="x")


@pytest.mark.slow
def test_an_earlier_track_folder_is_replaced(world, tmp_path):
    directory, lines = world
    runs = tmp_path / "runs"
    runs.mkdir()
    _write_run(runs / "a.tab.txt", lines, "A")
    out = tmp_path / "track"
    args = ["-expand", "CSSF17", "-output_dir", str(out), str(directory / "ldc-query.xml"),
            str(directory / "qrel.txt"), str(runs)]
    assert track_main(args) == 0
    _write_run(runs / "a.tab.txt", lines, "B")
    os.remove(runs / "a.tab.txt")
    _write_run(runs / "b.tab.txt", lines, "B")
    assert track_main(args) == 0
    assert os.listdir(out / "runs") == ["B"]
    assert sorted(n for n in os.listdir(tmp_path) if n.startswith(".")) == []


@pytest.mark.slow
def test_the_command_line_help_lists_the_metrics():
    result = subprocess.run([sys.executable, "-m", "scorer.track", "-help"],
                            capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0
    for name in ("ldcmean_ap", "sf_micro_f1", "sentence_label_f1", "strict_score"):
        assert name in result.stdout


def test_compare_adjacent_tests_rank_neighbours_only(tmp_path):
    gold = ROOT / "fixtures" / "fever" / "blind" / "actual.jsonl"
    rows = [json.loads(line) for line in
            (ROOT / "fixtures" / "fever" / "blind" / "predictions.jsonl").read_text().splitlines()]
    paths = []
    for k in range(4):
        changed = [dict(row) for row in rows]
        for row in changed[:k]:
            row["predicted_label"] = "NOT ENOUGH INFO"
        path = tmp_path / f"team{k}.jsonl"
        path.write_text("".join(json.dumps(row) + "\n" for row in changed))
        paths.append(str(path))
    track = scorer.score_track([str(gold)] + paths, policy=str(ROOT / "configs" / "fever.yaml"),
                               bootstrap=100, seed=2, compare="adjacent", trials=500)
    board = track.leaderboard["run"].tolist()
    pairs = list(zip(track.significance["run_a"], track.significance["run_b"]))
    assert pairs == list(zip(board, board[1:]))
    everything = scorer.score_track([str(gold)] + paths, policy=str(ROOT / "configs" / "fever.yaml"),
                                    bootstrap=100, seed=2, trials=500)
    assert len(everything.significance) == 6
    # The same pair gets the same p-values whichever pairs are tested (one set of swaps).
    merged = everything.significance.merge(track.significance, on=["run_a", "run_b"])
    assert (merged["p_randomization_x"] == merged["p_randomization_y"]).all()
    assert (merged["p_bootstrap_x"] == merged["p_bootstrap_y"]).all()


@pytest.mark.slow
def test_a_samples_file_with_a_seed_gives_the_drawn_tracks_numbers(world, tmp_path):
    directory, lines = world
    runs = tmp_path / "runs"
    runs.mkdir()
    queries = sorted({_sf_query(line) for line in lines})
    _write_run(runs / "a.tab.txt", lines, "A")
    _write_run(runs / "b.tab.txt", _keep_queries(lines, lambda q: queries.index(q) % 2), "B")
    inputs = [str(directory / "ldc-query.xml"), str(directory / "qrel.txt"), str(runs)]
    # Samples drawn by one track, read back by another: the same intervals; -seed
    # then seeds only the randomization trials (and the runs get no -seed).
    first = scorer.score_track(inputs, expand="CSSF17", bootstrap=60, seed=8,
                               output_dir=str(tmp_path / "first"))
    again = scorer.score_track(inputs, expand="CSSF17", seed=8,
                               samples=str(tmp_path / "first" / "track.bootsamples"),
                               output_dir=str(tmp_path / "again"))
    columns = ["run", "score", "ci95_low", "ci95_high"]
    assert first.leaderboard[columns].equals(again.leaderboard[columns])
    assert first.significance.equals(again.significance)
    params = (tmp_path / "again" / "runs" / "A" / "run.params").read_text()
    assert "-seed" not in params and "-samples" in params


def _sf_query_file(ldc_xml: Path, target: Path) -> None:
    """The LDC query file as SF queries (one per entry point, named as -expand
    CSSF17 names them), for scoring without -expand."""
    import re
    from scorer.coldstart.ids import expanded_query_short_id
    text = ldc_xml.read_text(encoding="utf-8")
    out = ['<?xml version="1.0" encoding="UTF-8"?>', "<query_set>"]
    for block in re.findall(r"<query id=\"[^\"]+\">.*?</query>", text, re.S):
        slots = re.findall(r"<slot\d>(.*?)</slot\d>", block)
        kind = re.search(r"<enttype>(.*?)</enttype>", block).group(1)
        for name, docid, beg, end in re.findall(
                r"<name>(.*?)</name>\s*<docid>(.*?)</docid>\s*<beg>(\d+)</beg>\s*<end>(\d+)</end>",
                block):
            lang = "SPA" if docid.startswith("SPA") else "CMN" if docid.startswith("CMN") \
                else "ENG"
            sf = f"CSSF17_{lang}_{expanded_query_short_id(docid, beg, end, slots)}"
            out += [f'  <query id="{sf}">', f"    <name>{name}</name>",
                    f"    <docid>{docid}</docid>", f"    <beg>{beg}</beg>", f"    <end>{end}</end>",
                    f"    <enttype>{kind}</enttype>"]
            out += [f"    <slot{n}>{slot}</slot{n}>" for n, slot in enumerate(slots)]
            out.append("  </query>")
    target.write_text("\n".join(out + ["</query_set>"]) + "\n", encoding="utf-8")


@pytest.mark.slow
def test_without_expand_the_track_draws_sf_queries_itself(world, tmp_path):
    directory, lines = world
    queries_file = tmp_path / "sf-query.xml"
    _sf_query_file(directory / "ldc-query.xml", queries_file)
    runs = tmp_path / "runs"
    runs.mkdir()
    queries = sorted({_sf_query(line) for line in lines})
    _write_run(runs / "a.tab.txt", lines, "A")
    _write_run(runs / "b.tab.txt", _keep_queries(lines, lambda q: queries.index(q) % 2), "B")
    inputs = [str(queries_file), str(directory / "qrel.txt"), str(runs)]
    out = tmp_path / "sf"
    assert track_main(["-bootstrap", "60", "-seed", "8", "-jobs", "1", "-plot",
                       "-output_dir", str(out)] + inputs) == 0
    board = pd.read_csv(out / "leaderboard.csv", **exact_floats())
    assert set(board["metric"]) == {"sf_ap"} and board["ci95_low"].notna().all()
    assert "ldcmean_ap" not in board.columns
    drawn = (out / "track.bootsamples").read_text().splitlines()
    assert len(drawn) == 60 and all(token.startswith("CSSF17_")
                                    for token in drawn[0].split()[1:])
    # The runs are scored as single runs are (which cannot take samples without -expand).
    single = tmp_path / "single"
    single.mkdir()
    assert scorer.cli.main(["-plot", "-validate", "-output_file", str(single / "run"),
                            "-error_file",
                            str(single / "run.errlog"), str(queries_file),
                            str(directory / "qrel.txt"), str(runs / "a.tab.txt")]) == 0
    assert sorted(os.listdir(single)) == sorted(os.listdir(out / "runs" / "A"))
    for name in os.listdir(single):
        if name != "run.params":     # the time of day
            assert (single / name).read_bytes() == (out / "runs" / "A" / name).read_bytes()
    # The headline is the .ap summary's SF-ALL-Macro at hop ALL.
    ap = (out / "runs" / "A" / "run.ap").read_text().splitlines()
    line = [l for l in ap if l.startswith("SF-ALL-Macro") and l.split()[2] == "ALL"][0]
    assert line.split()[-1] == f"{board.set_index('run').loc['A', 'score']:.4f}"


@pytest.mark.slow
@pytest.mark.parametrize("signum", [15, 2])
def test_a_stopped_track_leaves_no_folder_and_no_process(world, tmp_path, signum):
    import signal
    import time
    directory, lines = world
    runs = tmp_path / "runs"
    runs.mkdir()
    for r in range(6):
        _write_run(runs / f"R{r}.tab.txt", lines, f"R{r}")
    out = tmp_path / "track"
    process = subprocess.Popen(
        [sys.executable, "-m", "scorer.track", "-expand", "CSSF17", "-bootstrap", "400", "-seed",
         "1", "-jobs", "2", "-output_dir", str(out), str(directory / "ldc-query.xml"),
         str(directory / "qrel.txt"), str(runs)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True)
    deadline = time.monotonic() + 60
    # Stop it once it is scoring (its folder is being built under a temporary name).
    while process.poll() is None and time.monotonic() < deadline and \
            not any(name.startswith(".track.") for name in os.listdir(tmp_path)):
        time.sleep(0.02)
    time.sleep(0.3)
    os.killpg(process.pid, signum)          # as a terminal or a job manager does
    _stdout, stderr = process.communicate(timeout=60)
    leftovers = [name for name in os.listdir(tmp_path) if name.startswith(".track.")]
    assert leftovers == []
    if process.returncode == 0:             # it had finished: the whole folder
        assert (out / "leaderboard.csv").exists() and len(os.listdir(out / "runs")) == 6
    else:
        assert process.returncode == 128 + signum, stderr
        assert "Traceback" not in stderr and "the track folder was not written" in stderr
        assert not out.exists()
    time.sleep(0.2)
    ps = subprocess.run(["pgrep", "-f", f"-output_dir {out}"], capture_output=True, text=True)
    assert ps.stdout.strip() == ""


# -- refused up front, from the fuzzing findings ------------------------------------

DEMO = ROOT / "fixtures" / "coldstart" / "demo" / "input"


def _demo_inputs(tmp_path: Path) -> list:
    for name in ("ldc-query.xml", "qrel.txt", "DEMORUN.tab.txt"):
        shutil.copy(DEMO / name, tmp_path / name)
    return [str(tmp_path / name) for name in ("ldc-query.xml", "qrel.txt", "DEMORUN.tab.txt")]


@pytest.mark.parametrize("folder", ["", " ", ".", "..", "./", "/"])
def test_an_output_dir_that_cannot_be_replaced_is_refused(tmp_path, capsys, monkeypatch,
                                                          folder):
    inputs = _demo_inputs(tmp_path)
    monkeypatch.chdir(tmp_path)
    before = sorted(os.listdir(tmp_path))
    assert track_main(["-expand", "CSSF17", "-output_dir", folder] + inputs) == 255
    assert "-output_dir" in capsys.readouterr().err
    with pytest.raises(ScorerError, match="-output_dir"):
        scorer.score_track(inputs, expand="CSSF17", output_dir=folder)
    assert sorted(os.listdir(tmp_path)) == before


def test_a_file_named_twice_and_bootstrap_0_are_refused(tmp_path, capsys):
    inputs = _demo_inputs(tmp_path)
    out = tmp_path / "track"
    # The run file again: its responses would be counted twice (here through its folder).
    assert track_main(["-expand", "CSSF17", "-output_dir", str(out)] + inputs
                      + [str(tmp_path)]) == 255
    assert "DEMORUN.tab.txt is given twice" in capsys.readouterr().err
    assert track_main(["-expand", "CSSF17", "-bootstrap", "0", "-seed", "1", "-output_dir",
                       str(out)] + inputs) == 255
    assert "-bootstrap must be at least 1" in capsys.readouterr().err
    with pytest.raises(ScorerError, match="-bootstrap must be at least 1"):
        scorer.score_track(inputs, expand="CSSF17", bootstrap=0, seed=1)
    # Claims: a predictions file that is also reached through a link.
    gold = tmp_path / "gold.jsonl"
    shutil.copy(ROOT / "fixtures" / "fever" / "blind" / "actual.jsonl", gold)
    (tmp_path / "preds").mkdir()
    shutil.copy(ROOT / "fixtures" / "fever" / "blind" / "predictions.jsonl",
                tmp_path / "preds" / "team1.jsonl")
    os.symlink(tmp_path / "preds" / "team1.jsonl", tmp_path / "team2.jsonl")
    with pytest.raises(ScorerError, match=r"team2.jsonl is given twice \(as .*team1.jsonl\)"):
        scorer.score_track([str(gold), str(tmp_path / "preds"), str(tmp_path / "team2.jsonl")],
                           policy=str(ROOT / "configs" / "fever.yaml"))
    assert not out.exists()


@pytest.mark.parametrize("task", ["fever", "scifact"])
def test_claim_samples_of_another_split_stop_the_track_before_any_run(tmp_path, capsys, task,
                                                                      monkeypatch):
    """Samples naming claims the gold does not have: refused with file, line
    and id before any run is scored (each run refused them on its own, after
    the whole track had been scored, every row 'errors')."""
    fixture = ROOT / "fixtures" / task / ("blind" if task == "fever" else "basic")
    gold = fixture / ("actual.jsonl" if task == "fever" else "gold.jsonl")
    (tmp_path / "boot.txt").write_text("1 nosuch\n")
    from scorer.track import runner
    scored = []
    monkeypatch.setattr(runner, "score_runs", lambda *args: scored.append(args) or [])
    assert track_main(["-policy", str(ROOT / "configs" / f"{task}.yaml"), "-samples",
                       str(tmp_path / "boot.txt"), "-output_dir", str(tmp_path / "track"),
                       str(gold), str(fixture / "predictions.jsonl")]) == 255
    stderr = capsys.readouterr().err
    assert f"{tmp_path / 'boot.txt'} line 1: 'nosuch' is not a claim of the gold" in stderr
    assert scored == [] and not (tmp_path / "track").exists()


def test_an_empty_fever_gold_stops_the_track(tmp_path, capsys):
    (tmp_path / "gold.jsonl").write_text("")
    predictions = ROOT / "fixtures" / "fever" / "blind" / "predictions.jsonl"
    assert track_main(["-policy", str(ROOT / "configs" / "fever.yaml"), "-output_dir",
                       str(tmp_path / "track"), str(tmp_path / "gold.jsonl"),
                       str(predictions)]) == 255
    assert "gold.jsonl: no gold claims" in capsys.readouterr().err
    assert not (tmp_path / "track").exists()


def test_a_missing_run_file_stops_the_track_before_any_run(tmp_path, capsys):
    """A run file that is not there is a mistake in the command: named, exit
    255, no folder (it ended in a FileNotFoundError traceback once every run
    was scored, when the track's .params was written)."""
    inputs = _demo_inputs(tmp_path)
    out = tmp_path / "track"
    assert track_main(["-expand", "CSSF17", "-output_dir", str(out)] + inputs
                      + [str(tmp_path / "nosuch.tab.txt")]) == 255
    stderr = capsys.readouterr().err
    assert f"Could not open {tmp_path / 'nosuch.tab.txt'}: No such file or directory" in stderr
    assert "Traceback" not in stderr and not out.exists()
    gold = str(ROOT / "fixtures" / "fever" / "blind" / "actual.jsonl")
    with pytest.raises(ScorerError, match=r"Could not open .*nosuch.jsonl: No such file"):
        scorer.score_track([gold, str(ROOT / "fixtures" / "fever" / "blind" /
                                      "predictions.jsonl"), str(tmp_path / "nosuch.jsonl")],
                           policy=str(ROOT / "configs" / "fever.yaml"))


@pytest.mark.parametrize("switch, taken", [("-output_dir", "-jobs"), ("-metric", "-expand"),
                                           ("-jobs", "-output_dir")])
def test_a_switch_is_not_taken_for_a_forgotten_track_value(tmp_path, capsys, switch, taken):
    inputs = _demo_inputs(tmp_path)
    argv = ["-expand", "CSSF17", switch, taken, "2", *inputs]
    if switch != "-output_dir":
        argv = ["-output_dir", str(tmp_path / "track"), *argv]
    assert track_main(argv) == 255
    assert f"ERROR: Switch {switch} needs a value, not the switch {taken}" in \
        capsys.readouterr().out
    assert not (tmp_path / "track").exists() and not (tmp_path / taken).exists()


@pytest.mark.slow
def test_an_empty_run_file_is_a_run_that_scored_nothing(tmp_path, capsys):
    inputs = _demo_inputs(tmp_path)
    runs = tmp_path / "runs"
    runs.mkdir()
    shutil.move(inputs.pop(), runs / "DEMORUN.tab.txt")
    (runs / "empty.tab.txt").write_text("")
    out = tmp_path / "track"
    assert track_main(["-expand", "CSSF17", "-output_dir", str(out)] + inputs + [str(runs)]) \
        == 255
    assert capsys.readouterr().err == (
        f"ERROR: run empty scored nothing (its files hold no response): see "
        f"{out / 'runs' / 'empty' / 'run.errlog'}\n")
    board = pd.read_csv(out / "leaderboard.csv", **exact_floats()).set_index("run")
    assert board["status"].to_dict() == {"DEMORUN": "ok", "empty": "empty"}
    assert pd.isna(board.loc["empty", "rank"]) and board.loc["DEMORUN", "rank"] == 1
    assert "  empty empty\n" in (out / "track.params").read_text()
    assert "Empty response or assessment file" in \
        (out / "runs" / "empty" / "run.errlog").read_text()


def test_a_run_id_in_two_run_files_stops_the_track(tmp_path, capsys):
    """A resubmitted copy left beside the first file was merged into it: every
    response counted twice, DEMORUN at 0.8681 instead of 0.8194, status ok."""
    inputs = _demo_inputs(tmp_path)
    runs = tmp_path / "runs"
    runs.mkdir()
    shutil.move(inputs.pop(), runs / "DEMORUN.tab.txt")
    shutil.copy(runs / "DEMORUN.tab.txt", runs / "DEMORUN.v2.tab.txt")
    out = tmp_path / "track"
    assert track_main(["-expand", "CSSF17", "-jobs", "1", "-output_dir", str(out)] + inputs
                      + [str(runs)]) == 255
    assert capsys.readouterr().err == (
        f"FATAL_ERROR: the run id DEMORUN is in two submission files, "
        f"{runs / 'DEMORUN.tab.txt'} and {runs / 'DEMORUN.v2.tab.txt'}: they would be merged "
        f"into one run (with a copy, every response counted twice); give each run id in one "
        f"file\n")
    assert not out.exists()
    # One file per run id is scored as before.
    os.remove(runs / "DEMORUN.v2.tab.txt")
    result = scorer.score_track(inputs + [str(runs)], expand="CSSF17")
    assert round(result.leaderboard.set_index("run").loc["DEMORUN", "score"], 4) == 0.8194


def test_claim_files_without_a_policy_get_a_hint(tmp_path, capsys):
    gold = str(ROOT / "fixtures" / "scifact" / "basic" / "gold.jsonl")
    predictions = str(ROOT / "fixtures" / "scifact" / "basic" / "predictions.jsonl")
    assert track_main(["-output_dir", str(tmp_path / "t"), gold, predictions]) == 255
    assert capsys.readouterr().err == (
        "FATAL_ERROR: no assessment file among the files: a Cold Start track needs the query "
        "XML, the assessment file(s), then the run files (the task is Cold Start because no "
        "-policy chose another; for SciFact or FEVER files give -policy configs/scifact.yaml "
        "or configs/fever.yaml)\n")


@pytest.mark.slow
def test_predictions_given_as_the_gold_stop_the_track(tmp_path):
    predictions = ROOT / "fixtures" / "fever" / "blind" / "predictions.jsonl"
    for name in ("team1.jsonl", "team2.jsonl"):
        shutil.copy(predictions, tmp_path / name)
    out = tmp_path / "track"
    result = subprocess.run([sys.executable, "-m", "scorer.track", "-policy",
                             str(ROOT / "configs" / "fever.yaml"), "-output_dir", str(out),
                             str(tmp_path / "team1.jsonl"), str(tmp_path / "team2.jsonl")],
                            capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 255
    assert result.stderr == (
        f"FATAL_ERROR: {tmp_path / 'team1.jsonl'} looks like predictions, not the gold (its "
        f"first line has predicted_label or predicted_evidence and no label or evidence); a "
        f"claim track's first file is the gold, then one predictions file per run\n")
    assert not out.exists() and sorted(os.listdir(tmp_path)) == ["team1.jsonl", "team2.jsonl"]


def test_a_leaderboard_picture_without_scores_warns_of_nothing(tmp_path):
    import warnings
    from scorer.display import plot
    from scorer.display.view import TrackView
    board = pd.DataFrame([[None, "team2", "strict_score", np.nan, np.nan, np.nan, "errors"]],
                         columns=["rank", "run", "metric", "score", "ci95_low", "ci95_high",
                                  "status"])
    board["rank"] = board["rank"].astype("Int64")
    view = TrackView(metric="strict_score", metric_title="Strict score", leaderboard=board,
                     significance=None, per_query=pd.DataFrame(columns=["run", "query", "hop",
                                                                        "metric", "value"]),
                     per_hop=pd.DataFrame(columns=["run", "variant", "aggregate", "hop",
                                                   "metric", "value"]),
                     run_files={"team2": []}, signature="s", invocation="i")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        plot.leaderboard_plot(view, str(tmp_path / "board.png"), str(tmp_path / "board.svg"))
    assert (tmp_path / "board.png").stat().st_size > 0


@pytest.mark.slow
def test_fever_runs_with_and_without_ids_share_their_claims_against_a_redacted_gold(tmp_path):
    """Blind predictions are named by the gold line they are paired with: a run
    carrying ids and the same run without them draw the same units, so the
    track's samples are shared and their intervals equal (each run named its
    claims its own way, and the samples drew from both sets of names)."""
    fixture = ROOT / "fixtures" / "fever" / "blind"
    gold = [json.loads(line) for line in (fixture / "actual.jsonl").read_text().splitlines()]
    (tmp_path / "gold.jsonl").write_text("".join(json.dumps(dict(claim, id=0)) + "\n"
                                                 for claim in gold))
    predictions = (fixture / "predictions.jsonl").read_text().splitlines()
    (tmp_path / "with_ids.jsonl").write_text("\n".join(predictions) + "\n")
    (tmp_path / "without_ids.jsonl").write_text("".join(
        json.dumps({k: v for k, v in json.loads(line).items() if k != "id"}) + "\n"
        for line in predictions))
    track = scorer.score_track([str(tmp_path / name) for name in
                                ("gold.jsonl", "with_ids.jsonl", "without_ids.jsonl")],
                               policy=str(ROOT / "configs" / "fever.yaml"), bootstrap=50, seed=7,
                               output_dir=str(tmp_path / "track"))
    assert track.exit_status == 0
    rows = track.leaderboard.set_index("run")
    assert rows.loc["with_ids", ["ci95_low", "ci95_high"]].tolist() == \
        rows.loc["without_ids", ["ci95_low", "ci95_high"]].tolist()
    drawn = {token for line in (tmp_path / "track" / "track.bootsamples").read_text()
             .splitlines() for token in line.split()[1:]}
    assert drawn <= {f"line{n}" for n in range(1, len(gold) + 1)}


@pytest.mark.slow
@pytest.mark.parametrize("task, keys", [
    ("fever", ["task", "max_evidence", "labels", "leaderboard"]),
    ("coldstart", ["task", "right", "wrong", "ignore", "fields", "justifications", "discipline",
                   "validate", "input", "leaderboard"]),
])
def test_track_params_list_the_policy_keys_of_the_task_scored(tmp_path, task, keys):
    if task == "fever":
        fixture = ROOT / "fixtures" / "fever" / "blind"
        files = [str(fixture / "actual.jsonl"), str(fixture / "predictions.jsonl")]
        policy = str(ROOT / "configs" / "fever.yaml")
    else:
        demo = ROOT / "fixtures" / "coldstart" / "demo" / "input"
        files = [str(demo / name) for name in ("ldc-query.xml", "qrel.txt", "DEMORUN.tab.txt")]
        policy = None
    out = tmp_path / "track"
    switches = {"expand": "CSSF17"} if task == "coldstart" else {}
    scorer.score_track(files, policy=policy, output_dir=str(out), **switches)
    lines = (out / "track.params").read_text().splitlines()
    listed = lines[lines.index("#Policy:") + 1:]
    listed = [line.split(" => ")[0].strip() for line in listed[:listed.index("")]]
    assert listed == keys


@pytest.mark.parametrize("argv, message", [
    (["-figure_width", "1"], "-figure_width must be between 2 and 40 inches"),
    (["-trials", "abc"], "-trials must be a whole number of at least 1, not 'abc'"),
    (["-jobs", "0"], "-jobs must be a whole number of at least 1, not '0'"),
    (["-correction"], "Switch -correction needs a value"),
    (["-figure_widht", "3.3"], "Unknown switch: -figure_widht"),
])
def test_a_mistaken_switch_is_the_last_thing_printed(tmp_path, capsys, argv, message):
    """As python -m scorer does: the message and a pointer to -help, not 60 lines
    of usage that scroll the message away."""
    inputs = _demo_inputs(tmp_path)
    assert track_main(["-expand", "CSSF17", "-output_dir", str(tmp_path / "track"), *inputs,
                       *argv]) == 255
    out = capsys.readouterr().out
    assert out.startswith(f"ERROR: {message}")
    assert out.endswith("\nRun with -help for the switches and what they mean.\n")
    assert len(out.splitlines()) == 2
    assert not (tmp_path / "track").exists()


def test_a_track_without_output_dir_shows_the_usage(tmp_path, capsys):
    assert track_main(["-expand", "CSSF17", *_demo_inputs(tmp_path)]) == 255
    out = capsys.readouterr().out
    assert out.startswith("ERROR: -output_dir DIR is required") and "Track switches:" in out


def test_the_apis_per_query_holds_every_value_of_the_file_exactly(tmp_path):
    """TrackResult.per_query, read back from per_query.csv.gz, holds the very
    doubles the file writes (the default parser of pandas 2.0 was off in the
    last bit for a few per-query F1 and AP values of a Cold Start track)."""
    import csv
    import gzip
    import scorer
    from places import SHARED_TOOLS
    inputs = tmp_path / "in"
    if (SHARED_TOOLS / "gen_coldstart.py").is_file():
        subprocess.run([sys.executable, str(SHARED_TOOLS / "gen_coldstart.py"), str(inputs),
                        "--seed", "5", "--ldc-queries", "30", "--runs", "3"], check=True,
                       stdout=subprocess.DEVNULL)
        files = [inputs / "ldc-query.xml", inputs / "qrel.txt",
                 *sorted(inputs.glob("*.tab.txt"))]
    else:
        inputs.mkdir()
        files = [Path(name) for name in _demo_inputs(inputs)]
    result = scorer.score_track([str(f) for f in files], expand="CSSF17",
                                output_dir=str(tmp_path / "track"))
    with gzip.open(tmp_path / "track" / "per_query.csv.gz", "rt", encoding="utf-8") as handle:
        written = [float(row["value"]) if row["value"] else None
                   for row in csv.DictReader(handle)]
    read = [None if value != value else value for value in result.per_query["value"]]
    assert len(read) == len(written) > 50
    assert read == written
