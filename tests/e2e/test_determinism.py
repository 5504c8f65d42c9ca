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
