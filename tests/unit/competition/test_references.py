"""scorer/competition/references.py: the organizer's reference files checked
before a bundle is made: existing regular files, not empty, read by the
task's own readers (a mistake there is named as the reference's)."""
from __future__ import annotations

import os

import pytest

from scorer.request import build
from scorer.competition import references
from scorer.problems import ScorerError

from places import DEMO, FIXTURES, ROOT


def test_each_reference_must_be_a_regular_file_with_something_in_it(tmp_path):
    (tmp_path / "empty.jsonl").write_text("")
    (tmp_path / "folder").mkdir()
    os.mkfifo(tmp_path / "pipe")
    for name, message in (
            ("missing.jsonl", "Could not open {path}: No such file or directory"),
            ("folder", "{path}: a reference must be a file (give the files of a folder one by "
                       "one)"),
            ("pipe", "{path}: not a regular file (a device, a pipe or a socket); a reference "
                     "must be a file, which the bundle copies"),
            ("empty.jsonl", "{path}: an empty file; a reference file holds what every "
                            "submission is scored against")):
        path = str(tmp_path / name)
        with pytest.raises(ScorerError) as error:
            references.check_files([path])
        assert str(error.value) == message.format(path=path)
    references.check_files([str(DEMO / "qrel.txt")])


def test_the_references_are_read_by_the_tasks_readers(tmp_path):
    gold = FIXTURES / "fever" / "blind" / "actual.jsonl"
    request = build([str(gold)], str(ROOT / "configs" / "fever.yaml"))
    references.check(request, [str(gold)])
    broken = tmp_path / "gold.jsonl"
    broken.write_text(gold.read_text(encoding="utf-8") + "{oops\n", encoding="utf-8")
    with pytest.raises(ScorerError, match=rf"{broken} line \d+: not valid JSON"):
        references.check(request, [str(broken)])
