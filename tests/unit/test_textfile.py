"""Input files read as text, and their fingerprints (scorer/textfile.py)."""
from __future__ import annotations

import hashlib

import pytest

from scorer import textfile


@pytest.mark.parametrize("size", [0, 1, 55, 64, 1000, textfile.SMALL_INPUT_BYTES + 3])
def test_fingerprints_are_sha256_whichever_implementation(tmp_path, size):
    data = bytes(range(256)) * (size // 256) + bytes(size % 256)
    path = tmp_path / "input.jsonl"
    path.write_bytes(data)
    expected = hashlib.sha256(data).hexdigest()
    assert textfile.fingerprints([str(path)]) == [(str(path), size, expected)]
    for small in (True, False):
        assert textfile.sha256(data, small=small).hexdigest() == expected
        digest = textfile.sha256(small=small)
        digest.update(data[:7])
        digest.update(data[7:])
        assert digest.hexdigest() == expected


def test_fingerprints_name_a_missing_file(tmp_path):
    with pytest.raises(textfile.ScorerError, match=r"Could not open .*nosuch: No such file"):
        textfile.fingerprints([str(tmp_path / "nosuch")])


@pytest.fixture
def background(monkeypatch):
    """hash_in_background for files of any size, in a command-line process, its
    digests forgotten after the test."""
    from scorer import processenv
    monkeypatch.setattr(processenv, "_command_line", True)
    monkeypatch.setattr(textfile, "BACKGROUND_BYTES", 1)
    monkeypatch.setattr(textfile, "_background", {})
    return textfile._background


def test_a_digest_made_in_the_background_is_the_files(tmp_path, background):
    path = tmp_path / "boot.txt"
    path.write_bytes(b"1 CS17_0001:CSSF17_ENG_0123456789\n" * 50_000)
    textfile.hash_in_background(str(path))
    (_identity, thread, _done) = background[str(path)]
    assert thread.daemon
    assert textfile.fingerprints([str(path)]) == [
        (str(path), path.stat().st_size, hashlib.sha256(path.read_bytes()).hexdigest())]
    assert background == {}         # taken once


def test_a_program_importing_scorer_starts_no_thread(tmp_path, monkeypatch):
    monkeypatch.setattr(textfile, "BACKGROUND_BYTES", 1)
    monkeypatch.setattr(textfile, "_background", {})
    path = tmp_path / "boot.txt"
    path.write_bytes(b"1 A:B\n")
    textfile.hash_in_background(str(path))
    assert textfile._background == {}


def test_a_file_changed_after_its_background_digest_is_hashed_again(tmp_path, background):
    path = tmp_path / "boot.txt"
    path.write_bytes(b"1 A:B\n")
    textfile.hash_in_background(str(path))
    background[str(path)][1].join()
    path.write_bytes(b"1 A:B\n2 A:B\n")
    assert textfile.fingerprints([str(path)]) == [
        (str(path), 12, hashlib.sha256(b"1 A:B\n2 A:B\n").hexdigest())]


def test_small_or_missing_files_are_not_hashed_in_the_background(tmp_path, monkeypatch):
    from scorer import processenv
    monkeypatch.setattr(processenv, "_command_line", True)
    monkeypatch.setattr(textfile, "_background", {})
    small = tmp_path / "qids.txt"
    small.write_bytes(b"CS17_0001 CSSF17_ENG_0123456789\n")
    textfile.hash_in_background(str(small))
    textfile.hash_in_background(str(tmp_path / "nosuch"))
    assert textfile._background == {}
    with pytest.raises(textfile.ScorerError, match=r"Could not open .*nosuch"):
        textfile.fingerprints([str(tmp_path / "nosuch")])
