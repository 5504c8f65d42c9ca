"""scorer/coldstart/driver.py: a Cold Start request in, the reports out.  The
demo's reports (in process) are its golden files, in the Perl's write order;
a run id asked for and absent is an error naming those there; a run without
assessments, and a leaderboard's references that are not the query XML and
the assessments, are refused."""
from __future__ import annotations

import pytest

from scorer.request import build
from scorer.coldstart import driver
from scorer.problems import Problems, ScorerError

from coldstart_demo import expected
from places import DEMO

FILES = [str(DEMO / "ldc-query.xml"), str(DEMO / "qrel.txt"), str(DEMO / "DEMORUN.tab.txt")]


def test_the_demo_reports_are_the_golden_files_in_the_perls_order():
    problems = Problems()
    outcome = driver.score(build(FILES, expand="CSSF17"), problems)
    assert outcome.reports.extensions == ["debug", "ap", "sf", "ldcmax", "ldcmean", "summary",
                                          "params"]
    for extension in ("debug", "ap", "sf", "ldcmax", "ldcmean", "summary"):
        assert outcome.reports.text(extension) == expected(extension), extension
    assert problems.report() == expected("errlog")
    assert [run.runid for run in outcome.runs] == ["DEMORUN"] and outcome.samples is None
    # (LDC short ids: the digits of CS17_0001)
    assert outcome.runs[0].sf_to_ldc["47a114c77c"] == "0001"
    assert outcome.runs[0].ldc_full_ids["0001"] == "CS17_0001"


def test_a_run_id_asked_for_and_absent_is_an_error_naming_those_there():
    problems = Problems()
    outcome = driver.score(build(FILES, expand="CSSF17", runids="DEMORUM"), problems)
    assert problems.names() == ["UNKNOWN_RUNID"] and problems.error_count == 1
    assert "ERROR: Run id DEMORUM was asked for (-runids) but is in no submission file; its " \
           "reports are all zeros. Run ids found: DEMORUN (did you mean DEMORUN?)" \
           in problems.report()
    assert [run.runid for run in outcome.runs] == ["DEMORUM"]


def test_a_run_without_assessments_is_refused():
    # (a long path is shortened in the message)
    with pytest.raises(ScorerError, match=r"^no assessment file among the files .*: Cold Start "
                                          r"scoring needs the query XML, the assessment file\(s\) "
                                          r"\(10 columns\), then the submission files"):
        driver.score(build([FILES[0], FILES[2]], expand="CSSF17"), Problems())


@pytest.mark.parametrize("files, message", [
    ([FILES[1]], "no query file (.xml) among the reference files; a Cold Start leaderboard's "
                 "reference files are the query XML file(s) and the assessment file(s)"),
    ([FILES[0]], "no assessment file among the reference files"),
    ([FILES[0], FILES[2]], f"{FILES[2]}: a submission file (9 columns), not assessments"),
])
def test_a_leaderboards_references_are_the_queries_and_assessments(files, message):
    with pytest.raises(ScorerError) as error:
        driver.check_references(build(FILES, expand="CSSF17"), files)
    assert str(error.value).startswith(message)
