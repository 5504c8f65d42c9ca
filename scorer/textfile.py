"""Reading an input file as UTF-8 text, with the scorer's messages for a file
that cannot be opened or is not UTF-8 (file and line named)."""
from __future__ import annotations

import os

from scorer.problems import ScorerError


def read_text(path: str) -> str:
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as error:
        raise ScorerError(f"Could not open {path}: {error.strerror or error}")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
            raise ScorerError(f"{path}: the file is UTF-16 text; save it as UTF-8")
        line = data.count(b"\n", 0, error.start) + 1
        raise ScorerError(f"{path} line {line}: not valid UTF-8 "
                          f"(byte 0x{data[error.start]:02x})")


def fingerprints(paths) -> list:
    """``(path, size in bytes, SHA-256)`` of each input file (each once, in the
    order given), so that a result can be checked against its exact inputs."""
    import hashlib
    result = []
    for path in dict.fromkeys(paths):
        digest = hashlib.sha256()
        try:
            with open(path, "rb") as f:
                for block in iter(lambda: f.read(1 << 20), b""):
                    digest.update(block)
        except OSError as error:
            raise ScorerError(f"Could not open {path}: {error.strerror or error}")
        result.append((path, os.path.getsize(path), digest.hexdigest()))
    return result


def fingerprint_lines(paths) -> list:
    """The ``#Input files:`` section of ``.params``."""
    return ["#Input files:"] + [f"  {path} => {size} bytes, sha256:{digest}"
                                for path, size, digest in fingerprints(paths)]
