"""``python -m scorer.coldstart packageoutput``: join the two rounds' outputs of a
slot-filling run into the one file a team submits, as
CS-PackageOutput-MASTER.pl 2017.2.0 does:

    python -m scorer.coldstart packageoutput -error_file RUN.errlog \\
        sf-query.xml RUN.r1.tab.txt RUN.r2.tab.txt RUN.tab.txt

The round-1 run answers the SF queries (``sf-query.xml``, the original query
file), the round-2 run the queries ``generatequeries`` made from round 1; both
are read as ``validatesf`` reads a run (``toolkit/responses.py``: with
-justifications, by default ``M:M``, the lines past its limits and the weaker
children of single-valued slots dropped with warnings; with ``-docs`` every
span checked against the documents), then written as one run in the 2017 SF
format, as ``validatesf`` writes it.  The two rounds must have one run id
(another is fatal, ``MISMATCHED_RUNID``).  With errors, nothing is written but
the error output, and the exit status is 255; the output and the error file
must not exist.

``package_output`` is the same as data (``scorer.coldstart.package_output``).
"""
from __future__ import annotations

import os
from collections import namedtuple

from scorer.coldstart.toolkit import toolrun
from scorer.coldstart.toolkit.catalogue import FORMATS
from scorer.coldstart.toolkit.documents import read_documents
from scorer.coldstart.toolkit.problemlog import Fatal, ProblemLog, count_line
from scorer.coldstart.toolkit.queryfile import read_query_file
from scorer.coldstart.toolkit.responses import read_responses, validated_lines
from scorer.coldstart.toolkit.validatesf import check_switches
from scorer.switches import Switch

DESCRIPTION = ("packageoutput (CS-PackageOutput-MASTER.pl 2017.2.0): Marshal round 1 and "
               "round 2 output for the Cold Start 2015 Slot Filling variant.")
SWITCHES = {switch.name: switch for switch in (
    Switch("docs", help=toolrun.DOCS_HELP, names_file=True),
    toolrun.ERROR_FILE,
    *toolrun.HELP_SWITCHES,
    Switch("justifications", default="M:M", help=toolrun.JUSTIFICATIONS_HELP),
)}
PARAMS = (("queryfile", True, "File containing queries used to generate the file being "
                              "validated. Only the original query file needs to be specified "
                              "here"),
          ("round1file", True, "File containing round 1 output"),
          ("round2file", True, "File containing round 2 output"),
          ("outputfile", True, "File into which to place combined output"))
USAGE = toolrun.usage_text("packageoutput", DESCRIPTION, SWITCHES, PARAMS)


class PackagedOutput(toolrun.LoggedResult,
                     namedtuple("PackagedOutput", ("lines", "responses", "log"))):
    """What packageoutput makes: the packaged run's ``lines`` (each ending in
    a newline; none when there were errors), the lines read from both rounds
    (``responses``, a :class:`~scorer.coldstart.toolkit.responses.Responses`)
    and the problems found (``log``; as data, ``problems``)."""

    __slots__ = ()

    @property
    def text(self) -> str:
        return "".join(self.lines)

    @property
    def errlog(self) -> str:
        """The error output: the report of the problems, then the count line."""
        log = self.log
        return log.report() + (count_line(log.error_count, "error") if log.error_count
                               else count_line(log.warning_count, "warning"))


def check_runs_exist(*paths) -> None:
    for path in paths:
        if not os.path.lexists(path):
            raise Fatal(f"File {path} does not exist")


def package_output(query_file: str, round1_file: str, round2_file: str, *, docs=None,
                   justifications: str = "M:M", nil_prefix=None) -> PackagedOutput:
    """CS-PackageOutput on the two rounds' runs (each a file, or a folder of
    ``*.tab.txt`` files) against the original SF query file, as data (nothing
    is written).  ``nil_prefix``: the four letters of the ``:NIL_`` node ids
    (by default drawn from the runs' bytes).  A problem that stops the Perl (a
    file that cannot be read, a query not loaded, a DOCID not in -docs, two run
    ids) raises :class:`~scorer.coldstart.toolkit.problemlog.Fatal`."""
    log = ProblemLog(FORMATS)
    documents = read_documents(docs) if docs is not None else None
    check_switches(justifications)
    check_runs_exist(round1_file, round2_file)
    return _package(log, query_file, round1_file, round2_file, documents, justifications,
                    nil_prefix)


def _package(log, query_file, round1_file, round2_file, documents, justifications,
             nil_prefix) -> PackagedOutput:
    queries = read_query_file(query_file, log, documents)
    responses = read_responses([round1_file, round2_file], queries, log, justifications,
                               None, documents)
    if len(responses.runids) > 1:
        # (the Perl joins them in its hash order; here in string order, one of its orders)
        log.record("MISMATCHED_RUNID", ",".join(sorted(responses.runids)))
    lines = [] if log.error_count else list(validated_lines(responses, nil_prefix))
    return PackagedOutput(lines, responses, log)


def main(argv) -> int:
    return toolrun.run(argv, SWITCHES, PARAMS, USAGE, _command)


def _command(given: dict, params: dict, errors) -> int:
    # The Perl's order: the error file (refused when it exists), -docs,
    # -justifications, the two runs, then the output (refused when it exists:
    # a file named STDOUT is a file), all before any query is read.
    errors.open()
    docs = given.get("docs")
    documents = read_documents(docs) if docs is not None else None
    justifications = given.get("justifications", "M:M")
    check_switches(justifications)
    check_runs_exist(params["round1file"], params["round2file"])
    output_file = params["outputfile"]
    toolrun.refuse_if_exists(output_file)
    toolrun.check_writable(output_file)
    result = _package(ProblemLog(FORMATS), params["queryfile"], params["round1file"],
                      params["round2file"], documents, justifications, None)
    # (the Perl writes a file named STDOUT too: it is not a stream here)
    target = os.path.join(os.curdir, output_file) if toolrun.is_stream(output_file) \
        else output_file
    return toolrun.finish(errors, result.log, {target: result.text})
