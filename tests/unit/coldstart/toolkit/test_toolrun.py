"""A tool's command line: the Perl's positional parameters and words, the
error output written whole at the end (to a file, or a stream), no file
written over, outputs all or none, the end of a tool that reports problems."""
import io
import os

import pytest

from commands import call_main
from scorer.coldstart.toolkit import toolrun
from scorer.coldstart.toolkit.catalogue import FORMATS
from scorer.coldstart.toolkit.problemlog import Fatal, ProblemLog
from scorer.switches import Switch, UsageError

TABLE = {"error_file": toolrun.ERROR_FILE, "flag": Switch("flag", False, help="A flag"),
         **{s.name: s for s in toolrun.HELP_SWITCHES}}
PARAMS = (("first", True, "The first"), ("second", True, "The second"),
          ("third", False, "The third, if any"))


def test_parameters_are_bound_in_order_and_the_required_ones_checked():
    assert toolrun.parse(["-flag", "a", "b"], TABLE, PARAMS) == (
        {"flag": True}, {"first": "a", "second": "b"})
    assert toolrun.parse(["a", "b", "c"], TABLE, PARAMS)[1]["third"] == "c"
    with pytest.raises(UsageError, match="^Not enough arguments; second must be provided$"):
        toolrun.parse(["a"], TABLE, PARAMS)
    with pytest.raises(UsageError, match="^Too many arguments$"):
        toolrun.parse(["a", "b", "c", "d"], TABLE, PARAMS)
    assert toolrun.parse(["-help"], TABLE, PARAMS) == ({"help": True}, {})


def test_the_usage_names_the_parameters_as_the_perl_does():
    text = toolrun.usage_text("tool", "Does things.", TABLE, PARAMS)
    assert "Usage: python -m scorer.coldstart tool {-switch {-switch ...}} first second {third}" \
        in text
    assert "  -error_file <value>" in text and "(Default = STDERR)." in text
    assert "  first   The first (Required).\n  second  The second (Required).\n" in text


def test_the_error_file_is_written_whole_at_the_end_and_never_over_another(tmp_path):
    path = tmp_path / "log"
    errors = toolrun.ErrorOutput(str(path))
    errors.open()
    errors.write("one\n")
    assert not path.exists()
    errors.close()
    assert path.read_text() == "one\n"
    with pytest.raises(Fatal, match=f"^File {path} already exists$"):
        toolrun.ErrorOutput(str(path)).open()
    toolrun.ErrorOutput(str(path)).open(refuse_existing=False)


def test_the_error_output_may_be_a_stream(tmp_path, capsys):
    for target in ("STDOUT", "stderr"):
        errors = toolrun.ErrorOutput(target)
        errors.open()
        errors.write(f"to {target}\n")
        errors.close()
    assert capsys.readouterr() == ("to STDOUT\n", "to stderr\n")
    errors = toolrun.ErrorOutput(str(tmp_path / "log"))
    errors.write("before the file was taken\n")
    errors.close()
    assert capsys.readouterr().err == "before the file was taken\n"
    assert not (tmp_path / "log").exists()


def test_outputs_are_written_all_or_none(tmp_path, capsys):
    toolrun.write_outputs({str(tmp_path / "a"): "a\n", "stdout": "out\n"})
    assert (tmp_path / "a").read_text() == "a\n" and capsys.readouterr().out == "out\n"
    (tmp_path / "dir").mkdir()
    with pytest.raises(Fatal):
        toolrun.write_outputs({str(tmp_path / "b"): "b\n", str(tmp_path / "dir"): "x\n"})
    assert not (tmp_path / "b").exists()


def body(given, params, errors):
    errors.open()
    log = ProblemLog(FORMATS)
    log.record("NO_QUERIES_LOADED", where="files(x)")
    if given.get("flag"):
        log.record("UNKNOWN_SLOT_NAME", "per:x")
    if params.get("third") == "die":
        raise Fatal("Could not open x: No such file or directory")
    return toolrun.finish(errors, log, {params["second"]: "written\n"})


def run(tmp_path, argv):
    out, err = io.StringIO(), io.StringIO()
    status = call_main(lambda a: toolrun.run(a, TABLE, PARAMS, "usage\n", body), argv, tmp_path,
                       out, err)
    return status, out.getvalue(), err.getvalue()


def test_a_tool_reports_then_counts_and_writes_only_without_errors(tmp_path):
    assert run(tmp_path, ["a", "out"]) == (0, "", "WARNING: No queries found (files(x))\n\n"
                                                  "1 warning encountered\n")
    assert (tmp_path / "out").read_text() == "written\n"
    status, _, err = run(tmp_path, ["-flag", "a", "out2"])
    assert status == 255 and err.endswith("ERROR: Unknown slot name: per:x\n\n"
                                          "1 error encountered\n")
    assert not (tmp_path / "out2").exists()


def test_a_fatal_problem_and_a_usage_mistake_exit_255(tmp_path):
    assert run(tmp_path, ["-error_file", "log", "a", "out", "die"]) == (255, "", "")
    assert (tmp_path / "log").read_text() == "Could not open x: No such file or directory\n"
    status, _, err = run(tmp_path, ["a"])
    assert status == 255 and err.startswith("ERROR: Not enough arguments")
    assert run(tmp_path, ["-help"]) == (0, "usage\n", "")
    assert sorted(os.listdir(tmp_path)) == ["log"]
