"""Hostile input to the toolkit's tools (python -m scorer.coldstart TOOL): each
input file replaced by binary bytes, NUL bytes, UTF-16, bytes that are not
UTF-8, a 10 MB line, a folder, a missing file; an output that cannot be
written.  Each gets a clear message naming the file (and the line), exit 255
and nothing written but the error file, or, for what the Perl reads as it is
(CRLF line ends, a byte-order mark, a long line), the output the clean file
gives; never a traceback, never a hang."""
from __future__ import annotations

import io
import os

import pytest

from commands import call_main_in_time
from scorer.coldstart.toolkit.command import main

QUERIES = """<?xml version="1.0" encoding="UTF-8"?>
<query_set>
  <query id="CS17_0001">
    <name>Ada Brandt</name>
    <docid>NYT_ENG_20130602.0025</docid>
    <beg>10</beg>
    <end>19</end>
    <enttype>per</enttype>
    <slot0>per:siblings</slot0>
    <slot1>per:date_of_birth</slot1>
  </query>
</query_set>
"""
ALARM_SECONDS = 60

#: tool -> (its argv with the input named QUERIES and the output OUT, its input file)
TOOLS = {
    "validatequeries": ["-expand", "-query_base", "CSSF17", "-error_file", "log", "QUERIES",
                        "OUT"],
    "generatequeries": ["-error_file", "log", "QUERIES", "OUT"],
}

REFUSED = [
    ("binary", bytes(range(256)) * 4, "line 1: a NUL byte"),
    ("binary-no-nul", bytes(range(1, 256)) * 4, "line 2: not valid UTF-8 (byte 0x80)"),
    ("nul", QUERIES.replace("<end>19", "<end>1\x009").encode("utf-8"), "line 7: a NUL byte"),
    ("utf16", QUERIES.encode("utf-16"), "the file is UTF-16 text"),
    ("latin1", QUERIES.replace("Ada", "Adé").encode("latin-1"), "line 4: not valid UTF-8"),
]
READ_AS_IS = [
    ("crlf", QUERIES.replace("\n", "\r\n").encode("utf-8")),
    ("bom", b"\xef\xbb\xbf" + QUERIES.encode("utf-8")),
    ("long-line", QUERIES.replace("\n", " " * 5_000_000 + "\n", 2).encode("utf-8")),
]


def run(folder, tool: str, queries: str, out: str = "out.xml") -> tuple:
    argv = [tool] + [queries if a == "QUERIES" else out if a == "OUT" else a
                     for a in TOOLS[tool]]
    stdout, stderr = io.StringIO(), io.StringIO()
    status = call_main_in_time(main, argv, folder, stdout, stderr, ALARM_SECONDS)
    log = folder / "log"
    text = stdout.getvalue() + stderr.getvalue() + (log.read_text("utf-8") if log.exists()
                                                    else "")
    assert "Traceback" not in text
    return status, text


def clean_output(folder, tool: str) -> bytes:
    clean = folder / "clean"
    clean.mkdir()
    (clean / "q.xml").write_text(QUERIES, encoding="utf-8")
    status, text = run(clean, tool, "q.xml")
    assert status == 0, text
    return (clean / "out.xml").read_bytes()


@pytest.mark.parametrize("tool", TOOLS)
@pytest.mark.parametrize("label, data, message", REFUSED, ids=[c[0] for c in REFUSED])
def test_a_file_that_is_not_text_is_refused_naming_it(tmp_path, tool, label, data, message):
    (tmp_path / "q.xml").write_bytes(data)
    status, text = run(tmp_path, tool, "q.xml")
    assert status == 255 and f"q.xml" in text and message in text, text
    assert sorted(os.listdir(tmp_path)) == ["log", "q.xml"]


@pytest.mark.parametrize("tool", TOOLS)
@pytest.mark.parametrize("label, data", READ_AS_IS, ids=[c[0] for c in READ_AS_IS])
def test_what_the_perl_reads_as_it_is_gives_the_clean_files_output(tmp_path, tool, label, data):
    (tmp_path / "q.xml").write_bytes(data)
    status, text = run(tmp_path, tool, "q.xml")
    assert status == 0, text
    assert (tmp_path / "out.xml").read_bytes() == clean_output(tmp_path, tool)


@pytest.mark.parametrize("tool", TOOLS)
@pytest.mark.parametrize("name, message", [("none.xml", "Could not open none.xml: No such file"),
                                           (".", "Could not open .: Is a directory")])
def test_a_missing_file_or_a_folder_is_refused(tmp_path, tool, name, message):
    status, text = run(tmp_path, tool, name)
    assert status == 255 and message in text, text
    assert os.listdir(tmp_path) == ["log"]


@pytest.mark.parametrize("tool", TOOLS)
def test_an_output_that_cannot_be_written_is_refused_before_any_work(tmp_path, tool):
    (tmp_path / "q.xml").write_text(QUERIES, encoding="utf-8")
    (tmp_path / "file").write_text("")
    status, text = run(tmp_path, tool, "q.xml", out="file/out.xml")
    assert status == 255 and "Could not open file/out.xml" in text, text
    # (the error file too, where the tool takes it before the output, as its Perl does)
    assert set(os.listdir(tmp_path)) - {"log"} == {"file", "q.xml"}
