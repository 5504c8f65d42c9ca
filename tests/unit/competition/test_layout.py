"""scorer/competition/layout.py: the scoring program's view of the platform's
folders: the bundle's reference folder read back (scoring.yaml as JSON, or
as the block YAML older bundles wrote; the leaderboard; the reference files),
and a submission archive checked before anything is unpacked."""
from __future__ import annotations

import json
import os
import stat
import zipfile

import pytest
import yaml

from scorer.competition import archive, bundle, layout
from scorer.competition.__main__ import main
from scorer.problems import ScorerError

from places import ROOT

DEMO = os.path.join(ROOT, "fixtures", "coldstart", "demo", "input")
FEVER = os.path.join(ROOT, "fixtures", "fever", "blind")
PREDICTION = '{"predicted_label": "SUPPORTS", "predicted_evidence": []}\n'


def make_bundle(tmp_path, *arguments) -> str:
    path = str(tmp_path / "bundle.zip")
    assert main(["-bundle", path, "-start", "2026-12-01", *arguments]) == 0
    return path


def _info(name: str, mode: int = stat.S_IFREG | 0o644) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name)
    info.create_system = 3
    info.external_attr = mode << 16
    return info


def test_a_policy_leaderboard_is_read_back(tmp_path):
    policy = tmp_path / "p.yaml"
    policy.write_text("task: fever\nleaderboard: [f1, strict_score]\n")
    path = make_bundle(tmp_path, "-policy", str(policy), os.path.join(FEVER, "actual.jsonl"))
    with zipfile.ZipFile(path) as z:
        z.extractall(tmp_path / "b")
    setup = layout.read_reference(str(tmp_path / "b" / "reference_data"))
    assert setup.leaderboard == ("f1", "strict_score")
    assert setup.references == (str(tmp_path / "b" / "reference_data" / "actual.jsonl"),)


def test_scoring_yaml_is_json_that_yaml_reads_alike_and_older_yaml_still_reads(tmp_path):
    """The bundle writes scoring.yaml as JSON (the program reads it without
    PyYAML); PyYAML reads the same values, and a block-YAML scoring.yaml (as
    older bundles wrote, or an organizer's edit) gives the same Setup."""
    queries = os.path.join(DEMO, "qids.txt")
    path = make_bundle(tmp_path, "-expand", "CSSF17", "-queries", queries, "-bootstrap", "20",
                       "-seed", "3", "-tabs", os.path.join(DEMO, "ldc-query.xml"),
                       os.path.join(DEMO, "qrel.txt"))
    with zipfile.ZipFile(path) as z:
        z.extractall(tmp_path / "b")
    reference = tmp_path / "b" / "reference_data"
    text = (reference / layout.SCORING_FILE).read_text(encoding="utf-8")
    data = json.loads("".join(line for line in text.splitlines(keepends=True)
                              if not line.startswith("#")))
    assert yaml.safe_load(text) == data
    assert data["switches"] == {"expand": "CSSF17", "queries": "qids.txt", "bootstrap": "20",
                                "seed": "3", "tabs": True}
    setup = layout.read_reference(str(reference))
    (reference / layout.SCORING_FILE).write_text(
        "# an older bundle's scoring.yaml\n" + yaml.safe_dump(data, sort_keys=False),
        encoding="utf-8")
    assert layout.read_reference(str(reference)) == setup
    assert setup.switches["queries"] == str(reference / "qids.txt")
    (reference / layout.SCORING_FILE).write_text("format: [1\n", encoding="utf-8")
    with pytest.raises(ScorerError, match="not valid YAML"):
        layout.read_reference(str(reference))


def test_member_checks_leave_nothing_unpacked(tmp_path):
    path = tmp_path / "a.zip"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr(_info("good.jsonl"), PREDICTION)
        z.writestr(_info("../bad.jsonl"), PREDICTION)
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    with pytest.raises(Exception, match="climbs out"):
        layout.submission_at(str(path), str(scratch), "fever")
    assert os.listdir(scratch) == []
    assert archive.MAX_RATIO == 200 and archive.DEFAULT_MAX_SIZE == 1 << 30
    assert bundle.COMMAND.startswith("python3 ")
