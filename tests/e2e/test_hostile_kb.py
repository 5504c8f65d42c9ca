"""Hostile knowledge bases given to validatekb (python -m scorer.coldstart
validatekb): binary bytes, NUL bytes, UTF-16, bytes that are not UTF-8, a
byte-order mark, an empty file, a folder, a missing file, an output that
cannot be written, a node used before its type line, a cycle of inverses,
100,000 mentions of one node, a 10 MB line.  Each gets a clear message naming
the file (and the line), exit 255 and nothing written but the error file, or,
for what the Perl reads as it is (CRLF line ends, a long line, many
mentions), the output the Perl's reading gives; never a traceback, never a
hang."""
from __future__ import annotations

import io
import os

import pytest

from commands import call_main_in_time
from scorer.coldstart.toolkit.command import main

KB = """\
RUN1
:Entity1\ttype\tPER
:Entity1\tcanonical_mention\t"Ada Brandt"\tD1:0-9\t1.0
:Entity1\tmention\t"Ada Brandt"\tD1:0-9\t1.0
:Entity1\tper:siblings\t:Entity2\tD1:0-30\t0.5
:Entity2\ttype\tPER
:Entity2\tcanonical_mention\t"Cy Brandt"\tD1:21-29\t1.0
:Entity2\tmention\t"Cy Brandt"\tD1:21-29\t1.0
:Entity2\tper:siblings\t:Entity1\tD1:0-30\t0.5
"""
ALARM_SECONDS = 120


def run(folder, kb: str, *more) -> tuple:
    argv = ["validatekb", "-output", "tac", "-error_file", "log", *more, kb]
    stdout, stderr = io.StringIO(), io.StringIO()
    status = call_main_in_time(main, argv, folder, stdout, stderr, ALARM_SECONDS)
    log = folder / "log"
    text = stdout.getvalue() + stderr.getvalue() + (log.read_text("utf-8") if log.exists()
                                                    else "")
    assert "Traceback" not in text
    return status, text


def clean_output(folder) -> bytes:
    clean = folder / "clean"
    clean.mkdir()
    (clean / "kb.tac").write_text(KB, encoding="utf-8")
    status, text = run(clean, "kb.tac")
    assert status == 0, text
    return (clean / "kb.tac.valid").read_bytes()


REFUSED = [
    ("binary", bytes(range(256)) * 4, "line 1: a NUL byte"),
    ("binary-no-nul", bytes(range(1, 256)) * 4, "not valid UTF-8"),
    ("nul", KB.replace("0.5", "0.\x005", 1).encode("utf-8"), "line 5: a NUL byte"),
    ("utf16", KB.encode("utf-16"), "UTF-16"),
    ("latin1", KB.replace("Ada", "Adé").encode("latin-1"), "line 3: not valid UTF-8"),
    ("bom", b"\xef\xbb\xbf" + KB.encode("utf-8"), "line 1: the file starts with a byte order"),
    # the Perl's words (an empty file has no line 1: it says line 0)
    ("empty", b"", "ERROR: The first line of the file does not contain a legal runid "
                   "(kb.tac line 0)"),
    # a mention's predicate needs its subject's type: mention of what?
    ("used-before-its-type", KB.replace("RUN1\n", 'RUN1\n:Entity3\tmention\t"Ada"\tD1:0-2\t1.0\n'
                                        ':Entity3\ttype\tPER\n').encode("utf-8"),
     "ERROR: mention: ambiguous predicate (kb.tac line 2)"),
]


@pytest.mark.parametrize("label, data, message", REFUSED, ids=[c[0] for c in REFUSED])
def test_a_kb_that_is_not_a_kb_is_refused_naming_the_file_and_line(tmp_path, label, data,
                                                                    message):
    (tmp_path / "kb.tac").write_bytes(data)
    status, text = run(tmp_path, "kb.tac")
    assert status == 255 and "kb.tac" in text and message in text, text
    assert sorted(os.listdir(tmp_path)) == ["kb.tac", "log"]


# (a missing file stops it before the error file is taken, as it stops the Perl)
@pytest.mark.parametrize("name, message, left", [
    ("none.tac", "File none.tac does not exist", []),
    (".", "Could not open .: Is a directory", ["log"])])
def test_a_missing_file_or_a_folder_is_refused(tmp_path, name, message, left):
    status, text = run(tmp_path, name)
    assert status == 255 and message in text, text
    assert os.listdir(tmp_path) == left


def test_an_existing_output_is_refused_before_any_work(tmp_path):
    (tmp_path / "kb.tac").write_text(KB, encoding="utf-8")
    (tmp_path / "kb.tac.valid").write_text("mine")
    status, text = run(tmp_path, "kb.tac")
    assert status == 255 and "Output file already exists at ./kb.tac.valid" in text, text
    assert (tmp_path / "kb.tac.valid").read_text() == "mine"


def test_an_output_folder_that_is_a_file_is_refused(tmp_path):
    (tmp_path / "kb.tac").write_text(KB, encoding="utf-8")
    (tmp_path / "file").write_text("")
    status, text = run(tmp_path, "kb.tac", "-output_dir", "file")
    assert status == 255 and "file exists but its not a directory" in text, text
    # (stopped before the error file is taken, as the Perl is: the message is on stderr)
    assert sorted(os.listdir(tmp_path)) == ["file", "kb.tac"]


def test_crlf_line_ends_are_read_as_the_perl_reads_them(tmp_path):
    # each column is trimmed of its CR; the run id line keeps it, as the Perl's output does
    (tmp_path / "kb.tac").write_bytes(KB.replace("\n", "\r\n").encode("utf-8"))
    status, text = run(tmp_path, "kb.tac")
    assert status == 0, text
    clean = clean_output(tmp_path)
    assert (tmp_path / "kb.tac.valid").read_bytes() == clean.replace(b"RUN1\n", b"RUN1\r\n", 1)


def test_a_10_mb_line_is_one_column_too_many_on_its_line(tmp_path):
    (tmp_path / "kb.tac").write_text(KB + ":Entity1\tper:title\t" + "x" * 10_000_000 + "\n",
                                     encoding="utf-8")
    status, text = run(tmp_path, "kb.tac")
    assert status == 255 and "ERROR: Wrong number of entries on line (expected 4, got 3) " \
                             "(kb.tac line 10)" in text, text[:2000]
    assert sorted(os.listdir(tmp_path)) == ["kb.tac", "log"]


def test_a_cycle_of_inverses_is_written_once_each(tmp_path):
    # siblings both ways, and parents/children around a third node: nothing added twice
    kb = KB + (":Entity1\tper:children\t:Entity2\tD1:0-30\t0.4\n"
               ":Entity2\tper:parents\t:Entity1\tD1:0-30\t0.4\n")
    (tmp_path / "kb.tac").write_text(kb, encoding="utf-8")
    status, text = run(tmp_path, "kb.tac")
    assert status == 0 and "No warnings encountered" in text, text
    written = (tmp_path / "kb.tac.valid").read_text("utf-8").splitlines()
    assert len(written) == 2 + 10 and len(set(written)) == len(written)


def test_100000_mentions_of_one_node_are_all_kept(tmp_path):
    lines = ["RUN1", ":Entity1\ttype\tPER", ':Entity1\tcanonical_mention\t"x0"\tD1:0-1\t1.0']
    lines += [f':Entity1\tmention\t"x{i}"\tD1:{i}-{i + 1}\t1.0' for i in range(100_000)]
    (tmp_path / "kb.tac").write_text("\n".join(lines) + "\n", encoding="utf-8")
    status, text = run(tmp_path, "kb.tac")
    assert status == 0 and "No warnings encountered" in text, text
    written = (tmp_path / "kb.tac.valid").read_text("utf-8").splitlines()
    assert len(written) == 2 + 2 + 100_000
    assert written[4] == ':Entity1\tmention\t"x0"\tD1:0-1\t1.0'


# -- resolvequeries: a KB that is not what validatekb writes ----------------------------

QUERIES = """<?xml version="1.0" encoding="UTF-8"?>
<query_set>
  <query id="CSSF17_ENG_0123456789">
    <name>Ada Brandt</name>
    <docid>D1</docid>
    <beg>0</beg>
    <end>9</end>
    <enttype>per</enttype>
    <slot0>per:siblings</slot0>
  </query>
</query_set>
"""


def resolve(folder, kb: str) -> tuple:
    (folder / "q.xml").write_text(QUERIES, encoding="utf-8")
    argv = ["resolvequeries", "-error_file", "log", "q.xml", kb, "out.rq"]
    stdout, stderr = io.StringIO(), io.StringIO()
    status = call_main_in_time(main, argv, folder, stdout, stderr, ALARM_SECONDS)
    log = folder / "log"
    text = stdout.getvalue() + stderr.getvalue() + (log.read_text("utf-8") if log.exists()
                                                    else "")
    assert "Traceback" not in text
    return status, text


@pytest.mark.parametrize("label, data, message", [
    ("binary", bytes(range(256)) * 4, "kb.tac.valid line 1: a NUL byte"),
    ("utf16", KB.encode("utf-16"), "UTF-16"),
    ("empty", b"", "No runid found in kb.tac.valid"),
    ("unvalidated", KB.replace(":Entity1\ttype\tPER", ":Entity1\ttype\tPER\tD1:0-9").encode(
        "utf-8"), "kb.tac.valid line 2: wrong number of columns for predicate type"),
    ("type-with-provenance", KB.replace(":Entity1\ttype\tPER", ":Entity1\ttype\tPER\tD1:0-9"
                                        "\t1.0").encode("utf-8"),
     "kb.tac.valid line 2: wrong number of columns for predicate type"),
    ("bad-offsets", KB.replace("D1:0-30", "D1:0-x").encode("utf-8"),
     "kb.tac.valid line 5: illegal offset specification: D1:0-x"),
], ids=["binary", "utf16", "empty", "unvalidated", "type-with-provenance", "bad-offsets"])
def test_resolvequeries_refuses_a_kb_that_is_not_a_validated_one(tmp_path, label, data,
                                                                  message):
    (tmp_path / "kb.tac.valid").write_bytes(data)
    status, text = resolve(tmp_path, "kb.tac.valid")
    assert status == 255 and message in text, text
    assert sorted(os.listdir(tmp_path)) == ["kb.tac.valid", "log", "q.xml"]


def test_resolvequeries_refuses_a_missing_kb(tmp_path):
    status, text = resolve(tmp_path, "none.tac.valid")
    assert status == 255 and "none.tac.valid" in text, text
    assert sorted(os.listdir(tmp_path)) == ["log", "q.xml"]


def test_resolvequeries_follows_the_queries_of_a_validated_kb(tmp_path):
    (tmp_path / "kb.tac").write_text(KB, encoding="utf-8")
    assert run(tmp_path, "kb.tac")[0] == 0
    status, text = resolve(tmp_path, "kb.tac.valid")
    assert status == 0, text
    assert (tmp_path / "out.rq").read_text("utf-8") == (
        "CSSF17_ENG_0123456789\tper:siblings\tRUN1\tD1:0-30\tCy Brandt\tPER\tD1:21-29\t0.5"
        "\t:Entity2\n")
    assert "RUN1\t1\t1\t0\t3\t1\t1\t1\tRESOLUTION_STATISTICS" in text
