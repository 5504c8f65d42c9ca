"""scorer/diff/debugfile.py: reading ``.debug`` reports.  The demo's Cold
Start ``.debug`` (the Perl's) gives the rows of its ``.sf``, a response per
submission line and the AP of its ``.ap``; the FEVER and SciFact ``.debug``
files give their claims; damaged files are refused naming file and line."""
from __future__ import annotations

import pytest

from scorer.countstable.debugblocks import ClaimsDebug
from scorer.diff import debugfile
from scorer.diff.debugfile import APComputation, ColdStartDebug, RankEntry
from scorer.problems import ScorerError

from places import DEMO, FIXTURES

DEMO_DEBUG = FIXTURES / "coldstart" / "demo" / "expected" / "run.debug"


def _report(extension: str) -> list:
    text = (FIXTURES / "coldstart" / "demo" / "expected" / f"run.{extension}").read_text()
    return text.split("\n")


def test_the_demo_debug_holds_the_rows_submissions_and_ap_of_its_reports():
    debug = debugfile.read(str(DEMO_DEBUG))
    assert isinstance(debug, ColdStartDebug) and debug.task == "coldstart"
    sf = _report("sf")
    assert debug.rows == [line.split()[0] for line in sf[1:sf.index("")]
                          if not line.startswith("ALL-")]
    submissions = (DEMO / "DEMORUN.tab.txt").read_text().splitlines()
    assert sorted(r.submission for r in debug.responses) == sorted(submissions)
    assert all(r.query == r.row.split(":")[0] and r.hop == r.row.count(":")
               for r in debug.responses)
    ap = _report("ap")
    printed = {(fields[0], fields[2]): fields[3] for fields in map(str.split, ap[3:ap.index("", 3)])
               if not fields[0].startswith("ALL-")}
    assert {(query, level): c.ap for (_run, query, level), c in debug.ap.items()} == printed
    for computation in debug.ap.values():
        assert "%0.4f" % debugfile.exact_ap(computation) == computation.ap


@pytest.mark.parametrize("task, case, claims", [("fever", "inline", 5), ("scifact", "basic", 4)])
def test_a_claims_debug_gives_its_claims_in_file_order(task, case, claims):
    path = FIXTURES / task / case / "expected" / "run.debug"
    debug = debugfile.read(str(path))
    assert isinstance(debug, ClaimsDebug) and debug.task == task
    assert len(debug.claims) == claims
    lines = path.read_text().split("\n")
    for claim in debug.claims:
        assert lines[claim.line - 1].startswith(f"{debug.layout.head} {claim.id}\t")
        assert claim.label in ("RIGHT", "WRONG")
    first = debug.claims[0]
    if task == "fever":
        assert (first.id, first.predicted, first.gold, first.strict) == \
            ("1", "SUPPORTS", "SUPPORTS", ("YES",))
        assert first.evidence == frozenset({'["Paris", 0]', '["Rome", 2]'})
        assert first.scores == (("precision", "0.5000"), ("recall", "1"))


def _computation(ap, count, *vs):
    return APComputation("Q", "0", ap, count, (), tuple(
        RankEntry(rank, f"N{rank}", "0.5000", "-", v) for rank, v in enumerate(vs, 1)), 1)


def test_exact_ap_from_the_ranking_or_none_where_it_is_not_known():
    # (1/1 + 2/3) / 3 ground truth
    assert debugfile.exact_ap(_computation("0.5556", "3", "1.0000", "0.0000", "1.0000")) == \
        (1 + 2 / 3) / 3
    assert debugfile.exact_ap(_computation("0.0000", "0", "0.0000")) == 0.0
    # a fractional V, a printed AP the ranking does not give, a GT that is no number
    assert debugfile.exact_ap(_computation("0.2500", "2", "0.5000")) is None
    assert debugfile.exact_ap(_computation("0.9999", "3", "1.0000")) is None
    assert debugfile.exact_ap(_computation("0.5556", "x", "1.0000")) is None


def _damaged(tmp_path, text: str) -> str:
    path = tmp_path / "run.debug"
    path.write_bytes(text.encode("utf-8"))
    return str(path)


def test_damaged_files_are_refused_naming_file_and_line(tmp_path):
    demo = DEMO_DEBUG.read_text()
    cases = [
        ("", "line 1: empty file: not a .debug report"),
        (demo[:-1], f"line {demo.count(chr(10))}: the file is truncated (its last line "
                    f"does not end)"),
        ("#nosuchtask: 1 claim\n", "line 1: unknown .debug layout: expected a Cold Start "
                                   "report (a '=' rule) or a "),
        (demo[:demo.index("AP:               0.5000")], "the file is truncated: it ends inside"),
    ]
    for text, message in cases:
        path = _damaged(tmp_path, text)
        with pytest.raises(ScorerError) as error:
            debugfile.read(path)
        assert str(error.value).startswith(f"{path} ") and message in str(error.value), \
            (message, str(error.value))


def test_a_line_out_of_place_is_named_with_what_was_expected(tmp_path):
    lines = DEMO_DEBUG.read_text().split("\n")
    number = next(i for i, line in enumerate(lines, 1) if line.startswith("AP:"))
    lines[number - 1] = "APX: 1.0000"
    path = _damaged(tmp_path, "\n".join(lines))
    with pytest.raises(ScorerError) as error:
        debugfile.read(path)
    assert str(error.value).startswith(f"{path} line {number}: expected 'AP:'")


def test_a_debug_of_a_task_without_a_diff_is_refused_naming_the_task(tmp_path):
    from scorer import registry
    from scorer.countstable.task import TableTask
    registry.add(type("NoDiff", (TableTask,), {"name": "nodiff", "diff": None})())
    try:
        path = tmp_path / "run.debug"
        path.write_text("#nodiff: 1 item(s)\n", encoding="utf-8")
        with pytest.raises(ScorerError) as caught:
            debugfile.read(str(path))
    finally:
        registry.remove("nodiff")
    assert str(caught.value) == (f"{path} line 1: a .debug of the task nodiff, which has no "
                                 f"diff (scorer.diff cannot read its reports)")
