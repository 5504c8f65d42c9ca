"""python -m scorer.track -slices: each slice's leaderboard is what a track
scored on that slice's units alone gives (its scores and ranks, as written),
every task; its intervals come from the track's one draw restricted to the
slice; one correction over every slice's pairs; the track's own files are
those of a track without -slices; bad slicings are refused with nothing
written."""
from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import scorer
from scorer.problems import ScorerError
from scorer.track import statistics
from scorer.track.__main__ import main as track_main
from scorer.track.folder import exact_floats

import slice_tracks
from places import FIXTURES
from slice_tracks import TASKS, policy

SAMPLES = ["-bootstrap", "60", "-seed", "4", "-trials", "400"]


def _run_track(files: list, out: Path, task: str, *extra, samples=True) -> pd.DataFrame:
    status = track_main(["-policy", policy(task), *(SAMPLES if samples else []), "-jobs", "1",
                         *extra,
                         "-output_dir", str(out)] + files)
    assert status == 0
    return pd.read_csv(out / "leaderboard.csv", **exact_floats())


def _slice_units(task: str, gold: list, slicing: str) -> dict:
    """The slices as the test's own reading of the gold makes them."""
    found: dict = {}
    for record in gold:
        if slicing == "field:domain":
            names = [record["domain"]]
        elif task == "scifact":
            names = sorted({r["label"] for rs in record["evidence"].values() for r in rs}) \
                or ["NOT_ENOUGH_INFO"]
        else:
            names = [record["label"]]
        for name in names:
            found.setdefault(name, set()).add(slice_tracks.unit_id(task, record))
    return found


@pytest.mark.parametrize("task", TASKS)
@pytest.mark.parametrize("slicing", ["label", "field:domain"])
def test_each_slice_scores_as_a_track_of_its_units_alone(task, slicing, tmp_path):
    gold, predictions = slice_tracks.make(task)
    files = slice_tracks.write_track(tmp_path / "all", task, gold, predictions)
    out = tmp_path / "track"
    _run_track(files, out, task, "-slices", slicing)
    boards = pd.read_csv(out / "slice_leaderboards.csv", **exact_floats(),
                         dtype={"slice": str})
    expected = _slice_units(task, gold, slicing)
    assert set(boards["slice"]) == set(expected)
    for name, units in expected.items():
        alone = _run_track(slice_tracks.write_track(tmp_path / f"only-{name}", task,
                                                    [g for g in gold], predictions, units),
                           tmp_path / f"track-{name}", task, samples=False)
        mine = boards[boards["slice"] == name].reset_index(drop=True)
        assert (mine["units"] == len(units)).all()
        assert mine["run"].tolist() == alone["run"].tolist(), name
        assert mine["rank"].tolist() == alone["rank"].tolist(), name
        assert mine["score"].tolist() == alone["score"].tolist(), name
        # The written text of the scores, too.
        assert mine["score"].map(repr).tolist() == alone["score"].map(repr).tolist()


def test_a_track_with_slices_keeps_the_tracks_own_files(tmp_path):
    gold, predictions = slice_tracks.make("fever")
    files = slice_tracks.write_track(tmp_path / "all", "fever", gold, predictions)
    _run_track(files, tmp_path / "plain", "fever")
    _run_track(files, tmp_path / "sliced", "fever", "-slices", "label")
    plain = sorted(os.listdir(tmp_path / "plain"))
    sliced = sorted(os.listdir(tmp_path / "sliced"))
    assert sorted(set(sliced) - set(plain)) == sorted(
        [f"{stem}.{ext}" for stem in ("slice_leaderboards", "slice_significance", "slice_table",
                                       "slice_interaction")
         for ext in ("csv", "json", "md")] + ["slice_table.tex", "slices.pdf", "slices.png",
                                              "slices.svg"])
    assert set(plain) <= set(sliced)
    for name in plain:
        if name in ("track.params", "index.html", "runs"):
            continue            # (the invocation differs; the page's section: below)
        assert (tmp_path / "plain" / name).read_bytes() == \
            (tmp_path / "sliced" / name).read_bytes(), name


def test_slice_intervals_are_the_tracks_draw_restricted_and_one_correction_covers_all(tmp_path):
    gold, predictions = slice_tracks.make("fever", n=60)
    files = slice_tracks.write_track(tmp_path / "all", "fever", gold, predictions)
    track = scorer.score_track(files, policy=policy("fever"), bootstrap=80, seed=3, trials=500,
                               slices="label")
    sliced = track.slices
    # The draw, recomputed by hand from the per-unit statistics: each sample's
    # counts of the slice's claims, the metric finished on those sums.
    from scorer.track import runner
    scored = [r for r in track.results if "strict_score" in r.values]
    units = runner.unit_ids(scored, "strict_score")
    expected = _slice_units("fever", gold, "label")
    for name, members in expected.items():
        board = sliced.leaderboards[sliced.leaderboards["slice"] == name]
        for _, row in board.iterrows():
            result = next(r for r in scored if r.name == row["run"])
            statistic = result.statistics["strict_score"]
            rows = [statistic.units.index(u) for u in units if u in members]
            assert row["units"] == len(rows)
            value = statistics.run_values(statistic.rule, statistic.if_empty,
                                          statistic.matrix[rows].sum(axis=0)[None, :], 1)[0][0]
            assert row["score"] == value
    # One family: Holm over every slice's pairs together.
    tests = sliced.significance
    assert len(tests) == 3 * 6
    assert tests["p_holm"].tolist() == statistics.holm(tests["p_randomization"].tolist())
    assert tests["p_bh"].tolist() == statistics.benjamini_hochberg(
        tests["p_randomization"].tolist())
    assert (tests["significant"] == (tests["p_holm"] < 0.05)).all()
    # The run x slice table holds every slice's headline and interval.
    table = sliced.table
    assert table["run"].tolist() == track.leaderboard["run"].tolist()
    for name in expected:
        board = sliced.leaderboards[sliced.leaderboards["slice"] == name].set_index("run")
        assert table[name].tolist() == [board.loc[run, "score"] for run in table["run"]]
        assert table[f"{name}_ci95_low"].tolist() == [board.loc[run, "ci95_low"]
                                                      for run in table["run"]]


def test_slice_intervals_come_from_the_same_samples(tmp_path):
    """A slice holding every unit is the track itself: the same intervals,
    rank ranges and p-values of the bootstrap."""
    gold, predictions = slice_tracks.make("classification")
    files = slice_tracks.write_track(tmp_path / "all", "classification", gold, predictions)
    every = tmp_path / "every.tsv"
    every.write_text("".join(f"{g['id']}\tall_units\n" for g in gold))
    track = scorer.score_track(files, policy=policy("classification"), bootstrap=70, seed=9,
                               trials=300, slices=f"file:{every}")
    board = track.slices.leaderboards
    overall = track.leaderboard
    for column in ("run", "rank", "score", "ci95_low", "ci95_high", "rank_low", "rank_high",
                   "group"):
        assert board[column].tolist() == overall[column].tolist(), column
    for column in ("run_a", "run_b", "delta", "delta_ci95_low", "p_bootstrap",
                   "p_randomization", "p_holm"):
        assert track.slices.significance[column].tolist() == \
            track.significance[column].tolist(), column


def _refused(capsys, tmp_path, files, task, spec) -> str:
    out = tmp_path / "refused"
    status = track_main(["-policy", policy(task), *SAMPLES, "-slices", spec,
                         "-output_dir", str(out)] + files)
    assert status == 255
    assert not out.exists()
    return capsys.readouterr().err


def test_bad_slicings_are_refused_naming_file_line_and_unit(tmp_path, capsys):
    gold, predictions = slice_tracks.make("scifact", n=12, runs=2)
    files = slice_tracks.write_track(tmp_path / "all", "scifact", gold, predictions)
    unknown = tmp_path / "unknown.tsv"
    unknown.write_text("1\tA\n99\tA\n")
    assert f"{unknown} line 2: unit '99' is not one of the track's 12 claims" in \
        _refused(capsys, tmp_path, files, "scifact", f"file:{unknown}")
    empty = tmp_path / "empty.tsv"
    empty.write_text("\n")
    assert f"{empty}: no slice" in _refused(capsys, tmp_path, files, "scifact", f"file:{empty}")
    bad = tmp_path / "bad.tsv"
    bad.write_text("1\tA\n2\n")
    assert f"{bad} line 2: expected two columns" in \
        _refused(capsys, tmp_path, files, "scifact", f"file:{bad}")
    assert "no line has the key 'venue'" in \
        _refused(capsys, tmp_path, files, "scifact", "field:venue")
    partial = [dict(g) for g in gold]
    del partial[3]["domain"]
    holes = slice_tracks.write_track(tmp_path / "holes", "scifact", partial, predictions)
    assert f"{holes[0]} line 4: unit '4' has no 'domain'" in \
        _refused(capsys, tmp_path, holes, "scifact", "field:domain")
    assert "-slices hop: not a slicing of SciFact" in \
        _refused(capsys, tmp_path, files, "scifact", "hop")
    twice = tmp_path / "twice.tsv"
    twice.write_text("1\tA\n1 A\n")
    assert f"{twice} line 2: unit '1' is in slice 'A' already (line 1)" in \
        _refused(capsys, tmp_path, files, "scifact", f"file:{twice}")


def test_a_unit_may_sit_in_several_slices(tmp_path):
    gold, predictions = slice_tracks.make("fever", n=20, runs=2)
    files = slice_tracks.write_track(tmp_path / "all", "fever", gold, predictions)
    spec = tmp_path / "slices.tsv"
    spec.write_text("".join(f"{i}\tfirst\n" for i in range(1, 13))
                    + "".join(f"{i}\tsecond\n" for i in range(8, 21)))
    track = scorer.score_track(files, policy=policy("fever"), bootstrap=30, seed=1, trials=200,
                               slices=f"file:{spec}")
    assert track.slices.names == ["first", "second"]
    assert track.slices.sizes == {"first": 12, "second": 13}


def test_the_interaction_is_tested_for_every_pair_compared(tmp_path):
    """A run better on one label and worse on another than its neighbour: its
    pair's difference depends on the slice; two runs that differ on no claim:
    p 1."""
    gold, predictions = slice_tracks.make("fever", n=90, runs=2)
    flipped = []
    for g, p in zip(gold, predictions[0]):
        q = dict(p)
        q["predicted_label"] = g["label"] if g["label"] == "SUPPORTS" else "SUPPORTS"
        flipped.append(q)
    other = []
    for g, p in zip(gold, predictions[0]):
        q = dict(p)
        q["predicted_label"] = g["label"] if g["label"] != "SUPPORTS" else "REFUTES"
        other.append(q)
    files = slice_tracks.write_track(tmp_path / "all", "fever", gold,
                                     [flipped, other, [dict(p) for p in other]])
    track = scorer.score_track(files, policy=policy("fever"), bootstrap=40, seed=2, trials=200,
                               slices="label")
    rows = track.slices.interaction
    assert len(rows) == 3
    by_pair = {frozenset((a, b)): row for a, b, (_i, row) in
               zip(rows["run_a"], rows["run_b"], rows.iterrows())}
    assert by_pair[frozenset(("team0", "team1"))]["p_interaction"] == 1 / 1001
    assert by_pair[frozenset(("team0", "team1"))]["significant"]
    same = by_pair[frozenset(("team1", "team2"))]
    assert same["p_interaction"] == 1.0 and same["statistic"] == 0.0
    assert not same["significant"]


def _coldstart_track(folder: Path) -> tuple:
    """A generated Cold Start case (30 LDC queries) and three runs of it."""
    import re
    import workload
    folder.mkdir()
    workload.generate(str(folder), 30, seed=5)
    lines = (folder / f"{workload.RUNID}.tab.txt").read_text().splitlines()
    sf = sorted({"_".join(line.split("\t")[0].split("_")[:3]) for line in lines})
    runs = folder / "runs"
    runs.mkdir()
    for name, keep in (("RUNA", lambda i: True), ("RUNB", lambda i: i % 3),
                       ("RUNC", lambda i: i % 2 == 0)):
        kept = [line.split("\t") for line in lines
                if keep(sf.index("_".join(line.split("\t")[0].split("_")[:3])))]
        (runs / f"{name}.tab.txt").write_text(
            "".join("\t".join(c[:2] + [name] + c[3:]) + "\n" for c in kept))
    xml = (folder / "ldc-query.xml").read_text()
    blocks = re.findall(r'  <query id="([^"]+)">.*?</query>\n', xml, flags=re.S)
    return folder, xml, blocks


@pytest.mark.parametrize("slicing", ["slot", "language"])
def test_cold_start_slices_score_as_a_track_of_their_queries_alone(slicing, tmp_path):
    import re
    folder, xml, _ids = _coldstart_track(tmp_path / "world")
    common = ["-expand", "CSSF17", "-jobs", "1"]
    inputs = [str(folder / "ldc-query.xml"), str(folder / "qrel.txt"), str(folder / "runs")]
    out = tmp_path / "track"
    assert track_main(common + ["-bootstrap", "40", "-seed", "2", "-trials", "300",
                                "-slices", slicing, "-output_dir", str(out)] + inputs) == 0
    boards = pd.read_csv(out / "slice_leaderboards.csv", **exact_floats(), dtype={"slice": str})
    assert boards["slice"].nunique() >= 2
    head, tail = xml.split("  <query ", 1)[0], "</query_set>\n"
    queries = {m.group(1): m.group(0) for m in
               re.finditer(r'  <query id="([^"]+)">.*?</query>\n', xml, flags=re.S)}
    for name, mine in boards.groupby("slice", sort=False):
        units = _cold_start_units(queries, slicing, name)
        assert (mine["units"] == len(units)).all()
        only = tmp_path / f"only-{len(units)}-{abs(hash(name))}"
        only.mkdir()
        (only / "ldc-query.xml").write_text(head + "".join(queries[u] for u in units) + tail)
        # The assessments and the runs' lines of those queries alone.
        kept = {sf for ldc, sf in (line.split() for line in
                                   (folder / "qids.txt").read_text().splitlines())
                if ldc in units}
        (only / "runs").mkdir()
        for source, target in [(folder / "qrel.txt", only / "qrel.txt")] + [
                (path, only / "runs" / path.name) for path in (folder / "runs").iterdir()]:
            target.write_text("".join(
                line + "\n" for line in source.read_text().splitlines()
                if "_".join(line.split("\t")[0 if "runs" in str(target) else 1].split(":")[0]
                            .split("_")[:3]) in kept))
        alone = tmp_path / f"alone-{abs(hash(name))}"
        track_main(common + ["-output_dir", str(alone), str(only / "ldc-query.xml"),
                             str(only / "qrel.txt"), str(only / "runs")])
        board = pd.read_csv(alone / "leaderboard.csv", **exact_floats())
        # A run without a response on the slice: alone, its cut-down file is
        # empty (unscored); on the slice it is a run of the track with nothing
        # right there, its score the metric's for no response (docs/statistics.md).
        empty = board[board["status"] == "empty"]["run"].tolist()
        assert mine[mine["run"].isin(empty)]["score"].tolist() == [0.0] * len(empty)
        board = board[board["status"] == "ok"].reset_index(drop=True)
        mine = mine[~mine["run"].isin(empty)].reset_index(drop=True)
        assert len(board) >= 1
        assert mine["run"].tolist() == board["run"].tolist(), name
        assert mine["rank"].tolist() == board["rank"].tolist(), name
        assert mine["score"].map(repr).tolist() == board["score"].map(repr).tolist(), name


def test_cold_start_hop_slices_score_each_hop_as_the_runs_ap_reports_do(tmp_path, capsys):
    """-slices hop: every LDC query is a unit of hop0 and of hop1, scored there
    on that hop alone; each slice's scores are the runs' own per-hop LDC-MEAN
    AP (their .ap reports' hop lines, which the Perl's match), ranked as such."""
    folder, _xml, _ids = _coldstart_track(tmp_path / "world")
    inputs = [str(folder / "ldc-query.xml"), str(folder / "qrel.txt"), str(folder / "runs")]
    track = scorer.score_track(inputs, expand="CSSF17", bootstrap=40, seed=2, trials=300,
                               slices="hop", power="1")
    boards = track.slices.leaderboards
    assert track.slices.names == ["hop0", "hop1"]
    per_hop = track.per_hop
    for hop, name in (("0", "hop0"), ("1", "hop1")):
        board = boards[boards["slice"] == name]
        assert (board["units"] == 30).all()
        expected = per_hop[(per_hop["variant"] == "LDCMEAN") & (per_hop["hop"] == hop)
                           & (per_hop["metric"] == "AP")].set_index("run")["value"]
        assert board["score"].tolist() == [expected[run] for run in board["run"]], name
        order = sorted(expected.index, key=lambda run: (-expected[run], run))
        assert board["run"].tolist() == order
        assert board["ci95_low"].notna().all()
    # the two hops differ: the slices take each hop's own statistics
    assert boards[boards["slice"] == "hop0"]["score"].tolist() != \
        boards[boards["slice"] == "hop1"]["score"].tolist()
    # every unit is in both hops: no permutation of units among them to test
    assert len(track.slices.interaction) == 0
    assert set(track.power[0]["slice"]) == {"all", "hop0", "hop1"}
    # the .summary's per-hop P/R/F1 lines are not sums of the drawn statistics
    status = track_main(["-expand", "CSSF17", "-slices", "hop", "-metric", "sf_micro_f1",
                         "-output_dir", str(tmp_path / "refused")] + inputs)
    assert status == 255 and not (tmp_path / "refused").exists()
    assert "-slices hop scores each hop as the runs' .ap reports do: rank by ldcmean_ap, " \
        "sf_ap (-metric), not sf_micro_f1" in capsys.readouterr().err


def test_a_gold_without_lines_of_keys_refuses_field_slices_naming_the_tasks_own(tmp_path,
                                                                               capsys):
    """Cold Start's gold (the query XML, the assessments) has no lines of
    keys: -slices field:KEY is refused, naming the slicings it has."""
    demo = FIXTURES / "coldstart" / "demo" / "input"
    inputs = [str(demo / name) for name in ("ldc-query.xml", "qrel.txt", "DEMORUN.tab.txt")]
    status = track_main(["-expand", "CSSF17", "-slices", "field:domain",
                         "-output_dir", str(tmp_path / "refused")] + inputs)
    assert status == 255 and not (tmp_path / "refused").exists()
    assert f"{inputs[0]}: Cold Start's gold has no lines of keys to slice; -slices takes " \
        "slot, language, hop, file:PATH" in capsys.readouterr().err


def _cold_start_units(queries: dict, slicing: str, name: str) -> list:
    """The test's own reading of the query file: the slot of hop 0, or the
    languages of the entry points' documents (their ids' prefixes)."""
    import re
    prefixes = {"ENGLISH": "ENG", "CHINESE": "CMN", "SPANISH": "SPA"}
    found = []
    for unit, block in queries.items():
        if slicing == "slot":
            if re.search(r"<slot0>(.*?)</slot0>", block).group(1) == name:
                found.append(unit)
        elif any(d.startswith(prefixes[name]) for d in re.findall(r"<docid>(.*?)</docid>", block)):
            found.append(unit)
    return found


def test_the_picture_and_the_page_show_every_slice(tmp_path):
    gold, predictions = slice_tracks.make("scifact", n=30, runs=3)
    files = slice_tracks.write_track(tmp_path / "all", "scifact", gold, predictions)
    for name in ("one", "two"):
        _run_track(files, tmp_path / name, "scifact", "-slices", "field:domain")
    for picture in ("slices.svg", "slices.png", "slices.pdf"):
        assert (tmp_path / "one" / picture).read_bytes() == \
            (tmp_path / "two" / picture).read_bytes(), picture
    svg = (tmp_path / "one" / "slices.svg").read_text()
    table = pd.read_csv(tmp_path / "one" / "slice_table.csv")
    for domain in sorted(set(table.columns) & set(slice_tracks.DOMAINS)):
        assert f"{domain} (n=" in svg
    for run in table["run"]:
        assert f">{run}<" in svg or f"{run}" in svg
    page = (tmp_path / "one" / "index.html").read_text()
    assert 'id="slices"' in page and 'id="slice-table"' in page and 'id="slice-interaction"' in page
    assert page.index('id="significance"') < page.index('id="slices"') < page.index('id="runs"')
    plain = tmp_path / "plain"
    _run_track(files, plain, "scifact")
    assert 'id="slices"' not in (plain / "index.html").read_text()


def test_power_writes_its_tables_and_curve_and_changes_nothing_else(tmp_path, capsys):
    gold, predictions = slice_tracks.make("fever", n=60, runs=3)
    files = slice_tracks.write_track(tmp_path / "all", "fever", gold, predictions)
    _run_track(files, tmp_path / "plain", "fever")
    _run_track(files, tmp_path / "power", "fever", "-power", "0.5,1,2,4")
    added = sorted(set(os.listdir(tmp_path / "power")) - set(os.listdir(tmp_path / "plain")))
    assert added == sorted(["power.csv", "power.json", "power.md", "power_pairs.csv",
                            "power_pairs.json", "power_pairs.md", "power.png", "power.svg",
                            "power.pdf"])
    for name in os.listdir(tmp_path / "plain"):
        if name not in ("track.params", "index.html", "runs"):
            assert (tmp_path / "plain" / name).read_bytes() == \
                (tmp_path / "power" / name).read_bytes(), name
    sizes = pd.read_csv(tmp_path / "power" / "power.csv", **exact_floats())
    assert list(sizes.columns[:2]) == ["units", "min_detectable_difference"]
    assert sizes["units"].tolist() == [30, 30, 60, 60, 120, 120, 240, 240]
    pairs = pd.read_csv(tmp_path / "power" / "power_pairs.csv", **exact_floats())
    board = pd.read_csv(tmp_path / "power" / "leaderboard.csv", **exact_floats())
    assert list(zip(pairs["run_a"], pairs["run_b"])) == list(zip(board["run"], board["run"][1:]))
    status = track_main(["-policy", policy("fever"), "-power", "twice", "-output_dir",
                         str(tmp_path / "refused")] + files)
    assert status == 255 and not (tmp_path / "refused").exists()
    assert "-power takes multiples of the track's units" in capsys.readouterr().out
    page = (tmp_path / "power" / "index.html").read_text()
    assert 'id="power"' in page and 'id="power-pairs"' in page
    assert 'id="power"' not in (tmp_path / "plain" / "index.html").read_text()


def test_power_with_slices_gives_each_slice_what_a_track_of_its_units_gives(tmp_path):
    gold, predictions = slice_tracks.make("fever", n=80, runs=3)
    files = slice_tracks.write_track(tmp_path / "all", "fever", gold, predictions)
    _run_track(files, tmp_path / "power", "fever", "-power", "1,2")
    _run_track(files, tmp_path / "sliced", "fever", "-power", "1,2", "-slices", "label")
    read = dict(**exact_floats(), dtype={"slice": str}, keep_default_na=False,
                na_values=[""])
    sizes = pd.read_csv(tmp_path / "sliced" / "power.csv", **read)
    pairs = pd.read_csv(tmp_path / "sliced" / "power_pairs.csv", **read)
    alone = pd.read_csv(tmp_path / "power" / "power.csv", **exact_floats())
    alone_pairs = pd.read_csv(tmp_path / "power" / "power_pairs.csv", **exact_floats())
    assert sizes.columns[0] == "slice" and pairs.columns[0] == "slice"
    # The rows over every unit are those of -power alone.
    overall = sizes[sizes["slice"] == "all"].drop(columns="slice").reset_index(drop=True)
    assert overall.equals(alone)
    assert pairs[pairs["slice"] == "all"].drop(columns="slice").reset_index(drop=True) \
        .equals(alone_pairs)
    boards = pd.read_csv(tmp_path / "sliced" / "slice_leaderboards.csv", **exact_floats(),
                         dtype={"slice": str})
    expected = _slice_units("fever", gold, "label")
    family = int(pd.read_csv(tmp_path / "sliced" / "slice_significance.csv").shape[0])
    assert set(sizes["slice"]) == {"all", *expected}
    for name, units in expected.items():
        mine = sizes[sizes["slice"] == name].reset_index(drop=True)
        board = boards[boards["slice"] == name]
        assert mine["units"].tolist() == [len(units)] * 2 + [2 * len(units)] * 2
        assert set(mine["alpha"]) == {0.05, 0.05 / family}
        mine_pairs = pairs[pairs["slice"] == name]
        assert list(zip(mine_pairs["run_a"], mine_pairs["run_b"])) == \
            list(zip(board["run"], board["run"][1:]))
        # A track of the slice's units alone: the same uncorrected rows.
        own = tmp_path / f"only-{name}"
        _run_track(slice_tracks.write_track(own, "fever", gold, predictions, units),
                   tmp_path / f"track-{name}", "fever", "-power", "1,2")
        theirs = pd.read_csv(tmp_path / f"track-{name}" / "power.csv", **exact_floats())
        plain = ["units", "min_detectable_difference", "simulation_low", "simulation_high",
                 "sigma", "run_a", "run_b"]
        assert mine[mine["alpha"] == 0.05][plain].reset_index(drop=True).equals(
            theirs[theirs["alpha"] == 0.05][plain].reset_index(drop=True)), name
        their_pairs = pd.read_csv(tmp_path / f"track-{name}" / "power_pairs.csv",
                                  **exact_floats())
        assert mine_pairs["units_needed"].tolist() == their_pairs["units_needed"].tolist()
    page = (tmp_path / "sliced" / "index.html").read_text()
    assert 'id="power"' in page and 'id="power-sizes"' in page and 'id="power-pairs"' in page
    assert page.index('id="slices"') < page.index('id="power"')


def test_power_with_one_run_is_refused(tmp_path, capsys):
    gold, predictions = slice_tracks.make("fever", n=10, runs=1)
    files = slice_tracks.write_track(tmp_path / "all", "fever", gold, predictions)
    status = track_main(["-policy", policy("fever"), "-power", "1,2", "-output_dir",
                         str(tmp_path / "refused")] + files)
    assert status == 255 and not (tmp_path / "refused").exists()
    assert "-power measures the spread of two runs' paired differences" in \
        capsys.readouterr().err
