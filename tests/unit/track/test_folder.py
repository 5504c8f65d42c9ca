"""scorer/track/folder.py: the track folder's name checked before anything is
scored, the folder built aside and moved into place whole (an earlier track's
folder replaced, anything else refused), per_query.csv.gz read back as
written."""
from __future__ import annotations

import gzip
import math
import os

import pytest

from scorer.problems import ScorerError
from scorer.results import PER_QUERY_HEADER, per_query_lines
from scorer.track import runner
from scorer.track.folder import (PER_QUERY_FILE, PER_QUERY_PARTS, _join_per_query,
                                 check_output_dir, move_into_place, read_per_query, staging_dir)


@pytest.mark.parametrize("name, message", [
    ("", "-output_dir needs a folder name, not ''"),
    ("  ", "-output_dir needs a folder name, not '  '"),
    (".", "-output_dir . cannot be replaced by the track folder (it is the current folder, "
          "a parent or the root); name a folder inside it, such as ./track"),
    ("..", "-output_dir .. cannot be replaced by the track folder"),
    ("/", "-output_dir / cannot be replaced by the track folder"),
    ("missing/track", "Could not create missing/track: its parent folder does not exist"),
])
def test_names_that_cannot_take_the_folders_place(tmp_path, monkeypatch, name, message):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ScorerError) as error:
        check_output_dir(name)
    assert str(error.value).startswith(message)


def test_a_folder_of_other_files_or_a_file_is_refused(tmp_path):
    (tmp_path / "old").mkdir()
    for name in ("leaderboard.csv", "runs", "index.html"):
        (tmp_path / "old" / name).write_text("x")
    check_output_dir(str(tmp_path / "old"))             # an earlier track's: replaced
    (tmp_path / "old" / "notes.txt").write_text("mine")
    with pytest.raises(ScorerError, match=r"old is not empty and holds files that are not an "
                                          r"earlier track's \(notes.txt\); give a new or empty "
                                          r"folder$"):
        check_output_dir(str(tmp_path / "old"))
    (tmp_path / "file").write_text("x")
    with pytest.raises(ScorerError, match=r"file exists and is not a folder$"):
        check_output_dir(str(tmp_path / "file"))


def test_the_folder_is_built_aside_and_replaces_the_earlier_one_whole(tmp_path):
    target = tmp_path / "track"
    target.mkdir()
    (target / "leaderboard.csv").write_text("earlier\n")
    staging = staging_dir(str(target))
    assert os.path.dirname(staging) == str(tmp_path)
    assert os.path.basename(staging).startswith(".track.") and staging.endswith(".tmp")
    with open(os.path.join(staging, "leaderboard.csv"), "w") as f:
        f.write("new\n")
    move_into_place(staging, str(target))
    assert (target / "leaderboard.csv").read_text() == "new\n"
    assert sorted(os.listdir(tmp_path)) == ["track"]        # nothing left aside
    temporary = staging_dir(None)
    assert os.path.isdir(temporary) and os.listdir(temporary) == []
    os.rmdir(temporary)


def test_a_failed_move_leaves_the_earlier_track(tmp_path):
    target = tmp_path / "track"
    target.mkdir()
    (target / "leaderboard.csv").write_text("earlier\n")
    with pytest.raises(ScorerError, match=r"^Could not write .*track: "):
        move_into_place(str(tmp_path / "no-such-staging"), str(target))
    assert (target / "leaderboard.csv").read_text() == "earlier\n"
    assert sorted(os.listdir(tmp_path)) == ["track"]


def test_per_query_reads_back_as_written(tmp_path):
    rows = [("007", "ALL", "AP", 0.1 + 0.2), ("NA", "1", "F1", math.nan), ("q,2", "0", "P", 1.0)]
    path = tmp_path / "per_query.csv.gz"
    with gzip.open(path, "wt", encoding="utf-8") as f:
        f.write(PER_QUERY_HEADER + "".join(per_query_lines("run 1", rows)))
    frame = read_per_query(str(path))
    assert frame["query"].tolist() == ["007", "NA", "q,2"]        # ids stay text
    assert frame["hop"].tolist() == ["ALL", "1", "0"] and frame["run"].iloc[0] == "run 1"
    values = frame["value"].tolist()
    assert values[0] == 0.1 + 0.2 and math.isnan(values[1]) and values[2] == 1.0


def test_per_query_is_the_same_bytes_under_every_python(tmp_path):
    """Header, then each run's gzip member; no name, no time, and the header's
    OS byte fixed (Python 3.13's gzip.compress writes another than 3.11's)."""
    rows = [("007", "ALL", "AP", 0.25)]
    runner.write_per_query(str(tmp_path / PER_QUERY_PARTS), "run 1", rows)
    _join_per_query(str(tmp_path), ["run 1", "run 2"])     # run 2: no part (a fatal error)
    data = (tmp_path / PER_QUERY_FILE).read_bytes()
    assert data[:10] == bytes.fromhex("1f8b0800000000000403")   # mtime 0, fastest, Unix
    assert data.count(bytes.fromhex("1f8b08000000000004")) == 2
    assert gzip.decompress(data).decode() == PER_QUERY_HEADER + "".join(
        per_query_lines("run 1", rows))
    assert not (tmp_path / PER_QUERY_PARTS).exists()
