"""``python -m scorer.coldstart generatequeries``: CS-GenerateQueries-MASTER.pl
2017.2.0.  The queries of the two rounds of a slot-filling run:

    python -m scorer.coldstart generatequeries sf-query.xml sf-query-r1.xml
    python -m scorer.coldstart generatequeries -valid sf-query.xml sf-query-r2.xml RUN.r1

Round 1 (two arguments): the SF queries, each with its first slot as
``<slot>``.  Round 2 (with the round-1 output): one query per response to a
query with a second hop, its entry point the response's filler (its name
escaped as XML with -valid), asking the second slot.

:func:`generate_queries` is the same as data.
"""
from __future__ import annotations

import re
from collections import namedtuple

from scorer.coldstart.toolkit import toolrun
from scorer.coldstart.toolkit.catalogue import FORMATS
from scorer.coldstart.toolkit.problemlog import Fatal, ProblemLog
from scorer.coldstart.toolkit.queryfile import QuerySet, read_query_file
from scorer.problems import ScorerError
from scorer.switches import Switch
from scorer.textfile import read_bytes

JUSTIFICATIONS_HELP = toolrun.JUSTIFICATIONS_HELP
DOCS_HELP = toolrun.DOCS_HELP

SWITCHES = {switch.name: switch for switch in (
    Switch("docs", help=DOCS_HELP),
    toolrun.ERROR_FILE,
    Switch("justifications", default="M:M", help=JUSTIFICATIONS_HELP),
    Switch("valid", False, help="Ensure valid XML output by escaping angle brackets and "
                                "ampersands"),
) + toolrun.HELP_SWITCHES}

PARAMS = (
    ("queryfile", True, "File containing queries used to generate the file being validated"),
    ("outputfile", True, "File into which new queries are to be placed."),
    ("runfile", False, "File containing query output. Omit to generate initial queries."),
)

USAGE = toolrun.usage_text(
    "generatequeries", "Generate a query file for a Cold Start Slot Filling variant submission. "
                       "With two arguments, it updates the input queries with the <slot> field. "
                       "With three arguments it generates a second round query file based on "
                       "the first round slot filling output.", SWITCHES, PARAMS)

#: -justifications as the Perl checks it here: one digit or M on each side.
_JUSTIFICATIONS = re.compile(r"[\dM]:[\dM]\n?\Z")


class GeneratedQueries(toolrun.LoggedResult,
                       namedtuple("GeneratedQueries", ("text", "queries", "log"))):
    """What generatequeries makes: the query file's text, the queries (a
    :class:`~scorer.coldstart.toolkit.queryfile.QuerySet`) and the problems
    found (a :class:`~scorer.coldstart.toolkit.problemlog.ProblemLog`; round 1
    reports none, as the Perl)."""

    __slots__ = ()


def round1_queries(queries: QuerySet) -> QuerySet:
    """Round 1: every query with ``<slot>``, its first slot."""
    for query in queries.in_id_order():
        query.fields["SLOT"] = query.fields.get("SLOT0")
    return queries


def check_justifications(value: str) -> None:
    if not _JUSTIFICATIONS.match(value):
        raise Fatal("Argument to -justifications switch must be of the form A:B where A and B "
                    "are either positive numbers or character 'M' representing infinity.")


def read_docs(path: str) -> None:
    """-docs is read (a file that cannot be is fatal) but, as in the Perl, not used."""
    try:
        read_bytes(path)
    except ScorerError as error:
        raise Fatal(str(error))


def generate_queries(query_file: str, run_file=None, *, docs=None, valid: bool = False,
                     justifications: str = "M:M") -> GeneratedQueries:
    """CS-GenerateQueries as data: round 1 without ``run_file``, round 2 with
    it.  A problem that stops the Perl raises
    :class:`~scorer.coldstart.toolkit.problemlog.Fatal`."""
    log = ProblemLog(FORMATS)
    if docs is not None:
        read_docs(docs)
    queries = read_query_file(query_file, log)
    check_justifications(justifications)
    if run_file is None:
        round1 = round1_queries(queries)
        # Round 1 reports nothing of the query file (the Perl never reports it).
        return GeneratedQueries(round1.text(), round1, ProblemLog(FORMATS))
    raise Fatal("round 2 (a run file) is not available yet")


def main(argv) -> int:
    return toolrun.run(argv, SWITCHES, PARAMS, USAGE, _command)


def _command(given: dict, params: dict, errors) -> int:
    output_file = params["outputfile"]
    if not toolrun.is_stream(output_file):
        toolrun.check_writable(output_file)
    errors.open(refuse_existing=False)
    result = generate_queries(params["queryfile"], params.get("runfile"), docs=given.get("docs"),
                              valid=bool(given.get("valid")),
                              justifications=given.get("justifications", "M:M"))
    toolrun.write_outputs({output_file: result.text})
    return 0
