"""Hostile input to validatesf, validateqrel, generatequeries round 2 and
packageoutput: each
input (the query file, the run or the assessments, the -docs file, a document) replaced by binary bytes,
NUL bytes, UTF-16, bytes that are not UTF-8, a byte-order mark, a 10 MB line,
a folder, a missing file; an output that cannot be written.  Each gets a clear
message naming the file (and the line), exit 255 and nothing written but the
error file; what the Perl reads as it is (CRLF line ends; a byte-order mark
before a query file's XML; a 10 MB value) gives the clean input's output.
Never a traceback, never a hang."""
from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from commands import call_main, call_main_in_time
from places import FIXTURES
from scorer.coldstart.toolkit.command import main

CASE = FIXTURES / "coldstart" / "toolkit" / "validatesf-clean-docs" / "input"
QREL_CASE = FIXTURES / "coldstart" / "toolkit" / "validateqrel-languages-docs" / "input"
ALARM_SECONDS = 60

#: tool -> (its argv, the file its run (or assessments) are in, its outputs)
TOOLS = {
    "validatesf": (["-docs", "doclength.txt", "-error_file", "log", "-output_file", "OUT",
                    "sf-query.xml", "run.tab.txt"], "run.tab.txt", ("OUT",)),
    "validateqrel": (["-docs", "doclength.txt", "-error_file", "log", "-output_file", "OUT",
                      "sf-query.xml", "qrel.txt"], "qrel.txt",
                     ("OUT.cmn", "OUT.eng", "OUT.spa", "OUT.xling")),
    "generatequeries": (["-docs", "doclength.txt", "-error_file", "log", "-valid", "sf-query.xml",
                         "OUT", "run.tab.txt"], "run.tab.txt", ("OUT",)),
    # (the run as both rounds)
    "packageoutput": (["-docs", "doclength.txt", "-error_file", "log", "-justifications", "1:3",
                       "sf-query.xml", "run.tab.txt", "run.tab.txt", "OUT"], "run.tab.txt",
                      ("OUT",)),
}
#: The tools that read the documents themselves (generatequeries reads -docs only).
READS_DOCUMENTS = ("validatesf", "validateqrel", "packageoutput")
#: The tools whose Perl takes the error file before it looks at the output.
ERROR_FILE_FIRST = ("packageoutput",)


def setup(folder: Path, tool: str) -> None:
    source = QREL_CASE if tool == "validateqrel" else CASE
    for path in source.rglob("*"):
        if path.is_file():
            target = folder / path.relative_to(source)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(path.read_bytes())


def run(folder: Path, tool: str, out: str = "out") -> tuple:
    argv = [tool] + [out if a == "OUT" else a for a in TOOLS[tool][0]]
    stdout, stderr = io.StringIO(), io.StringIO()
    status = call_main_in_time(main, argv, folder, stdout, stderr, ALARM_SECONDS)
    log = folder / "log"
    text = stdout.getvalue() + stderr.getvalue() + (log.read_text("utf-8") if log.exists()
                                                    else "")
    assert "Traceback" not in text
    return status, text


def outputs(folder: Path, tool: str, out: str = "out") -> dict:
    return {name.replace("OUT", out): (folder / name.replace("OUT", out)).read_bytes()
            for name in TOOLS[tool][2] if (folder / name.replace("OUT", out)).exists()}


def clean(folder: Path, tool: str) -> dict:
    clean_folder = folder / "clean"
    clean_folder.mkdir()
    setup(clean_folder, tool)
    status, text = run(clean_folder, tool)
    assert status == 0, text
    return outputs(clean_folder, tool)


def _first_line_damaged(data: bytes, damage: bytes) -> bytes:
    return data[:20] + damage + data[20:]


#: (label, damage of a file's bytes, what the message must say)
REFUSED = [
    ("binary", lambda data: bytes(range(256)) * 4, "line 1: a NUL byte"),
    ("nul", lambda data: _first_line_damaged(data, b"\x00"), "line 1: a NUL byte"),
    ("utf16", lambda data: data.decode("utf-8").encode("utf-16"), "UTF-16"),
    ("latin1", lambda data: _first_line_damaged(data, "é".encode("latin-1")),
     "line 1: not valid UTF-8"),
]


def _refused(status, text, name, message):
    assert status == 255, text
    assert name in text and message in text, text


@pytest.mark.parametrize("tool", TOOLS)
@pytest.mark.parametrize("label, damage, message", REFUSED, ids=[c[0] for c in REFUSED])
@pytest.mark.parametrize("which", ["run", "queries", "docs", "document"])
def test_a_file_that_is_not_text_is_refused_naming_it(tmp_path, tool, which, label, damage,
                                                      message):
    setup(tmp_path, tool)
    name = {"run": TOOLS[tool][1], "queries": "sf-query.xml", "docs": "doclength.txt",
            "document": "docs/ENG_NW_000104.txt"}[which]
    path = tmp_path / name
    path.write_bytes(damage(path.read_bytes()))
    status, text = run(tmp_path, tool)
    if which == "document" and tool not in READS_DOCUMENTS:
        assert status == 0, text
        return
    if which == "document" and label == "nul":
        # A document's text is only read, as the Perl reads it: a NUL is a character.
        assert status == 0, text
        return
    if which == "document" and label == "binary":
        message = "line 2: not valid UTF-8 (byte 0x80)"
    _refused(status, text, name, message)
    assert outputs(tmp_path, tool) == {}


@pytest.mark.parametrize("tool", TOOLS)
def test_a_byte_order_mark_is_refused_where_the_perl_reads_it_as_a_query_id(tmp_path, tool):
    setup(tmp_path, tool)
    for name in (TOOLS[tool][1], "doclength.txt"):
        path = tmp_path / name
        original = path.read_bytes()
        path.write_bytes(b"\xef\xbb\xbf" + original)
        status, text = run(tmp_path, tool)
        _refused(status, text, f"{name} line 1", "byte order mark")
        assert outputs(tmp_path, tool) == {}
        path.write_bytes(original)
        (tmp_path / "log").unlink()


@pytest.mark.parametrize("tool", TOOLS)
def test_crlf_and_a_query_files_byte_order_mark_give_the_clean_output(tmp_path, tool):
    setup(tmp_path, tool)
    want = clean(tmp_path, tool)
    for name in (TOOLS[tool][1], "sf-query.xml", "doclength.txt"):
        path = tmp_path / name
        path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    query_file = tmp_path / "sf-query.xml"
    query_file.write_bytes(b"\xef\xbb\xbf" + query_file.read_bytes())
    status, text = run(tmp_path, tool)
    assert status == 0, text
    assert outputs(tmp_path, tool) == want


@pytest.mark.parametrize("tool", TOOLS)
def test_a_10_mb_line_of_garbage_is_an_error_naming_its_line(tmp_path, tool):
    setup(tmp_path, tool)
    path = tmp_path / TOOLS[tool][1]
    lines = path.read_bytes().split(b"\n")
    lines.insert(2, b"x" * 10_000_000)
    path.write_bytes(b"\n".join(lines))
    status, text = run(tmp_path, tool)
    _refused(status, text, f"{TOOLS[tool][1]} line 3", "Wrong number of entries on line")
    assert outputs(tmp_path, tool) == {}


def test_a_10_mb_value_is_validated_as_the_perl_validates_it(tmp_path):
    setup(tmp_path, "validatesf")
    path = tmp_path / "run.tab.txt"
    lines = path.read_text("utf-8").split("\n")
    columns = lines[16].split("\t")      # (a line without hop-1 answers below it)
    assert columns[4] == "Lena Moreau"
    columns[4] = "Lena " + "x" * 10_000_000
    lines[16] = "\t".join(columns)
    path.write_text("\n".join(lines), encoding="utf-8")
    status, text = run(tmp_path, "validatesf")
    assert status == 0, text
    assert "WARNING: Mention (or filler) string 'Lena xxx" in text
    assert columns[4] in (tmp_path / "out").read_text("utf-8")


@pytest.mark.parametrize("tool", TOOLS)
@pytest.mark.parametrize("which, replacement, message", [
    ("run", "missing", "does not exist"),
    ("run", "folder", "is a folder without *.tab.txt files"),
    ("queries", "missing", "Could not open"),
    ("queries", "folder", "Is a directory"),
    ("docs", "missing", "Could not open"),
    ("docs", "folder", "Is a directory"),
    ("document", "missing", "Source document expected at docs/ENG_NW_000104.txt"),
    ("document", "folder", "Source document expected at docs/ENG_NW_000104.txt"),
])
def test_a_missing_file_or_a_folder_is_refused(tmp_path, tool, which, replacement, message):
    setup(tmp_path, tool)
    name = {"run": TOOLS[tool][1], "queries": "sf-query.xml", "docs": "doclength.txt",
            "document": "docs/ENG_NW_000104.txt"}[which]
    (tmp_path / name).unlink()
    if replacement == "folder":
        (tmp_path / name).mkdir()
    status, text = run(tmp_path, tool)
    if which == "document" and tool not in READS_DOCUMENTS:
        assert status == 0, text
        return
    if tool == "validateqrel" and which == "run" and replacement == "folder":
        message = "is a folder without *.tab.txt files"
    _refused(status, text, name, message)
    assert outputs(tmp_path, tool) == {}


@pytest.mark.parametrize("tool", TOOLS)
def test_an_output_that_cannot_be_written_is_refused_before_any_work(tmp_path, tool):
    setup(tmp_path, tool)
    before = sorted(os.listdir(tmp_path))
    status, text = run(tmp_path, tool, out="no/such/folder/out")
    assert status == 255 and "Could not open no/such/folder/out" in text, text
    if tool in ERROR_FILE_FIRST:
        before = sorted(before + ["log"])              # the error file, saying why
    assert sorted(os.listdir(tmp_path)) == before     # (else not even the error file)


@pytest.mark.parametrize("tool", TOOLS)
def test_an_output_naming_an_input_is_refused(tmp_path, tool):
    setup(tmp_path, tool)
    data = (tmp_path / "sf-query.xml").read_bytes()
    out = "sf-query" if tool == "validateqrel" else "sf-query.xml"
    if tool == "validateqrel":
        (tmp_path / "sf-query.eng").symlink_to("sf-query.xml")
    status, text = run(tmp_path, tool, out=out)
    message = "File sf-query.xml already exists" if tool == "packageoutput" else \
        "would write over the input sf-query.xml"
    assert status == 255 and message in text, text
    assert (tmp_path / "sf-query.xml").read_bytes() == data


@pytest.mark.parametrize("tool", READS_DOCUMENTS)
def test_an_existing_error_file_is_refused_as_the_perl_refuses_it(tmp_path, tool):
    setup(tmp_path, tool)
    (tmp_path / "log").write_text("an earlier run's\n")
    stdout, stderr = io.StringIO(), io.StringIO()
    status = call_main(main, [tool] + [a if a != "OUT" else "out" for a in TOOLS[tool][0]],
                       tmp_path, stdout, stderr)
    assert status == 255 and "File log already exists" in stderr.getvalue()
    assert (tmp_path / "log").read_text() == "an earlier run's\n"
    assert outputs(tmp_path, tool) == {}
