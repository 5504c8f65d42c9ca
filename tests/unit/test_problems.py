"""scorer/problems.py: the error log's text.  Each distinct message once, at
the first place it was found and a count of the others, ordered by file then
line; the count line; a fatal error's log."""
from __future__ import annotations

import pytest

from scorer.problems import CATALOGUE, ERROR_EXIT_STATUS, Problems, ScorerError, Where


def test_a_run_without_problems_says_so():
    assert Problems().report() == "No warnings encountered\n"


def test_each_message_once_with_its_first_place_and_the_number_of_others():
    problems = Problems()
    problems.record("EMPTY_FIELD", "slot", where=Where("run.tab", 9))
    problems.record("EMPTY_FIELD", "slot", where=Where("run.tab", 3))
    problems.record("EMPTY_FIELD", "slot", where=Where("run.tab", 3))     # the same place again
    problems.record("EMPTY_FIELD", "slot", where=Where("a.tab", 40))
    problems.record("ILLEGAL_OFFSET", "12-", where=Where("run.tab", 5))
    problems.record("NO_QUERIES_LOADED")
    problems.record("MISSING_DECIMAL_POINT", "1", where=Where("run.tab", 7))
    assert problems.report() == (
        "WARNING: No queries found\n\n"
        "WARNING: Empty value for column slot (a.tab line 40 and 2 other places)\n\n"
        "ERROR: 12- is not a valid offset (run.tab line 5)\n\n"
        "WARNING: Decimal point missing in confidence value: 1 (run.tab line 7)\n\n"
        "1 error encountered\n")
    assert problems.names() == ["EMPTY_FIELD", "EMPTY_FIELD", "EMPTY_FIELD", "ILLEGAL_OFFSET",
                                "NO_QUERIES_LOADED", "MISSING_DECIMAL_POINT"]
    assert (problems.error_count, problems.warning_count) == (1, 5)


def test_one_other_place_is_singular_and_each_place_counts():
    problems = Problems()
    for line in (2, 1):
        problems.record("EMPTY_FIELD", "slot", where=Where("run.tab", line))
    assert problems.report() == ("WARNING: Empty value for column slot "
                                 "(run.tab line 1 and 1 other place)\n\n2 warnings encountered\n")


@pytest.mark.parametrize("errors, warnings, line", [
    (0, 0, "No warnings encountered"), (0, 1, "1 warning encountered"),
    (0, 3, "3 warnings encountered"), (1, 3, "1 error encountered"),
    (2, 0, "2 errors encountered")])
def test_the_count_line_counts_errors_before_warnings(errors, warnings, line):
    problems = Problems()
    for n in range(errors):
        problems.record("ILLEGAL_OFFSET", str(n))
    for n in range(warnings):
        problems.record("EMPTY_FIELD", str(n))
    assert problems.count_line() == line


def test_a_fatal_log_ends_with_the_fatal_message_in_place_of_the_count():
    problems = Problems()
    problems.record("UNKNOWN_QUERY_ID_WARNING", "Q9", where=Where("qrel.txt", 4))
    assert problems.report_fatal("cannot open run.tab") == (
        "WARNING: Unknown query: Q9 (qrel.txt line 4)\n\nFATAL_ERROR: cannot open run.tab\n")


def test_a_place_in_words_and_a_place_in_a_file_in_words():
    assert Where("run.tab", 3).text() == "run.tab line 3"
    assert Where(detail="the policy file").text() == "the policy file"
    assert Where("run.tab", 0, "7-9").text() == "run.tab line 7-9"
    assert sorted([Where("b", 1), Where("a", 10), Where("a", 2)]) == \
        [Where("a", 2), Where("a", 10), Where("b", 1)]


def test_every_catalogue_entry_is_a_warning_or_an_error_with_a_template():
    for name, (kind, template) in CATALOGUE.items():
        assert kind in ("WARNING", "ERROR"), name
        count = template.count("%s") + template.count("%d")
        problems = Problems()
        problems.record(name, *[1] * count)
        assert "%" not in problems.report().replace("%%", ""), name


def test_a_scorer_error_exits_255():
    assert ScorerError("x").exit_status == ERROR_EXIT_STATUS == 255
