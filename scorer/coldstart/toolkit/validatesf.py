"""``python -m scorer.coldstart validatesf``: validate a Cold Start slot-filling
run against its SF query file, as CS-ValidateSF-MASTER.pl 2017.2.0 does, and
write the validated run the official scores are computed from.

    python -m scorer.coldstart validatesf [-docs doclength.txt] [-justifications 1:3] \\
        -output_file RUN.valid.ldc.tab.txt -error_file RUN.errlog sf-query.xml RUN

What it checks and repairs is the Perl library's (``toolkit/responses.py``);
the validated file holds what the Perl's holds: the lines kept after the
-justifications limits and the single-valued slots (the weaker children and
the lines below them dropped, with warnings), sorted, deduplicated, provenance
normalised, the run id of the first line, node ids given where a line has
none.  With errors, nothing is written but the error output, and the exit
status is 255.

``validate_sf`` is the same as data (``scorer.coldstart.validate_sf``).
"""
from __future__ import annotations

import os
from collections import namedtuple

from scorer.coldstart.policy import JUSTIFICATIONS_MESSAGE, JUSTIFICATIONS_PATTERN
from scorer.coldstart.toolkit import toolrun
from scorer.coldstart.toolkit.catalogue import FORMATS
from scorer.coldstart.toolkit.documents import read_documents
from scorer.coldstart.toolkit.pooling import DEPTH_MESSAGE, DEPTH_PATTERN, parse_depth
from scorer.coldstart.toolkit.problemlog import Fatal, ProblemLog, count_line
from scorer.coldstart.toolkit.queryfile import read_query_file
from scorer.coldstart.toolkit.responses import read_responses, validated_lines
from scorer.problems import ERROR_EXIT_STATUS
from scorer.switches import Switch

DESCRIPTION = ("validatesf (CS-ValidateSF-MASTER.pl 2017.2.0): Validate a TAC Cold Start Slot "
               "Filling variant output file, checking for common errors.")
JUSTIFICATIONS_HELP = toolrun.JUSTIFICATIONS_HELP
DOCS_HELP = toolrun.DOCS_HELP
SWITCHES = {switch.name: switch for switch in (
    Switch("allow_comments", False, help="Enable comments introduced by a pound sign in the "
                                         "middle of an input line"),
    Switch("depth", help="Colon-speated scheme name and depth; to be used only at NIST."),
    Switch("docs", help=DOCS_HELP, names_file=True),
    toolrun.ERROR_FILE,
    Switch("groundtruth", False, help="Treat input file as ground truth (so don't, e.g., "
                                      "enforce single-valued slots)"),
    *toolrun.HELP_SWITCHES,
    Switch("justifications", default="1:3", help=JUSTIFICATIONS_HELP),
    Switch("output_file", default="none", help="Specify an output file with warnings "
                                               "repaired. Omit for validation only"),
)}
PARAMS = (("queryfile", True, "File containing queries used to generate the file being "
                              "validated"),
          ("filename", True, "File containing query output."))
USAGE = toolrun.usage_text("validatesf", DESCRIPTION, SWITCHES, PARAMS)


class SFValidation(toolrun.LoggedResult,
                   namedtuple("SFValidation", ("lines", "responses", "log"))):
    """What validatesf makes: the validated file's ``lines`` (each ending in a
    newline; none when there were errors), the lines read (``responses``, a
    :class:`~scorer.coldstart.toolkit.responses.Responses`) and the problems
    found (``log``, a :class:`~scorer.coldstart.toolkit.problemlog.ProblemLog`;
    as data, ``problems``)."""

    __slots__ = ()

    @property
    def text(self) -> str:
        return "".join(self.lines)

    @property
    def dropped(self) -> int:
        """How many lines of the run the validated file does not hold (none
        counted when there were errors)."""
        return len(self.responses.submissions) - len(self.lines) if self.ok else 0

    @property
    def errlog(self) -> str:
        """The error output: the report of the problems, then the count line."""
        log = self.log
        return log.report() + (count_line(log.error_count, "error") if log.error_count
                               else count_line(log.warning_count, "warning"))


def check_switches(justifications: str = "1:3", depth=None) -> None:
    """The Perl's checks of -depth and -justifications (and B of A:B at least
    1: the Perl divides by zero)."""
    if depth is not None and not DEPTH_PATTERN.match(depth):
        raise Fatal(DEPTH_MESSAGE.rstrip("\n"))
    if not JUSTIFICATIONS_PATTERN.match(justifications) or justifications.endswith("\n") \
            or justifications.split(":")[1] == "0":
        raise Fatal(JUSTIFICATIONS_MESSAGE)


def validate_sf(query_file: str, run_file: str, *, justifications: str = "1:3", docs=None,
                depth=None, allow_comments: bool = False, groundtruth: bool = False,
                nil_prefix=None, queries=None, documents=None, run_bytes=None) -> SFValidation:
    """CS-ValidateSF on the run ``run_file`` (a file, or a folder of
    ``*.tab.txt`` files) against the SF query file ``query_file``, as data
    (nothing is written).  The keywords are the switches of the same names;
    ``nil_prefix``: the four letters of the ``:NIL_`` node ids (by default drawn
    from the run's bytes); ``queries``: the SF queries already read (a
    :class:`~scorer.coldstart.toolkit.queryfile.QuerySet` of their own: reading
    the run adds to it), ``query_file`` then only names them, and
    ``documents``: -docs already read (``docs`` then unread); ``run_bytes``: the
    run's bytes, read in place of the file ``run_file`` names.  A problem that stops the Perl (a file that cannot
    be read, a query not loaded, a DOCID not in -docs) raises
    :class:`~scorer.coldstart.toolkit.problemlog.Fatal` (a ScorerError); the
    others are in the result's log."""
    log = ProblemLog(FORMATS)
    if groundtruth:
        log.ignore("MULTIPLE_FILLS_SLOT")
    if documents is None and docs is not None:
        documents = read_documents(docs)
    check_switches(justifications, depth)
    if run_bytes is None and not os.path.lexists(run_file):
        raise Fatal(f"File {run_file} does not exist")
    if queries is None:
        queries = read_query_file(query_file, log, documents)
    responses = read_responses([run_file], queries, log, justifications,
                               parse_depth(depth) if depth is not None else None, documents,
                               allow_comments, None if run_bytes is None else {run_file: run_bytes})
    lines = [] if log.error_count else list(validated_lines(responses, nil_prefix))
    return SFValidation(lines, responses, log)


def main(argv) -> int:
    return toolrun.run(argv, SWITCHES, PARAMS, USAGE, _command)


def _command(given: dict, params: dict, errors) -> int:
    output_file = given.get("output_file", "none")
    inputs = [params["queryfile"], params["filename"], given.get("docs")]
    if output_file != "none" and not toolrun.is_stream(output_file):
        # The Perl opens the output first (truncating an input named there).
        toolrun.check_writable(output_file)
        toolrun.refuse_input_written_over(output_file, inputs)
    errors.open()
    result = validate_sf(params["queryfile"], params["filename"],
                         justifications=given.get("justifications", "1:3"),
                         docs=given.get("docs"), depth=given.get("depth"),
                         allow_comments=bool(given.get("allow_comments")),
                         groundtruth=bool(given.get("groundtruth")))
    outputs = {} if output_file == "none" else {output_file: result.text}
    return toolrun.finish(errors, result.log, outputs)
