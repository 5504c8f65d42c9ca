"""``python -m scorer -validate``: scoring a raw run with -validate gives the
reports of scoring the Perl validator's output (CS-ValidateSF-MASTER.pl's
validated file), byte for byte but for the four random letters the Perl
draws for ``:NIL_`` node ids (in .debug; ours are derived from the run);
the validator's errors stop the run without reports; without -validate one
warning says what the validator would drop.

The validated files are the Perl's, stored with the validators' own cases
(fixtures/coldstart/toolkit/validatesf-*: their expected/ files); the
official test suite's runs are checked against the reference cases of
../shared/parity where they exist.
"""
from __future__ import annotations

import contextlib
import io
import json
import os
import re
from pathlib import Path

import pytest

from assessments import assessments_of
from places import FIXTURES, PARITY

from scorer.cli import main

TOOLKIT = FIXTURES / "coldstart" / "toolkit"
#: the assessments of the validators' world (its clean run, all kinds of them)
QREL = TOOLKIT / "validateqrel-languages" / "input" / "qrel.txt"
REPORTS = ("debug", "ap", "sf", "summary")
#: the switches of validatesf that -validate passes on
PASSED_ON = ("-justifications", "-docs")
_NIL = re.compile(rb":NIL_[A-Za-z]{4}")


def score(cwd, args: list, out) -> tuple:
    """(exit status, {extension: bytes}, error log) of python -m scorer in ``cwd``."""
    os.makedirs(out, exist_ok=True)
    prefix = os.path.join(out, "run")
    previous = os.getcwd()
    os.chdir(cwd)
    try:
        with contextlib.redirect_stderr(io.StringIO()):
            status = main(["-output_file", prefix, "-error_file", prefix + ".errlog", *args])
    finally:
        os.chdir(previous)
    outputs = {}
    for name in os.listdir(out):
        with open(os.path.join(out, name), "rb") as f:
            outputs[name.split(".", 1)[1]] = f.read()
    return status, outputs, outputs.pop("errlog", b"").decode("utf-8")


def validator_cases() -> list:
    """(case, switches) of the validatesf cases a scorer's -validate can stand
    for: the Perl wrote a validated file, from one 2017 run file, with no
    switch but -justifications and -docs."""
    found = []
    for name in sorted(os.listdir(TOOLKIT)):
        case = TOOLKIT / name
        validated = case / "expected" / "files" / "run.valid.ldc.tab.txt"
        if not name.startswith("validatesf-") or not validated.is_file() \
                or not validated.stat().st_size or name.startswith("validatesf-format-"):
            continue
        (_tool, args), = json.loads((case / "steps.json").read_text())["steps"]
        switches, positional, others, i = [], [], [], 0
        while i < len(args):
            if not args[i].startswith("-"):
                positional.append(args[i])
                i += 1
                continue
            if args[i] in PASSED_ON:
                switches += args[i:i + 2]
            elif args[i] not in ("-error_file", "-output_file"):
                others.append(args[i])
            i += 1 if args[i] in ("-allow_comments", "-groundtruth") else 2
        if not others and positional == ["sf-query.xml", "run.tab.txt"]:
            found.append((name, switches))
    return found


CASES = validator_cases()


def test_the_validator_cases_cover_what_validate_passes_on():
    names = [name for name, _switches in CASES]
    assert len(CASES) >= 25
    assert any("-docs" in switches for _name, switches in CASES)
    assert {"validatesf-k-limits", "validatesf-k-per-document", "validatesf-duplicate-line",
            "validatesf-nodeid-zero-nodocs", "validatesf-wrong-slot-name-nodocs"} <= set(names)


@pytest.mark.parametrize("name, switches", CASES, ids=[name for name, _ in CASES])
def test_validate_scores_as_the_perl_validated_file(name, switches, tmp_path):
    inputs = TOOLKIT / name / "input"
    validated = TOOLKIT / name / "expected" / "files" / "run.valid.ldc.tab.txt"
    justifications = switches[switches.index("-justifications"):][:2] \
        if "-justifications" in switches else []
    qrel = assessments_of([validated], tmp_path / "qrel.txt")
    status, official, _log = score(inputs, [*justifications, "sf-query.xml", qrel,
                                            str(validated)], tmp_path / "perl")
    assert status == 0
    status, ours, log = score(inputs, ["-validate", *switches, "sf-query.xml", qrel,
                                       "run.tab.txt"], tmp_path / "ours")
    assert status == 0, log
    assert "not the official ones" not in log
    for extension in REPORTS:
        want, got = official[extension], ours[extension]
        if extension == "debug":
            # the Perl draws the :NIL_ letters at random (docs/parity.md)
            want, got = _NIL.sub(b":NIL_xxxx", want), _NIL.sub(b":NIL_xxxx", got)
        assert got == want, f"{name}: .{extension} differs from scoring the Perl's validated file"
    assert "validate:CS-ValidateSF-2017.2.0" in ours["params"].decode()
    assert "validate:none" in official["params"].decode()


def test_without_validate_one_warning_counts_the_lines_dropped(tmp_path):
    inputs = TOOLKIT / "validatesf-k-limits" / "input"
    raw = (inputs / "run.tab.txt").read_text().splitlines()
    kept = (TOOLKIT / "validatesf-k-limits" / "expected" / "files"
            / "run.valid.ldc.tab.txt").read_text().splitlines()
    status, _reports, log = score(inputs, ["-justifications", "1:1", "sf-query.xml", str(QREL),
                                           "run.tab.txt"], tmp_path)
    assert status == 0
    warnings = [line for line in log.splitlines() if "not the official ones" in line]
    dropped = len(set(raw)) - len(kept)
    assert dropped > 0
    assert warnings == [f"WARNING: run.tab.txt: validatesf (CS-ValidateSF, run before official "
                        f"scoring) drops {dropped} of its {len(set(raw))} distinct lines; these "
                        f"numbers are not the official ones (score with -validate for those)"]


@pytest.mark.parametrize("name, justifications", [("validatesf-clean-nodocs", "1:3"),
                                                    ("validatesf-k-limits", "1:1")])
def test_a_validated_run_gets_no_warning(name, justifications, tmp_path):
    inputs = TOOLKIT / name / "input"
    validated = TOOLKIT / name / "expected" / "files" / "run.valid.ldc.tab.txt"
    status, _reports, log = score(inputs, ["-justifications", justifications, "sf-query.xml",
                                           str(QREL),
                                           str(validated)], tmp_path)
    assert status == 0 and "official" not in log


def test_validator_errors_stop_the_run_without_reports(tmp_path):
    case = TOOLKIT / "validatesf-illegal-value-type-nodocs"
    expected = (case / "expected" / "messages").read_text()
    assert "ERROR" in expected
    status, reports, log = score(case / "input", ["-validate", "sf-query.xml", str(QREL),
                                                  "run.tab.txt"], tmp_path)
    assert status == 255
    assert reports == {}
    head = ("FATAL_ERROR: -validate: validatesf found errors in run.tab.txt, so no report is "
            "written; fix the run, or score it as it is without -validate (not the official "
            "numbers):\n")
    assert head in log
    # after it, the validator's errors, with their places (the Perl's texts)
    errors = log[log.index(head) + len(head):].splitlines()
    assert errors == sorted(line for line in expected.splitlines() if line.startswith("ERROR"))


def test_what_stops_the_validator_stops_the_run(tmp_path):
    case = TOOLKIT / "validatesf-unknown-docid-docs"
    status, reports, log = score(case / "input", ["-validate", "-docs", "doclength.txt",
                                                  "sf-query.xml", str(QREL), "run.tab.txt"],
                                 tmp_path)
    assert status == 255 and reports == {}
    assert "FATAL_ERROR: -validate: validatesf found errors in run.tab.txt" in log
    assert log.rstrip().splitlines()[-1].startswith(
        "FATAL_ERROR: DOCID ENG_NW_999999 is not a valid DOCID for this task (run.tab.txt line ")


def test_docs_without_validate_checks_the_run_against_the_corpus(tmp_path):
    inputs = TOOLKIT / "validatesf-clean-docs" / "input"
    lengths = (inputs / "doclength.txt").read_text().splitlines(keepends=True)
    run = (inputs / "run.tab.txt").read_text()
    # a corpus without one of the run's documents
    missing = next(line.split("\t")[0] for line in lengths if line.split("\t")[0] in run)
    corpus = tmp_path / "doclength.txt"
    corpus.write_text("".join(line for line in lengths if not line.startswith(missing + "\t")))
    validated = TOOLKIT / "validatesf-clean-docs" / "expected" / "files" / "run.valid.ldc.tab.txt"
    status, reports, log = score(inputs, ["-docs", str(corpus), "sf-query.xml", str(QREL),
                                          str(validated)], tmp_path / "a")
    assert status == 0 and reports
    warnings = [line for line in log.splitlines() if "official" in line]
    assert len(warnings) == 1
    assert warnings[0].startswith(f"WARNING: {validated}: validatesf stops on it (DOCID "
                                  f"{missing} is not a valid DOCID for this task (")
    policy = tmp_path / "raw.yaml"
    policy.write_text("task: coldstart\nvalidate: false\n")
    status, reports, log = score(inputs, ["-policy", str(policy), "-docs", "doclength.txt",
                                          "sf-query.xml", str(QREL), "run.tab.txt"],
                                 tmp_path / "b")
    assert status == 255 and reports == {}
    assert "-docs is read by the validator" in log


def test_validate_false_scores_the_raw_run_unchecked(tmp_path):
    inputs = TOOLKIT / "validatesf-k-limits" / "input"
    policy = tmp_path / "raw.yaml"
    policy.write_text("task: coldstart\njustifications: '1:1'\nvalidate: false\n")
    _status, checked, log = score(inputs, ["-justifications", "1:1", "sf-query.xml", str(QREL),
                                           "run.tab.txt"], tmp_path / "checked")
    assert "not the official ones" in log
    status, raw, log = score(inputs, ["-policy", str(policy), "sf-query.xml", str(QREL),
                                      "run.tab.txt"], tmp_path / "raw")
    assert status == 0 and "official" not in log
    assert {e: raw[e] for e in REPORTS} == {e: checked[e] for e in REPORTS}


def test_the_policy_key_is_the_switch(tmp_path):
    inputs = TOOLKIT / "validatesf-k-limits" / "input"
    policy = tmp_path / "validate.yaml"
    policy.write_text("task: coldstart\njustifications: '1:1'\nvalidate: true\n")
    _status, by_switch, _log = score(inputs, ["-validate", "-justifications", "1:1",
                                              "sf-query.xml", str(QREL), "run.tab.txt"],
                                     tmp_path / "switch")
    status, by_policy, log = score(inputs, ["-policy", str(policy), "sf-query.xml", str(QREL),
                                            "run.tab.txt"], tmp_path / "policy")
    assert status == 0 and "official" not in log
    assert {e: by_policy[e] for e in REPORTS} == {e: by_switch[e] for e in REPORTS}
    policy.write_text("task: coldstart\nvalidate: maybe\n")
    status, _reports, log = score(inputs, ["-policy", str(policy), "sf-query.xml", str(QREL),
                                           "run.tab.txt"], tmp_path / "bad")
    assert status == 255 and "key 'validate': true or false is expected, not 'maybe'" in log


# -- the official test suite's runs (../shared/parity) ------------------------------

SUITE = PARITY / "coldstart" / "testsuite"
PIPELINE = PARITY / "pipeline" / "sf"
SUITE_CASES = sorted(name for name in (os.listdir(SUITE) if SUITE.is_dir() else ())
                     if (PIPELINE / f"{name}-nodocs").is_dir())


@pytest.mark.parity
@pytest.mark.skipif(not SUITE_CASES, reason=f"no reference cases: {SUITE} or {PIPELINE} does "
                                            f"not exist (the parity cases live beside the "
                                            f"project)")
@pytest.mark.parametrize("name", SUITE_CASES)
def test_validate_on_the_raw_suite_run_gives_the_perl_reports(name, tmp_path):
    case = SUITE / name
    args = (case / "input" / "args").read_text().split()
    raw = PIPELINE / f"{name}-nodocs" / "input" / "CS-TestSuite" / "SF-TestSuite" / name / name
    switches = [a for a in args if a not in ("ldc-query.xml", "qrel.txt", "submission.tsv")]
    status, ours, log = score(case / "input", ["-validate", *switches, "ldc-query.xml",
                                               "qrel.txt", str(raw)], tmp_path)
    assert status == 0, log
    for expected in sorted(os.listdir(case / "expected")):
        want = (case / "expected" / expected).read_bytes()
        assert ours[expected.split(".", 1)[1]] == want, f"{expected} differs from the Perl's"


# -- a track and a leaderboard validate each submission first ------------------------

def _two_runs(tmp_path) -> list:
    """The world's query file and assessments, a run the validator keeps lines
    of (GOOD: lines past 1:1 dropped) and one it refuses (BAD: errors)."""
    good = TOOLKIT / "validatesf-k-limits"
    bad = TOOLKIT / "validatesf-illegal-value-type-nodocs"
    (tmp_path / "sf-query.xml").write_bytes((good / "input" / "sf-query.xml").read_bytes())
    assessments_of([good / "expected" / "files" / "run.valid.ldc.tab.txt"],
                   tmp_path / "qrel.txt")
    for name, case in (("GOOD", good), ("BAD", bad)):
        text = (case / "input" / "run.tab.txt").read_text(encoding="utf-8")
        (tmp_path / f"{name.lower()}.tab.txt").write_text(text.replace("VALRUN1", name),
                                                          encoding="utf-8")
    return [str(tmp_path / name) for name in ("sf-query.xml", "qrel.txt", "good.tab.txt",
                                               "bad.tab.txt")]


def test_a_track_ranks_the_validated_runs_and_leaves_out_those_refused(tmp_path):
    import scorer
    files = _two_runs(tmp_path)
    track = scorer.score_track(files, output_dir=str(tmp_path / "track"), justifications="1:1")
    rows = {row.run: row for row in track.leaderboard.itertuples()}
    assert rows["BAD"].status == "errors" and str(rows["BAD"].rank) == "<NA>"
    assert rows["GOOD"].status == "ok" and rows["GOOD"].rank == 1
    alone = scorer.score(files[:3], justifications="1:1", validate=True)
    assert rows["GOOD"].score == alone.values[track.metric]
    raw = scorer.score(files[:3], justifications="1:1")
    assert alone.values["sf_micro_p"] != raw.values["sf_micro_p"]     # (validation counts)
    log = (tmp_path / "track" / "runs" / "BAD" / "run.errlog").read_text()
    errors = (TOOLKIT / "validatesf-illegal-value-type-nodocs" / "expected" /
              "messages").read_text().replace("run.tab.txt", files[3]).replace(
        "VALRUN1", "BAD")
    for line in errors.splitlines():
        if line.startswith("ERROR"):
            assert line in log
    assert "validate:CS-ValidateSF-2017.2.0" in (tmp_path / "track" / "track.params").read_text()


def test_a_track_with_validate_false_scores_the_raw_runs(tmp_path):
    import scorer
    files = _two_runs(tmp_path)
    policy = tmp_path / "raw.yaml"
    policy.write_text("task: coldstart\njustifications: '1:1'\nvalidate: false\n")
    track = scorer.score_track(files[:3], policy=str(policy))
    raw = scorer.score(files[:3], justifications="1:1")
    assert track.leaderboard.iloc[0].score == raw.values[track.metric]


def test_a_leaderboard_refuses_a_submission_with_its_validation_errors(tmp_path, capsys):
    from scorer.competition.__main__ import main as competition
    files = _two_runs(tmp_path)
    assert competition(["-validate", files[3], "-justifications", "1:1", *files[:2]]) == 255
    shown = capsys.readouterr().err
    assert "the submission bad.tab.txt was not scored" in shown
    assert "-validate: validatesf found errors in bad.tab.txt" in shown
    assert "ERROR: Illegal value type" in shown
    assert competition(["-validate", files[2], "-justifications", "1:1", *files[:2]]) == 0
    import scorer
    alone = scorer.score(files[:3], justifications="1:1", validate=True)
    out = capsys.readouterr().out
    assert f"sf_ap: {alone.values['sf_ap']}" in out


# -- the check without -validate, from what the scorer read ---------------------------

def _warnings(cwd, args, out) -> list:
    _status, _reports, log = score(cwd, args, out)
    return [line for line in log.splitlines() if "not the official ones" in line]


ALL_RUNS = [name for name in sorted(os.listdir(TOOLKIT))
            if name.startswith("validatesf-") and (TOOLKIT / name / "input" / "run.tab.txt").is_file()
            and (TOOLKIT / name / "input" / "sf-query.xml").is_file()]


@pytest.mark.parametrize("name", ALL_RUNS)
def test_the_scorers_count_is_the_validators(name, tmp_path, monkeypatch):
    """Where the scorer's reading tells how many lines the validator drops
    (scorers_count), the validator, run on the file, says the same."""
    from scorer.coldstart import validation
    inputs = TOOLKIT / name / "input"
    (_tool, args), = json.loads((TOOLKIT / name / "steps.json").read_text())["steps"]
    justifications = args[args.index("-justifications"):][:2] if "-justifications" in args \
        else []
    if justifications and justifications[1].count(":") != 1:
        pytest.skip("a -justifications the scorer refuses")
    told = []
    real = validation.scorers_count
    monkeypatch.setattr(validation, "scorers_count",
                        lambda *a: told.append(real(*a)) or told[-1])
    argv = [*justifications, "sf-query.xml", str(QREL), "run.tab.txt"]
    fast = _warnings(inputs, argv, tmp_path / "fast")
    monkeypatch.setattr(validation, "scorers_count", lambda *a: None)
    assert _warnings(inputs, argv, tmp_path / "validator") == fast


def test_the_scorers_count_on_generated_runs(tmp_path, monkeypatch):
    import workload
    from scorer.coldstart import validation
    real = validation.scorers_count
    for seed in (1, 2, 3):
        folder = tmp_path / f"w{seed}"
        workload.generate(str(folder), 40, seed)
        argv = ["-expand", workload.EXPAND_BASE, *workload.INPUT_FILES]
        told = []
        monkeypatch.setattr(validation, "scorers_count",
                            lambda *a: told.append(real(*a)) or told[-1])
        fast = _warnings(folder, argv, folder / "fast")
        assert told and told[0], "the scorer's reading told nothing"
        monkeypatch.setattr(validation, "scorers_count", lambda *a: None)
        assert _warnings(folder, argv, folder / "validator") == fast != []
