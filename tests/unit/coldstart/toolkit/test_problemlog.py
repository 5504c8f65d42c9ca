"""The toolkit's problem log reports as the Perl's Logger does: by name, then
message, in byte order; the first place in text order and the count of the others;
a fatal problem stops at once."""
import pytest

from scorer.coldstart.toolkit.problemlog import (NO_SOURCE, Fatal, ProblemLog, count_line,
                                                 formats_from_table, place)

TABLE = """
# name            type         template
  BAD_THING       ERROR        Bad thing: %s
  ODD_THING       WARNING      Odd thing %s at %d
  DEAD_THING      FATAL_ERROR  Dead: %s
"""


def log():
    return ProblemLog(formats_from_table(TABLE))


def test_the_table_is_read_as_the_perl_lays_it_out():
    formats = formats_from_table(TABLE)
    assert formats["ODD_THING"] == ("WARNING", "Odd thing %s at %d")
    assert set(formats) == {"BAD_THING", "ODD_THING", "DEAD_THING"}


def test_places_sort_as_text_and_the_others_are_counted():
    problems = log()
    for line in (3, 10, 2):
        problems.record("BAD_THING", "x", where=place("run.txt", line))
    problems.record("BAD_THING", "x", where=place("run.txt", 3))
    assert problems.report() == "ERROR: Bad thing: x (run.txt line 10 and 2 other places)\n\n"
    assert problems.error_count == 4


def test_names_then_messages_in_byte_order_one_other_place_singular():
    problems = log()
    problems.record("ODD_THING", "é", 1, where=place("f", 1))
    problems.record("ODD_THING", "z", 1, where=place("f", 1))
    problems.record("ODD_THING", "z", 1, where=place("f", 2))
    problems.record("BAD_THING", "b", where=NO_SOURCE)
    assert problems.report() == ("ERROR: Bad thing: b\n\n"
                                 "WARNING: Odd thing z at 1 (f line 1 and 1 other place)\n\n"
                                 "WARNING: Odd thing é at 1 (f line 1)\n\n")
    assert (problems.error_count, problems.warning_count) == (1, 3)


def test_a_fatal_problem_stops_with_its_place_and_an_ignored_one_is_not_recorded():
    problems = log()
    problems.ignore("ODD_THING")
    problems.record("ODD_THING", "z", 1, where=place("f", 1))
    assert problems.report() == "" and problems.warning_count == 0
    with pytest.raises(Fatal) as stopped:
        problems.record("DEAD_THING", "q", where=place("f", 9))
    assert stopped.value.text == "FATAL_ERROR: Dead: q\nf line 9"
    with pytest.raises(KeyError):
        problems.record("NO_SUCH_THING")


@pytest.mark.parametrize("count, what, text", [(0, "warning", "No warnings encountered\n"),
                                               (1, "error", "1 error encountered\n"),
                                               (3, "error", "3 errors encountered\n")])
def test_count_lines(count, what, text):
    assert count_line(count, what) == text
