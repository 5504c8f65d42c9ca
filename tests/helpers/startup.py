"""What this interpreter has imported before it runs a line: its site and the
``.pth`` files of its environment (setuptools' finder of an editable install
imports ``typing`` under Python 3.9, through importlib.abc).  The import tests
count what the scorer imports, so they leave these out."""
from __future__ import annotations

import functools
import subprocess
import sys


@functools.lru_cache(maxsize=None)
def at_start_up() -> frozenset:
    done = subprocess.run([sys.executable, "-c", "import sys; print(*sys.modules)"],
                          capture_output=True, text=True, check=True)
    return frozenset(done.stdout.split())


def not_at_start_up(modules) -> tuple:
    """``modules`` but those the interpreter has before it runs anything."""
    return tuple(module for module in modules if module not in at_start_up())
