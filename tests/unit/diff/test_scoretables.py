"""scorer/diff/scoretables.py: the ``.sf``, ``.ldcmax`` and ``.summary``
tables read back into cells keyed by row (checked against a plain split of
the golden files), the exact F1 of a row's counts, and each damage refused
naming the file and line."""
from __future__ import annotations

from fractions import Fraction

import pytest

from scorer.diff.scoretables import exact_f1, number, read_table
from scorer.problems import ScorerError

from places import FIXTURES

DEMO = FIXTURES / "coldstart" / "demo" / "expected"


def _split(path) -> dict:
    """The rows of a golden table by a plain split: full rows have every cell;
    a row with blank middle cells (ALL-Macro) has its last cells."""
    lines = path.read_text().split("\n")
    header = lines[0].split()
    keys = 1 if header[0] == "Metric" else 3
    rows = {}
    for line in lines[1:]:
        if not line.strip():
            break
        cells = line.split()
        rows[tuple(cells[:keys])] = dict(zip(header[len(header) - len(cells) + keys:],
                                             cells[keys:]))
    return rows


@pytest.mark.parametrize("path", [DEMO / "run.sf", DEMO / "run.ldcmax", DEMO / "run.ldcmean",
                                  DEMO / "run.summary",
                                  FIXTURES / "fever" / "inline" / "expected" / "run.summary",
                                  FIXTURES / "scifact" / "basic" / "expected" / "run.summary"],
                         ids=lambda p: f"{p.parent.parent.name}.{p.suffix[1:]}")
def test_a_golden_table_reads_as_its_rows(path):
    table = read_table(str(path))
    assert table == _split(path) and table
    assert list(table) == list(_split(path))        # file order


def test_an_empty_table_is_a_run_without_responses(tmp_path):
    (tmp_path / "run.sf").write_text("")
    assert read_table(str(tmp_path / "run.sf")) == {}


def test_exact_f1_is_the_f1_of_the_counts_where_they_give_the_printed_scores():
    rows = read_table(str(DEMO / "run.sf"))
    row = rows[("CSSF17_ENG_47a114c77c:1", "DEMORUN", "1")]     # right 1 of 2, GT 1
    p, r = Fraction(1, 2), Fraction(1, 1)
    assert exact_f1(row) == float(2 * p * r / (p + r)) == 2 / 3
    assert exact_f1(rows[("ALL-Macro", "DEMORUN", "ALL")]) is None        # no counts
    assert exact_f1(dict(row, F1="0.6666")) is None                       # not its counts'
    assert exact_f1({k: v for k, v in row.items() if k != "F1"}) is None  # no F1 column
    assert exact_f1(dict(row, GT="0", Recall="0.0000", F1="0.0000", Prec="0.5000")) == 0.0


def test_number_is_nan_for_what_is_not_one():
    assert number("0.2500") == 0.25
    assert number("") != number("") and number(None) != number(None)


def _lines(path) -> list:
    return path.read_text().split("\n")


def _with(path, number_, old, new) -> str:
    lines = _lines(path)
    assert old in lines[number_ - 1]
    lines[number_ - 1] = lines[number_ - 1].replace(old, new, 1)
    return "\n".join(lines)


SF = DEMO / "run.sf"
DAMAGED = [
    (SF.read_text()[:-1], "line {last}: the file is truncated (its last line does not end)"),
    ("\n".join(_lines(SF)[:12]) + "\n",
     "line 12: the file is truncated: the table from line 1 ends without its footnote"),
    (_with(SF, 3, "DEMORUN 1      1", "DEMORUN 1      x"),
     "line 3: expected a whole number in column GT of row CSSF17_ENG_3f0bc7c062:1 DEMORUN 1, "
     "found 'x'"),
    (_with(SF, 3, "1.0000 1.0000 1.0000", "1.0000 1,0 1.0000"),
     "line 3: expected a decimal number in column Recall of row CSSF17_ENG_3f0bc7c062:1 "
     "DEMORUN 1, found '1,0'"),
    (_with(SF, 3, "DEMORUN 1 ", "DEMORUN one "), "line 3: expected a hop (0, 1, ... or ALL) in "
                                                 "column Hop, found 'one'"),
    ("\n".join(_lines(SF)[:2] + _lines(SF)[1:]), "line 3: a second row CSSF17_ENG_3f0bc7c062 "
                                                "DEMORUN 0 (the first is on line 2)"),
    (_with(SF, 1, "Prec", "Precision"), "line 1: expected a table header of 'QID/EC RunID Hop'"),
    ("only words\n", "line 1: expected a table header of 'QID/EC RunID Hop', counts, then "
                     "scores (Cold Start, in the default -fields order) or 'Metric Score' "
                     "(SciFact, FEVER), found 'only words'"),
]


@pytest.mark.parametrize("text, message", DAMAGED)
def test_damage_is_refused_naming_file_and_line(tmp_path, text, message):
    path = tmp_path / "run.sf"
    path.write_bytes(text.encode("utf-8"))
    message = message.replace("{last}", str(text.count("\n") + 1))
    with pytest.raises(ScorerError) as error:
        read_table(str(path))
    assert str(error.value).startswith(f"{path} {message}"), str(error.value)
