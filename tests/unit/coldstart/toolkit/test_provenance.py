"""Provenance read as the Perl library's Provenance reads it: the spans kept,
their three texts, the problems in order; with -docs, the documents' lengths;
and, with the Perl beside the project, the same answers as the library's on
random columns."""
import random

import pytest

import perl_library
from places import perl_dir
from scorer.coldstart.toolkit.documents import Documents
from scorer.coldstart.toolkit.provenance import (NO_DOCUMENT, SpansReader, read_offsets,
                                                 read_spans)


def test_spans_keep_their_digits_and_sort_by_start_then_end_as_text():
    spans, problems = read_spans("D1:20-100,D1:0010-0015,D1:20-99", 3)
    assert problems == ()
    assert spans.original() == "D1:20-100,D1:0010-0015,D1:20-99"
    assert spans.normalised() == "D1:0010-0015,D1:20-100,D1:20-99"
    assert spans.short() == "0010-0015,20-100,20-99"
    assert (spans.document, spans.start(), spans.end(), len(spans)) == ("D1", 20, 100, 3)


def test_a_long_span_is_cut_and_bad_ones_are_left_out_in_order():
    spans, problems = read_spans("D1:9-1,x,D2:5-6;D1:1-300", 4)
    assert problems == (("SEMICOLON_AS_SEPARATOR", ("D1:9-1,x,D2:5-6;D1:1-300",)),
                        ("ILLEGAL_OFFSET_PAIR", ("9", "1")),
                        ("ILLEGAL_OFFSET_TRIPLE_STRING", ("x",)),
                        ("TOO_MANY_CHARS", (200,)),
                        ("MULTIPLE_DOCIDS_IN_PROV", ("D1:9-1,x,D2:5-6,D1:1-300",)))
    assert spans.original() == "D2:5-6,D2:1-200"


def test_too_many_spans_and_too_many_characters():
    spans, problems = read_spans("D:1-200,D:201-400,D:401-600,D:601-800,D:801-900", None)
    assert problems == (("TOO_MANY_TOTAL_CHARS", (800,)),)
    spans, problems = read_spans("D:1-2,D:3-4", 1)
    assert problems == (("TOO_MANY_PROVENANCE_TRIPLES_E", (2, 1)),)
    assert spans.original() == "D:1-2"


def test_nothing_kept_has_no_document():
    spans, problems = read_spans("", 3)
    assert (spans.document, spans.start(), spans.normalised(), problems) == (NO_DOCUMENT, 0, "", ())
    assert read_spans(None, 3)[0].document == NO_DOCUMENT


def test_huge_and_foreign_digits_are_illegal_offsets():
    assert read_spans("D:" + "9" * 19 + "-" + "9" * 20, 1)[1] == (
        ("ILLEGAL_OFFSET", ("9" * 19,)), ("ILLEGAL_OFFSET", ("9" * 20,)))
    assert read_spans("D:\u0661-\u0662", 1)[1] == (
        ("ILLEGAL_OFFSET", ("\u0661",)), ("ILLEGAL_OFFSET", ("\u0662",)))


def test_documents_bound_the_offsets_and_an_unknown_one_stops_reading():
    documents = Documents("docs.txt", {"D1": ("100", None, 1)})
    spans, problems = read_spans("D1:90-150,D1:1-5", 3, documents)
    assert problems == (("ILLEGAL_OFFSET_IN_DOC", ("150", "D1")),)
    assert spans.original() == "D1:1-5"
    spans, problems = read_spans("D1:1-2,D9:1-2,D1:3-4", 3, documents)
    assert problems == (("ILLEGAL_DOCID", ("D9",)),)
    # a pair out of order is also checked against the document
    assert read_spans("D1:150-101", 1, documents)[1] == (
        ("ILLEGAL_OFFSET_PAIR", ("150", "101")), ("ILLEGAL_OFFSET_IN_DOC", ("150", "D1")),
        ("ILLEGAL_OFFSET_IN_DOC", ("101", "D1")))


def test_one_span_in_three_parts_as_a_query_gives_it():
    spans, problems = read_offsets("D1", "3", "x")
    assert problems == (("ILLEGAL_OFFSET", ("x",)),) and spans.document == NO_DOCUMENT
    spans, problems = read_offsets("D1", "3", "7", Documents("docs.txt", {"D1": ("5", None, 1)}))
    assert problems == (("ILLEGAL_OFFSET_IN_DOC", ("7", "D1")),)
    assert read_offsets("D1", "3", "7")[0].normalised() == "D1:3-7"


def test_the_reader_reads_each_column_once():
    reader = SpansReader()
    assert reader.read("D:1-2", 3) is reader.read("D:1-2", 3)


PERL_PROVENANCE = r"""
while (my $line = <STDIN>) {
  chomp $line; my ($max, $docs, $text) = split(/\t/, $line, 3);
  Provenance::set_docids($docs ? {D1 => {LENGTH => 300}, D2 => {LENGTH => 50}} : undef);
  @LOG = ();
  my $p = eval { Provenance->new(Logger->new(), 'W', "PROVENANCETRIPLELIST+$max", $text) };
  my @out = $p ? ($p->tostring(), $p->toshortstring(), $p->tooriginalstring(), $p->get_docid(),
                  $p->get_start(), $p->get_end()) : ();
  print $JSON->encode([\@out, \@LOG]), "\n";
}
"""


def _random_column(rng) -> str:
    def span():
        start = rng.choice(["0", "5", "0010", "40", "250", "299", "301"])
        end = rng.choice(["3", "9", "45", "100", "260", "290", "600"])
        piece = f"{rng.choice(['D1', 'D2', 'D3', ' D1'])}:{start}-{end}"
        return rng.choice([piece] * 8 + ["junk", "", "D1:4", piece + " "])
    return rng.choice([",", ",", ";"]).join(span() for _ in range(rng.randint(0, 5)))


@pytest.mark.perl
@pytest.mark.slow
def test_random_columns_read_as_the_perl_library_reads_them():
    folder = perl_dir()
    if folder is None:
        pytest.skip("no checkout of the Perl toolkit (../ColdStart or SCORER_PERL_DIR)")
    rng = random.Random(30)
    cases = [(rng.choice(["1", "3", "+"]), rng.choice(["", "docs"]), _random_column(rng))
             for _ in range(600)]
    perl = perl_library.run(folder, PERL_PROVENANCE, ["\t".join(case) for case in cases])
    documents = Documents("docs.txt", {"D1": ("300", None, 1), "D2": ("50", None, 2)})
    for (most, docs, text), (perl_spans, perl_problems) in zip(cases, perl):
        spans, problems = read_spans(text, None if most == "+" else int(most),
                                     documents if docs else None)
        ours = [[name, *(str(arg) for arg in args)] for name, args in problems]
        assert ours == [[str(value) for value in problem] for problem in perl_problems], text
        if perl_spans:
            assert [spans.normalised(), spans.short(), spans.original(), spans.document,
                    spans.start(), spans.end()] == perl_spans[:4] + [int(v) for v in perl_spans[4:]], text
