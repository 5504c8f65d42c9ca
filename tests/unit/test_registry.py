"""scorer/registry.py: the registry of task records, found by name, each
record made once; an unknown name refused naming the known ones; what a
command line needs of every task before its task is known, had without
loading every task (tests/e2e/test_imports.py: what a run imports)."""
from __future__ import annotations

import pytest

from scorer import registry, switches, tasks
from scorer.policy import task_hint
from scorer.problems import ScorerError
from scorer.reportset import REPORT_EXTENSIONS
from scorer.taskrecord import Task

from places import ROOT


def test_the_registry_is_the_modules_of_scorer_tasks():
    modules = sorted(path.stem for path in (ROOT / "scorer" / "tasks").glob("*.py")
                     if not path.name.startswith("_"))
    assert list(registry.names()) == modules
    assert [record.name for record in registry.every()] == modules
    # scorer.tasks is the same registry
    assert tasks.get is registry.get and tasks.names() == registry.names()


def test_a_record_is_found_once_and_kept():
    for name in registry.names():
        record = registry.get(name)
        assert isinstance(record, Task) and record.name == name
        assert registry.get(name) is record


def test_an_unknown_task_is_refused_naming_the_known_ones():
    with pytest.raises(ScorerError) as caught:
        registry.get("stance")
    assert str(caught.value) == f"unknown task 'stance'; known tasks: {', '.join(registry.names())}"


def test_an_added_task_is_known_until_removed_and_a_known_name_refused():
    record = type("Toy", (Task,), {"name": "toy"})()
    registry.add(record)
    try:
        assert "toy" in registry.names() and registry.get("toy") is record
        with pytest.raises(ScorerError, match="^a task named 'toy' cannot be added: it is "
                                              "known already$"):
            registry.add(record)
    finally:
        registry.remove("toy")
    assert "toy" not in registry.names()
    with pytest.raises(ScorerError, match="known already"):
        registry.add(registry.get("fever"))


def test_the_reports_any_task_writes_are_those_the_command_line_knows():
    """The command line keeps the error log off every task's report names, and
    removes an earlier run's reports of any task, from REPORT_EXTENSIONS alone."""
    written = set()
    for record in registry.every():
        assert set(record.report_extensions) <= REPORT_EXTENSIONS, record.name
        written.update(record.report_extensions)
    assert written == REPORT_EXTENSIONS       # (none kept that no task writes)


def test_a_task_writing_a_report_scorer_does_not_know_is_refused():
    record = type("Toy", (Task,), {"name": "toy", "report_extensions": ("summary", "tsv")})()
    with pytest.raises(ScorerError, match=r"^the task toy cannot be added: its reports \.tsv "
                                          r"are none of those scorer writes \(ap, "):
        registry.add(record)
    assert "toy" not in registry.names()


def test_a_run_reads_its_command_line_by_its_own_tasks_switches():
    """What a run's command line reads it by gives what every task's switches
    give: each of its task's switches is the same record, another task's is
    found (to be refused by name), a misspelt one suggested from all of them."""
    every = switches.scorer_table()
    for name in registry.names():
        table = switches.run_table(name)
        for switch in registry.get(name).switches:
            assert table.get(switch.name) is every[switch.name]
        assert dict(table.items()) == every and sorted(table) == sorted(every)
        for other in every:
            assert table[other] is every[other] and other in table
        assert "no_such_switch" not in table and table.get("no_such_switch") is None
    assert switches.run_table("no such task") == every


@pytest.mark.parametrize("argv, policy", [
    (["-policy", "fever", "gold", "run"], "fever"),
    (["gold", "-output_file", "x", "-policy", "p.yaml", "-policy", "q"], "p.yaml"),
    (["gold", "run"], None), (["gold", "-policy"], None)])
def test_the_policy_a_command_line_names_is_found_before_it_is_read(argv, policy):
    assert switches.policy_argument(argv) == policy


def test_the_task_hint_is_the_policy_files_task_line_else_the_default(tmp_path):
    assert task_hint("fever") == "fever" and task_hint("scifact") == "scifact"
    assert task_hint(None) == task_hint(str(tmp_path / "none.yaml")) == "coldstart"
    (tmp_path / "p.yaml").write_text("# a policy\nlabels: [a, b]\ntask: Classification  # x\n")
    assert task_hint(str(tmp_path / "p.yaml")) == task_hint(tmp_path / "p.yaml") == \
        "classification"
    (tmp_path / "flow.yaml").write_text("{task: fever}\n")
    assert task_hint(str(tmp_path / "flow.yaml")) == "coldstart"     # (a hint, no parse)
    assert task_hint(str(tmp_path)) == "coldstart"                   # (a folder)
