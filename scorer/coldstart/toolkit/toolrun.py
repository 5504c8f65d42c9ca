"""What the toolkit's tools share on the command line: reading argv as the
Perl's SwitchProcessor reads it (switches, then the positional parameters in
order, the required ones checked), the error output (``-error_file``: a file,
``STDOUT`` or ``STDERR``), the Perl's refusal to write over an existing file,
and the outputs written all or none once a tool has finished.

A tool's messages are gathered and written when it ends: the error file is
written whole (through a temporary name) even when the tool fails, so that it
holds what went wrong; the outputs are written only when the tool succeeds
(the Perl leaves the files it opened before failing, empty or half-written).
"""
from __future__ import annotations

import os
import sys
import textwrap

from scorer import output, switches
from scorer.coldstart.toolkit.problemlog import Fatal, count_line
from scorer.problems import ERROR_EXIT_STATUS, ScorerError
from scorer.switches import Switch, UsageError

#: The switches every tool has.
HELP_SWITCHES = (switches.HELP, switches.H, switches.VERSION)
ERROR_FILE = Switch("error_file", default="STDERR",
                    help="Specify a file to which error output should be redirected")
#: The help of the switches several tools have (the Perl's words).
DOCS_HELP = ("Tab-separated file containing docids and document lengths, measured in "
             "unnormalized Unicode characters")
JUSTIFICATIONS_HELP = (
    "Are multiple justifications allowed? Legal values are of the form A:B where A represents "
    "justifications per document and B represents total justifications. Use 'M' to allow any "
    "number of justifications, for e.g., 'M:10' to allow multiple justifications per document "
    "but overall not more than 10 (best or top) justifications.")


class LoggedResult:
    """What a tool's data-returning function gives has a ``log`` (a
    :class:`~scorer.coldstart.toolkit.problemlog.ProblemLog`): its problems
    as data, and whether it found an error."""

    __slots__ = ()

    @property
    def problems(self) -> list:
        """(name, message, places) of every problem, in the Perl's report order."""
        return list(self.log.records())

    @property
    def ok(self) -> bool:
        """True when no error was found (the tool writes its files)."""
        return self.log.error_count == 0


def is_stream(target: str) -> bool:
    return target.lower() in ("stdout", "stderr")


def usage_text(tool: str, description: str, table: dict, params) -> str:
    """The tool's -help: what it does, its command line, its switches and
    parameters (``params``: (name, required, help) in order)."""
    names = " ".join(name if required else "{" + name + "}" for name, required, _ in params)
    lines = textwrap.wrap(description, 80)
    lines += ["", f"Usage: python -m scorer.coldstart {tool} {{-switch {{-switch ...}}}} {names}",
              "", "Legal switches are:"]
    lines += switches.help_lines(table)
    lines.append("parameters are:")
    width = max(len(name) for name, _, _ in params) + 4
    for name, required, text in params:
        lines += textwrap.wrap(text + (" (Required)." if required else ""), 80,
                               initial_indent=f"  {name}".ljust(width),
                               subsequent_indent=" " * (width + 2))
    return "\n".join(lines) + "\n"


def parse(argv, table: dict, params) -> tuple:
    """(switch values given, parameter values by name) from argv; a mistake
    raises UsageError with the Perl's words.  -help and -version are given as
    ``{"help": True}`` / ``{"version": True}``."""
    given, positional = switches.parse(argv, table, files_needed=False)
    if given.get("help") or given.get("version"):
        return given, {}
    values = {}
    for name, required, _ in params:
        if not positional:
            if required:
                raise UsageError(f"Not enough arguments; {name} must be provided")
            continue
        values[name] = positional.pop(0)
    if positional:
        raise UsageError("Too many arguments")
    return given, values


class ErrorOutput:
    """Where a tool's messages go: gathered, then written when it ends."""

    def __init__(self, target: str = "STDERR"):
        self.target = target
        self.pieces: list = []
        self.opened = False

    def open(self, refuse_existing: bool = True) -> None:
        """Take the error file (the Perl opens it here): refused when it
        exists (``refuse_existing``, as most tools do) or cannot be written."""
        if not is_stream(self.target):
            if refuse_existing:
                refuse_if_exists(self.target)
            check_writable(self.target)
        self.opened = True

    def write(self, text: str) -> None:
        self.pieces.append(text)

    def close(self) -> None:
        """Write what was gathered (to standard error when the file was never
        taken: a mistake found before it)."""
        text = "".join(self.pieces)
        self.pieces = []
        if not self.opened or is_stream(self.target):
            out = sys.stdout if self.opened and self.target.lower() == "stdout" else sys.stderr
            out.write(text)
            out.flush()
            return
        try:
            output.write_text_atomically(self.target, text)
        except ScorerError as error:
            sys.stderr.write(text + f"ERROR: {error}\n")


def refuse_if_exists(path: str) -> None:
    """The Perl's refusal to write over a file (its words)."""
    if os.path.lexists(path):
        raise Fatal(f"File {path} already exists")


def refuse_input_written_over(path: str, inputs) -> None:
    """An output that is one of the inputs (by name, link or another name) is
    refused: the Perl opens its output first and so empties the input it
    then reads."""
    found = output.input_written_over([path], [name for name in inputs if name])
    if found:
        raise Fatal(f"{path} would write over the input {found[1]}; choose another name")


def check_writable(path: str) -> None:
    """A file that cannot be written is refused before any work is done."""
    try:
        output.check_writable(path)
    except ScorerError as error:
        raise Fatal(str(error))


def write_outputs(texts: dict) -> None:
    """Write ``{path: text}`` all or none (a path ``stdout``/``stderr`` is that
    stream, written last)."""
    files = {path: text for path, text in texts.items() if not is_stream(path)}
    try:
        output.write_files(files)
    except ScorerError as error:
        raise Fatal(str(error))
    for path, text in texts.items():
        if is_stream(path):
            out = sys.stdout if path.lower() == "stdout" else sys.stderr
            out.write(text)
            out.flush()


def fatal_text(error) -> str:
    """What the error output gets for a fatal error."""
    text = error.text if isinstance(error, Fatal) else str(error)
    return text if text.endswith("\n") else text + "\n"


def usage_error(error: UsageError, usage: str) -> int:
    sys.stderr.write(switches.usage_error_text(error, usage))
    return ERROR_EXIT_STATUS


def run(argv, table: dict, params, usage: str, body) -> int:
    """A tool's command line: argv read (-help and -version answered), then
    ``body(switches given, parameters, errors)`` -> exit status, with its
    error output (an :class:`ErrorOutput`); a fatal problem is written there,
    exit 255."""
    try:
        given, values = parse(argv, table, params)
    except UsageError as error:
        return usage_error(error, usage)
    if switches.answered(given, usage):
        return 0
    errors = ErrorOutput(given.get("error_file", "STDERR"))
    try:
        return body(given, values, errors)
    except (Fatal, ScorerError) as error:
        errors.write(fatal_text(error))
        return ERROR_EXIT_STATUS
    finally:
        errors.close()


def finish(errors: ErrorOutput, log, outputs: dict) -> int:
    """The end of a tool that reports its problems: the report, then with
    errors their count (exit 255, nothing written), else the outputs written
    and the count of warnings (exit 0)."""
    errors.write(log.report())
    if log.error_count:
        errors.write(count_line(log.error_count, "error"))
        return ERROR_EXIT_STATUS
    write_outputs(outputs)
    errors.write(count_line(log.warning_count, "warning"))
    return 0
