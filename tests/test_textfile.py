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
