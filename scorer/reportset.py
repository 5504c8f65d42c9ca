"""A run's report set: its texts in write order (:class:`~scorer.reportset.Reports`, what a
task's scoring returns), and the set written at an output prefix, all or
none (``output.FileSet``), the picture of ``-plot`` beside it when there is
one.  The command line and the track's runs write theirs here."""
from __future__ import annotations

from scorer import output

#: Every report a run of any task may write at its prefix (a task's
#: ``report_extensions`` are among them: tests/unit/test_registry.py, and
#: ``scorer.registry.add`` for a task defined elsewhere).  Kept here, not
#: gathered from the tasks' records, so that a run loads its own task's
#: record alone: the command line needs them all before it knows the task,
#: to keep the error log off a report's name and to remove an earlier
#: run's reports at the prefix, whatever task wrote them.
REPORT_EXTENSIONS = frozenset((
    # every task's
    "summary", "debug", "params", "samplescores", "confidence", "bootsamples", "png",
    # Cold Start's (the Perl scorer's reports)
    "sf", "ldcmax", "ldcmean", "ap", "sample", "apconfidence",
    # the counts-table tasks' full-precision twin
    "json",
))


class Reports:
    """The texts a task produces: which files it writes, and the chunks of
    text in the order they are written (which is the order ``stdout`` shows
    them in)."""

    def __init__(self, extensions):
        #: every file written, in creation order (a file may stay empty)
        self.extensions = list(extensions)
        #: (extension, text) in write order
        self.chunks: list = []

    def add(self, extension: str, text) -> None:
        """Add text to a report: a string, or a function returning an iterable
        of strings (produced only when written, for very large reports)."""
        if extension not in self.extensions:
            raise ValueError(f"report .{extension} is not declared")
        self.chunks.append((extension, text))

    @staticmethod
    def _pieces_of(text):
        if isinstance(text, str):
            return [text]
        return _texts(text())

    def pieces(self, extension: str, spooled: bool = False):
        """The report's text piece by piece, in write order: strings, and
        with ``spooled`` ``output.SpooledText`` pieces as they are (for a
        report file, which copies their bytes)."""
        for ext, text in self.chunks:
            if ext == extension:
                if spooled and not isinstance(text, str):
                    yield from text()
                else:
                    yield from self._pieces_of(text)

    def stream(self):
        """Every piece of every report, in write order (what stdout shows)."""
        for _ext, text in self.chunks:
            yield from self._pieces_of(text)

    def text(self, extension: str) -> str:
        return "".join(self.pieces(extension))

    @classmethod
    def from_pairs(cls, pairs) -> "Reports":
        """Reports whose files are written once each, in the given order."""
        reports = cls([extension for extension, _text in pairs])
        for extension, text in pairs:
            reports.add(extension, text)
        return reports

    def __iter__(self):
        """(extension, whole text) pairs, so ``dict(reports)`` maps files to texts."""
        return iter(self.files())

    def files(self) -> list:
        """(extension, whole text) for every declared file."""
        return [(extension, self.text(extension)) for extension in self.extensions]


def _texts(pieces):
    """The pieces as strings (a spooled piece's text read back)."""
    for piece in pieces:
        if type(piece) is output.SpooledText:
            yield from piece.texts()
        else:
            yield piece


def add(written: output.FileSet, prefix: str, reports, picture: bytes = None,
        elsewhere=()) -> list:
    """Add the reports (and the picture of ``-plot``, ``PREFIX.png``) to
    ``written``; the paths, in creation order.  ``elsewhere``: extensions the
    caller writes itself (a track links the reports every run shares), listed
    but not added."""
    if elsewhere:
        output.write_reports(prefix, _without(reports, elsewhere), written)
        paths = [f"{prefix}.{extension}" for extension in reports.extensions]
    else:
        paths = output.write_reports(prefix, reports, written)
    if picture is not None:
        path = f"{prefix}.png"
        written.add(path, picture)
        paths.append(path)
    return paths


def _without(reports, extensions):
    """The reports but ``extensions`` (in the same order)."""
    kept = Reports([e for e in reports.extensions if e not in extensions])
    kept.chunks = [chunk for chunk in reports.chunks if chunk[0] not in extensions]
    return kept
