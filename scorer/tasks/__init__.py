"""The tasks scorer scores: each module of this folder is one task, whose
``TASK`` is its :class:`~scorer.task.Task` record.  A new module is the
registration: ``tasks.get(name)`` finds it (scorer/task.py keeps the
registry)."""
from scorer.task import every, get, names  # noqa: F401
