"""Reading an input file as UTF-8 text, with the scorer's messages for a file
that cannot be opened or is not UTF-8 (file and line named)."""
from __future__ import annotations

import errno
import os
import stat

from scorer import processenv
from scorer.problems import ScorerError


def read_text(path: str) -> str:
    return decode(path, read_bytes(path))


def read_bytes(path: str) -> bytes:
    """The file's bytes (for screens that are faster on bytes than on text);
    :func:`decode` makes them the text :func:`read_text` gives."""
    f = open_input(path)
    try:
        with f:
            return f.read()
    except OSError as error:
        raise ScorerError(f"Could not read {path}: {error.strerror or error}")


def open_input(path: str, buffering: int = -1):
    """``open(path, "rb")``, or a ScorerError naming the file: one that cannot
    be opened, or a device (``/dev/zero`` never ends, ``/dev/urandom``
    neither, a terminal waits for typing; ``/dev/null`` reads as an empty
    file).  A pipe is read as a file is."""
    try:
        f = open(path, "rb", buffering=buffering)
    except OSError as error:
        raise ScorerError(f"Could not open {path}: {error.strerror or error}")
    try:
        mode = os.fstat(f.fileno()).st_mode
        device = (stat.S_ISCHR(mode) or stat.S_ISBLK(mode)) and not _is_null(f)
    except OSError:
        device = False
    if device:
        f.close()
        raise ScorerError(f"{path}: a device, not a file (it may never end); give a file")
    return f


def _is_null(f) -> bool:
    """True when ``f`` is open on the null device (read: nothing)."""
    try:
        return os.path.samestat(os.fstat(f.fileno()), os.stat(os.devnull))
    except OSError:
        return False


#: Bytes read at a time by :func:`read_blocks`.  Small blocks are made again
#: and again in the same memory; with blocks of 256 KiB and more, the C
#: library gives memory back to the system and takes it anew, each page
#: to be cleared again (on the real FEVER files, a tenth more page faults).
BLOCK_BYTES = 1 << 16


def read_blocks(path: str):
    """The file's bytes in blocks of about BLOCK_BYTES, each cut after a line
    end ``\\n`` (but the last), so that each block is text of its own and the
    file is never held whole."""
    f = open_input(path)
    with f:
        pieces = []         # what was read since the last line end
        while True:
            try:
                block = f.read(BLOCK_BYTES)
            except OSError as error:
                raise ScorerError(f"Could not read {path}: {error.strerror or error}")
            if not block:
                if pieces:
                    yield b"".join(pieces)
                return
            cut = block.rfind(b"\n") + 1
            if not cut:                      # a line longer than a block: read on
                pieces.append(block)
                continue
            head = block if cut == len(block) else block[:cut]
            if pieces:
                pieces.append(head)
                head = b"".join(pieces)
            pieces = [block[cut:]] if cut < len(block) else []
            del block                        # (its memory is free for the next)
            yield head


def decode_block(path: str, block: bytes) -> str:
    """A block of :func:`read_blocks` as UTF-8 text; when it is not, the
    error :func:`decode` gives for the whole file (its line, or UTF-16)."""
    try:
        return block.decode("utf-8")
    except UnicodeDecodeError:
        decode(path, read_bytes(path))
        raise ScorerError(f"{path}: not valid UTF-8 (the file changed while it was read)")


def decode(path: str, data: bytes) -> str:
    """``data``, the bytes of file ``path``, as UTF-8 text."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
            raise ScorerError(f"{path}: the file is UTF-16 text; save it as UTF-8")
        line = data.count(b"\n", 0, error.start) + 1
        raise ScorerError(f"{path} line {line}: not valid UTF-8 "
                          f"(byte 0x{data[error.start]:02x})")


#: Below this many bytes, Python's own SHA-256 (373 MB/s here) is done before
#: OpenSSL's (2 GB/s) has been loaded: ``import hashlib`` loads libcrypto, about
#: 2 ms, which is a tenth of a small run's start-up.  The digests are the same.
SMALL_INPUT_BYTES = 1 << 20


def sha256(data: bytes = b"", small: bool = True):
    """A SHA-256 hash object (``hashlib``'s interface): Python's own
    implementation for ``small`` inputs when it is there, else OpenSSL's."""
    # Each implementation imported at first use (see SMALL_INPUT_BYTES).
    if small:
        try:
            from _sha256 import sha256 as builtin            # Python <= 3.11
        except ImportError:
            try:
                from _sha2 import sha256 as builtin          # Python >= 3.12
            except ImportError:
                builtin = None
        if builtin is not None:
            return builtin(data)
    try:
        # OpenSSL's SHA-256 without hashlib's set-up (it also loads BLAKE2 and
        # looks up every algorithm OpenSSL has): the same object.
        from _hashlib import openssl_sha256
    except ImportError:
        from hashlib import sha256 as openssl_sha256
    return openssl_sha256(data)


def fingerprints(paths) -> list:
    """``(path, size in bytes, SHA-256)`` of each input file (each once, in the
    order given), so that a result can be checked against its exact inputs."""
    paths = list(dict.fromkeys(paths))
    small = sum(map(_size_or_zero, paths)) < SMALL_INPUT_BYTES
    result = []
    # One block read into again and again: a new block per read would be
    # fresh memory each time (pages the system must clear), a millisecond
    # per 2 MB hashed.
    block = bytearray(1 << 18)
    for path in paths:
        digest = _hashed_in_background(path)
        if digest is None:
            try:
                digest = _sha256_of(path, small, block)
            except OSError as error:
                raise ScorerError(f"Could not open {path}: {error.strerror or error}")
        result.append((path, os.path.getsize(path), digest))
    return result


def _open_regular(path: str):
    """``open(path, "rb", buffering=0)``; an OSError for a device, which
    may never end (the readers refuse it first, with its own message)."""
    f = open(path, "rb", buffering=0)
    mode = os.fstat(f.fileno()).st_mode
    if (stat.S_ISCHR(mode) or stat.S_ISBLK(mode)) and not _is_null(f):
        f.close()
        raise OSError(errno.ENODEV, "a device, not a file (it may never end)")
    return f


def _sha256_of(path: str, small: bool, block: bytearray) -> str:
    digest = sha256(small=small)
    view = memoryview(block)
    with _open_regular(path) as f:
        while True:
            size = f.readinto(block)
            if not size:
                break
            digest.update(view[:size])
    return digest.hexdigest()


#: Inputs at least this large may be hashed while they are read
#: (:func:`hash_in_background`): the 1.1 GB samples file of 10,000 samples
#: of 2,000 LDC queries takes 0.8 s to hash, and its parse 3 s.
BACKGROUND_BYTES = 64 << 20

#: path -> (the file's identity when hashing began, thread, [digest] once done)
_background: dict = {}


def _identity(path: str) -> tuple:
    status = os.stat(path)
    return (status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns)


def hash_in_background(path: str) -> None:
    """Start the SHA-256 of a large input in a thread of its own, so that it
    is done while the main thread reads and scores it (OpenSSL's SHA-256
    releases the GIL); :func:`fingerprints` takes the digest, if the file is
    still the same.  Only in a command-line process, which forks nothing
    meanwhile (a thread alive at a fork is not in the child) and ends soon
    after, whatever happens (a program importing scorer gets no thread)."""
    if not processenv.is_command_line():
        return
    try:
        identity = _identity(path)
    except OSError:
        return                  # reported when the file is read
    if identity[2] < BACKGROUND_BYTES or path in _background:
        return
    import threading        # (for a large file alone: small runs start faster without it)
    done: list = []

    def work():
        try:
            # Blocks of 16 MiB: the thread takes the GIL back after each, and
            # beside a main thread busy in Python that waits about 5 ms; with
            # 1 MiB blocks half the hash was still left when the run ended.
            done.append(_sha256_of(path, False, bytearray(16 << 20)))
        except OSError:
            pass                # fingerprints() hashes it again and says what is wrong

    # A daemon: a run ended by an error does not wait for it to finish.
    thread = threading.Thread(target=work, name="sha256 of an input", daemon=True)
    _background[path] = (identity, thread, done)
    thread.start()


def _hashed_in_background(path: str):
    """The digest :func:`hash_in_background` made of ``path``, or None (each
    is taken once: a later run in the same process hashes anew)."""
    started = _background.pop(path, None)
    if started is None:
        return None
    identity, thread, done = started
    thread.join()
    try:
        same = _identity(path) == identity
    except OSError:
        same = False
    return done[0] if done and same else None


def _size_or_zero(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0       # reported when the file is opened


def fingerprint_lines(paths) -> list:
    """The ``#Input files:`` section of ``.params``."""
    return ["#Input files:"] + [f"  {path} => {size} bytes, sha256:{digest}"
                                for path, size, digest in fingerprints(paths)]
