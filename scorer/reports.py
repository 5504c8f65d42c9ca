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

    def files(self) -> list:
        """(extension, whole text) for every declared file."""
        return [(extension, self.text(extension)) for extension in self.extensions]
