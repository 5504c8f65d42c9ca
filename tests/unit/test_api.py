"""scorer.score: the command line's numbers and texts, as DataFrames."""
from __future__ import annotations

import os

import pytest

import scorer
from scorer import cli

from places import ROOT

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


def test_run_ids_name_the_runs_a_file_holds(tmp_path):
    """Cold Start: the run ids of the submission file (a leaderboard refuses a
    file of several); a claim task's predictions are one run: none."""
    assert scorer.score(_demo_files(), expand="CSSF17").run_ids == ("DEMORUN",)
    lines = (DEMO / "DEMORUN.tab.txt").read_text().splitlines(keepends=True)
    both = tmp_path / "BOTH.tab.txt"
    both.write_text("".join(lines) + "".join(line.replace("\tDEMORUN\t", "\tOTHER\t")
                                             for line in lines))
    files = _demo_files()[:2] + [str(both)]
    assert scorer.score(files, expand="CSSF17").run_ids == ("DEMORUN", "OTHER")
    claims = scorer.score([str(SCIFACT / "gold.jsonl"), str(SCIFACT / "predictions.jsonl")],
                          policy=str(ROOT / "configs" / "scifact.yaml"))
    assert claims.run_ids == ()


def test_score_claims_and_errors():
    result = scorer.score([str(SCIFACT / "gold.jsonl"), str(SCIFACT / "predictions.jsonl")],
                          policy=str(ROOT / "configs" / "scifact.yaml"))
    assert result.values["sentence_label_f1"] == pytest.approx(0.5833333333333334, abs=0)
    assert result.confidence is None
    with pytest.raises(scorer.ScorerError, match="Could not open"):
        scorer.score([os.devnull + "-missing.xml", "x", "y"], expand="CSSF17")
    with pytest.raises(scorer.ScorerError, match="writes no file"):
        scorer.score(_demo_files(), output_file="x")


def test_errors_in_the_input_raise_with_the_result():
    # The command line writes the reports and exits 255; the numbers (all zeros for a
    # -runids typo) must not pass for a result.
    with pytest.raises(scorer.InputErrors) as raised:
        scorer.score(_demo_files(), expand="CSSF17", runids="DEMORUM")
    assert isinstance(raised.value, scorer.ScorerError)
    assert str(raised.value).startswith("ERROR: Run id DEMORUM was asked for (-runids)")
    assert str(raised.value).endswith("1 error encountered")
    result = raised.value.result
    assert result.error_count == 1 and set(result.summary["value"]) == {0.0}
    assert "DEMORUM" in result.reports["sf"] and result.errlog.startswith("ERROR: Run id")


@pytest.mark.parametrize("function, arguments, message", [
    ("score_track", dict(jobs=0), "jobs must be a whole number of at least 1, not 0"),
    ("score_track", dict(jobs=-1), "jobs must be a whole number of at least 1, not -1"),
    ("score_track", dict(jobs="2"), "jobs must be a whole number of at least 1, not '2'"),
    ("score_track", dict(jobs=True), "jobs must be a whole number of at least 1, not True"),
    ("score_track", dict(trials=0), "trials must be a whole number of at least 1, not 0"),
    ("score_track", dict(output_dir=3), "output_dir must be a string, not int"),
    ("score_track", dict(figure_width="7"), "figure_width must be a number of inches, not str"),
    ("score_track", dict(figure_width=1.0), "-figure_width must be between 2 and 40 inches"),
    ("score", dict(policy={"task": "coldstart"}),
     "policy must be a shipped policy's name (such as fever) or the path of a policy "
     "file, not dict"),
    ("score", dict(bootstrap=True, seed=1), "bootstrap takes a value (draw this many"),
    ("score", dict(tabs="yes"), "tabs is a switch without a value: give tabs=True, not 'yes'"),
    ("score", dict(right={"CORRECT": 1}), "right must be a string, a whole number or a list"),
])
def test_arguments_of_the_wrong_kind_are_named(function, arguments, message):
    with pytest.raises(scorer.ScorerError) as raised:
        getattr(scorer, function)(_demo_files(), expand="CSSF17", **arguments)
    assert str(raised.value).startswith(message)


def test_a_policy_path_may_be_a_path_object():
    result = scorer.score([str(SCIFACT / "gold.jsonl"), str(SCIFACT / "predictions.jsonl")],
                          policy=ROOT / "configs" / "scifact.yaml", tabs=False)
    assert result.error_count == 0


def test_refused_as_on_the_command_line():
    with pytest.raises(scorer.ScorerError, match="-bootstrap must be at least 1"):
        scorer.score(_demo_files(), expand="CSSF17", bootstrap=0, seed=1)
    fever = ROOT / "fixtures" / "fever" / "blind" / "predictions.jsonl"
    with pytest.raises(scorer.ScorerError, match=r"predictions.jsonl is given twice \(as "):
        scorer.score([str(fever), f"{fever.parent}/./{fever.name}"],
                     policy=str(ROOT / "configs" / "fever.yaml"))


def test_the_readmes_policy_example_counts_inexact_right(tmp_path):
    """README, Python API: lists as keyword arguments, INEXACT moved from the
    default -wrong to -right (both given: a category in two lists is refused)."""
    result = scorer.score(_demo_files(), expand="CSSF17", right=["CORRECT", "INEXACT"],
                          wrong=["INCORRECT", "INCORRECT_PARENT"])
    assert cli.main(["-expand", "CSSF17", "-right", "CORRECT:INEXACT", "-wrong",
                     "INCORRECT:INCORRECT_PARENT", "-output_file", str(tmp_path / "run"),
                     "-error_file", str(tmp_path / "run.errlog")] + _demo_files()) == 0
    assert result.reports["sf"] == (tmp_path / "run.sf").read_text()
    with pytest.raises(scorer.ScorerError, match="give -wrong INCORRECT:INCORRECT_PARENT as well"):
        scorer.score(_demo_files(), expand="CSSF17", right=["CORRECT", "INEXACT"])
