"""Reading an input file as UTF-8 text, with the scorer's messages for a file
that cannot be opened or is not UTF-8 (file and line named)."""
from __future__ import annotations

from scorer.problems import ScorerError


def read_text(path: str) -> str:
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as error:
        raise ScorerError(f"Could not open {path}: {error.strerror}")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise ScorerError(f"{path} line {line}: not valid UTF-8 "
                          f"(byte 0x{data[error.start]:02x})")
