"""toolkit/responses.py: response and assessment lines as the Perl library reads
them (a line's cleaning, the file's format, the derived fields, the lines kept)
and the validated file it writes."""
from __future__ import annotations

import hashlib

import pytest

from scorer.coldstart.toolkit.catalogue import FORMATS
from scorer.coldstart.toolkit.problemlog import ProblemLog
from scorer.coldstart.toolkit.queryfile import read_query_file
from scorer.coldstart.toolkit.responses import (SCHEMAS, clean_line, identify_schema,
                                                 nil_prefix, perl_true, read_responses,
                                                 run_paths, split_columns, validated_lines)
from scorer.problems import ScorerError

from places import FIXTURES

CLEAN = FIXTURES / "coldstart" / "toolkit" / "validatesf-clean-nodocs" / "input"


@pytest.mark.parametrize("raw, comments, line", [
    ("a\tb\r", False, "a\tb"),
    ("  # a comment", False, ""),
    ("\t \u3000", False, ""),                    # white space only (the Perl's \s)
    ("\x1c", False, "\x1c"),                     # not white space for the Perl
    ("a\tb # c", False, "a\tb # c"),             # a # inside a line needs -allow_comments
    ("a\tb\t# c", True, "a\tb\t"),
    ('a\t"x # y"\t# c', True, 'a\t"x # y"\t'),  # not inside double quotes
    ('a\t"x \\" # y"# c', True, 'a\t"x \\" # y"'),
    ('a\t"open # c', True, 'a\t"open # c'),      # an open string: the pattern fails
])
def test_a_line_is_cleaned_as_the_perl_cleans_it(raw, comments, line):
    assert clean_line(raw, comments) == line


def test_columns_are_split_as_perl_splits():
    assert split_columns("a\t\tb\t\t") == ["a", "", "b"]
    assert split_columns("\ta") == ["", "a"]


@pytest.mark.parametrize("text, truth", [(None, False), ("", False), ("0", False),
                                         ("0.0", True), (":E1", True)])
def test_perl_truth(text, truth):
    assert perl_true(text) is truth


def test_the_format_is_the_one_whose_columns_all_fit_the_first_line():
    run = (CLEAN / "run.tab.txt").read_text("utf-8").splitlines()
    assert identify_schema("r", ["# c", ""] + run, False).name == "2017SFsubmissions"
    assert identify_schema("r", ["\t".join(run[0].split("\t")[:8])], False).name == \
        "2015SFsubmissions"
    # the first line only: ".5" is not a confidence there
    with pytest.raises(ScorerError, match="Unknown file type: r"):
        identify_schema("r", [run[0].rsplit("\t", 2)[0] + "\t.5\t:E1"], False)
    with pytest.raises(ScorerError, match="Empty file: r"):
        identify_schema("r", ["# only", "  "], False)


def test_no_two_formats_of_one_width_fit_one_line():
    widths = {}
    for schema in SCHEMAS.values():
        widths.setdefault(len(schema.columns), []).append(schema)
    assert [s.name for s in widths[8]] == ["2014-2015assessments", "2015SFsubmissions"]
    # a slot name has one colon; QUERY:SLOT two
    assert dict(zip(widths[8][1].columns, (p.pattern for p in widths[8][1].patterns)))[
        "SLOT_NAME"] == "[^:]+:[^:]+"


def test_a_folder_stands_for_its_run_files(tmp_path):
    (tmp_path / "b.tab.txt").write_text("")
    (tmp_path / "a.tab.txt").write_text("")
    (tmp_path / "notes.txt").write_text("")
    assert run_paths(str(tmp_path)) == [str(tmp_path / "a.tab.txt"), str(tmp_path / "b.tab.txt")]
    (tmp_path / "a.tab.txt").unlink()
    (tmp_path / "b.tab.txt").unlink()
    with pytest.raises(ScorerError, match="is a folder without \\*.tab.txt files"):
        run_paths(str(tmp_path))


def _read(lines, justifications="1:3"):
    log = ProblemLog(FORMATS)
    queries = read_query_file(str(CLEAN / "sf-query.xml"), log)
    return read_responses([lines], queries, log, justifications), log


def test_lines_are_kept_sorted_and_given_node_ids(tmp_path):
    run = (CLEAN / "run.tab.txt").read_text("utf-8").splitlines()
    last = run[-1].split("\t")
    text = "\n".join(run + ["\t".join(last[:8] + ["0"])]) + "\n"     # node id 0: none
    (tmp_path / "r.tab.txt").write_text(text, encoding="utf-8")
    responses, log = _read(str(tmp_path / "r.tab.txt"))
    lines = list(validated_lines(responses, "ABCD"))
    kept = responses.kept()
    assert [(e.query.level, e.query_id) for e in kept] == sorted(
        (e.query.level, e.query_id) for e in kept)
    assert sum(":NIL_ABCD" in line for line in lines) == 1
    nil = next(line for line in lines if ":NIL_" in line)
    # the number counts the lines written before it, from 1
    assert nil.endswith(f":NIL_ABCD{lines.index(nil) + 1:09d}\n")
    dropped = {e.line_number for e in responses.submissions if e.discarded}
    # (one line is warned about twice: as a dependent, and for its node's limit)
    assert len(dropped) == 6 and log.warning_count == 7
    assert len(lines) == len(run) + 1 - len(dropped)


def test_the_nil_letters_come_from_the_runs_bytes():
    digest = hashlib.md5(b"a run").digest()
    assert nil_prefix(digest) == nil_prefix(hashlib.md5(b"a run").digest())
    assert nil_prefix(digest) != nil_prefix(hashlib.md5(b"another run").digest())
    assert len(nil_prefix(digest)) == 4 and nil_prefix(digest).isalpha()
