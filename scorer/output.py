"""Where reports go: a file prefix, or the ``stdout``/``stderr`` streams.

Only this module writes report files.  Files are written whole under a
temporary name and then renamed, so a crash or a fatal error never leaves a
half-written report behind (the Perl scorer truncates its files at start-up,
spec §7.30; ``scorer`` deliberately does not).
"""
from __future__ import annotations

import errno
import os
import sys
import tempfile

from scorer.problems import ScorerError

STREAM_NAMES = ("stdout", "stderr")


def is_stream(target: str) -> bool:
    return target.lower() in STREAM_NAMES


def stream(target: str):
    return sys.stdout if target.lower() == "stdout" else sys.stderr


def check_writable(target: str) -> None:
    """Fail before any work is done when a report or log cannot be created
    there (a stream is always writable)."""
    if is_stream(target):
        return
    directory = os.path.dirname(os.path.abspath(target))
    if not os.path.isdir(directory):
        problem = errno.ENOENT
    elif not os.access(directory, os.W_OK | os.X_OK):
        problem = errno.EACCES
    else:
        return
    raise ScorerError(f"Could not open {target}: {os.strerror(problem)}")


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current


def write_text_atomically(path: str, text) -> None:
    """Write ``text`` (UTF-8; a string or an iterable of strings) to ``path``
    through a temporary file and a rename."""
    def write(handle):
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as f:
            if isinstance(text, str):
                f.write(text)
            else:
                f.writelines(text)
    _write_atomically(path, write)


def write_bytes_atomically(path: str, data: bytes) -> None:
    """Write ``data`` (a picture, say) to ``path`` through a temporary file and
    a rename."""
    def write(handle):
        with os.fdopen(handle, "wb") as f:
            f.write(data)
    _write_atomically(path, write)


def _write_atomically(path: str, write) -> None:
    """Create a temporary file beside ``path``, let ``write(handle)`` fill it,
    then rename it to ``path``; on any failure the temporary file goes."""
    directory = os.path.dirname(os.path.abspath(path))
    try:
        handle, temporary = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".",
                                             suffix=".tmp", dir=directory)
    except OSError as error:
        raise ScorerError(f"Could not open {path}: {error.strerror}")
    try:
        # mkstemp makes the file private (0600); a report gets the usual mode.
        os.chmod(temporary, 0o666 & ~_umask())
        write(handle)
        os.replace(temporary, path)
    except BaseException as error:
        if os.path.exists(temporary):
            os.unlink(temporary)
        if isinstance(error, OSError):
            raise ScorerError(f"Could not write {path}: {error.strerror}")
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
        out.writelines(reports.stream())
        out.flush()
        return []
    paths = [(extension, f"{target}.{extension}") for extension in reports.extensions]
    for _extension, path in paths:
        # A directory in the way would stop the renames half-way.
        if os.path.isdir(path):
            raise ScorerError(f"Could not open {path}: {os.strerror(errno.EISDIR)}")
    for extension, path in paths:
        write_text_atomically(path, reports.pieces(extension))
    return [path for _extension, path in paths]


def write_error_log(target: str, text: str) -> None:
    """Write the error log to a file name, or to ``stdout``/``stderr``."""
    if is_stream(target):
        out = stream(target)
        out.write(text)
        out.flush()
    else:
        write_text_atomically(target, text)
