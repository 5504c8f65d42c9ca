"""toolkit/documents.py: the -docs file (lengths, files), the documents' texts
and the filler-string check, and what is refused in them."""
from __future__ import annotations

import pytest

from scorer.coldstart.toolkit.documents import read_documents
from scorer.problems import ScorerError


def _docs(tmp_path, text: str, documents=None):
    for name, body in (documents or {}).items():
        (tmp_path / name).write_text(body, encoding="utf-8", newline="")
    path = tmp_path / "doclength.txt"
    path.write_bytes(text.encode("utf-8"))
    return read_documents(str(path))


def test_lengths_files_and_the_last_line_of_a_document(tmp_path):
    docs = _docs(tmp_path, "A\t10\ta.txt\r\nB\t 7\r\nA\t12\ta.txt\nC\t9x\n\n")
    assert "A" in docs and "B" in docs and "D" not in docs
    assert docs.length("A") == 12 and docs.length("B") == 7 and docs.length("C") == 9
    assert docs.file("A") == "a.txt" and docs.file("B") is None and docs.file("D") is None


def test_a_length_that_is_not_a_number_is_refused_when_a_span_needs_it(tmp_path):
    docs = _docs(tmp_path, "A\tten\tx\nB\n")
    for docid, line in (("A", 1), ("B", 2)):
        with pytest.raises(ScorerError, match=f"doclength.txt line {line}: the length of "
                                              f"{docid} is"):
            docs.length(docid)


@pytest.mark.parametrize("value, start, end, differs", [
    ("Ada Brandt", 4, 13, False),
    ("Ada  Brandt", 4, 13, False),        # runs of white space are one space
    ("Ada\u00a0Brandt", 4, 13, False),    # (the Perl's white space)
    ("Ada Brandt", 4, 12, True),
    ("Ada Brandt", 900, 909, True),       # past the end: nothing there
])
def test_the_filler_string_against_the_text(tmp_path, monkeypatch, value, start, end, differs):
    monkeypatch.chdir(tmp_path)     # (a document's file is named from the working folder)
    docs = _docs(tmp_path, "A\t30\ta.txt\n", {"a.txt": "Met Ada\nBrandt today."})
    assert docs.mention_differs(value, "A", start, end) is differs


def test_a_missing_document_is_the_perls_source_document_expected(tmp_path):
    docs = _docs(tmp_path, "A\t30\tnone.txt\n")
    with pytest.raises(ScorerError, match="Source document expected at none.txt"):
        docs.text("A")


@pytest.mark.parametrize("data, message", [
    (b"\xef\xbb\xbfA\t1\n", "line 1: the file starts with a byte order mark"),
    (b"A\t1\nB\x00\t2\n", "line 2: a NUL byte"),
    ("A\t1\n".encode("utf-16"), "UTF-16"),
])
def test_what_is_not_text_is_refused(tmp_path, data, message):
    path = tmp_path / "doclength.txt"
    path.write_bytes(data)
    with pytest.raises(ScorerError, match=message):
        read_documents(str(path))
