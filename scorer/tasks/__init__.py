"""The tasks scorer scores: each module of this folder is one task, whose
``TASK`` is its :class:`~scorer.taskrecord.Task` record.  A new module is the
registration: ``tasks.get(name)`` finds it (scorer/taskrecord.py keeps the
registry)."""
from scorer.registry import every, get, names  # noqa: F401
