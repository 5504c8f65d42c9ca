"""Text added piece by piece and given back in order (a claim run's ``.debug``,
made as its claims are scored): in memory up to a bound, the rest in an
unnamed temporary file."""
from __future__ import annotations

import os

from scorer.output import SpooledText


class Spool:
    """Text added piece by piece and given back in order: in memory up to
    MEMORY_CHARS characters, the rest in an unnamed temporary file."""

    #: About 100 MB of ``.debug`` text (130,000 FEVER claims) is kept in memory.
    MEMORY_CHARS = 96 << 20

    __slots__ = ("parts", "size", "file")

    def __init__(self):
        self.parts: list = []
        self.size = 0
        self.file = None

    def add(self, texts: list) -> None:
        if self.file is not None:
            self.file.writelines(texts)
            return
        self.parts += texts
        self.size += sum(map(len, texts))
        if self.size > self.MEMORY_CHARS:
            import tempfile     # (for a large report alone: a small run does without it)
            # Text written through one buffer: no copy of the whole is made.
            self.file = tempfile.TemporaryFile("w+", encoding="utf-8", newline="",
                                               buffering=1 << 20)
            self.file.writelines(self.parts)
            self.parts = []

    def pieces(self):
        """The text in order (again from the start at each call): strings,
        or, once it is in the file, one ``output.SpooledText`` of the file
        (a report file copies its bytes; ``Reports`` reads its text back for
        every other reader)."""
        if self.file is None:
            yield from self.parts
            return
        self.file.flush()
        yield SpooledText(self.file, os.fstat(self.file.fileno()).st_size)
