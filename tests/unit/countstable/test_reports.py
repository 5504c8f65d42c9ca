"""Claim-task reports: golden files on the hand-made fixtures, layouts,
json round trip, determinism.

Golden files: ``fixtures/<task>/<case>/expected/run.summary`` and
``run.debug``.  After a deliberate change of a layout, rewrite them with

    SCORER_REGEN_GOLDEN=1 .venv/bin/python -m pytest tests/test_claims_reports.py

and review the diff like code.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from scorer.countstable import reports
from scorer.countstable.driver import run
from scorer import tasks
from scorer.policy import build_policy
from scorer.problems import Problems
from scorer.request import Request

from places import ROOT

FIXTURES = ROOT / "fixtures"
REGEN = os.environ.get("SCORER_REGEN_GOLDEN") == "1"
GOLDEN = ("summary", "debug")


def cases():
    return sorted(p for task in ("scifact", "fever") for p in (FIXTURES / task).iterdir()
                  if (p / "case.json").exists())


def request_for(case: Path, **extra) -> Request:
    spec = json.loads((case / "case.json").read_text())
    # relative paths, so that no absolute path reaches a report
    files = tuple(os.path.relpath(case / f, ROOT) for f in spec["files"])
    return Request(policy=build_policy(spec["policy"], {}), files=files, **extra)


def reports_of(case: Path, **extra) -> dict:
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        return dict(run(request_for(case, **extra), Problems()))
    finally:
        os.chdir(cwd)


@pytest.mark.parametrize("case", cases(), ids=lambda p: f"{p.parent.name}/{p.name}")
@pytest.mark.parametrize("extension", GOLDEN)
def test_golden(case, extension):
    got = reports_of(case)[extension]
    path = case / "expected" / f"run.{extension}"
    if REGEN:
        path.parent.mkdir(exist_ok=True)
        path.write_text(got, encoding="utf-8")
    assert path.exists(), f"{path} missing: run with SCORER_REGEN_GOLDEN=1 and review it"
    assert got == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("case", cases(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_reports_in_write_order(case):
    texts = run(request_for(case), Problems())
    assert [extension for extension, _ in texts] == ["summary", "debug", "json", "params"]
    sampled = run(request_for(case, bootstrap=5, seed=1), Problems())
    assert [extension for extension, _ in sampled] == [
        "summary", "debug", "json", "params", "samplescores", "confidence", "bootsamples"]


@pytest.mark.parametrize("case", cases(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_summary_layout(case):
    texts = reports_of(case)
    lines = texts["summary"].splitlines()
    task = json.loads((case / "case.json").read_text())["policy"]["task"]
    names = [m.name for m in tasks.get(task).metrics]
    assert re.fullmatch(r"Metric +Score ", lines[0])
    assert len(lines) == 1 + len(names)
    assert len({len(line) for line in lines}) == 1  # padded columns
    metrics = json.loads(texts["json"])["metrics"]
    for line, name in zip(lines[1:], names):
        cell_name, cell_value = line.split()
        assert cell_name == name
        assert cell_value == "%6.4f" % metrics[name]
        assert line.index(cell_value) == lines[0].index("Score")


def test_json_round_trips_full_precision():
    case = FIXTURES / "fever" / "inline"
    document = json.loads(reports_of(case)["json"])
    assert document["task"] == "fever"
    assert list(document["metrics"]) == ["strict_score", "label_accuracy", "precision",
                                         "recall", "f1"]
    # 1.7 / 3 written with all its digits
    assert document["metrics"]["precision"] == (0.5 + 0.2 + 1.0) / 3
    assert document["claims"] == 5


def test_params_signature_and_invocation():
    case = FIXTURES / "scifact" / "basic"
    text = reports_of(case, argv=("-policy", "configs/scifact.yaml", "g", "p"),
                      cwd="/somewhere", policy_file="configs/scifact.yaml")["params"]
    assert "/somewhere$ python -m scorer -policy configs/scifact.yaml g p\n" in text
    assert "  max_evidence => 3\n" in text and "  labels => SUPPORT:CONTRADICT\n" in text
    signature = text.rstrip("\n").splitlines()[-1]
    assert re.fullmatch(r"scorer:[^|]+\|task:scifact\|max_evidence:3\|policy:[0-9a-f]{12}"
                        r"\|samples:none\|seed:none\|B:0", signature)
    sampled = reports_of(case, bootstrap=7, seed=42)
    signature = sampled["params"].rstrip("\n").splitlines()[-1]
    assert re.fullmatch(r"scorer:[^|]+\|task:scifact\|max_evidence:3\|policy:[0-9a-f]{12}"
                        r"\|samples:[0-9a-f]{12}\|seed:42\|B:7", signature)
    assert json.loads(sampled["json"])["signature"] == signature


def test_max_evidence_all_in_signature():
    text = reports_of(FIXTURES / "fever" / "inline_all")["params"]
    assert "|max_evidence:all|" in text


def test_confidence_and_samplescores_layout():
    fever = reports_of(FIXTURES / "fever" / "inline", bootstrap=20, seed=3)
    lines = fever["confidence"].splitlines()
    # FEVER's names fit in 20 characters: exactly the Cold Start layout
    assert lines[0] == " " * 22 + "99%(   95%(   90%(   mean   scr.   )90%   )95%   )99%"
    assert [line.split()[0] for line in lines[1:]] == \
        ["strict_score", "label_accuracy", "precision", "recall", "f1"]
    for line in lines[1:]:
        values = line[21:].split(" ")
        assert len(values) == 8 and all(re.fullmatch(r"\d\.\d{4}", v) for v in values)
    scores = fever["samplescores"].splitlines()
    assert scores[0].split() == ["Sample#", "strict_score", "label_accuracy", "precision",
                                 "recall", "f1"]
    assert len(scores) == 21
    assert [line.split()[0] for line in scores[1:]] == [str(i) for i in range(1, 21)]
    # SciFact's longer names: the header moves right to stay over the values
    scifact = reports_of(FIXTURES / "scifact" / "basic", bootstrap=20, seed=3)
    lines = scifact["confidence"].splitlines()
    width = len("abstract_rationalized_precision")
    assert lines[0] == " " * (width + 2) + reports.CONFIDENCE_HEADER
    assert all(line[width] == " " and line[width + 1] != " " for line in lines[1:])


def test_no_samples_gives_header_only():
    texts = reports_of(FIXTURES / "fever" / "inline", bootstrap=0, seed=3)
    assert texts["confidence"].count("\n") == 1
    assert texts["samplescores"].count("\n") == 1


def test_every_metric_is_explained_by_help():
    for task in ("scifact", "fever"):
        record = tasks.get(task)
        text = "\n".join(record.help_lines())
        for metric in record.metrics:
            assert f"  {metric.name}: " in text
            assert len(metric.explanation) > 20


@pytest.mark.slow
def test_outputs_do_not_depend_on_the_hash_seed():
    """Same inputs, different PYTHONHASHSEED: byte-identical reports (bootstrap included)."""
    script = (
        "import json, sys\n"
        "from scorer.countstable.driver import run\n"
        "from scorer.policy import build_policy\n"
        "from scorer.problems import Problems\n"
        "from scorer.request import Request\n"
        "out = {}\n"
        "for task, files in [('scifact', ('fixtures/scifact/basic/gold.jsonl',"
        " 'fixtures/scifact/sets_shape/predictions.jsonl')),"
        " ('fever', ('fixtures/fever/blind/actual.jsonl', 'fixtures/fever/blind/predictions.jsonl'))]:\n"
        "    r = Request(policy=build_policy({'task': task}, {}), files=files, bootstrap=30, seed=9)\n"
        "    out[task] = dict(run(r, Problems()))\n"
        "sys.stdout.write(json.dumps(out))\n")
    outputs = []
    for seed in ("0", "1", "4242"):
        env = dict(os.environ, PYTHONHASHSEED=seed, PYTHONPATH=str(ROOT))
        result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env,
                                capture_output=True, text=True, check=True)
        outputs.append(result.stdout)
    assert outputs[0] == outputs[1] == outputs[2]
    assert "bootsamples" in outputs[0]
