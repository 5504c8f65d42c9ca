"""The end of ``make test`` (tests/helpers/suites.py): each optional suite
that did not run, with how to run it, one line each."""
from __future__ import annotations

import places
import suites


class _Report:
    def __init__(self, nodeid: str, reason: str = ""):
        self.nodeid = nodeid
        self.longrepr = (nodeid.split("::")[0], 1, f"Skipped: {reason}") if reason else None


def _summary(stats: dict) -> list:
    return suites.optional_suites(stats)


def _evaluators(monkeypatch, tmp_path, fever: bool, scifact: bool) -> None:
    """The reference evaluators as checked out (or not) in ``tmp_path``."""
    for name, present, inside in (("FEVER_SCORER", fever, "src/fever/scorer.py"),
                                  ("SCIFACT_EVALUATOR", scifact, "evaluator/eval.py")):
        folder = tmp_path / name
        if present:
            (folder / inside).parent.mkdir(parents=True)
            (folder / inside).write_text("")
        monkeypatch.setattr(places, name, folder)


def test_each_skipped_suite_is_one_line_saying_how_to_run_it(monkeypatch, tmp_path):
    _evaluators(monkeypatch, tmp_path, fever=False, scifact=True)
    skipped = [
        _Report("tests/e2e/test_perl_random.py::test_a[seed101]", "the official Perl scorer is "
                "not available (set SCORER_PERL_DIR ...)"),
        _Report("tests/e2e/test_perl_random.py::test_a[seed102]", "the official Perl scorer is "
                "not available (set SCORER_PERL_DIR ...)"),
        _Report("tests/unit/coldstart/toolkit/test_catalogue.py::test_a", "no checkout of the "
                "Perl toolkit (../ColdStart or SCORER_PERL_DIR)"),
        _Report("tests/unit/claims/test_fever.py::test_b", "reference cases not found at /x/shared/parity"),
        _Report("tests/e2e/test_diff.py::test_c", "the case generator ../shared/tools/gen_coldstart.py "
                "is not there"),
        _Report("tests/e2e/browser/test_track_page.py::test_d", "/usr/bin/chromium is not installed "
                "(apt-get install chromium chromium-driver)"),
        _Report("tests/unit/track/test_latex.py::test_e", "pdflatex or booktabs is not installed"),
        _Report("tests/unit/track/test_latex.py::test_e2", "pdftotext is not installed "
                "(apt-get install poppler-utils): the tables compiled and fit, but were not "
                "read back"),
        _Report("tests/unit/test_x.py::test_f", "something else entirely"),
    ]
    lines = _summary({"skipped": skipped,
                      "passed": [_Report("tests/unit/track/test_tables.py::test_g")]})
    assert [line.split(":")[0] for line in lines] == [
        "Perl comparisons", "reference cases", "browser", "LaTeX tables",
        "reference evaluators", "other"]
    assert lines[0].startswith("Perl comparisons: 3 skipped; to run them, put a checkout of "
                               "the official scorer")
    assert lines[1].startswith("reference cases: 2 skipped; to run them, put the shared folder")
    assert "apt-get install chromium chromium-driver" in lines[2]
    assert lines[3].startswith("LaTeX tables: 2 skipped; to run them, apt-get install "
                               "texlive-latex-base texlive-latex-recommended poppler-utils")
    assert lines[4].startswith("reference evaluators: the leaderboard's numbers were not "
                               "compared with fever-scorer; to compare them, check it out")
    assert lines[5] == "other: 1 skipped: something else entirely"


def test_nothing_skipped_says_so_and_nothing_run_says_nothing(monkeypatch, tmp_path):
    _evaluators(monkeypatch, tmp_path, fever=False, scifact=False)
    # (the evaluators only matter where the tests comparing with them ran)
    assert _summary({"passed": [_Report("tests/e2e/test_diff.py::test_a")]}) == [
        "none skipped (Perl comparisons, reference cases, browser, "
        "LaTeX tables, reference evaluators: those this run holds)"]
    assert _summary({}) == []


def test_the_evaluators_and_parity_data_skips_join_their_suites(monkeypatch, tmp_path):
    """A test that runs fever-scorer or eval.py itself, skipped without it, is
    told on the reference evaluators' line; one without the parity data on the
    reference cases' line: not as 'other'."""
    _evaluators(monkeypatch, tmp_path, fever=False, scifact=False)
    skipped = [
        _Report("tests/unit/claims/test_feverpass.py::test_a",
                "no checkout of sheffieldnlp/fever-scorer at /x/fever-scorer"),
        _Report("tests/unit/claims/test_scifact_differential.py::test_b",
                "no checkout of allenai/scifact-evaluator at /x/scifact-evaluator"),
        _Report("tests/unit/claims/test_scifact_differential.py::test_c",
                "no parity data at /x/shared/parity/scifact/synthetic"),
    ]
    lines = _summary({"skipped": skipped,
                      "passed": [_Report("tests/unit/track/test_tables.py::test_g")]})
    assert lines == [
        "reference cases: 1 skipped; to run them, put the shared folder beside the project: "
        "../shared/parity (parity cases) and ../shared/tools (the case generator)",
        "reference evaluators: 2 skipped, and the leaderboard's numbers were not compared "
        "with fever-scorer and scifact-evaluator; to compare them, check them out beside the "
        "project (../fever-scorer, ../scifact-evaluator) or name them in FEVER_SCORER_DIR, "
        "SCIFACT_EVALUATOR_DIR"]
