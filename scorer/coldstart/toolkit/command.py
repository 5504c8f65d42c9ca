"""``python -m scorer.coldstart TOOL ...``: which tool, and the answers every
tool shares (the list of tools, ``-version``, an unknown tool)."""
from __future__ import annotations

import importlib
import sys

from scorer import switches
from scorer.coldstart import toolkit
from scorer.problems import ERROR_EXIT_STATUS


def usage() -> str:
    tools = toolkit.available()
    width = max((len(tool.name) for tool in tools), default=0)
    lines = ["Usage: python -m scorer.coldstart TOOL [switches] ARGS",
             "",
             "The TAC KBP Cold Start toolkit's tools (the Perl 2017.2.0 CS-Tool-MASTER.pl",
             "scripts; TOOL is the script's name lower-cased). 'python -m scorer.coldstart",
             "TOOL -help' gives a tool's switches.",
             ""]
    lines += [f"  {tool.name.ljust(width)}  {tool.summary} ({tool.perl})" for tool in tools]
    return "\n".join(lines) + "\n"


def main(argv) -> int:
    argv = list(argv)
    if not argv or argv[0] in ("-help", "-h", "--help"):
        sys.stdout.write(usage())
        return 0 if argv else ERROR_EXIT_STATUS
    if argv[0] in ("-version", "--version"):
        sys.stdout.write(switches.version_text())
        return 0
    tool = toolkit.find(argv[0])
    if tool is None:
        sys.stderr.write(f"ERROR: unknown tool '{argv[0]}'; the tools are: "
                         f"{', '.join(t.name for t in toolkit.available())}\n"
                         f"{switches.HELP_POINTER}")
        return ERROR_EXIT_STATUS
    return importlib.import_module(tool.module).main(argv[1:])
