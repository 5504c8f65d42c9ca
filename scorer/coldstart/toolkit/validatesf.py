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

import dataclasses

from scorer import output
from scorer.coldstart import toolkit
from scorer.coldstart.policy import JUSTIFICATIONS_MESSAGE, JUSTIFICATIONS_PATTERN
from scorer.coldstart.queries import read_query_files
from scorer.coldstart.toolkit import toolcommand
from scorer.coldstart.toolkit.catalogue import FORMATS
from scorer.coldstart.toolkit.documents import read_documents
from scorer.coldstart.toolkit.pooling import DEPTH_MESSAGE, DEPTH_PATTERN, parse_depth
from scorer.coldstart.toolkit.problemlog import ProblemLog, count_line
from scorer.coldstart.toolkit.responses import read_responses, validated_lines
from scorer.coldstart.toolkit.toolcommand import ErrorOutput, Param
from scorer.problems import ERROR_EXIT_STATUS, ScorerError
from scorer.switches import HELP, H, VERSION, Switch, UsageError, table

TOOL = next(tool for tool in toolkit.TOOLS if tool.name == "validatesf")
SUMMARY = ("Validate a TAC Cold Start Slot Filling variant output file, checking for common "
           "errors.")
JUSTIFICATIONS_HELP = (
    "Are multiple justifications allowed? Legal values are of the form A:B where A represents "
    "justifications per document and B represents total justifications. Use 'M' to allow any "
    "number of justifications, for e.g., 'M:10' to allow multiple justifications per document "
    "but overall not more than 10 (best or top) justifications.")
DOCS_HELP = ("Tab-separated file containing docids and document lengths, measured in "
             "unnormalized Unicode characters")
SWITCHES = table((
    Switch("allow_comments", False, help="Enable comments introduced by a pound sign in the "
                                         "middle of an input line"),
    Switch("depth", help="Colon-speated scheme name and depth; to be used only at NIST."),
    Switch("docs", help=DOCS_HELP, names_file=True),
    Switch("error_file", default="STDERR",
           help="Specify a file to which error output should be redirected"),
    Switch("groundtruth", False, help="Treat input file as ground truth (so don't, e.g., "
                                      "enforce single-valued slots)"),
    HELP, H,
    Switch("justifications", default="1:3", help=JUSTIFICATIONS_HELP),
    Switch("output_file", default="none", help="Specify an output file with warnings "
                                               "repaired. Omit for validation only"),
    VERSION,
))
PARAMS = (Param("queryfile", True, "File containing queries used to generate the file being "
                                   "validated"),
          Param("filename", True, "File containing query output."))


@dataclasses.dataclass
class SFValidation:
    """What validating an SF run found: the validated file's ``lines`` (each
    ending in a newline; none when there were errors), the ``problems`` as
    (name, message, places) in the error output's order, their counts, and
    the error output's text: the ``report`` of the problems, then the count
    line (``final``), together ``errlog``."""

    lines: list
    problems: list
    error_count: int
    warning_count: int
    report: str
    final: str
    #: the files read as the run (a folder's *.tab.txt files in its place)
    files: list
    #: how many lines the run had that the validated file does not hold
    dropped: int = 0

    @property
    def ok(self) -> bool:
        return not self.error_count

    @property
    def errlog(self) -> str:
        return self.report + self.final


def check_switches(justifications: str = "1:3", depth=None) -> None:
    """The Perl's checks of -depth and -justifications (and B of A:B at least
    1: the Perl divides by zero)."""
    if depth is not None and not DEPTH_PATTERN.match(depth):
        raise ScorerError(DEPTH_MESSAGE.rstrip("\n"))
    if not JUSTIFICATIONS_PATTERN.match(justifications) or justifications.endswith("\n") \
            or justifications.split(":")[1] == "0":
        raise ScorerError(JUSTIFICATIONS_MESSAGE)


def validate_sf(queryfile: str, filename: str, justifications: str = "1:3", docs=None,
                depth=None, allow_comments: bool = False, groundtruth: bool = False,
                nil_prefix=None) -> SFValidation:
    """Validate the run ``filename`` (a file, or a folder of ``*.tab.txt``
    files) against the SF query file ``queryfile``, as
    ``python -m scorer.coldstart validatesf`` does.  A fatal problem raises
    ``ScorerError`` (``toolkit.problemlog.Fatal`` for the Perl's FATAL_ERRORs)
    with the command line's message."""
    log = ProblemLog(FORMATS)
    if groundtruth:
        log.ignore("MULTIPLE_FILLS_SLOT")
    documents = read_documents(docs) if docs is not None else None
    check_switches(justifications, depth)
    if not _exists(filename):
        raise ScorerError(f"File {filename} does not exist")
    queries = read_query_files([queryfile], log, documents)
    responses = read_responses([filename], queries, log, justifications,
                               parse_depth(depth) if depth is not None else None, documents,
                               allow_comments)
    report = log.report()
    lines = [] if log.error_count else list(validated_lines(responses, nil_prefix))
    final = count_line(log.error_count, "error") if log.error_count \
        else count_line(log.warning_count, "warning")
    return SFValidation(lines, list(log.records()), log.error_count, log.warning_count,
                        report, final, responses.files,
                        len(responses.submissions) - len(lines) if lines else 0)


def _exists(path: str) -> bool:
    import os
    return os.path.lexists(path)


def main(argv) -> int:
    usage_text = toolcommand.usage(TOOL, SUMMARY, SWITCHES, PARAMS)
    try:
        given, params = toolcommand.parse(argv, SWITCHES, PARAMS)
    except UsageError as error:
        return toolcommand.usage_error(error, usage_text)
    if given.get("help"):
        import sys
        sys.stdout.write(usage_text)
        return 0
    if given.get("version"):
        import sys
        sys.stdout.write(toolcommand.version_text(TOOL))
        return 0
    target = given.get("output_file", "none")
    errors = None
    try:
        writes_file = target != "none" and not output.is_stream(target)
        if writes_file:
            output.check_writable(target)
            over = output.input_written_over([target], [params["queryfile"], params["filename"],
                                                        given.get("docs")])
            if over:
                raise ScorerError(f"-output_file {target} would write over the input {over[1]}; "
                                  f"choose another name")
        errors = ErrorOutput(given.get("error_file", "STDERR"))
        validation = validate_sf(params["queryfile"], params["filename"],
                                 given.get("justifications", "1:3"), given.get("docs"),
                                 given.get("depth"), bool(given.get("allow_comments")),
                                 bool(given.get("groundtruth")))
        errors.write(validation.report)
        if not validation.ok:
            errors.write(validation.final)
            errors.close()
            return ERROR_EXIT_STATUS
        if writes_file:
            output.write_text_atomically(target, validation.lines)
        elif target != "none":
            stream = output.stream(target)
            stream.writelines(validation.lines)
            stream.flush()
        errors.write(validation.final)
        errors.close()
    except ScorerError as error:
        return toolcommand.fail(error, errors)
    return 0
