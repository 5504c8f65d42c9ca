"""The texts a task produces: which files it writes, and the chunks of text in
the order they are written (which is the order ``stdout`` shows them in)."""
from __future__ import annotations


class Reports:
    def __init__(self, extensions):
        #: every file written, in creation order (a file may stay empty)
        self.extensions = list(extensions)
        #: (extension, text) in write order
        self.chunks: list = []

    def add(self, extension: str, text: str) -> None:
        if extension not in self.extensions:
            raise ValueError(f"report .{extension} is not declared")
        self.chunks.append((extension, text))

    def text(self, extension: str) -> str:
        return "".join(text for ext, text in self.chunks if ext == extension)

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
