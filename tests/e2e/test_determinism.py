"""Same inputs, switches and seed -> byte-identical reports, whatever
PYTHONHASHSEED is (checked in fresh interpreters)."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from golden import FIXTURES
from places import ROOT

# Seconds each (processes run and stopped): pytest -m "not slow" leaves them out.
pytestmark = pytest.mark.slow

DEMO = os.path.join(FIXTURES, "coldstart", "demo", "input")


def run_demo(out_dir, hash_seed: str) -> dict:
    prefix = os.path.join(out_dir, "run")
    env = dict(os.environ, PYTHONHASHSEED=hash_seed, PYTHONPATH=str(ROOT))
    subprocess.run([sys.executable, "-m", "scorer", "-expand", "CSSF17", "-bootstrap", "30",
                    "-seed", "4", "-output_file", prefix, "-error_file", prefix + ".errlog",
                    "ldc-query.xml", "qrel.txt", "DEMORUN.tab.txt"],
                   cwd=DEMO, env=env, check=True)
    outputs = {}
    for name in sorted(os.listdir(out_dir)):
        if not name.endswith(".params"):     # holds the time of day
            with open(os.path.join(out_dir, name), "rb") as f:
                outputs[name] = f.read()
    return outputs


def test_reports_do_not_depend_on_the_hash_seed(tmp_path):
    results = []
    for hash_seed in ("0", "1", "12345"):
        out_dir = tmp_path / hash_seed
        out_dir.mkdir()
        results.append(run_demo(str(out_dir), hash_seed))
    assert len(results[0]) >= 11
    assert results[0] == results[1] == results[2]


ROUNDS = os.path.join(FIXTURES, "coldstart", "toolkit", "packageoutput-after-generatequeries",
                      "input")


def run_rounds(out_dir, hash_seed: str) -> dict:
    """generatequeries round 2 and packageoutput on the same rounds (the round-2
    queries come from responses in load order, the packaged lines' :NIL_ ids
    from the runs' bytes)."""
    env = dict(os.environ, PYTHONHASHSEED=hash_seed, PYTHONPATH=str(ROOT))
    files = {name: os.path.join(ROUNDS, name) for name in os.listdir(ROUNDS)}
    tool = [sys.executable, "-m", "scorer.coldstart"]
    subprocess.run(tool + ["generatequeries", "-valid", files["sf-query.xml"],
                           os.path.join(out_dir, "r2.xml"), files["r1.tab.txt"]],
                   env=env, check=True, capture_output=True)
    for name in ("r1.tab.txt", "r2.tab.txt"):
        # the packaged run's node ids for lines without one: from the 2015 format
        with open(files[name], encoding="utf-8") as source, \
                open(os.path.join(out_dir, name), "w", encoding="utf-8") as target:
            target.writelines("\t".join(line.split("\t")[:8]) + "\n" for line in source)
    subprocess.run(tool + ["packageoutput", "-justifications", "1:3", files["sf-query.xml"],
                           os.path.join(out_dir, "r1.tab.txt"),
                           os.path.join(out_dir, "r2.tab.txt"),
                           os.path.join(out_dir, "packaged.tab.txt")],
                   env=env, check=True, capture_output=True)
    with open(os.path.join(out_dir, "r2.xml"), "rb") as r2, \
            open(os.path.join(out_dir, "packaged.tab.txt"), "rb") as packaged:
        return {"r2.xml": r2.read(), "packaged.tab.txt": packaged.read()}


def test_the_round_tools_do_not_depend_on_the_hash_seed(tmp_path):
    results = []
    for hash_seed in ("0", "1", "12345"):
        out_dir = tmp_path / hash_seed
        out_dir.mkdir()
        results.append(run_rounds(str(out_dir), hash_seed))
    assert results[0]["r2.xml"].count(b"<query ") >= 5
    assert b":NIL_" in results[0]["packaged.tab.txt"]
    assert results[0] == results[1] == results[2]


WORLD = os.path.join(FIXTURES, "coldstart", "toolkit", "validatekb-world-all", "input")
QUERIES = os.path.join(FIXTURES, "coldstart", "toolkit", "resolvequeries-world", "input",
                       "ldc-query.xml")


def run_kb_tools(work, hash_seed: str) -> dict:
    """validatekb (every format), validatequeries and resolvequeries on the
    project's KB world, in a copy of it: the files they write."""
    import shutil
    shutil.copytree(WORLD, work)
    shutil.copy(QUERIES, os.path.join(work, "ldc-query.xml"))
    env = dict(os.environ, PYTHONHASHSEED=hash_seed, PYTHONPATH=str(ROOT))
    for argv in (["validatekb", "-docs", "doclength.txt", "-output", "tac:edl:nug:eal:sen",
                  "-stats_file", "stats.txt", "-error_file", "kb.errlog", "kb/team.tac"],
                 ["validatequeries", "-expand", "-query_base", "CSSF17", "-error_file",
                  "q.errlog", "ldc-query.xml", "sf-query.xml"],
                 ["resolvequeries", "-error_file", "rq.errlog", "sf-query.xml",
                  "kb/team.tac.valid", "team.rq"]):
        subprocess.run([sys.executable, "-m", "scorer.coldstart", *argv], cwd=work, env=env,
                       check=True)
    outputs = {}
    for folder, _, names in os.walk(work):
        for name in names:
            with open(os.path.join(folder, name), "rb") as f:
                outputs[os.path.relpath(os.path.join(folder, name), work)] = f.read()
    return outputs


def test_the_kb_tools_do_not_depend_on_the_hash_seed(tmp_path):
    results = [run_kb_tools(str(tmp_path / seed), seed) for seed in ("0", "1", "12345")]
    assert "team.rq" in results[0] and "kb/event_arguments/linking/NYT_ENG_20140106.0001" in \
        results[0]
    assert results[0] == results[1] == results[2]


def test_power_and_slices_do_not_depend_on_the_hash_seed(tmp_path):
    """-power (its simulation, tables, curve) with -slices, in fresh interpreters."""
    import slice_tracks
    gold, predictions = slice_tracks.make("fever", n=60, runs=3)
    files = slice_tracks.write_track(tmp_path / "track", "fever", gold, predictions)
    found = []
    for hash_seed in ("0", "77"):
        out = tmp_path / f"out-{hash_seed}"
        env = dict(os.environ, PYTHONHASHSEED=hash_seed, PYTHONPATH=str(ROOT))
        subprocess.run([sys.executable, "-m", "scorer.track", "-policy",
                        slice_tracks.policy("fever"), "-bootstrap", "40", "-seed", "5",
                        "-trials", "300", "-jobs", "1", "-power", "0.5,2", "-slices", "label",
                        "-output_dir", str(out)] + files, env=env, check=True,
                       capture_output=True)
        found.append({name: (out / name).read_bytes() for name in sorted(os.listdir(out))
                      if name.startswith(("power", "slice"))})
    assert len(found[0]) == 9 + 16
    assert found[0] == found[1]
