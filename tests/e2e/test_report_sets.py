"""A run leaves all of its reports or none (README, "Reports: all or none"):
output names the file system or the error log cannot take, failed writes,
and an earlier run's reports at the same prefix."""
from __future__ import annotations

import itertools
import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from scorer import cli, scoring, tasks
from scorer.countstable import driver as claims_driver
from scorer.coldstart.driver import report_extensions
from scorer.policy import build_policy
from scorer.problems import Problems
from scorer.request import Request

from coldstart_cases import REPORTS
from places import CONFIGS, DEMO, FIXTURES

BOOTSTRAP = ("-bootstrap", "20", "-seed", "3")
BOOTSTRAP_ONLY = ["run.apconfidence", "run.bootsamples", "run.confidence", "run.sample",
                  "run.samplescores"]


def texts(folder: Path, prefix: str = "run") -> dict:
    """extension -> bytes of every report at the prefix; .params without its time stamp."""
    found = {}
    for name in os.listdir(folder):
        if name.startswith(prefix + "."):
            data = (folder / name).read_bytes()
            extension = name[len(prefix) + 1:]
            found[extension] = data.split(b"\n", 1)[1] if extension == "params" else data
    return found


def leave_earlier_reports(demo, *switches) -> dict:
    """A finished run's reports at out/run, without its error log (else the
    next run would refuse to start); returns their texts."""
    assert demo.run(*switches).status == 0
    os.remove(demo.out / "run.errlog")
    return texts(demo.out)


def no_temporary_files(folder: Path) -> bool:
    return not [name for name in os.listdir(folder) if name.endswith(".tmp")]


# ------------------------------------------------------------- names

def test_long_prefix_whose_final_names_fit(demo):
    # The longest report name (PREFIX.samplescores) fits in 255 bytes; the
    # temporary names of the first writer (.PREFIX.debug.XXXXXXXX.tmp) did not.
    demo.run(*BOOTSTRAP)
    expected = texts(demo.out)
    demo.clear()
    prefix = "r" * 240
    argv = demo.standard_args(*BOOTSTRAP)
    argv[argv.index("-output_file") + 1] = str(demo.out / prefix)
    outcome = demo.run_argv(argv)
    assert outcome.status == 0, outcome.stderr
    assert outcome.files == sorted(f"{prefix}.{ext}" for ext in expected if ext != "errlog") \
        + ["run.errlog"]
    got = texts(demo.out, prefix)
    got["errlog"] = (demo.out / "run.errlog").read_bytes()
    assert {ext: text for ext, text in got.items() if ext != "params"} == \
           {ext: text for ext, text in expected.items() if ext != "params"}


def test_report_names_too_long_leave_no_report(demo):
    prefix = "r" * 250                      # PREFIX.ap fits, PREFIX.debug does not
    argv = demo.standard_args()
    argv[argv.index("-output_file") + 1] = str(demo.out / prefix)
    outcome = demo.run_argv(argv)
    assert outcome.status == 255
    message = f"FATAL_ERROR: Could not open {demo.out / prefix}.debug: File name too long"
    assert outcome.errlog == message + "\n"
    assert outcome.stderr == message + "\n"
    assert outcome.files == ["run.errlog"]


def test_error_log_name_too_long_is_refused_up_front(demo):
    argv = demo.standard_args()
    argv[argv.index("-error_file") + 1] = str(demo.out / ("e" * 256))
    outcome = demo.run_argv(argv)
    assert outcome.status == 255
    assert outcome.stderr == (f"FATAL_ERROR: Could not open {demo.out / ('e' * 256)}: "
                              f"File name too long\n")
    assert outcome.files == []


@pytest.mark.parametrize("name", ["run.sf", "../out/run.sf", "run.json", "run.bootsamples"])
def test_error_file_with_a_report_name_is_refused_before_anything_is_written(demo, name):
    argv = demo.standard_args()
    error_file = os.path.join(str(demo.out), name)
    argv[argv.index("-error_file") + 1] = error_file
    outcome = demo.run_argv(argv)
    assert outcome.status == 255
    assert outcome.stderr == (f"FATAL_ERROR: -error_file {error_file} is the name of a report "
                              f"of -output_file {demo.out / 'run'}; give the error log another "
                              f"name, such as {demo.out / 'run'}.errlog\n")
    assert outcome.files == []


@pytest.mark.parametrize("switch", [None, "-samples", "-queries"])
def test_a_prefix_whose_report_would_be_an_input_is_refused(demo, switch):
    # Removing an earlier run's reports must never remove an input.
    (demo.inputs / "qrel.json").write_text((demo.inputs / "qids.txt").read_text())
    argv = demo.standard_args(*((switch, "qrel.json") if switch else ()))
    argv[argv.index("-output_file") + 1] = "qrel"
    if switch is None:
        argv.append("qrel.json")
    outcome = demo.run_argv(argv)
    assert outcome.status == 255
    assert outcome.stderr == ("FATAL_ERROR: -output_file qrel would write over the input file "
                              "qrel.json (as qrel.json); choose another prefix\n")
    assert outcome.files == []
    assert (demo.inputs / "qrel.json").read_text() == (demo.inputs / "qids.txt").read_text()


def test_error_file_beside_reports_on_stdout_is_fine(demo):
    argv = demo.standard_args()
    argv[argv.index("-output_file") + 1] = "stdout"
    argv[argv.index("-error_file") + 1] = str(demo.out / "run.sf")
    outcome = demo.run_argv(argv)
    assert (outcome.status, outcome.files) == (0, ["run.sf"])
    assert (demo.out / "run.sf").read_text() == "No warnings encountered\n"
    assert "LDC-MEAN-ALL-Macro" in outcome.stdout


# ------------------------------------------------------------- failed writes

def test_a_file_size_limit_ends_the_run_with_no_report(demo):
    # The first report written (.debug, 12 kB) passes the limit; the log does not.
    def limit():
        resource.setrlimit(resource.RLIMIT_FSIZE, (8000, 8000))

    process = subprocess.run([sys.executable, "-m", "scorer", *demo.standard_args()],
                             cwd=demo.inputs, preexec_fn=limit, capture_output=True, text=True)
    message = f"FATAL_ERROR: Could not write {demo.out / 'run.debug'}: File too large\n"
    assert (process.returncode, process.stderr) == (255, message)
    assert sorted(os.listdir(demo.out)) == ["run.errlog"]
    assert (demo.out / "run.errlog").read_text() == message


def test_a_bug_still_leaves_no_report_and_shows_its_traceback(demo, monkeypatch):
    leave_earlier_reports(demo)

    def broken(request, problems, samples=None):
        raise RuntimeError("a bug")

    monkeypatch.setattr(scoring, "score", broken)
    demo.capsys.readouterr()
    status = cli.main(demo.standard_args())
    captured = demo.capsys.readouterr()
    assert status == 255
    assert "Traceback" in captured.err and "RuntimeError: a bug" in captured.err
    assert sorted(os.listdir(demo.out)) == ["run.errlog"]
    assert (demo.out / "run.errlog").read_text().endswith(
        "FATAL_ERROR: internal error (RuntimeError: a bug); please report it with the "
        "traceback\n")


@pytest.mark.parametrize("output_file, lost", [("out/run", "no report was written"),
                                                ("stdout", "the reports shown are incomplete")])
def test_a_signal_while_scoring_ends_the_run_with_128_plus_its_number(demo, monkeypatch,
                                                                      output_file, lost):
    real_score = scoring.score

    def stopped_half_way(request, problems, samples=None):
        outcome = real_score(request, problems, samples)
        os.kill(os.getpid(), signal.SIGTERM)
        return outcome

    monkeypatch.setattr(scoring, "score", stopped_half_way)
    argv = demo.standard_args()
    argv[argv.index("-output_file") + 1] = str(demo.out.parent / output_file) \
        if output_file != "stdout" else output_file
    outcome = demo.run_argv(argv)
    message = f"FATAL_ERROR: Stopped by SIGTERM; {lost}\n"
    assert (outcome.status, outcome.stderr, outcome.errlog) == (143, message, message)
    assert (outcome.files, outcome.stdout) == (["run.errlog"], "")


# ------------------------------------------------------------- earlier reports

def test_a_failed_run_removes_the_earlier_reports_of_its_prefix(demo):
    leave_earlier_reports(demo, *BOOTSTRAP)
    # not reports of this prefix: left alone
    for other in ("run.notes", "run.sf.bak", "runs.sf", "other.sf"):
        (demo.out / other).write_text("keep\n")
    (demo.out / "run.json").write_text("{}\n")       # a claim task's report at this prefix
    outcome = demo.run("-fields", "EC:FOO")
    assert outcome.status == 255
    assert outcome.files == ["other.sf", "run.errlog", "run.notes", "run.sf.bak", "runs.sf"]
    removed = "run.ap run.apconfidence run.bootsamples run.confidence run.debug run.json " \
              "run.ldcmax run.ldcmean run.params run.sample run.samplescores run.sf run.summary"
    assert outcome.errlog == (f"WARNING: Removed reports of an earlier run at {demo.out / 'run'}, "
                              f"so that none is taken for this run's: {removed}\n\n"
                              f"FATAL_ERROR: Unknown field: FOO\n")


def test_a_finished_run_removes_the_earlier_reports_it_does_not_replace(demo):
    leave_earlier_reports(demo, *BOOTSTRAP)
    outcome = demo.run()
    assert outcome.status == 0
    assert outcome.files == REPORTS
    assert outcome.errlog == (f"WARNING: Removed reports of an earlier run at {demo.out / 'run'}, "
                              f"so that none is taken for this run's: "
                              f"{' '.join(sorted(BOOTSTRAP_ONLY))}\n\n1 warning encountered\n")
    expected = DEMO.parent / "expected"
    for name in ("run.sf", "run.ldcmax", "run.ldcmean", "run.summary", "run.ap", "run.debug"):
        assert (demo.out / name).read_bytes() == (expected / name).read_bytes(), name


def test_a_run_that_replaces_every_earlier_report_says_nothing(demo):
    leave_earlier_reports(demo)
    outcome = demo.run()
    assert (outcome.status, outcome.files, outcome.errlog) == (0, REPORTS,
                                                                "No warnings encountered\n")


def test_a_refused_start_touches_nothing(demo):
    earlier = leave_earlier_reports(demo)
    (demo.out / "run.errlog").write_text("the earlier run's log\n")
    outcome = demo.run()
    assert outcome.status == 255 and outcome.stderr.endswith("already exists\n")
    assert texts(demo.out) == {**earlier, "errlog": b"the earlier run's log\n"}


# ------------------------------------------------------------- the list of report names

def test_every_report_a_task_writes_is_in_the_table():
    for expand, samples, bootstrap in itertools.product((None, "CSSF17"), (None, "boot.txt"),
                                                        (None, 10)):
        request = Request(policy=build_policy({}, {}), files=(),
                          switches=(("expand", expand),) if expand else (),
                          samples=samples, bootstrap=bootstrap)
        assert set(report_extensions(request)) <= set(tasks.get("coldstart").report_extensions)
    scifact = FIXTURES / "scifact" / "basic"
    fever = FIXTURES / "fever" / "inline" / "predictions.jsonl"
    for task, files in (("scifact", (scifact / "gold.jsonl", scifact / "predictions.jsonl")),
                        ("fever", (fever,))):
        for bootstrap in (None, 5):
            request = Request(policy=build_policy({"task": task}, {}),
                              files=tuple(map(str, files)), bootstrap=bootstrap, seed=1)
            reports = claims_driver.run(request, Problems())
            assert set(reports.extensions) <= set(tasks.get(task).report_extensions), task


def _to_a_reader_gone(command: list, cwd: Path) -> subprocess.CompletedProcess:
    """Run ``python -m COMMAND`` with standard output a pipe nobody reads
    any more (``... | head`` once head has what it wants)."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run([sys.executable, "-m", *command], cwd=cwd, stdout=write_end,
                              stderr=subprocess.PIPE, text=True, timeout=120)
    finally:
        os.close(write_end)


@pytest.mark.slow
def test_reports_on_a_pipe_whose_reader_left_end_quietly(tmp_path):
    """A closed pipe is how `| head` says it has enough: the shell's status
    for SIGPIPE (141), no traceback, no 'internal error', nothing left over."""
    for name in ("ldc-query.xml", "qrel.txt", "DEMORUN.tab.txt"):
        (tmp_path / name).write_bytes((DEMO / name).read_bytes())
    done = _to_a_reader_gone(["scorer", "-expand", "CSSF17", "ldc-query.xml", "qrel.txt",
                              "DEMORUN.tab.txt"], tmp_path)
    assert (done.returncode, done.stderr) == (141, "")
    assert sorted(os.listdir(tmp_path)) == ["DEMORUN.tab.txt", "ldc-query.xml", "qrel.txt"]
    # the reports in files, the error log to the closed pipe: the reports stay
    done = _to_a_reader_gone(["scorer", "-expand", "CSSF17", "-output_file", "run",
                              "-error_file", "stdout", "ldc-query.xml", "qrel.txt",
                              "DEMORUN.tab.txt"], tmp_path)
    assert (done.returncode, done.stderr) == (141, "")
    assert no_temporary_files(tmp_path) and (tmp_path / "run.summary").stat().st_size > 0


def test_a_diff_on_a_pipe_whose_reader_left_ends_quietly(tmp_path):
    for name in ("ldc-query.xml", "qrel.txt", "DEMORUN.tab.txt"):
        (tmp_path / name).write_bytes((DEMO / name).read_bytes())
    policy = str(CONFIGS / "coldstart-sf.yaml")
    for prefix, switches in (("kb", []), ("sf", ["-policy", policy])):
        assert cli.main([*switches, "-expand", "CSSF17", "-output_file", str(tmp_path / prefix),
                         "-error_file", str(tmp_path / f"{prefix}.errlog"),
                         *(str(tmp_path / name) for name in
                           ("ldc-query.xml", "qrel.txt", "DEMORUN.tab.txt"))]) == 0
    done = _to_a_reader_gone(["scorer.diff", "kb", "sf"], tmp_path)
    assert (done.returncode, done.stderr) == (141, "")
