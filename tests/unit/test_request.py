"""scorer/request.py: a request built from typed arguments is the request
the command line builds from the same switches, renders the command line it
stands for, and refuses what the command line refuses."""
from __future__ import annotations

import os

import pytest

from scorer.request import build, from_switches, input_paths
from scorer import switches
from scorer.policy import SHIPPED_FOLDER
from scorer.problems import ScorerError

from places import CONFIGS, DEMO

DEMO_FILES = [str(DEMO / name) for name in ("ldc-query.xml", "qrel.txt", "DEMORUN.tab.txt")]


def _from_argv(argv: list, cwd: str = "/here"):
    given, files = switches.parse(argv, switches.scorer_table())
    return from_switches(given, files, argv, cwd)


def test_typed_arguments_make_the_request_of_the_same_switches():
    argv = ["-expand", "CSSF17", "-queries", str(DEMO / "qids.txt"), "-right",
            "CORRECT:INEXACT", "-wrong", "INCORRECT:INCORRECT_PARENT", "-bootstrap", "40",
            "-seed", "7", "-tabs", *DEMO_FILES]
    typed = build(DEMO_FILES, expand="CSSF17", queries=DEMO / "qids.txt",
                           right=["CORRECT", "INEXACT"], wrong="INCORRECT:INCORRECT_PARENT",
                           bootstrap=40, seed=7, tabs=True, argv=argv, cwd="/here")
    assert typed == _from_argv(argv)
    assert typed.policy.right == ("CORRECT", "INEXACT")
    assert (typed.bootstrap, typed.seed, typed.option("expand"), typed.option("tabs")) == \
        (40, 7, "CSSF17", True)


def test_a_request_without_argv_renders_the_switches_that_make_it():
    request = build(DEMO_FILES, str(CONFIGS / "coldstart-sf.yaml"), expand="CSSF17",
                             bootstrap=10, seed=3, program="scorer.score", cwd="/here")
    arguments = request.arguments()
    # Read back as a command line, the arguments make the same request.
    assert _from_argv(arguments)._replace(argv=None, program="scorer.score") == request
    assert request.invocation().startswith("/here$ scorer.score -policy ")


def test_a_request_built_from_argv_renders_the_argv_as_typed():
    argv = [*DEMO_FILES, "-expand", "CSSF17"]
    assert _from_argv(argv).arguments() == argv
    assert _from_argv(["a b.tab.txt", "x"]).invocation() == \
        "/here$ python -m scorer 'a b.tab.txt' x"


def test_with_option_replaces_or_removes_a_switch():
    request = build(DEMO_FILES, expand="CSSF17", runids="A")
    assert request.with_option("runids", "B").option("runids") == "B"
    assert request.with_option("runids", None).option("runids") is None
    assert request.with_option("runids", None).option("expand") == "CSSF17"


@pytest.mark.parametrize("arguments, message", [
    (dict(bootstrap=10), "-bootstrap needs -seed S"),
    (dict(seed=3), "-seed applies only with -bootstrap N"),
    (dict(bootstrap=0, seed=1), "-bootstrap must be at least 1"),
    (dict(bootstrap="-3", seed=1), "-bootstrap must not be negative"),
    (dict(bootstrap=10, seed=1, samples="s.txt"), "give either -samples FILE or -bootstrap"),
    (dict(max_evidence=3), "-max_evidence does not apply to the task coldstart"),
    (dict(help=True), "Unknown switch: -help"),
    (dict(expnd="CSSF17"), "Unknown switch: -expnd (did you mean -expand?)"),
    (dict(tabs="yes"), "tabs is a switch without a value"),
    (dict(expand=True), "expand takes a value"),
    (dict(expand=3.5), "expand must be a string, a whole number or a list of them"),
])
def test_mistakes_are_refused_with_the_command_lines_message(arguments, message):
    arguments = dict(arguments)
    with pytest.raises(ScorerError) as caught:
        build(DEMO_FILES, expand=arguments.pop("expand", "CSSF17"), **arguments)
    assert message in str(caught.value)


def test_a_file_named_twice_is_refused_by_any_name(tmp_path):
    run = tmp_path / "RUN.tab.txt"
    run.write_text((DEMO / "DEMORUN.tab.txt").read_text())
    os.link(run, tmp_path / "LINK.tab.txt")
    with pytest.raises(ScorerError) as caught:
        build(DEMO_FILES[:2] + [str(run), str(tmp_path / "LINK.tab.txt")])
    assert str(caught.value) == (f"{tmp_path / 'LINK.tab.txt'} is given twice (as {run}): its "
                                 f"lines would be read and counted twice; name each file once")


@pytest.mark.parametrize("files, message", [
    ([], None), ("", "an empty file name"), ([b"x.jsonl"], "decode it with os.fsdecode()"),
    ({"a": 1}, "files must be a path or a list of paths"), (["a\0b"], "NUL character")])
def test_input_paths_are_texts(files, message):
    if message is None:
        assert input_paths(files) == ()
        return
    with pytest.raises(ScorerError, match=message):
        input_paths(files)


def test_a_shipped_policy_by_its_name_is_the_request_of_its_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    by_name = build(["gold.jsonl", "predictions.jsonl"], "fever")
    by_path = build(["gold.jsonl", "predictions.jsonl"], str(CONFIGS / "fever.yaml"))
    assert by_name.policy == by_path.policy
    # .params names the file read: the shipped one (in a checkout, configs/'s)
    assert by_name.policy_file == os.path.join(SHIPPED_FOLDER, "fever.yaml")
    assert open(by_name.policy_file, "rb").read() == (CONFIGS / "fever.yaml").read_bytes()
