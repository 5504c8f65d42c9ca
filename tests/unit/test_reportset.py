"""scorer/reportset.py: a run's reports in write order (each file's text is
its chunks joined; stdout shows every chunk in the order written), reports
made lazily only when read, and a report set written at a prefix with the
picture beside it, or with some reports left to the caller."""
from __future__ import annotations

import os

import pytest

from scorer import output, reportset
from scorer.reportset import Reports


def _reports():
    made = []

    def debug_part():
        made.append("debug")
        return iter(["d1\n", "d2\n"])

    reports = Reports(["sf", "debug", "summary", "errlog"])
    reports.add("debug", "categories\n")
    reports.add("sf", "sf table\n")
    reports.add("debug", debug_part)
    reports.add("summary", "summary\n")
    return reports, made


def test_each_file_is_its_chunks_in_write_order_and_stdout_is_every_chunk():
    reports, made = _reports()
    assert made == []                                   # a function is called when read
    assert reports.text("debug") == "categories\nd1\nd2\n" and made == ["debug"]
    assert "".join(reports.stream()) == "categories\nsf table\nd1\nd2\nsummary\n"
    assert reports.files() == [("sf", "sf table\n"), ("debug", "categories\nd1\nd2\n"),
                               ("summary", "summary\n"), ("errlog", "")]
    assert dict(reports) == dict(reports.files())


def test_a_report_not_declared_is_refused():
    with pytest.raises(ValueError, match=r"report \.png is not declared"):
        Reports(["sf"]).add("png", "x")


def test_from_pairs_writes_each_file_once_in_the_order_given():
    reports = Reports.from_pairs([("summary", "s\n"), ("debug", "d\n")])
    assert reports.extensions == ["summary", "debug"]
    assert list(reports) == [("summary", "s\n"), ("debug", "d\n")]


def test_a_set_at_a_prefix_with_its_picture(tmp_path):
    reports, _made = _reports()
    prefix = str(tmp_path / "run")
    with output.FileSet() as files:
        paths = reportset.add(files, prefix, reports, picture=b"\x89PNG")
        files.commit()
    assert paths == [f"{prefix}.{e}" for e in ("sf", "debug", "summary", "errlog", "png")]
    assert {name: (tmp_path / name).read_bytes() for name in os.listdir(tmp_path)} == {
        "run.sf": b"sf table\n", "run.debug": b"categories\nd1\nd2\n",
        "run.summary": b"summary\n", "run.errlog": b"", "run.png": b"\x89PNG"}


def test_reports_the_caller_writes_itself_are_listed_not_written(tmp_path):
    reports, _made = _reports()
    prefix = str(tmp_path / "run")
    with output.FileSet() as files:
        paths = reportset.add(files, prefix, reports, elsewhere=("debug",))
        files.commit()
    assert paths == [f"{prefix}.{e}" for e in ("sf", "debug", "summary", "errlog")]
    assert sorted(os.listdir(tmp_path)) == ["run.errlog", "run.sf", "run.summary"]
