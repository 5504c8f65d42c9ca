"""The registry of tasks: one module a task in ``scorer/tasks/``, whose
``TASK`` is its record (:class:`scorer.taskrecord.Task`).  :func:`~scorer.registry.get` finds
a record by name (``scorer.tasks.get`` is the same), importing the task's
module when its task is first asked for."""
from __future__ import annotations

import os

from scorer.problems import ScorerError

_FOLDER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tasks")
_LOADED: dict = {}


def names() -> tuple:
    """Every task's name, sorted: the modules of ``scorer/tasks/``."""
    return tuple(sorted(name[:-3] for name in os.listdir(_FOLDER)
                        if name.endswith(".py") and not name.startswith("_")))


def get(name: str):
    """The record of the task ``name``; a ScorerError for an unknown name.  A
    task's module is imported when its task is first asked for."""
    task = _LOADED.get(name)
    if task is None:
        if name not in names():
            raise ScorerError(f"unknown task '{name}'; known tasks: {', '.join(names())}")
        module = __import__(f"scorer.tasks.{name}", fromlist=["TASK"])
        task = _LOADED[name] = module.TASK
    return task


def every() -> list:
    """Every task's record, in name order."""
    return [get(name) for name in names()]
