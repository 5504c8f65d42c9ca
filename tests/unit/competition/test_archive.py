"""scorer/competition/archive.py: a participant's archive checked member by
member before anything is unpacked (names, kinds, sizes, ratio), the one
member unpacked counted again as it streams out (a header may lie), and the
clutter zipping tools add recognised."""
from __future__ import annotations

import io
import os
import stat
import zipfile

import pytest

from scorer.competition import archive
from scorer.problems import ScorerError

DATA = b'{"predicted_label": "SUPPORTS", "predicted_evidence": []}\n'


def _info(name: str, mode: int = stat.S_IFREG | 0o644) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name)
    info.create_system = 3
    info.external_attr = mode << 16
    return info


def _archive(*members, compression=zipfile.ZIP_STORED) -> zipfile.ZipFile:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as z:
        for info, data in members:
            info.compress_type = compression
            z.writestr(info, data)
    return zipfile.ZipFile(io.BytesIO(buffer.getvalue()))


def test_the_regular_files_are_the_members():
    z = _archive((_info("team/"), b""), (_info("team/preds.jsonl"), DATA))
    assert archive.check_members(z, "sub.zip", 1 << 20) == [
        archive.Member("team/preds.jsonl", len(DATA), len(DATA))]


@pytest.mark.parametrize("name, problem", [
    ("../evil.jsonl", "its path climbs out of the archive with '..'"),
    ("ok\\..\\..\\evil.jsonl", "its path climbs out of the archive with '..'"),
    ("/tmp/evil.jsonl", "it has an absolute path"),
    ("C:/evil.jsonl", "it has an absolute path"),
])
def test_names_that_leave_the_folder_are_refused(name, problem):
    z = _archive((_info("preds.jsonl"), DATA), (_info(name), DATA))
    with pytest.raises(ScorerError) as error:
        archive.check_members(z, "sub.zip", 1 << 20)
    assert str(error.value) == f"sub.zip: member '{name}' refused: {problem}; nothing was unpacked"


@pytest.mark.parametrize("mode, problem", [
    (stat.S_IFLNK | 0o777, "it is a symbolic link"),
    (stat.S_IFCHR | 0o644, "it is a device file, a pipe or a socket, not a regular file"),
    (stat.S_IFIFO | 0o644, "it is a device file, a pipe or a socket, not a regular file"),
])
def test_links_and_devices_are_refused(mode, problem):
    z = _archive((_info("x", mode), b"/etc/passwd"))
    with pytest.raises(ScorerError, match=f"member 'x' refused: {problem}"):
        archive.check_members(z, "sub.zip", 1 << 20)


def test_sizes_and_ratios_beyond_the_limits_are_refused():
    z = _archive((_info("preds.jsonl"), DATA * 100))
    with pytest.raises(ScorerError, match=f"it would unpack to {len(DATA) * 100} bytes, more "
                                          f"than the limit of 1000"):
        archive.check_members(z, "sub.zip", 1000)
    bomb = _archive((_info("preds.jsonl"), b" " * (1 << 20)), compression=zipfile.ZIP_DEFLATED)
    [info] = bomb.infolist()
    with pytest.raises(ScorerError, match=rf"it would expand {1 << 20} / {info.compress_size} "
                                          rf"times, more than 200 \(a zip bomb\?\)"):
        archive.check_members(bomb, "sub.zip", 1 << 30)


def test_a_member_is_unpacked_into_the_scratch_folder(tmp_path):
    z = _archive((_info("team/preds.jsonl"), DATA))
    [member] = archive.check_members(z, "sub.zip", 1 << 20)
    path = archive.unpack_member(z, member, "sub.zip", str(tmp_path), 1 << 20)
    assert path == str(tmp_path / "team" / "preds.jsonl")
    assert (tmp_path / "team" / "preds.jsonl").read_bytes() == DATA


def test_a_member_larger_than_its_header_says_is_stopped_and_removed(tmp_path):
    z = _archive((_info("preds.jsonl"), DATA * 10))
    lying = archive.Member("preds.jsonl", len(DATA), len(DATA) // 100)   # limit: 200 x 0
    with pytest.raises(ScorerError, match=r"sub.zip: member 'preds.jsonl' refused: it unpacks "
                                          r"to more than"):
        archive.unpack_member(z, lying, "sub.zip", str(tmp_path), 1 << 20)
    assert os.listdir(tmp_path) == []


def test_an_unreadable_archive_is_named(tmp_path):
    (tmp_path / "sub.zip").write_bytes(b"PK not really")
    with pytest.raises(ScorerError, match=r"^sub.zip: not a readable zip archive"):
        archive.open_archive(str(tmp_path / "sub.zip"), "sub.zip")
    with pytest.raises(ScorerError, match=r"^gone.zip: cannot be read"):
        archive.open_archive(str(tmp_path / "gone.zip"), "gone.zip")


@pytest.mark.parametrize("name, clutter", [
    ("__MACOSX/._preds.jsonl", True), ("team/.DS_Store", True), ("Thumbs.db", True),
    ("a\\desktop.ini", True), (".hidden/preds.jsonl", True), ("preds.jsonl", False),
    ("team/preds.v2.jsonl", False)])
def test_clutter_of_zipping_tools(name, clutter):
    assert archive.is_clutter(name) == clutter
