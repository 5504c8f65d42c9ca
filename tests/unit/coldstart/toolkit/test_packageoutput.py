"""toolkit/packageoutput.py: package_output as data, and the command line (the
Perl's refusals of existing files, its order of checks, a file named STDOUT).
The Perl's own outputs are compared in tests/e2e/test_toolkit_cases.py."""
from __future__ import annotations

import io

import pytest

import scorer.coldstart
from commands import call_main
from places import FIXTURES
from scorer.coldstart.toolkit.command import main
from scorer.coldstart.toolkit.packageoutput import package_output
from scorer.coldstart.toolkit.problemlog import Fatal

TOOLKIT = FIXTURES / "coldstart" / "toolkit"


def inputs(case):
    folder = TOOLKIT / f"packageoutput-{case}"
    return folder / "input", folder / "expected" / "files"


def args(folder, r1="r1.tab.txt", r2="r2.tab.txt"):
    return [str(folder / "sf-query.xml"), str(folder / r1), str(folder / r2)]


def test_the_packaged_lines_and_the_problems_as_data():
    folder, expected = inputs("raw-1-3")
    result = scorer.coldstart.package_output(*args(folder), justifications="1:3")
    assert result.ok and result.text == (expected / "packaged.tab.txt").read_text("utf-8")
    assert {name for name, _, _ in result.problems} == {"DISCARDED_ENTRY",
                                                         "DISCARDED_DEPENDENT"}
    assert result.errlog.endswith("8 warnings encountered\n")
    # the rounds' lines, in the validator's order: hop 0 before hop 1
    levels = [line.split("\t")[0].count("_") for line in result.lines]
    assert levels == sorted(levels)


def test_a_node_without_lines_weighs_zero_where_the_perl_divides_by_zero():
    # With B = M (the default), round 2's check of single-valued slots meets
    # round 1's weaker node (Quito) with no line left: the Perl divides by zero
    # (docs/parity.md); the tool weighs it 0, as the Perl does with 1:3.
    folder, _ = inputs("raw-1-3")
    result = package_output(*args(folder))
    assert result.ok
    assert not [line for line in result.lines if "\tQuito\t" in line]
    assert [line for line in result.lines if "\tSevilla\t" in line]


def test_two_run_ids_are_fatal():
    folder, _ = inputs("two-runids")
    with pytest.raises(Fatal) as stopped:
        package_output(*args(folder), justifications="1:3")
    assert stopped.value.text == ("FATAL_ERROR: Multiple runids were used: VALRUN1,VALRUN2\n"
                                  "NO_SOURCE")


def test_errors_give_no_lines():
    folder, _ = inputs("round2-errors")
    result = package_output(*args(folder), justifications="1:3")
    assert not result.ok and result.lines == []
    assert result.errlog.endswith("1 error encountered\n")


def run(tmp_path, argv):
    out, err = io.StringIO(), io.StringIO()
    status = call_main(main, ["packageoutput", *argv], tmp_path, out, err)
    return status, out.getvalue(), err.getvalue()


def copy(tmp_path, case="raw-1-3"):
    folder, expected = inputs(case)
    for path in folder.iterdir():
        (tmp_path / path.name).write_bytes(path.read_bytes())
    return expected


def test_the_command_writes_the_packaged_run_and_the_count(tmp_path):
    expected = copy(tmp_path)
    argv = ["-justifications", "1:3", "sf-query.xml", "r1.tab.txt", "r2.tab.txt", "out.tab.txt"]
    status, out, err = run(tmp_path, argv)
    assert (status, out) == (0, "") and err.endswith("\n8 warnings encountered\n")
    assert (tmp_path / "out.tab.txt").read_bytes() == (expected / "packaged.tab.txt").read_bytes()
    # the output and the error file must not exist, as in the Perl
    status, _, err = run(tmp_path, argv)
    assert status == 255 and "File out.tab.txt already exists" in err
    (tmp_path / "log").write_text("old\n")
    status, _, err = run(tmp_path, ["-error_file", "log"] + argv)
    assert status == 255 and "File log already exists" in err
    assert (tmp_path / "log").read_text() == "old\n"


def test_stdout_names_a_file_as_in_the_perl(tmp_path):
    expected = copy(tmp_path)
    status, out, _ = run(tmp_path, ["-justifications", "1:3", "sf-query.xml", "r1.tab.txt",
                                    "r2.tab.txt", "STDOUT"])
    assert (status, out) == (0, "")
    assert (tmp_path / "STDOUT").read_bytes() == (expected / "packaged.tab.txt").read_bytes()


@pytest.mark.parametrize("argv, message", [
    (["-justifications", "3"], "Argument to -justifications switch must be of the form A:B"),
    (["-justifications", "1:0"], "Argument to -justifications switch must be of the form A:B"),
    (["-docs", "none.txt"], "Could not open none.txt"),
])
def test_switches_are_checked_before_the_runs(tmp_path, argv, message):
    copy(tmp_path)
    status, _, err = run(tmp_path, argv + ["sf-query.xml", "r1.tab.txt", "none.tab.txt",
                                           "out.tab.txt"])
    assert status == 255 and message in err, err
    assert not (tmp_path / "out.tab.txt").exists()


def test_a_missing_round_is_named(tmp_path):
    copy(tmp_path)
    status, _, err = run(tmp_path, ["sf-query.xml", "r1.tab.txt", "none.tab.txt", "out.tab.txt"])
    assert status == 255 and "File none.tab.txt does not exist" in err
    assert not (tmp_path / "out.tab.txt").exists()


def test_help_names_the_parameters(tmp_path):
    status, out, _ = run(tmp_path, ["-help"])
    assert status == 0 and "queryfile" in out and "round2file" in out and "outputfile" in out
