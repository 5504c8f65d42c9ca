"""A file's lines read in order by a reader of a layout (a ``.debug``
read back): each expectation that fails is a ScorerError naming the file,
the line and what was expected and found."""
from __future__ import annotations

from scorer.problems import ScorerError

def clip(text: str, width: int = 60) -> str:
    """``text`` as a message quotes it: at most ``width`` characters and '...'."""
    return text if len(text) <= width else text[:width] + "..."


class LineReader:
    """The lines of a file (without their ends), taken one at a time; every
    failure names the file and the line (:meth:`fail`), a file that ends too
    early says where it was cut (:meth:`truncated`)."""


    def __init__(self, path: str, lines: list):
        self.path = path
        self.lines = lines
        self.i = 0

    def fail(self, message: str, line: int | None = None) -> ScorerError:
        number = (self.i + 1) if line is None else line
        return ScorerError(f"{self.path} line {number}: {message}")

    def truncated(self, inside: str) -> ScorerError:
        return self.fail(f"the file is truncated: it ends inside {inside}",
                         line=len(self.lines))

    def peek(self) -> str | None:
        return self.lines[self.i] if self.i < len(self.lines) else None

    def take(self, inside: str) -> str:
        if self.i >= len(self.lines):
            raise self.truncated(inside)
        line = self.lines[self.i]
        self.i += 1
        return line

    def expect(self, wanted: str, inside: str) -> None:
        line = self.take(inside)
        if line != wanted:
            self.i -= 1
            raise self.fail(f"expected '{clip(wanted)}' in {inside}, found '{clip(line)}'")

    def field(self, prefix: str, inside: str) -> str:
        line = self.take(inside)
        if not line.startswith(prefix):
            self.i -= 1
            raise self.fail(f"expected '{prefix.strip()}' in {inside}, found '{clip(line)}'")
        return line[len(prefix):]
