"""The toolkit's problem log: the messages of the Perl tools' Logger (the
catalogue's names, types and texts are the Perl's, for parity), recorded while
a tool reads its inputs and reported as the Perl reports them.

The report lists problems by name, then message (byte order, as the Perl
sorts), each message once with the first of its places (sorted as text) and
how many others: ``WARNING: text (file line 3 and 2 other places)``.  A
FATAL_ERROR ends the tool at once, as the Perl's does: :class:`Fatal` carries
the message and its place; what was recorded before it is not reported (the
Perl dies without reporting it).  The Perl prints its own stack frames and
source locations around a fatal message; a port prints the message alone.

A tool adds the formats of its own problems (:meth:`ProblemLog.add_formats`)
to those of the library every tool shares.  A problem unknown to the
catalogue is a bug, not a user's mistake: it raises ``KeyError``.
"""
from __future__ import annotations

from collections import namedtuple

from scorer.problems import ERROR_EXIT_STATUS, ScorerError

#: A problem's type and message template (printf style, as the Perl's).
Format = namedtuple("Format", ("type", "template"))


class Fatal(ScorerError):
    """A FATAL_ERROR (or the Perl's NIST_die): the tool stops, exit status 255.

    ``text`` is what the error output gets: ``FATAL_ERROR: message`` and, on the
    next line, the place, for a recorded problem; the bare text for a die.  (A
    ScorerError: whoever catches the scorer's fatal errors catches these.)"""

    exit_status = ERROR_EXIT_STATUS

    def __init__(self, text: str):
        super().__init__(text)
        self.text = text


def formats_from_table(table: str) -> dict:
    """name -> Format from a table of ``NAME  TYPE  template`` lines (blank lines
    and lines starting with ``#`` skipped), the Perl's catalogue layout."""
    found = {}
    for line in table.splitlines():
        line = line.lstrip()
        if not line.strip() or line.startswith("#"):
            continue
        # split as the Perl does: a template's trailing space is kept
        name, kind, template = line.split(None, 2)
        found[name] = Format(kind, template)
    return found


def place(file: str, line) -> str:
    """The Perl's place of a problem in a file: ``FILE line N``."""
    return f"{file} line {line}"


#: NO_SOURCE: a problem without a place (the Perl prints none).
NO_SOURCE = "NO_SOURCE"


class ProblemLog:
    """Problems recorded while a tool runs: each distinct (name, message, place)
    once, counted once per recording, as the Perl counts."""

    def __init__(self, formats: dict):
        self.formats = dict(formats)
        self._problems: dict = {}
        self._counts = {"ERROR": 0, "WARNING": 0}
        self._ignored: set = set()

    def add_formats(self, formats: dict) -> None:
        self.formats.update(formats)

    def ignore(self, name: str) -> None:
        """Record ``name`` no more (the Perl's delete_error / ignore_warning)."""
        self.formats[name]  # a name the catalogue lacks is a bug
        self._ignored.add(name)

    def is_ignored(self, name: str) -> bool:
        return name in self._ignored

    def kind(self, name: str) -> str:
        return self.formats[name].type

    def record(self, name: str, *args, where=NO_SOURCE) -> None:
        """Record problem ``name`` with its message's arguments at ``where`` (a
        place's text, :func:`place`, or a ``scorer.problems.Where``, as the
        scorer's parsing modules give it: None is no place); a FATAL_ERROR
        raises :class:`Fatal`."""
        if name in self._ignored:
            return
        if type(where) is not str:
            where = NO_SOURCE if where is None else where.text()
        kind, template = self.formats[name]
        message = f"{kind}: " + (template % args if args else template)
        if kind == "FATAL_ERROR":
            raise Fatal(f"{message}\n{where}")
        self._counts[kind] = self._counts.get(kind, 0) + 1
        self._problems.setdefault(name, {}).setdefault(message, {}).setdefault(where, 0)
        self._problems[name][message][where] += 1

    @property
    def error_count(self) -> int:
        return self._counts.get("ERROR", 0)

    @property
    def warning_count(self) -> int:
        return self._counts.get("WARNING", 0)

    def records(self):
        """(name, message, places) of every distinct message, in report order:
        the API's view of the problems."""
        for name in sorted(self._problems, key=_perl_order):
            for message in sorted(self._problems[name], key=_perl_order):
                yield name, message, sorted(self._problems[name][message], key=_perl_order)

    def report(self) -> str:
        """Every message, the Perl's way (each followed by a blank line)."""
        pieces = []
        for _name, message, places in self.records():
            pieces.append(message)
            if places[0] != NO_SOURCE:
                others = len(places) - 1
                pieces.append(f" ({places[0]}")
                if others:
                    pieces.append(f" and {others} other place{'s' if others > 1 else ''}")
                pieces.append(")")
            pieces.append("\n\n")
        return "".join(pieces)


def _perl_order(text: str) -> bytes:
    # Perl's sort compares strings as their UTF-8 bytes, not as code points.
    return text.encode("utf-8", "surrogateescape")


def count_line(count: int, what: str) -> str:
    """``No warnings encountered``, ``1 error encountered``, ``3 errors encountered``."""
    return f"{count or 'No'} {what}{'' if count == 1 else 's'} encountered\n"
