"""Imports stand at the top of their module; one left inside a function says
why in a comment, on its line or among the imports, comments and block
openers (``if ...:``, ``try:``) just above it (docs/performance.md, "Start-up and imports"), so that what depends on what
stays visible and each exception can be weighed."""
from __future__ import annotations

import ast

from places import ROOT

def uncommented(source: str) -> list:
    """The line numbers of the imports inside functions of ``source`` that no
    comment explains."""
    lines = source.splitlines()
    found = []

    def explained(node) -> bool:
        if any("#" in line for line in lines[node.lineno - 1:node.end_lineno]):
            return True
        above = node.lineno - 2
        while above >= 0:
            text = lines[above].strip()
            if text.startswith("#"):
                return True
            if not (text.startswith(("import ", "from ")) or text.endswith(":")):
                return False
            above -= 1
        return False

    def visit(node, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if in_function and isinstance(child, (ast.Import, ast.ImportFrom)) \
                    and not explained(child):
                found.append(child.lineno)
            visit(child, in_function or isinstance(child, (ast.FunctionDef,
                                                           ast.AsyncFunctionDef)))
    visit(ast.parse(source), False)
    return found


def test_the_check_finds_an_unexplained_import_and_accepts_explained_ones():
    source = ("import os\n\n"
              "def f():\n    import json\n    return json\n\n"
              "def g():\n    import yaml    # (a rare path)\n\n"
              "def h():\n    # (pandas: heavy)\n    import numpy\n    import pandas\n\n"
              "def k():\n    x = 1\n    import shlex\n\n"
              "def m():\n    # (optional)\n    try:\n        import msgspec\n"
              "    except ImportError:\n        msgspec = None\n")
    assert uncommented(source) == [4, 17]


def test_every_import_inside_a_function_says_why():
    files = sorted((ROOT / "scorer").rglob("*.py"))
    assert len(files) > 100
    unexplained = [f"{path.relative_to(ROOT)}:{line}" for path in files
                   for line in uncommented(path.read_text(encoding="utf-8"))]
    assert unexplained == []
