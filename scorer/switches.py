"""Switches: how every command of scorer reads its argv, and the switches of
``python -m scorer``.

A switch is ``-NAME`` (the Perl scorer's style: one dash, an exact name; the
GNU spellings ``--help`` and ``--version`` are taken too); a value switch
takes the next argument.  Switches may come before or after the files.  Each
command has a table of :class:`Switch` records (name, value or flag, default,
help), and :func:`parse` turns argv into the switches given and the files.
"""
from __future__ import annotations

import os
import sys

from scorer import registry
from scorer.limits import has_lone_surrogate
from scorer.version import PERL_REFERENCE_VERSION, __version__


class Switch:
    """One switch: its name, whether it takes a value, the default shown in
    the help, its help text (None: not listed), and what it does besides
    being given: ``sets_policy`` (it overrides the policy key of its name),
    ``names_file`` (its value may be an input file), ``check`` (a function of
    the value returning what is wrong with it, to follow "Switch -NAME ", or
    None)."""

    __slots__ = ("name", "takes_value", "default", "help", "sets_policy", "names_file", "check")

    def __init__(self, name: str, takes_value: bool = True, default=None, help=None,
                 sets_policy: bool = False, names_file: bool = False, check=None):
        self.name = name
        self.takes_value = takes_value
        self.default = default
        self.help = help
        self.sets_policy = sets_policy
        self.names_file = names_file
        self.check = check


class UsageError(Exception):
    """A mistake on the command line: message, then the usage text (or, with
    ``brief``, a pointer to -help, so that the message does not scroll away)."""

    def __init__(self, message: str, brief: bool = False):
        super().__init__(message)
        self.brief = brief


#: What follows a brief mistake instead of the usage text.
HELP_POINTER = "Run with -help for the switches and what they mean.\n"


def usage_error_text(error: UsageError, usage_text: str) -> str:
    """What a command prints for a mistake on its command line: the message,
    then the usage text, or for a brief mistake (a switch, a value) a pointer
    to -help, so that the message is the last thing on the screen."""
    return f"ERROR: {error}\n" + (HELP_POINTER if error.brief else f"\n{usage_text}")


#: GNU-style spellings that are accepted as the switch they stand for.
ALIASES = {"--help": "-help", "--version": "-version"}


def _a_file_name(value: str):
    # An empty name would write ".sf" and friends, or fail at the very end.
    if not value.strip():
        return f"needs a file name (or stdout, stderr), not '{value}'"
    return None


#: -help, -h and -version: every command's.
HELP = Switch("help", False, help="Show help")
H = Switch("h", False)
VERSION = Switch("version", False, help="Print version number and exit")

#: The switches of ``python -m scorer`` that belong to no task (each task
#: adds its own: scorer.tasks).
COMMON = (
    Switch("bootstrap", help="Draw this many bootstrap samples (seeded by -seed) instead of "
                             "reading -samples; they are written to <prefix>.bootsamples"),
    Switch("error_file", default="stderr", help="Where should error output be sent? "
                                                "(filename, stdout or stderr)",
           check=_a_file_name),
    H,
    HELP,
    Switch("output_file", default="stdout", help="Where should program output be sent? "
                                                 "(prefix of filename, stdout or stderr)",
           check=_a_file_name),
    Switch("plot", False, help="Also draw <prefix>.png: every score per hop (P, R, F1, AP; "
                               "claim tasks: every metric) with its 95% interval when samples "
                               "were given (Cold Start: the first run id's)"),
    Switch("policy", help="A shipped policy by its name (-policy fever; listed below) or a "
                          "YAML policy file: the task and its settings (the keys below); "
                          "switches given on the command line override it",
           names_file=True),
    Switch("samples", help="Specify the Bootstrap resamples file.", names_file=True),
    Switch("seed", help="Seed of -bootstrap (a whole number; 0 is a seed like any other)"),
    VERSION,
)


def table(*groups) -> dict:
    """name -> Switch for the switches of ``groups`` (iterables of Switch, or
    tables); a name given twice is the first's (two tasks may share one)."""
    found: dict = {}
    for group in groups:
        for switch in (group.values() if isinstance(group, (dict, RunSwitches)) else group):
            found.setdefault(switch.name, switch)
    return found


def scorer_table() -> dict:
    """Every switch of ``python -m scorer``: the common ones and each task's."""
    return table(COMMON, *(record.switches for record in registry.every()))


class RunSwitches:
    """The switches of ``python -m scorer`` as a run of one task reads them:
    the common ones and that task's are looked up without loading any other
    task's record; a name they lack is looked up in :func:`scorer_table`, and
    going through them goes through all of it (so that another task's switch
    is still read, to be refused by name, and a mistake's suggestion and
    -help are the whole table's).  A switch two tasks share is one record."""

    __slots__ = ("own", "_every")

    def __init__(self, own: dict):
        self.own = own
        self._every = None

    def every(self) -> dict:
        if self._every is None:
            self._every = scorer_table()
        return self._every

    def get(self, name: str, default=None):
        found = self.own.get(name)
        return found if found is not None else self.every().get(name, default)

    def __getitem__(self, name: str):
        found = self.own.get(name)
        return found if found is not None else self.every()[name]

    def __contains__(self, name) -> bool:
        return name in self.own or name in self.every()

    def __iter__(self):
        return iter(self.every())

    def __len__(self) -> int:
        return len(self.every())

    def keys(self):
        return self.every().keys()

    def values(self):
        return self.every().values()

    def items(self):
        return self.every().items()


def run_table(task: str):
    """The switches to read a run of the task named ``task`` by
    (:class:`RunSwitches`); every task's for a name that is no task's."""
    if task not in registry.names():
        return scorer_table()
    return RunSwitches(table(COMMON, registry.get(task).switches))


def policy_argument(argv) -> str | None:
    """The value of the first ``-policy`` of ``argv``, or None: which policy,
    so which task, a command line is most likely for, before it is read."""
    for i, argument in enumerate(argv[:-1]):
        if argument == "-policy":
            return argv[i + 1]
    return None


def suggestion(name: str, switches: dict) -> str:
    """ " (did you mean -X?)" where one switch is close to ``name``."""
    import difflib          # (for this message alone: a run never needs it)
    bare = name.lstrip("-")
    if bare in switches:
        return f" (did you mean -{bare}?)"
    close = difflib.get_close_matches(bare, [n for n in switches if len(n) > 1], n=2,
                                      cutoff=0.75)
    return f" (did you mean -{close[0]}?)" if len(close) == 1 else ""


def is_switch(argument: str, switches: dict) -> bool:
    """Whether ``argument`` is one of ``switches``: as the value of a switch
    before it, a forgotten value."""
    name = ALIASES.get(argument, argument)
    return name.startswith("-") and name[1:] in switches


def parse(argv, switches: dict, files_needed: bool = True) -> tuple:
    """(switch values given, files), the Perl's way: a switch is ``-NAME``
    with an exact name; a value switch takes the next argument; a flag is
    True.  -help (-h) and -version end the reading: ``{"help": True}`` or
    ``{"version": True}`` is all that is returned then."""
    for argument in argv:
        if has_lone_surrogate(argument):
            shown = os.fsencode(argument).decode("utf-8", "backslashreplace")
            raise UsageError(f"the argument '{shown}' is not valid UTF-8 (rename the file, or "
                             f"give its name in UTF-8)", brief=True)
    given: dict = {}
    files: list = []
    i = 0
    while i < len(argv):
        argument = ALIASES.get(argv[i], argv[i])
        if argument.startswith("-") and len(argument) > 1:
            name = argument[1:]
            switch = switches.get(name)
            if switch is None:
                raise UsageError(f"Unknown switch: {argument}{suggestion(name, switches)}",
                                 brief=True)
            if name in ("help", "h"):
                return {"help": True}, files
            if name == "version":
                return {"version": True}, files
            if switch.takes_value:
                if i + 1 >= len(argv):
                    raise UsageError(f"Switch {argument} needs a value", brief=True)
                value = argv[i + 1]
                if is_switch(value, switches):
                    # A forgotten value: the next switch would be taken for it
                    # (-output_file -policy p.yaml: reports named -policy.*).
                    raise UsageError(f"Switch {argument} needs a value, not the switch "
                                     f"{value}", brief=True)
                problem = switch.check(value) if switch.check else None
                if problem:
                    raise UsageError(f"Switch {argument} {problem}", brief=True)
                given[name] = value
                i += 2
                continue
            given[name] = True
        else:
            files.append(argument)
        i += 1
    if files_needed and not files:
        # Checked before any file is opened or the policy validated, as the Perl does (spec §1.1).
        raise UsageError("Not enough arguments; files must be provided")
    return given, files


def help_lines(switches: dict, width: int = 80) -> list:
    """The switches with help, sorted by name, as the Perl scorer lays them
    out: ``  -name <value>`` in 27 columns, the text (and default) wrapped at
    ``width`` and indented 29 columns; a word longer than a line (the -fields
    default) stays whole, to be copied as it is."""
    import textwrap         # (for -help alone: a run does without it)
    lines = []
    for name in sorted(switches):
        switch = switches[name]
        if switch.help is None:
            continue
        head = f"  -{name}" + (" <value>" if switch.takes_value else "")
        text = switch.help + (f" (Default = {switch.default})." if switch.default else "")
        lines += textwrap.wrap(text, width=width, initial_indent=head.ljust(27),
                               subsequent_indent=" " * 29, break_long_words=False,
                               break_on_hyphens=False)
    return lines


def answered(given: dict, usage) -> bool:
    """Whether ``given`` asks for -help or -version, which every command answers
    alike: the usage (``usage``: its text, or what makes it) or the version,
    on standard output, and nothing else."""
    if given.get("help"):
        sys.stdout.write(usage() if callable(usage) else usage)
        return True
    if given.get("version"):
        sys.stdout.write(version_text())
        return True
    return False


def version_text() -> str:
    """What -version prints, on every command."""
    return (f"scorer version {__version__} (Cold Start reports as CS-Score-MASTER.pl version "
            f"{PERL_REFERENCE_VERSION})\n")
