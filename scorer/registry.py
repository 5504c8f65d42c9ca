"""The registry of tasks: one module a task in ``scorer/tasks/``, whose
``TASK`` is its record (:class:`scorer.taskrecord.Task`).  :func:`~scorer.registry.get` finds
a record by name (``scorer.tasks.get`` is the same), importing the task's
module when its task is first asked for: a run imports its own task's
module alone (what every task declares for a command line read before its
task is known is looked up lazily: ``scorer.switches.RunSwitches``,
``scorer.policy.load_policy_file``; the reports any task may write are
``scorer.reportset.REPORT_EXTENSIONS``).  A task defined elsewhere (a
plugin, a test's toy task) is known once :func:`~scorer.registry.add` has been given its record."""
from __future__ import annotations

import os

from scorer.problems import ScorerError
from scorer.reportset import REPORT_EXTENSIONS

_FOLDER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tasks")
_LOADED: dict = {}
#: The records given to add(), by name.
_ADDED: dict = {}


def names() -> tuple:
    """Every task's name, sorted: the modules of ``scorer/tasks/``, and the
    tasks added."""
    return tuple(sorted({name[:-3] for name in os.listdir(_FOLDER)
                         if name.endswith(".py") and not name.startswith("_")} | set(_ADDED)))


def get(name: str):
    """The record of the task ``name``; a ScorerError for an unknown name.  A
    task's module is imported when its task is first asked for."""
    task = _LOADED.get(name) or _ADDED.get(name)
    if task is None:
        if name not in names():
            raise ScorerError(f"unknown task '{name}'; known tasks: {', '.join(names())}")
        module = __import__(f"scorer.tasks.{name}", fromlist=["TASK"])
        task = _LOADED[name] = module.TASK
    return task


def every() -> list:
    """Every task's record, in name order."""
    return [get(name) for name in names()]


def add(record) -> None:
    """Make a task defined outside ``scorer/tasks/`` known, by its record's
    name, to this process and those it forks (a track's workers).  A name
    already known is refused."""
    if not record.name or record.name in names():
        raise ScorerError(f"a task named '{record.name}' cannot be added: "
                          f"{'it is known already' if record.name else 'it has no name'}")
    unknown = [extension for extension in record.report_extensions
               if extension not in REPORT_EXTENSIONS]
    if unknown:
        raise ScorerError(f"the task {record.name} cannot be added: its reports "
                          f"{', '.join('.' + e for e in unknown)} are none of those scorer "
                          f"writes ({', '.join(sorted(REPORT_EXTENSIONS))}; "
                          f"scorer/reportset.py REPORT_EXTENSIONS)")
    _ADDED[record.name] = record


def remove(name: str) -> None:
    """Forget a task :func:`add` made known (a test's toy task, after the test)."""
    del _ADDED[name]
