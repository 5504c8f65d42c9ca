"""Where reports go: a file prefix, or the ``stdout``/``stderr`` streams.

Only this module writes report files.  Files are written whole under a
temporary name and then renamed, so a crash or a fatal error never leaves a
half-written report behind (the Perl scorer truncates its files at start-up,
spec §7.30; ``scorer`` deliberately does not).
"""
from __future__ import annotations

import os
import sys
import tempfile

STREAM_NAMES = ("stdout", "stderr")


def is_stream(target: str) -> bool:
    return target.lower() in STREAM_NAMES


def stream(target: str):
    return sys.stdout if target.lower() == "stdout" else sys.stderr


def write_text_atomically(path: str, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` through a temporary file and a rename."""
    directory = os.path.dirname(os.path.abspath(path))
    handle, temporary = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".",
                                         suffix=".tmp", dir=directory)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


def write_reports(target: str, reports) -> list:
    """Write a task's reports (``scorer.reports.Reports``) to ``target``.

    With a prefix, each report becomes ``PREFIX.extension``; every text is
    complete before the first file is renamed into place.  With ``stdout`` or
    ``stderr`` the chunks go to that stream in write order (spec §5.7).
    Returns the paths written.
    """
    if is_stream(target):
        out = stream(target)
        for _extension, text in reports.chunks:
            out.write(text)
        out.flush()
        return []
    paths = []
    for extension, text in reports.files():
        path = f"{target}.{extension}"
        write_text_atomically(path, text)
        paths.append(path)
    return paths


def write_error_log(target: str, text: str) -> None:
    """Write the error log to a file name, or to ``stdout``/``stderr``."""
    if is_stream(target):
        out = stream(target)
        out.write(text)
        out.flush()
    else:
        write_text_atomically(target, text)
