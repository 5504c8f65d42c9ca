"""The Cold Start toolkit's tools in front of the scorer (the Perl 2017.2.0
``CS-*-MASTER.pl`` scripts): validating SF runs, query files, assessments and
KBs, making and packaging the two rounds' queries, resolving queries against a
KB.  ``python -m scorer.coldstart TOOL`` runs one (``scorer/coldstart/__main__.py``).

Each tool is one module here, named as its command: the Perl script's name
lower-cased without ``CS-`` and ``-MASTER.pl``.  A tool module gives
``main(argv) -> int`` (the command line, a thin face) and a function returning
what it keeps and the problems found as data (the API,
``scorer.coldstart.validate_sf`` and the others).  What several tools share
lives beside them: ``problemlog.py`` (the Perl's problem log: its messages,
their report and the NIST exit status), ``catalogue.py`` (its problems),
``toolrun.py`` (a tool's command line, error output and files written all or
none), ``predicates.py`` (the predicates and their domains and ranges),
``queryfile.py`` (query files as the tools read and write them).
"""
from __future__ import annotations

from collections import namedtuple
from importlib.util import find_spec

#: A tool of the toolkit: its command name, the module holding it, the Perl
#: script it stands for, what it does (one line, for ``-help``).
Tool = namedtuple("Tool", ("name", "module", "perl", "summary"))

#: Every tool, in the order of the official pipeline; a module not yet written
#: is listed only once it exists (``available``).
TOOLS = (
    Tool("validatekb", "scorer.coldstart.toolkit.validatekb", "CS-ValidateKB-MASTER.pl",
         "validate a knowledge base; write it for the resolver (tac) and the other evaluations"),
    Tool("validatequeries", "scorer.coldstart.toolkit.validatequeries",
         "CS-ValidateQueries-MASTER.pl",
         "validate LDC queries; with -expand, write the SF query file"),
    Tool("generatequeries", "scorer.coldstart.toolkit.generatequeries",
         "CS-GenerateQueries-MASTER.pl",
         "write the round-1 queries, or the round-2 queries from a round-1 run"),
    Tool("resolvequeries", "scorer.coldstart.toolkit.resolvequeries",
         "CS-ResolveQueries-MASTER.pl",
         "follow SF queries through a validated KB and write the SF responses"),
    Tool("validatesf", "scorer.coldstart.toolkit.validatesf", "CS-ValidateSF-MASTER.pl",
         "validate an SF run; write what the scorer should score"),
    Tool("packageoutput", "scorer.coldstart.toolkit.packageoutput",
         "CS-PackageOutput-MASTER.pl",
         "join the two rounds' SF outputs into one submission"),
    Tool("validateqrel", "scorer.coldstart.toolkit.validateqrel",
         "CS-ValidateQREL-MASTER.pl",
         "validate an assessment (qrel) file; write it whole and per language"),
)


def available() -> tuple:
    """The tools whose module is present (the others are still being built)."""
    return tuple(tool for tool in TOOLS if find_spec(tool.module) is not None)


def find(name: str):
    """The tool called ``name`` (case as given: the Perl's names are lower case), or None."""
    for tool in available():
        if tool.name == name:
            return tool
    return None
