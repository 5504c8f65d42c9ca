"""scorer.score: the command line's numbers and texts, as DataFrames."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

import scorer
from scorer import cli

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "fixtures" / "coldstart" / "demo" / "input"
SCIFACT = ROOT / "fixtures" / "scifact" / "basic"


def _demo_files():
    return [str(DEMO / name) for name in ("ldc-query.xml", "qrel.txt", "DEMORUN.tab.txt")]


def test_score_gives_the_reports_the_command_line_writes(tmp_path):
    result = scorer.score(_demo_files(), expand="CSSF17", queries=str(DEMO / "qids.txt"),
                          bootstrap=40, seed=3)
    assert cli.main(["-expand", "CSSF17", "-queries", str(DEMO / "qids.txt"), "-bootstrap", "40",
                     "-seed", "3", "-output_file", str(tmp_path / "run"), "-error_file",
                     str(tmp_path / "run.errlog")] + _demo_files()) == 0
    for extension, text in result.reports.items():
        if extension != "params":
            assert (tmp_path / f"run.{extension}").read_text() == text, extension
    assert result.error_count == 0 and result.task == "coldstart"


def test_score_tables_hold_the_reported_numbers():
    result = scorer.score(_demo_files(), expand="CSSF17", bootstrap=40, seed=3)
    summary = result.summary.set_index(["variant", "aggregate", "hop", "metric"])["value"]
    lines = {tuple(line.split()[:3]): line.split()
             for line in result.reports["summary"].splitlines() if line.split()}
    # .summary: "LDC-MEAN-ALL-Macro <run> ALL P R F"
    macro = [cells for key, cells in lines.items() if key[0] == "LDC-MEAN-ALL-Macro"
             and key[2] == "ALL"][0]
    assert f"{summary[('LDCMEAN', 'macro', 'ALL', 'F1')]:.4f}" == macro[-1]
    assert result.values["ldcmean_macro_f1"] == summary[("LDCMEAN", "macro", "ALL", "F1")]
    confidence = result.confidence.set_index("code")
    line = [l for l in result.reports["confidence"].splitlines()
            if l.startswith("ALLEP_LDCMEAN_Ma_A_F ")][0].split()
    assert f"{confidence.loc['ALLEP_LDCMEAN_Ma_A_F', 'low95']:.4f}" == line[2]
    assert len(result.samplescores) == 40
    assert set(result.per_query["hop"]) <= {"0", "1", "ALL"}


def test_score_claims_and_errors():
    result = scorer.score([str(SCIFACT / "gold.jsonl"), str(SCIFACT / "predictions.jsonl")],
                          policy=str(ROOT / "configs" / "scifact.yaml"))
    assert result.values["sentence_label_f1"] == pytest.approx(0.5833333333333334, abs=0)
    assert result.confidence is None
    with pytest.raises(scorer.ScorerError, match="Could not open"):
        scorer.score([os.devnull + "-missing.xml", "x", "y"], expand="CSSF17")
    with pytest.raises(scorer.ScorerError, match="writes no file"):
        scorer.score(_demo_files(), output_file="x")
