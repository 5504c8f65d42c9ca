"""A track's pictures and page as files (scorer/display/files.py): what is written,
and bytes that do not depend on the hash seed."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from scorer.display import files, page

from places import ROOT
from trackviews import fake_track


def test_track_files_are_the_pictures_and_the_page_that_embeds_the_svg(tmp_path):
    view = fake_track(runs=3, queries=4, seed=2)
    paths = files.write_track_files(view, str(tmp_path))
    assert [os.path.basename(p) for p in paths] == list(files.TRACK_FILES)
    assert sorted(os.listdir(tmp_path)) == sorted(files.TRACK_FILES)  # no temporary left
    svg = (tmp_path / "leaderboard.svg").read_text(encoding="utf-8")
    index = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert page.inline_svg(svg) in index
    assert "For a paper: leaderboard.pdf (vector, \\includegraphics{leaderboard.pdf})." in index


@pytest.mark.slow
def test_a_picture_taller_than_a_page_is_in_parts_the_page_lists(tmp_path):
    names = [f"team{i:03d}_system-with-a-rather-long-descriptive-name_v{i:02d}_final"
             for i in range(12)]
    paths = files.write_track_files(fake_track(runs=12, queries=3, seed=2, names=names),
                                    str(tmp_path), figure_width_in=3.3)
    parts = [os.path.basename(p) for p in paths if p.endswith(".pdf")]
    assert len(parts) > 1
    assert parts == ["leaderboard.pdf"] + [f"leaderboard-{n}.pdf" for n in range(2, len(parts) + 1)]
    assert sorted(os.listdir(tmp_path)) == sorted(["leaderboard.png", "leaderboard.svg",
                                                   "index.html"] + parts)
    index = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert (f"For a paper, in {len(parts)} parts no taller than a page, each a figure of its "
            f"own (\\includegraphics{{leaderboard.pdf}}, ...):") in index
    assert "".join(f'<li><a href="{name}">{name}</a></li>' for name in parts) in index


DRAW_IN_A_FRESH_INTERPRETER = """
import sys
from trackviews import fake_track
from scorer.display import files
names = ["b", "a", "\u00fc", "<x>", "c"]
files.write_track_files(fake_track(runs=5, queries=6, seed=3, names=names), sys.argv[1])
"""
@pytest.mark.slow
def test_track_files_do_not_depend_on_the_hash_seed(tmp_path):
    outputs = []
    for hash_seed in ("0", "4242"):
        directory = tmp_path / hash_seed
        directory.mkdir()
        env = dict(os.environ, PYTHONHASHSEED=hash_seed,
                   PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "tests" / "helpers")]))
        subprocess.run([sys.executable, "-c", DRAW_IN_A_FRESH_INTERPRETER, str(directory)],
                       env=env, check=True)
        outputs.append({name: (directory / name).read_bytes() for name in files.TRACK_FILES})
    assert outputs[0] == outputs[1]
