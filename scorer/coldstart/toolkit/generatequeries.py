"""``python -m scorer.coldstart generatequeries``: CS-GenerateQueries-MASTER.pl
2017.2.0.  The queries of the two rounds of a slot-filling run:

    python -m scorer.coldstart generatequeries sf-query.xml sf-query-r1.xml
    python -m scorer.coldstart generatequeries -valid sf-query.xml sf-query-r2.xml RUN.r1

Round 1 (two arguments): the SF queries, each with its first slot as
``<slot>``.  Round 2 (with the round-1 output): the run is read as the
validator reads it (its problems reported, an error stops the tool: nothing
is written), then one query per response to a query with a second hop whose
value type is the second slot's domain: its id the response's hop-1 id, its
entry point the response's filler (its name escaped as XML with -valid) at
the first span of its value provenance, asking the second slot.  Responses
generating the same query make it once (the last one's, as the Perl).

:func:`generate_queries` is the same as data.
"""
from __future__ import annotations

import re
from collections import namedtuple

import os

from scorer.coldstart.policy import JUSTIFICATIONS_MESSAGE
from scorer.coldstart.toolkit import toolrun
from scorer.coldstart.toolkit.catalogue import FORMATS
from scorer.coldstart.toolkit.documents import read_documents
from scorer.coldstart.toolkit.problemlog import Fatal, ProblemLog
from scorer.coldstart.toolkit.provenance import read_spans
from scorer.coldstart.toolkit.queryfile import EntryPoint, Query, QuerySet, read_query_file
from scorer.coldstart.toolkit.responses import read_responses
from scorer.problems import ScorerError
from scorer.switches import Switch

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
    """What generatequeries makes: the query file's text (None when round 2
    found errors: nothing is written), the queries (a
    :class:`~scorer.coldstart.toolkit.queryfile.QuerySet`) and the problems
    found (a :class:`~scorer.coldstart.toolkit.problemlog.ProblemLog`; round 1
    reports none, as the Perl; round 2 those of the query file and the run)."""

    __slots__ = ()


def round1_queries(queries: QuerySet) -> QuerySet:
    """Round 1: every query with ``<slot>``, its first slot."""
    for query in queries.in_id_order():
        query.fields["SLOT"] = query.fields.get("SLOT0")
    return queries


#: The characters -valid writes as XML entities in a round-2 query's name.
_XML_ESCAPES = {"<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;"}
_XML_SPECIAL = re.compile("[<>&'\"]")
_DOMAIN = re.compile(r"(.*?):")


class _Unrecorded:
    """The Perl records the problems of the queries it makes for round 2
    after it has reported: they are never seen."""

    @staticmethod
    def record(*_args, **_place) -> None:
        pass


def round2_query(entry, valid: bool = False):
    """The round-2 query of one round-1 response (a
    :class:`~scorer.coldstart.toolkit.responses.Entry`), or None when its
    query has no second slot or the response's value type is not that slot's
    domain."""
    parent = entry.query
    next_slot = parent.fields.get("SLOT1")
    if next_slot is None:
        return None
    domain = _DOMAIN.match(next_slot)
    if domain is None or domain.group(1) != (entry.value_type or "").lower():
        return None
    query = Query(entry.target_query_id)
    query.parent, query.level = parent, parent.level + 1
    unrecorded = _Unrecorded()
    for level in (1, 2):
        slot = parent.fields.get(f"SLOT{level}")
        if slot is not None:
            query.put(f"SLOT{level - 1}", slot, unrecorded)
    query.fields["SLOT"] = next_slot
    query.fields["ENTTYPE"] = domain.group(1)
    name = _XML_SPECIAL.sub(lambda m: _XML_ESCAPES[m.group(0)], entry.value) if valid \
        else entry.value
    spans, _problems = read_spans(entry.column("VALUE_PROVENANCE_TRIPLES"), 2)
    start, end = spans.spans[0] if spans.spans else (None, None)
    query.add_entry_point(EntryPoint(name=name, docid=spans.docid, start=start, end=end),
                          unrecorded)
    return query


def round2_queries(responses, valid: bool = False) -> QuerySet:
    """Round 2: a query for each response that asks one (every line read,
    those the validator would drop too, as the Perl)."""
    queries = QuerySet()
    for entry in responses.submissions:
        query = round2_query(entry, valid)
        if query is not None:
            queries.add(query)
    return queries


def check_justifications(value: str, round2: bool = False) -> None:
    """-justifications as the Perl checks it (round 2 refuses ``A:0`` too:
    the Perl divides by zero there)."""
    if not _JUSTIFICATIONS.match(value) or (round2 and value.rstrip("\n").endswith(":0")):
        raise Fatal(JUSTIFICATIONS_MESSAGE)


def read_docs(path: str) -> None:
    """-docs is read (a file that cannot be, or is not text, is fatal) but,
    as in the Perl, not used."""
    try:
        read_documents(path)
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
    check_justifications(justifications, round2=True)
    if not os.path.lexists(run_file):
        raise Fatal(f"File {run_file} does not exist")
    responses = read_responses([run_file], queries, log, justifications)
    if log.error_count:
        return GeneratedQueries(None, QuerySet(), log)
    round2 = round2_queries(responses, valid)
    return GeneratedQueries(round2.text(), round2, log)


def main(argv) -> int:
    return toolrun.run(argv, SWITCHES, PARAMS, USAGE, _command)


def _command(given: dict, params: dict, errors) -> int:
    output_file = params["outputfile"]
    if not toolrun.is_stream(output_file):
        # The Perl opens the output first (emptying an input named there).
        toolrun.check_writable(output_file)
        toolrun.refuse_input_written_over(output_file, [params["queryfile"],
                                                        params.get("runfile"),
                                                        given.get("docs")])
    errors.open(refuse_existing=False)
    result = generate_queries(params["queryfile"], params.get("runfile"), docs=given.get("docs"),
                              valid=bool(given.get("valid")),
                              justifications=given.get("justifications", "M:M"))
    if params.get("runfile") is None:
        toolrun.write_outputs({output_file: result.text})
        return 0
    return toolrun.finish(errors, result.log, {output_file: result.text})
