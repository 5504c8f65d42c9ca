"""scorer/competition/bundle.py: the pieces of a Codabench bundle.  The
competition.yaml a leaderboard's keys make (read back by PyYAML), the logo a
valid PNG of the size asked (decoded here with zlib), the sources every .py of
the package, and the same entries zipped to the same bytes, sorted."""
from __future__ import annotations

import io
import struct
import zipfile
import zlib

import yaml

from scorer.request import build
from scorer import tasks
from scorer.competition import bundle, submissions

from places import ROOT


def test_competition_yaml_lists_the_leaderboards_keys_in_order():
    request = build(["gold.jsonl"], str(ROOT / "configs" / "fever.yaml"))
    keys = ("strict_score", "f1")
    data = yaml.safe_load(bundle.competition_yaml(
        request.policy, keys, bundle.BundleOptions("FEVER dev", "2026-12-01")))
    assert data["version"] == 2 and data["title"] == "FEVER dev"
    assert data["docker_image"] == bundle.DOCKER_IMAGE
    assert data["phases"][0]["start"] == "2026-12-01"
    [board] = data["leaderboards"]
    assert [(c["key"], c["index"], c["title"]) for c in board["columns"]] == [
        (key, i, submissions.column_title(key, tasks.get("fever"))) for i, key in enumerate(keys)]
    assert yaml.safe_load(bundle.metadata_yaml())["command"] == bundle.COMMAND


def test_the_logo_is_a_png_of_the_size_asked():
    png = bundle.logo_png(24)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    position, chunks = 8, {}
    while position < len(png):
        length, kind = struct.unpack(">I4s", png[position:position + 8])
        data = png[position + 8:position + 8 + length]
        crc, = struct.unpack(">I", png[position + 8 + length:position + 12 + length])
        assert crc == zlib.crc32(kind + data) & 0xFFFFFFFF
        chunks[kind] = data
        position += 12 + length
    assert struct.unpack(">IIBBBBB", chunks[b"IHDR"]) == (24, 24, 8, 2, 0, 0, 0)
    pixels = zlib.decompress(chunks[b"IDAT"])
    assert len(pixels) == 24 * (1 + 3 * 24) and list(chunks)[-1] == b"IEND"


def test_the_sources_are_every_module_of_the_package():
    sources = bundle.package_sources()
    modules = {str(path.relative_to(ROOT)) for path in (ROOT / "scorer").rglob("*.py")
               if "__pycache__" not in path.parts}
    assert set(sources) == modules
    assert "scorer/competition/archive.py" in sources


def test_the_same_entries_zip_to_the_same_bytes(tmp_path):
    source = tmp_path / "a.py"
    source.write_text("x = 1\n")
    entries = {"b.txt": "text\n", "a/logo.png": b"\x89PNG", "a.py": bundle._Source(str(source))}
    first = bundle.zip_bytes(entries)
    assert bundle.zip_bytes(dict(reversed(list(entries.items())))) == first
    with zipfile.ZipFile(io.BytesIO(first)) as z:
        assert z.namelist() == ["a.py", "a/logo.png", "b.txt"]
        assert z.read("a.py") == b"x = 1\n" and z.read("a/logo.png") == b"\x89PNG"
        assert {info.date_time for info in z.infolist()} == {(1980, 1, 1, 0, 0, 0)}
