"""toolkit/validatesf.py: validate_sf as data, and the command line (its -help,
its switches checked as the Perl checks them, stdout, an error file)."""
from __future__ import annotations

import io

import pytest

import scorer.coldstart
from commands import call_main
from scorer.coldstart.toolkit.command import main
from scorer.coldstart.toolkit.problemlog import Fatal
from scorer.coldstart.toolkit.validatesf import validate_sf

from places import FIXTURES

TOOLKIT = FIXTURES / "coldstart" / "toolkit"
CLEAN = TOOLKIT / "validatesf-clean-nodocs" / "input"
ARGS = [str(CLEAN / "sf-query.xml"), str(CLEAN / "run.tab.txt")]


def test_the_validated_lines_and_the_problems_as_data():
    result = scorer.coldstart.validate_sf(*ARGS)
    want = (TOOLKIT / "validatesf-clean-nodocs" / "expected" / "files" /
            "run.valid.ldc.tab.txt").read_text("utf-8")
    assert result.ok and result.text == want and result.dropped == 6
    assert {name for name, _, _ in result.problems} == {"DISCARDED_ENTRY",
                                                         "DISCARDED_DEPENDENT"}
    assert result.errlog.endswith("7 warnings encountered\n")


def test_errors_give_no_lines():
    case = TOOLKIT / "validatesf-illegal-confidence-nodocs" / "input"
    result = validate_sf(str(case / "sf-query.xml"), str(case / "run.tab.txt"))
    assert not result.ok and result.lines == [] and result.dropped == 0
    assert result.errlog.endswith("1 error encountered\n")


@pytest.mark.parametrize("switches, message", [
    ({"justifications": "2"}, "Argument to -justifications switch must be of the form A:B"),
    ({"justifications": "1:0"}, "Argument to -justifications switch must be of the form A:B"),
    ({"depth": "C:1"}, '-depth should be of the form "\\[AB\\]:d"'),
])
def test_switches_are_checked_as_the_perl_checks_them(switches, message):
    with pytest.raises(Fatal, match=message):
        validate_sf(*ARGS, **switches)


def test_a_missing_run_is_the_perls_message():
    with pytest.raises(Fatal, match="File nothing.tab.txt does not exist"):
        validate_sf(ARGS[0], "nothing.tab.txt")


def _call(argv, folder):
    out, err = io.StringIO(), io.StringIO()
    status = call_main(main, ["validatesf", *argv], folder, out, err)
    return status, out.getvalue(), err.getvalue()


def test_help_lists_the_perls_switches(tmp_path):
    status, out, _ = _call(["-help"], tmp_path)
    assert status == 0
    for switch in ("-allow_comments", "-depth", "-docs", "-error_file", "-groundtruth",
                   "-justifications", "-output_file", "-version"):
        assert switch in out
    assert "queryfile" in out and "filename" in out


@pytest.mark.parametrize("argv, message", [([], "Not enough arguments; queryfile must be provided"),
                                           (["q"], "Not enough arguments; filename must be provided"),
                                           (["q", "r", "s"], "Too many arguments")])
def test_the_perls_words_for_the_parameters(tmp_path, argv, message):
    status, _, err = _call(argv, tmp_path)
    assert status == 255 and message in err


def test_validated_lines_to_stdout_and_the_report_to_stderr(tmp_path):
    status, out, err = _call(["-output_file", "stdout", *ARGS], tmp_path)
    assert status == 0
    assert out == "".join(validate_sf(*ARGS).lines)
    assert err.endswith("7 warnings encountered\n")


def test_validation_only_writes_nothing(tmp_path):
    status, out, err = _call(ARGS, tmp_path)
    assert status == 0 and out == "" and list(tmp_path.iterdir()) == []
    assert "7 warnings encountered" in err
