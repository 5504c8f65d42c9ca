"""The -docs file read as the Perl library reads it (docid, length, file; a
later line wins; a length is the number Perl reads), and documents' texts."""
import pytest

from scorer.coldstart.toolkit.documents import (Document, DocumentTexts, parse_documents,
                                                perl_number, read_documents)
from scorer.coldstart.toolkit.problemlog import Fatal


def test_lines_give_each_document_its_length_and_file():
    text = "D1\t1301\tdocs/D1.xml\nD2\t20\nD1\t7\tother.xml\nD3\t12abc\t\t\n\n"
    assert parse_documents(text) == {"D1": Document(7, "other.xml"), "D2": Document(20, None),
                                     "D3": Document(12, None), "": Document(0, None)}


@pytest.mark.parametrize("text, number", [("1301", 1301), (" 12abc", 12), ("abc", 0),
                                          (None, 0), ("1.5", 1.5), ("-3", -3), ("1e3", 1000),
                                          (".5x", 0.5), ("Inf", float("inf"))])
def test_a_column_is_the_number_perl_reads_from_it(text, number):
    assert perl_number(text) == number


def test_a_missing_docs_file_or_document_stops_the_tool(tmp_path):
    with pytest.raises(Fatal, match="nowhere.txt"):
        read_documents(str(tmp_path / "nowhere.txt"))
    with pytest.raises(Fatal, match="Source document expected at .*gone.xml"):
        DocumentTexts().text(str(tmp_path / "gone.xml"))


def test_a_text_is_characters_and_a_stray_byte_one_of_its_own(tmp_path):
    path = tmp_path / "d.xml"
    path.write_bytes("é€\xff".encode("utf-8") + b"\xffz")
    texts = DocumentTexts(keep=1)
    assert len(texts.text(str(path))) == 5
    other = tmp_path / "e.xml"
    other.write_text("x")
    assert texts.text(str(other)) == "x" and texts.text(str(path))[4] == "z"
