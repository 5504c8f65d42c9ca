"""The only code that opens a participant's archive.

An archive is hostile until checked: every member is checked (its name, its
kind, its declared size and compression ratio) before anything is unpacked,
and the one member that is unpacked is counted again as it streams out, since
a header may lie.  Nothing is written but that member, inside the scratch
folder the caller owns.
"""
from __future__ import annotations

import os
import posixpath
import stat
import zipfile
from collections import namedtuple

from scorer.problems import ScorerError

#: A member may not hold more than this (declared or actual); settable per bundle.
DEFAULT_MAX_SIZE = 1 << 30
#: ... nor expand to more than this many times its compressed size.
MAX_RATIO = 200
#: An archive of more members than this is no submission.
MAX_MEMBERS = 10_000
_CHUNK = 1 << 20


#: A regular file of an archive: its name as the archive gives it (what the
#: participant sees), its size and its compressed size.  (Named tuples here and
#: in the other modules of the scoring program: importing dataclasses would
#: slow every submission's start.)
Member = namedtuple("Member", "name size compressed")


def is_clutter(name: str) -> bool:
    """What zipping tools add beside a file: macOS resource forks, Finder and
    Explorer files, hidden files."""
    parts = [p for p in name.replace("\\", "/").split("/") if p]
    return any(p == "__MACOSX" or p.startswith(".") or p in ("Thumbs.db", "desktop.ini")
               for p in parts)


def _unsafe_name(name: str) -> str:
    """Why a member's name is refused, or ''."""
    if "\x00" in name:
        return "its name holds a NUL character"
    unified = name.replace("\\", "/")
    if unified.startswith("/") or (len(unified) > 1 and unified[1] == ":"):
        return "it has an absolute path"
    if ".." in unified.split("/"):
        return "its path climbs out of the archive with '..'"
    return ""


def _kind_problem(info: zipfile.ZipInfo) -> str:
    mode = info.external_attr >> 16
    if info.create_system == 3 and stat.S_IFMT(mode):   # made on Unix, with a file type
        if stat.S_ISLNK(mode):
            return "it is a symbolic link"
        if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
            return "it is a device file, a pipe or a socket, not a regular file"
    if info.flag_bits & 0x1:
        return "it is encrypted"
    return ""


def check_members(archive: zipfile.ZipFile, label: str, max_size: int) -> list:
    """Every member's problem, checked before anything is unpacked: the regular
    files of the archive as Members (directories left out)."""
    infos = archive.infolist()
    if len(infos) > MAX_MEMBERS:
        raise ScorerError(f"{label}: {len(infos)} members; a submission archive may hold at "
                          f"most {MAX_MEMBERS}")
    members = []
    for info in infos:
        problem = _unsafe_name(info.filename) or _kind_problem(info)
        if not problem and info.file_size > max_size:
            problem = (f"it would unpack to {info.file_size} bytes, more than the limit of "
                       f"{max_size}")
        if not problem and info.file_size > MAX_RATIO * max(info.compress_size, 1):
            problem = (f"it would expand {info.file_size} / {info.compress_size} times, more "
                       f"than {MAX_RATIO} (a zip bomb?)")
        if problem:
            raise ScorerError(f"{label}: member '{info.filename}' refused: {problem}; nothing "
                              f"was unpacked")
        if not info.is_dir():
            members.append(Member(info.filename, info.file_size, info.compress_size))
    return members


def open_archive(path: str, label: str) -> zipfile.ZipFile:
    try:
        return zipfile.ZipFile(path)
    except zipfile.BadZipFile as error:
        raise ScorerError(f"{label}: not a readable zip archive ({error})")
    except OSError as error:
        raise ScorerError(f"{label}: cannot be read ({error.strerror})")


def unpack_member(archive: zipfile.ZipFile, member: Member, label: str, scratch: str,
                  max_size: int) -> str:
    """Stream one checked member into ``scratch`` (under its own relative name)
    and return that path; stops and removes it when the bytes pass the limits."""
    relative = posixpath.normpath(member.name.replace("\\", "/")).lstrip("/")
    target = os.path.join(scratch, *relative.split("/"))
    if os.path.commonpath([os.path.realpath(scratch), os.path.realpath(target)]) \
            != os.path.realpath(scratch):
        raise ScorerError(f"{label}: member '{member.name}' refused: it would be written "
                          f"outside the scratch folder")
    os.makedirs(os.path.dirname(target), exist_ok=True)
    limit = min(max_size, MAX_RATIO * max(member.compressed, 1))
    written = 0
    try:
        with archive.open(member.name) as source, \
                open(target, "xb") as sink:
            while True:
                chunk = source.read(_CHUNK)
                if not chunk:
                    break
                written += len(chunk)
                if written > limit:
                    raise ScorerError(f"{label}: member '{member.name}' refused: it unpacks to "
                                      f"more than {limit} bytes, more than its header declares "
                                      f"or the limits allow")
                sink.write(chunk)
    except ScorerError:
        os.unlink(target)
        raise
    except (zipfile.BadZipFile, EOFError, OSError, NotImplementedError, RuntimeError) as error:
        if os.path.exists(target):
            os.unlink(target)
        raise ScorerError(f"{label}: member '{member.name}' cannot be unpacked ({error})")
    return target
