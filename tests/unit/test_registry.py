"""scorer/registry.py: the registry of task records, found by name, each
record made once; an unknown name refused naming the known ones."""
from __future__ import annotations

import pytest

from scorer import registry, tasks
from scorer.problems import ScorerError
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
