"""What the toolkit's command lines share: the usage text laid out as the
Perl's SwitchProcessor lays it out, the positional parameters checked as it
checks them, and the error output (``-error_file``): the problem report and
the count line, written when the tool ends (a file whole, through a
temporary name), where the Perl's Logger writes them.

A tool's mistakes of the command line print ``ERROR: message`` and the usage,
exit 255, as the Perl's do; a fatal problem prints its message (the Perl's
words, with the file and line where it has them) where the error output goes.
"""
from __future__ import annotations

import os
import sys
import textwrap
from collections import namedtuple

from scorer import output, switches
from scorer.problems import ERROR_EXIT_STATUS, ScorerError
from scorer.switches import UsageError
from scorer.version import PERL_REFERENCE_VERSION

#: A positional parameter: its name, whether it must be given, its help.
Param = namedtuple("Param", ("name", "required", "help"))


def usage(tool, summary: str, table: dict, params) -> str:
    """The -help text: the summary, the usage line, the switches and the
    parameters, as the Perl's tools print them."""
    head = f"{tool.name}:  "
    lines = textwrap.wrap(f"{summary} ({tool.perl} {PERL_REFERENCE_VERSION})", width=80,
                          initial_indent=head, subsequent_indent=" " * len(head))
    lines += ["", f"Usage: python -m scorer.coldstart {tool.name} {{-switch {{-switch ...}}}} "
                  + " ".join(p.name if p.required else f"[{p.name}]" for p in params),
              "", "Legal switches are:"]
    lines += switches.help_lines(table, width=80)
    lines.append("parameters are:")
    width = max(len(p.name) for p in params)
    for p in params:
        text = p.help + (" (Required)." if p.required else "")
        lines += textwrap.wrap(text, width=80, initial_indent=f"  {p.name.ljust(width)}  ",
                               subsequent_indent=" " * (width + 6))
    return "\n".join(lines) + "\n"


def version_text(tool) -> str:
    from scorer.version import __version__
    return f"python -m scorer.coldstart {tool.name} (scorer {__version__}), as {tool.perl} " \
           f"version {PERL_REFERENCE_VERSION}\n"


def parse(argv, table: dict, params) -> tuple:
    """(switches given, {parameter: value}) of a tool's argv; -help and
    -version give ``({"help": True}, {})`` and the like.  Too few or too many
    parameters is a UsageError with the Perl's words."""
    given, positional = switches.parse(argv, table, files_needed=False)
    if given.get("help") or given.get("version"):
        return given, {}
    values = {}
    for param in params:
        if positional:
            values[param.name] = positional.pop(0)
        elif param.required:
            raise UsageError(f"Not enough arguments; {param.name} must be provided")
    if positional:
        raise UsageError("Too many arguments")
    return given, values


def usage_error(error: UsageError, usage_text: str) -> int:
    sys.stderr.write(switches.usage_error_text(error, usage_text))
    return ERROR_EXIT_STATUS


class ErrorOutput:
    """Where a tool's problem report and final lines go: ``-error_file``, a
    file (which must not exist yet: the Perl refuses to write over one),
    ``stdout`` or ``stderr`` (any case; STDERR is the default).  A file is
    written whole when the tool ends (:meth:`close`)."""

    def __init__(self, target: str):
        self.target = target
        self.to_file = not output.is_stream(target)
        if self.to_file:
            if os.path.lexists(target):
                raise ScorerError(f"File {target} already exists")
            output.check_writable(target)
        self._pieces: list = []

    def write(self, text: str) -> None:
        if self.to_file:
            self._pieces.append(text)
        else:
            stream = output.stream(self.target)
            stream.write(text)
            stream.flush()

    def close(self) -> None:
        if self.to_file:
            output.write_text_atomically(self.target, self._pieces)
            self._pieces = []


def fail(error: ScorerError, errors) -> int:
    """A fatal problem: its text to the error output (standard error when the
    error output is not open yet), and the NIST exit status."""
    text = getattr(error, "text", None) or str(error)
    if errors is None:
        sys.stderr.write(text + "\n")
    else:
        errors.write(text + "\n")
        try:
            errors.close()
        except ScorerError as late:
            sys.stderr.write(f"{text}\n{late}\n")
    return ERROR_EXIT_STATUS
