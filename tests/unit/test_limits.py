"""Bounds on what users give: numbers, JSON depth, bootstrap sizes,
the samples command.  The damaged-fixture sweep is tests/test_hostile.py."""
from __future__ import annotations

import json
import os
import resource
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer import bootstrap, limits
from scorer.bootstrap import draws
from scorer.samples.__main__ import main as samples_main
from scorer.problems import ScorerError

from json_values import values
from places import ROOT


# ------------------------------------------------------------ numbers and JSON

@pytest.mark.parametrize("text, value", [("0", 0), ("+7", 7), (" 12 ", 12), ("0" * 40 + "5", 5),
                                         ("9" * 18, 10 ** 18 - 1)])
def test_whole_numbers(text, value):
    assert limits.whole_number(text, "N") == value


@pytest.mark.parametrize("text, message", [
    ("1" * 19, "N is too large (1111111111111111111); at most 999,999,999,999,999,999"),
    ("9" * 5000, "N is too large (" + "9" * 40 + "... (5,000 characters)); at most "
                 "999,999,999,999,999,999"),
    ("1e400", "N must be a whole number, not '1e400'"), (".inf", "N must be a whole number, "
                                                                  "not '.inf'"),
    ("-3", "N must be a whole number, not '-3'"), ("", "N must be a whole number, not ''"),
    ("١٢", "N must be a whole number, not '١٢'"),     # Arabic-Indic digits: isdigit() but not 0-9
])
def test_whole_numbers_refused(text, message):
    with pytest.raises(ScorerError) as error:
        limits.whole_number(text, "N")
    assert str(error.value) == message


def test_whole_number_maximum():
    assert limits.whole_number("10", "N", 10) == 10
    with pytest.raises(ScorerError, match=r"^N is too large \(11\); at most 10$"):
        limits.whole_number("11", "N", 10)


@pytest.mark.parametrize("line, depth", [
    ('{"a": [1, 2]}', 0),                                  # few brackets: not even counted
    ("[" * 100 + "]" * 100, 100),
    ('{"a": "' + "[" * 200 + '"}', 1),                     # brackets inside a string
    ('["\\"' + "[" * 100 + '"]', 1),                       # ... after an escaped quote
    ("[" * 70 + '"unclosed \\', 70),                       # an unclosed string ends the line
])
def test_json_depth(line, depth):
    assert limits.json_depth(line) == depth


@pytest.mark.parametrize("depth", [65, 1000, 100_000])
def test_deep_json_line_is_a_clear_error(tmp_path, capsys, depth):
    from scorer.cli import main
    path = tmp_path / "predictions.jsonl"
    path.write_text('{"id": 1, "label": "SUPPORTS", "evidence": [], "predicted_label": '
                    '"SUPPORTS", "predicted_evidence": []}\n' + "[" * depth + "]" * depth + "\n")
    status = main(["-policy", str(ROOT / "configs" / "fever.yaml"), "-output_file",
                   str(tmp_path / "run"), str(path)])
    assert status == 255
    assert capsys.readouterr().err == (f"FATAL_ERROR: {path} line 2: JSON nested more than 64 "
                                       f"levels deep; claim files nest a few levels\n")
    assert os.listdir(tmp_path) == ["predictions.jsonl"]


# ------------------------------------------------------------ bootstrap sizes

def test_generation_in_blocks_draws_the_same_samples(monkeypatch):
    groups = [(f"L{i}", tuple(f"m{i}_{j}" for j in range(i % 3 + (8 if i == 4 else 1))))
              for i in range(7)]
    whole = bootstrap.generate(groups, 301, seed=12).text()
    monkeypatch.setattr(draws, "_CHUNK_DRAWS", 10)
    assert bootstrap.generate(groups, 301, seed=12).text() == whole


@pytest.mark.parametrize("n_samples, n_groups, message", [
    (10_000_001, 1, "-bootstrap 10,000,001: at most 10,000,000 samples"),
    (1_000_000, 9_999, "-bootstrap 1,000,000 over 9,999 groups would draw 9,999,000,000 items: "
                       "37.2 GiB of memory for the draws alone, and more for their text; at "
                       "most 200,000,000 draws (fewer samples, or fewer queries or claims)"),
])
def test_bootstrap_too_large_is_refused_up_front(n_samples, n_groups, message):
    with pytest.raises(ScorerError) as error:
        bootstrap.check_size(n_samples, n_groups)
    assert str(error.value) == message


def _limited_run(argv, cwd, memory=2 << 30):
    """The scorer in a process that may not use more than ``memory`` bytes."""
    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    return subprocess.run([sys.executable, "-m", "scorer", *argv], cwd=cwd, env=env,
                          preexec_fn=limit, capture_output=True, text=True, timeout=120)


def test_fever_bootstrap_of_a_million_is_refused_within_bounded_memory(tmp_path):
    fever = ROOT / "fixtures" / "fever" / "inline" / "predictions.jsonl"
    lines = fever.read_text(encoding="utf-8").splitlines()
    # 5 claims x 1,000,000 samples fits; 60 claims do not (the draws are refused)
    many = tmp_path / "many.jsonl"
    many.write_text("".join(line.replace('"id": ', f'"id": {k}0') + "\n"
                            for k in range(1, 13) for line in lines))
    process = _limited_run(["-policy", str(ROOT / "configs" / "fever.yaml"), "-bootstrap",
                            "10000000", "-seed", "1", "-output_file", "run", "many.jsonl"],
                           tmp_path)
    assert process.returncode == 255
    assert "Traceback" not in process.stderr
    assert process.stderr == ("FATAL_ERROR: -bootstrap 10,000,000 over 60 groups would draw "
                              "600,000,000 items: 2.2 GiB of memory for the draws alone, and "
                              "more for their text; at most 200,000,000 draws (fewer samples, "
                              "or fewer queries or claims)\n")
    assert sorted(os.listdir(tmp_path)) == ["many.jsonl"]


def test_coldstart_bootstrap_reports_too_large_are_refused(demo):
    outcome = demo.run("-bootstrap", "9000000", "-seed", "1")
    assert outcome.status == 255 and outcome.files == ["run.errlog"]
    assert outcome.errlog == ("FATAL_ERROR: -bootstrap 9,000,000: the bootstrap reports would "
                              "take about 11.2 GiB; at most 2 GiB (fewer samples or run ids)\n")


# ------------------------------------------------------------ python -m scorer.samples

@pytest.mark.parametrize("argv, message", [
    (["-seed", "1", "-output_file", "missing/boot.txt", "5", "qids.txt"],
     "ERROR: Could not open missing/boot.txt: No such file or directory\n"),
    (["-seed", "1", "-output_file", "folder", "5", "qids.txt"],
     "ERROR: Could not open folder: it is a directory\n"),
    (["-seed", "1", "-output_file", "boot.txt", "9" * 5000, "qids.txt"],
     "ERROR: NUM_SAMPLES is too large (" + "9" * 40 + "... (5,000 characters)); at most "
     "10,000,000\n"),
    (["-seed", "1", "-output_file", "boot.txt", "100000000000", "qids.txt"],
     "ERROR: NUM_SAMPLES is too large (100000000000); at most 10,000,000\n"),
    (["-seed", "1", "-output_file", "boot.txt", "5", "latin1.txt"],
     "ERROR: latin1.txt line 1: not valid UTF-8 (byte 0xe9)\n"),
    (["-seed", "9" * 5000, "-output_file", "boot.txt", "5", "qids.txt"],
     "ERROR: -seed is too large (" + "9" * 40 + "... (5,000 characters)); at most 39 digits\n"),
    (["-seed", "1", "-output_file", "boot\udce9.txt", "5", "qids.txt"],
     "ERROR: the argument 'boot\\xe9.txt' is not valid UTF-8 (rename the file, or give its "
     "name in UTF-8)\n"),
    # its own input, by name or through a link (python -m scorer refuses the same)
    (["-seed", "7", "-output_file", "qids.txt", "10", "qids.txt"],
     "ERROR: -output_file qids.txt would write over the ids file qids.txt; choose another name\n"),
    (["-seed", "7", "-output_file", "link.txt", "10", "qids.txt"],
     "ERROR: -output_file link.txt would write over the ids file qids.txt; choose another name\n"),
    (["-seed", "1", "-output_file", "boot.txt", "0", "qids.txt"],
     "ERROR: NUM_SAMPLES must be at least 1, not '0'\n"),
])
def test_samples_command_mistakes(tmp_path, monkeypatch, capsys, argv, message):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "qids.txt").write_text(QIDS)
    (tmp_path / "link.txt").symlink_to("qids.txt")
    (tmp_path / "latin1.txt").write_bytes(b"L\xe9 S1\n")
    (tmp_path / "folder").mkdir()
    before = sorted(os.listdir(tmp_path))
    assert samples_main(argv) == 255
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    assert captured.err == message
    assert sorted(os.listdir(tmp_path)) == before
    assert (tmp_path / "qids.txt").read_text() == QIDS


QIDS = ("CS17_0001 CSSF17_ENG_47a114c77c\nCS17_0001 CSSF17_ENG_d8c8ecef3e 1\n"
        "CS17_0002 CSSF17_ENG_3f0bc7c062 0\n")


def test_claim_bootstrap_in_blocks_gives_the_same_reports(tmp_path, capsys, monkeypatch):
    from scorer.countstable import driver
    from scorer.cli import main
    fever = ROOT / "fixtures" / "fever" / "inline" / "predictions.jsonl"

    def run(name):
        assert main(["-policy", str(ROOT / "configs" / "fever.yaml"), "-bootstrap", "50",
                     "-seed", "4", "-output_file", str(tmp_path / name), str(fever)]) == 0
        return {ext: (tmp_path / f"{name}.{ext}").read_text(encoding="utf-8")
                for ext in ("samplescores", "confidence", "bootsamples", "json")}

    whole = run("whole")
    monkeypatch.setattr(driver, "_BLOCK_CELLS", 7)      # one sample a block
    assert run("blocks") == whole


def test_samples_command_does_not_take_a_switch_for_a_forgotten_value(tmp_path, monkeypatch,
                                                                      capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ids.txt").write_text("13\n36\n")
    assert samples_main(["-output_file", "-seed", "7", "3", "ids.txt"]) == 255
    assert capsys.readouterr().err.startswith("ERROR: Switch -output_file needs a value, not "
                                              "the switch -seed")
    assert os.listdir(tmp_path) == ["ids.txt"]


@settings(max_examples=300, deadline=None)
@given(values, st.integers(0, 70))
def test_value_depth_is_json_depth_of_the_text(value, wrap):
    """``limits.value_depth`` of a parsed value (used for lines with many
    brackets) is ``json_depth`` of its text, brackets in strings aside
    (json_depth says 0 for a text with too few brackets to be too deep)."""
    from scorer.limits import MAX_JSON_DEPTH, json_depth, value_depth
    for _ in range(wrap):
        value = [value] if wrap % 2 else {"[{": value}
    text = json.dumps(value)
    depth = value_depth(json.loads(text))
    assert json_depth(text) in (0, depth)
    assert (depth > MAX_JSON_DEPTH) == (json_depth(text) > MAX_JSON_DEPTH)
    if text.count("[") + text.count("{") > MAX_JSON_DEPTH:
        assert json_depth(text) == depth
