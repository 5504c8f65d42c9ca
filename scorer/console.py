"""The console scripts of an installed scorer (setup.cfg names them): ``scorer``,
``scorer-track``, ``scorer-diff``, ``scorer-competition``, ``scorer-samples`` and
``scorer-coldstart``, one for each ``python -m`` command.

Each runs its command's ``__main__`` module as ``python -m`` runs it, so the two
are one program: the process settings made before numpy loads
(scorer/processenv.py), the same switches, messages and exit statuses, and the
same quick exit (scorer/quickexit.py), whatever each ``__main__`` does now or
later.  tests/e2e/test_wheel.py runs every script both ways from an installed
wheel.
"""
from __future__ import annotations

import runpy

#: Each console script, with the module ``python -m`` runs for it.
COMMANDS = {
    "scorer": "scorer",
    "scorer-track": "scorer.track",
    "scorer-diff": "scorer.diff",
    "scorer-competition": "scorer.competition",
    "scorer-samples": "scorer.samples",
    "scorer-coldstart": "scorer.coldstart",
}


def _script(script: str):
    """The function setup.cfg names for ``script``."""
    module = COMMANDS[script]

    def run() -> None:
        # alter_sys: sys.argv[0] and sys.modules["__main__"] as python -m sets
        # them; the module leaves by its own exit, with its command's status.
        runpy.run_module(module, run_name="__main__", alter_sys=True)

    run.__name__ = run.__qualname__ = script.split("-", 1)[-1]     # (scorer-track: track)
    run.__doc__ = f"``{script}``: ``python -m {module}``."
    return run


scorer = _script("scorer")
track = _script("scorer-track")
diff = _script("scorer-diff")
competition = _script("scorer-competition")
samples = _script("scorer-samples")
coldstart = _script("scorer-coldstart")
