"""Where reports go: a file prefix, or the ``stdout``/``stderr`` streams.

Only this module writes report files.  A run's files form a ``FileSet``: each
is written whole under a temporary name beside its final name, and only when
every one is complete are they renamed into place together, the error log
last.  A fatal error, a failed write or a signal (``scorer.stopping``) removes
the temporary files instead, so a prefix holds a run's whole report set or
none of it.  (The Perl scorer truncates its files at start-up, spec §7.30;
``scorer`` deliberately does not.)
"""
from __future__ import annotations

import codecs
import errno
import itertools
import os
import sys

from scorer import stopping
from scorer.problems import ScorerError
from scorer.progress import Tally

STREAM_NAMES = ("stdout", "stderr")
_TEMPORARY_SUFFIX = ".tmp"
#: How many names ``_create_temporary`` tries before it gives up (as mkstemp does).
_TEMPORARY_ATTEMPTS = 10_000
#: Created anew (never opened if it exists), not followed if a link.
_TEMPORARY_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) \
    | getattr(os, "O_BINARY", 0)
_temporary_count = itertools.count()
#: Bytes of text gathered before each write: a report written piece by
#: piece (a .debug of 7.5 MB, say) takes a few system calls, not a thousand.
_WRITE_BUFFER = 1 << 20


class SpooledText:
    """A piece of a report held as UTF-8 bytes in an open file (a large
    ``.debug`` spooled as it was made, ``scorer/countstable/spool.py``): a report
    file takes its bytes by a copy the kernel makes (``copy_file_range``),
    not read back, decoded, encoded and written again (a second or so for the
    700 MB of a million FEVER claims); every other reader takes its text
    (:meth:`texts`).  Report pieces are strings but for these, which only
    ``Reports.pieces(extension, spooled=True)`` gives."""

    __slots__ = ("file", "size")

    def __init__(self, file, size: int):
        #: the file (a text or binary file object), its bytes from offset 0 to ``size``
        self.file = file
        self.size = size

    def texts(self):
        """The text, a megabyte at a time."""
        self.file.flush()
        descriptor = self.file.fileno()
        # (incremental: a character's bytes may straddle two reads)
        decoder = codecs.getincrementaldecoder("utf-8")()
        offset = 0
        while offset < self.size:
            data = os.pread(descriptor, min(1 << 20, self.size - offset), offset)
            if not data:
                break
            offset += len(data)
            yield decoder.decode(data)
        yield decoder.decode(b"", final=True)

    def copy_into(self, descriptor: int) -> None:
        """Append the bytes to the file open at ``descriptor`` (at its position)."""
        self.file.flush()
        source = self.file.fileno()
        offset = 0
        copy = getattr(os, "copy_file_range", None)
        while offset < self.size and copy is not None:
            try:
                copied = copy(source, descriptor, self.size - offset, offset)
            except OSError as error:
                if error.errno not in _NO_KERNEL_COPY:
                    raise
                break                     # not here: copied by reading and writing
            if copied == 0:
                break
            offset += copied
        while offset < self.size:
            data = os.pread(source, min(1 << 20, self.size - offset), offset)
            if not data:
                break
            view = memoryview(data)
            while view:
                view = view[os.write(descriptor, view):]
            offset += len(data)


#: copy_file_range's answers where the kernel or the file system cannot copy.
_NO_KERNEL_COPY = {code for code in (getattr(errno, name, None) for name in
                                     ("ENOSYS", "EXDEV", "EINVAL", "EOPNOTSUPP", "ENOTSUP",
                                      "EBADF", "EPERM", "ETXTBSY"))
                   if code is not None}


def is_stream(target: str) -> bool:
    return target.lower() in STREAM_NAMES


def stream(target: str):
    return sys.stdout if target.lower() == "stdout" else sys.stderr


def input_written_over(targets, inputs):
    """``(target, input)``: the first of the files ``targets`` that is one of
    the files ``inputs`` (by path, link or another name), or None.  A command
    writing it would destroy what it reads (or remove it as an earlier
    report); each command says so in its own words."""
    existing = [path for path in inputs if path and os.path.isfile(path)]
    for target in targets:
        if os.path.isfile(target):
            for path in existing:
                if os.path.samefile(target, path):
                    return target, path
    return None


#: The exit status of a command whose reader went away (``... | head``): a
#: shell's for a process ended by SIGPIPE (128 + 13), which Python ignores.
READER_GONE_EXIT_STATUS = 141


def reader_gone() -> int:
    """After a BrokenPipeError on a standard stream: what a Unix filter does
    when its reader stops reading (no message, no traceback), and what is
    left unflushed goes nowhere rather than failing once more at exit."""
    try:
        nowhere = os.open(os.devnull, os.O_WRONLY)
    except OSError:
        return READER_GONE_EXIT_STATUS
    for out in (sys.stdout, sys.stderr):
        try:
            os.dup2(nowhere, out.fileno())
        except (OSError, ValueError):
            pass
    os.close(nowhere)
    return READER_GONE_EXIT_STATUS


def check_writable(target: str) -> None:
    """Fail before any work is done when a report or log cannot be created
    there (a stream is always writable)."""
    if is_stream(target):
        return
    folder_name = target.endswith(os.sep) or bool(os.altsep and target.endswith(os.altsep))
    if folder_name or os.path.isdir(target):
        # A prefix "out/" or "." would write hidden files (out/.sf, ..sf) beside the others.
        raise ScorerError(f"Could not open {target}: it "
                          f"{'names a folder, not a file' if folder_name else 'is a directory'}")
    directory = os.path.dirname(os.path.abspath(target))
    if not os.path.isdir(directory):
        problem = errno.ENOENT
    elif not os.access(directory, os.W_OK | os.X_OK):
        problem = errno.EACCES
    elif len(os.fsencode(os.path.basename(target))) > _name_max(directory):
        problem = errno.ENAMETOOLONG
    else:
        return
    raise ScorerError(f"Could not open {target}: {os.strerror(problem)}")


def _name_max(directory: str) -> int:
    try:
        return os.pathconf(directory, "PC_NAME_MAX")
    except (OSError, ValueError):
        return 255


def name_too_long(path: str) -> bool:
    """True when the last part of ``path`` is longer than its folder's file
    system allows."""
    absolute = os.path.abspath(path)
    return len(os.fsencode(os.path.basename(absolute))) > _name_max(os.path.dirname(absolute))


def check_names(paths) -> None:
    """Fail before anything is written when a file cannot take one of these
    names: a directory in the way, or a name too long for the file system
    (either would stop the renames half-way)."""
    for path in paths:
        if name_too_long(path):
            raise ScorerError(f"Could not open {path}: {os.strerror(errno.ENAMETOOLONG)}")
        if os.path.isdir(path):
            raise ScorerError(f"Could not open {path}: {os.strerror(errno.EISDIR)}")


def fitting(name: str, directory: str, more: int) -> str:
    """``name`` cut short (by whole characters) so that ``more`` bytes can be
    added to it in a file name of ``directory``: a temporary name made from
    a final name fits wherever the final name fits."""
    room = _name_max(directory) - more
    while name and len(os.fsencode(name)) > room:
        name = name[:-1]
    return name


def _create_temporary(path: str, directory: str) -> tuple:
    """(file descriptor, name) of a new file ``.NAME.UNIQUE.tmp`` beside
    ``path``, with a report's usual mode (0666 less the umask).

    UNIQUE is this process's id, a count of its temporary files and 32 random
    bits, so that no two processes or calls pick the same name, nor one that a
    crashed run left; O_EXCL makes sure (a name taken is never opened, a link
    never followed), and another is tried.  NAME is cut short so that the
    temporary name fits wherever the final name fits.  (``tempfile.mkstemp``
    does the same, but importing it costs a twentieth of a small run.)
    """
    name = os.path.basename(path)
    for _attempt in range(_TEMPORARY_ATTEMPTS):
        unique = f"{os.getpid():x}-{next(_temporary_count):x}-{os.urandom(4).hex()}"
        name = fitting(name, directory, len(f"..{unique}{_TEMPORARY_SUFFIX}"))
        temporary = os.path.join(directory, f".{name}.{unique}{_TEMPORARY_SUFFIX}")
        try:
            return os.open(temporary, _TEMPORARY_FLAGS, 0o666), temporary
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "No usable temporary file name found")


def _remove(path: str) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


class FileSet:
    """Files that appear together or not at all.

    The ``python -m scorer`` driver (``scorer.cli``) uses it so; the commands
    that write several files (``scorer.track``, ``scorer.diff``) do the same,
    or call ``write_files({path: text, ...})`` when every text is ready::

        with stopping.stop_on_signals():
            try:
                with output.FileSet() as files:
                    output.check_names(["out/run.sf", "out/run.debug"])  # before any work
                    files.add("out/run.sf", text)         # written now, under a temporary name
                    files.add("out/run.debug", pieces)    # an iterable of strings works too
                    files.remove_on_commit(stale_paths)   # an earlier run's files not replaced
                    files.add("out/run.errlog", log)      # renamed last: added last
                    files.commit()                        # all renamed into place, in order
            except (ScorerError, stopping.Stopped):
                ...                                       # not one file of the set was left

    ``add`` writes the text at once, to ``.NAME.UNIQUE.tmp`` in the target's
    folder (so the rename is atomic; the name is cut short to fit where NAME
    fits), and turns a failed write (``File too large``, ``No space left``)
    into ``ScorerError("Could not write PATH: ...")``.  Leaving the ``with``
    block without ``commit()`` (an error, ``Stopped``) removes every temporary
    file.  ``commit()`` is not cut by a signal (it takes effect after the
    renames), and if a rename fails half-way the files already moved in are
    removed again, so the set is still all or nothing.  ``discard()`` may be
    called again after a failure: it is idempotent.
    """

    def __init__(self):
        self._temporaries: list = []   # (temporary path, final path), in commit order
        self._obsolete: list = []
        self.committed = False

    def __enter__(self) -> "FileSet":
        return self

    def __exit__(self, *_exception) -> None:
        if not self.committed:
            with stopping.deferred(raise_pending=False):
                self.discard()

    def add(self, path: str, text) -> None:
        """Write ``text`` (UTF-8; a string or an iterable of strings; or bytes,
        a picture say) to a temporary file that ``commit()`` renames to ``path``."""
        check_names([path])
        directory = os.path.dirname(os.path.abspath(path))
        with stopping.deferred():
            # Created and noted together, so that no signal leaves it unnoted.
            try:
                handle, temporary = _create_temporary(path, directory)
            except OSError as error:
                raise ScorerError(f"Could not open {path}: {error.strerror}")
            self._temporaries.append((temporary, path))
            f = os.fdopen(handle, "wb") if isinstance(text, bytes) else \
                os.fdopen(handle, "w", encoding="utf-8", newline="", buffering=_WRITE_BUFFER)
        try:
            with f:
                if isinstance(text, (str, bytes)):
                    f.write(text)
                else:
                    f.writelines(_copying(_tallied(text, path) if sys.stderr.isatty()
                                          else text, f))
        except OSError as error:
            raise ScorerError(f"Could not write {path}: {error.strerror}")
        except UnicodeEncodeError as error:
            bad = error.object[error.start:error.end]
            raise ScorerError(f"Could not write {path}: the text holds {bad!r}, which UTF-8 "
                              f"cannot encode ({error.reason})")

    def remove_on_commit(self, paths) -> None:
        """Files (an earlier run's) that ``commit()`` removes before the renames."""
        self._obsolete.extend(paths)

    def commit(self) -> None:
        """Remove the obsolete files, then rename every file into place, in
        the order added.  A signal takes effect only after the last rename."""
        with stopping.deferred():
            moved = []
            try:
                for path in self._obsolete:
                    try:
                        _remove(path)
                    except OSError as error:
                        raise ScorerError(f"Could not remove {path}: {error.strerror}")
                for temporary, path in self._temporaries:
                    try:
                        os.replace(temporary, path)
                    except OSError as error:
                        raise ScorerError(f"Could not write {path}: {error.strerror}")
                    moved.append(path)
            except ScorerError:
                for path in moved:
                    _remove(path)
                self.discard()
                raise
            self._temporaries = []
            self.committed = True

    def discard(self) -> None:
        """Remove the temporary files (the final names are left alone)."""
        for temporary, _path in self._temporaries:
            _remove(temporary)
        self._temporaries = []


def _copying(pieces, f):
    """The pieces that are strings, for ``f.writelines``; a ``SpooledText``
    is copied into ``f``'s file where it comes, after the text before it."""
    for piece in pieces:
        if type(piece) is SpooledText:
            f.flush()
            piece.copy_into(f.fileno())
        else:
            yield piece


def _tallied(pieces, path: str):
    """The pieces, the megabytes written shown on a terminal when writing
    takes long (a .samplescores of a million samples holds 1.3 GB)."""
    tally = Tally(f"writing {path}")
    for piece in pieces:
        yield piece
        tally.advance(piece.size if type(piece) is SpooledText else len(piece))
    tally.done()


def write_files(texts: dict, obsolete=()) -> None:
    """Write ``{path: text}`` together, in that order, or none of them (a
    ``FileSet``; the paths are checked before the first is written); the
    ``obsolete`` files are removed when the others are in place."""
    check_names(list(texts))
    with FileSet() as files:
        for path, text in texts.items():
            files.add(path, text)
        files.remove_on_commit(obsolete)
        files.commit()


def write_bytes_atomically(path: str, data: bytes) -> None:
    """Write ``data`` (a picture, say) to ``path`` through a temporary file and
    a rename."""
    write_files({path: data})


def write_text_atomically(path: str, text) -> None:
    """Write ``text`` (UTF-8; a string or an iterable of strings) to ``path``
    through a temporary file and a rename."""
    write_files({path: text})


def prefix_paths(target: str, extensions) -> list:
    """``PREFIX.EXTENSION`` for each extension."""
    return [f"{target}.{extension}" for extension in extensions]


def existing_reports(target: str, extensions) -> list:
    """The files ``PREFIX.EXTENSION`` that exist (directories are not reports)."""
    if is_stream(target):
        return []
    return [path for path in prefix_paths(target, extensions)
            if os.path.islink(path) or os.path.isfile(path)]


def remove_files(paths) -> list:
    """Remove the files; the paths removed (a file that cannot be removed is left)."""
    removed = []
    for path in paths:
        try:
            os.unlink(path)
        except OSError:
            continue
        removed.append(path)
    return removed


def write_reports(target: str, reports, files: FileSet) -> list:
    """Write a task's reports (``scorer.reportset.Reports``) to ``target``.

    With a prefix, each report becomes ``PREFIX.extension``, added to
    ``files`` (in place when ``files`` is committed); every name is checked
    before the first is written.  With ``stdout`` or ``stderr`` the chunks go
    to that stream in write order (spec §5.7).  Returns the paths added.
    """
    if is_stream(target):
        out = stream(target)
        out.writelines(reports.stream())
        out.flush()
        return []
    paths = prefix_paths(target, reports.extensions)
    check_names(paths)
    for extension, path in zip(reports.extensions, paths):
        files.add(path, reports.pieces(extension, spooled=True))
    return paths


def write_error_log(target: str, text: str, files: FileSet = None) -> None:
    """Write the error log to a file name (added to ``files`` when given,
    else written at once), or to ``stdout``/``stderr``."""
    if is_stream(target):
        out = stream(target)
        out.write(text)
        out.flush()
    elif files is not None:
        files.add(target, text)
    else:
        write_text_atomically(target, text)
