"""``python -m scorer.diff``: what changed between two report sets.

A report set against itself is an empty diff; the Perl's reports of every
Cold Start reference case against ours differ in nothing that scores (its
hash-order variants are reported as such); hand-made changes give exactly
their golden .diff and .diff.csv; the two Cold Start policies of configs/
make the transitions the policies say.
"""
from __future__ import annotations

import csv
import io
import os
import shutil
import subprocess
import sys

import pytest

from scorer.diff import debugfile
from scorer.diff.changes import NOT_LISTED
from scorer.policy import build_policy, load_policy_file

from diff_cases import DEMO, OUTPUTS, find_cases, run_diff, run_diff_case, score_side
from golden import FIXTURES, find_cases as find_scorer_cases, run_case
from places import PARITY, ROOT, SHARED_TOOLS

DIFF_CASES = find_cases()
PARITY_CASES = find_scorer_cases(str(PARITY / "coldstart")) \
    if (PARITY / "coldstart").is_dir() else []
DEMO_EXPECTED = os.path.join(FIXTURES, "coldstart", "demo", "expected")


def csv_rows(path) -> list:
    with open(path, encoding="utf-8") as f:
        return list(csv.DictReader(f))


# ------------------------------------------------------------ against itself

@pytest.mark.parametrize("prefix", [
    os.path.join(DEMO_EXPECTED, "run"),
    os.path.join(FIXTURES, "scifact", "basic", "expected", "run"),
    os.path.join(FIXTURES, "fever", "inline", "expected", "run"),
], ids=["coldstart", "scifact", "fever"])
def test_a_report_set_against_itself_is_an_empty_diff(prefix, tmp_path):
    status, text, _ = run_diff(["-output_file", "out", prefix, prefix + ".debug"], str(tmp_path))
    assert status == 0
    with open(tmp_path / "out.diff", encoding="utf-8") as f:
        text = f.read()
    assert "Scoring differences: none" in text
    assert text.endswith("CHANGES\n\nnone\n")
    assert csv_rows(tmp_path / "out.diff.csv") == []
    # Every response (claim) is on the diagonal of the transitions.
    matrix = text.split("Transitions of")[1].split("\n\n")[0].splitlines()[2:]
    for line in matrix:
        cells = line.split()
        counts = [int(c) for c in cells[-(len(matrix)):]]
        assert sum(counts) == counts[matrix.index(line)] > 0


def test_without_output_file_the_text_goes_to_stdout(tmp_path):
    prefix = os.path.join(DEMO_EXPECTED, "run")
    status, text, stderr = run_diff([prefix, prefix], str(tmp_path))
    assert status == 0 and stderr == ""
    assert text.startswith("scorer.diff: coldstart\n")
    assert os.listdir(tmp_path) == []


# ------------------------------------------------------- Perl against ours

@pytest.mark.slow
@pytest.mark.parity
@pytest.mark.skipif(not PARITY_CASES, reason=f"no reference cases: {PARITY / 'coldstart'} "
                                             f"does not exist")
@pytest.mark.parametrize("case", PARITY_CASES,
                         ids=[os.path.relpath(c, PARITY / "coldstart") for c in PARITY_CASES])
def test_the_perls_reports_against_ours_differ_in_nothing_that_scores(case, tmp_path):
    ours = tmp_path / "ours"
    ours.mkdir()
    assert run_case(case, str(ours))[0] == 0
    perl = os.path.join(case, "expected", "run")
    status, text, stderr = run_diff([perl, str(ours / "run")], str(tmp_path))
    assert (status, stderr) == (0, "")
    assert "Scoring differences: none" in text
    assert "(.debug .sf .ldcmax .summary)" in text
    # Each hash-order variant of the Perl's reports: still nothing that scores,
    # and an LDC-MAX row that differs is reported as another entry point chosen.
    variants = os.path.join(case, "variants")
    for variant in sorted(os.listdir(variants)) if os.path.isdir(variants) else []:
        side = tmp_path / variant
        side.mkdir()
        for name in os.listdir(os.path.join(case, "expected")):
            shutil.copy(os.path.join(case, "expected", name), side / name)
        for name in os.listdir(os.path.join(variants, variant)):
            shutil.copy(os.path.join(variants, variant, name), side / name)
        status, text, _ = run_diff([str(side / "run"), str(ours / "run")], str(tmp_path))
        assert status == 0, variant
        with open(side / "run.ldcmax", "rb") as a, open(ours / "run.ldcmax", "rb") as b:
            ldcmax_differs = a.read() != b.read()
        assert ("entry-point ties: another entry point of equal combined F1" in text) \
            == ldcmax_differs, variant


@pytest.mark.perl
@pytest.mark.skipif(not (SHARED_TOOLS / "gen_coldstart.py").is_file(),
                    reason="the case generator ../shared/tools/gen_coldstart.py is not there")
def test_the_perl_under_several_hash_seeds_against_ours(perl_scorer, tmp_path):
    """A generated case where the Perl's LDC-MAX choice depends on its hash
    order (entry points tie): each of its results against ours differs in
    nothing that scores, and the ties are named."""
    from perl_compare import generate, run_perl
    case = str(tmp_path / "case")
    files = generate(case, 201, ["--single-conflict-rate", "1.0", "--same-doc-rate", "0"])
    args = ["-expand", "CSSF17", *files]
    ours = tmp_path / "ours"
    ours.mkdir()
    from scorer.cli import main as score
    previous = os.getcwd()
    os.chdir(case)
    try:
        assert score(["-output_file", str(ours / "run"), "-error_file",
                      str(ours / "run.errlog"), *args]) == 0
    finally:
        os.chdir(previous)
    ties = 0
    for hash_seed in (0, 1):
        perl = tmp_path / f"perl{hash_seed}"
        status, _ = run_perl(perl_scorer, case, args, str(perl), hash_seed)
        assert status == 0
        status, text, _ = run_diff([str(perl / "run"), str(ours / "run")], str(tmp_path))
        assert status == 0, text
        assert "CHANGES\n\nnone\n" in text
        ties += "entry-point ties: another entry point of equal combined F1" in text
    assert ties > 0


def test_labels_moving_between_responses_of_a_row_do_not_score(tmp_path):
    """What the Perl's hash order does to a single-valued slot (spec §0.3 item
    3): two correct responses of one row swap RIGHT and REDUNDANT."""
    with open(os.path.join(DEMO_EXPECTED, "run.debug"), encoding="utf-8") as f:
        lines = f.read().split("\n")
    post = [i for i, line in enumerate(lines) if line.startswith("\tPOSTPOLICY")]
    # The first two responses of row CSSF17_ENG_47a114c77c: RIGHT and IGNORE,REDUNDANT.
    first, second = post[2], post[3]
    assert (lines[first], lines[second]) == ("\tPOSTPOLICY ASSESSMENT:\tRIGHT",
                                             "\tPOSTPOLICY ASSESSMENT:\tIGNORE,REDUNDANT")
    lines[first], lines[second] = lines[second], lines[first]
    (tmp_path / "swapped.debug").write_text("\n".join(lines), encoding="utf-8")
    shutil.copy(os.path.join(DEMO_EXPECTED, "run.debug"), tmp_path / "demo.debug")
    status, text, _ = run_diff(["demo.debug", "swapped.debug"], str(tmp_path))
    assert status == 0
    assert "Scoring differences: none" in text
    assert "Responses: 2 changed, 0 only in A, 0 only in B; 2 of these leave their row's " \
           "counts unchanged" in text
    assert text.count("labels moved within the row, its counts unchanged") == 2
    assert "CORRECT/RIGHT  ->  CORRECT/IGNORE,REDUNDANT" in text
    assert "CORRECT/IGNORE,REDUNDANT  ->  CORRECT/RIGHT" in text
    # Without .sf beside the files, row counts stand in for P/R/F1.
    assert "F1 not compared: no .sf beside demo.debug and swapped.debug" in text


# ------------------------------------------------------- hand-made changes

@pytest.mark.parametrize("case", DIFF_CASES, ids=[os.path.basename(c) for c in DIFF_CASES])
def test_hand_made_changes_give_the_golden_diff(case, tmp_path):
    status, outputs = run_diff_case(case, str(tmp_path))
    expected = os.path.join(case, "expected")
    with open(os.path.join(expected, "status")) as f:
        assert status == int(f.read())
    for name in OUTPUTS:
        with open(os.path.join(expected, name), "rb") as f:
            assert outputs[name] == f.read(), f"{name} differs from the golden file " \
                                              f"(python tests/diff_cases.py --regen)"


def test_the_golden_cases_show_exactly_their_change():
    """What each hand-made change must show, independently of the golden files."""
    def rows(case):
        return csv_rows(os.path.join(FIXTURES, "diff", case, "expected", "diff.diff.csv"))

    responses = [r for r in rows("assessment_flipped") if r["row"]]
    assert [(r["side"], r["before"], r["after"]) for r in responses] == \
        [("both", "CORRECT/RIGHT", "INCORRECT/WRONG")]
    assert "Oberlin Conservatory" in responses[0]["id"]
    responses = [r for r in rows("response_removed") if r["row"]]
    assert [(r["side"], r["before"], r["after"]) for r in responses] == \
        [("A", "INCORRECT/WRONG", NOT_LISTED)]
    assert "\tYale\t" in responses[0]["id"]
    assert float(responses[0]["f1_delta"]) > 0
    responses = [r for r in rows("policy_switch") if r["row"]]
    assert [(r["side"], r["before"], r["after"]) for r in responses] == \
        [("A", "INEXACT/WRONG", NOT_LISTED)]


# ------------------------------------------------- the policies of configs/

def _policy_labels(policy, prepolicy: str) -> str:
    """The post-policy labels a policy gives a category (spec §3.5)."""
    return ",".join(sorted(option for option in ("RIGHT", "WRONG", "IGNORE")
                           if prepolicy in getattr(policy, option.lower())))


def _duplicate_list(policy) -> str:
    return [option for option in ("RIGHT", "WRONG", "IGNORE")
            if "DUPLICATE" in getattr(policy, option.lower())][-1]


def test_the_two_coldstart_policies_make_the_transitions_they_say(tmp_path):
    kb, sf = (build_policy(load_policy_file(os.path.join(ROOT, "configs", name)), {})
              for name in ("coldstart-kb.yaml", "coldstart-sf.yaml"))
    for name, path in (("kb", "coldstart-kb.yaml"), ("sf", "coldstart-sf.yaml")):
        overrides = tmp_path / f"{name}-args"
        overrides.mkdir()
        with open(os.path.join(DEMO, "args"), encoding="utf-8") as f:
            args = f.read()
        (overrides / "args").write_text(f"-policy\n{os.path.join(ROOT, 'configs', path)}\n"
                                        + args, encoding="utf-8")
        score_side(str(tmp_path), name, str(overrides))
    status, text, _ = run_diff(["-output_file", "d", "kb/run", "sf/run"], str(tmp_path))
    assert status == 1
    a = debugfile.read(str(tmp_path / "kb" / "run.debug"))
    b = debugfile.read(str(tmp_path / "sf" / "run.debug"))
    in_b = {r.submission: r for r in b.responses}
    assert {r.submission for r in a.responses} == set(in_b)
    checked = set()
    for ra in a.responses:
        rb = in_b[ra.submission]
        assert rb.prepolicy == ra.prepolicy
        if "REDUNDANT" in ra.postpolicy:
            # DUPLICATE: IGNORE under the KB policy, WRONG under the SF policy.
            assert ra.postpolicy == f"{_duplicate_list(kb)},REDUNDANT" == "IGNORE,REDUNDANT"
            assert rb.postpolicy == f"REDUNDANT,{_duplicate_list(sf)}" == "REDUNDANT,WRONG"
        elif ra.prepolicy == "CORRECT" and ra.postpolicy == "IGNORE":
            assert rb.postpolicy == "IGNORE"  # a nominal-only node: ignored under both
        else:
            assert ra.postpolicy == _policy_labels(kb, ra.prepolicy)
            assert rb.postpolicy == _policy_labels(sf, rb.prepolicy)
        checked.add((ra.prepolicy, ra.postpolicy, rb.postpolicy))
    # UNASSESSED is ignored and INEXACT wrong under both; DUPLICATE moves.
    assert {("UNASSESSED", "IGNORE", "IGNORE"), ("INEXACT", "WRONG", "WRONG"),
            ("CORRECT", "IGNORE,REDUNDANT", "REDUNDANT,WRONG")} <= checked
    rows = csv_rows(tmp_path / "d.diff.csv")
    changed = [(r["before"], r["after"]) for r in rows if r["row"]]
    assert changed == [("CORRECT/IGNORE,REDUNDANT", "CORRECT/REDUNDANT,WRONG")]
    with open(tmp_path / "d.diff", encoding="utf-8") as f:
        matrix = f.read().split("Transitions of")[1].split("\n\n")[0].splitlines()[1:]
    assert [line.split() for line in matrix] == [
        ["A", "\\", "B", "IGNORE", "REDUNDANT,WRONG", "RIGHT", "WRONG"],
        ["IGNORE", "2", "0", "0", "0"],
        ["IGNORE,REDUNDANT", "0", "1", "0", "0"],
        ["RIGHT", "0", "0", "6", "0"],
        ["WRONG", "0", "0", "0", "4"]]


# --------------------------------------------------------------- switches

def test_query_and_top_narrow_the_diff(tmp_path):
    case = os.path.join(FIXTURES, "diff", "policy_switch")
    run_diff_case(case, str(tmp_path))
    status, text, _ = run_diff(["-query", "CSSF17_ENG_47a114c77c", "A/run", "B/run"],
                               str(tmp_path))
    assert status == 0  # the change is in another query
    assert "queries: CSSF17_ENG_47a114c77c (aggregates not compared)" in text
    assert "Queries touched: 0 of 1" in text
    status, text, _ = run_diff(["-top", "1", "-query",
                                "CSSF17_ENG_d8c8ecef3e:CSSF17_SPA_9aae9b619c", "A/run", "B/run"],
                               str(tmp_path))
    assert status == 1
    top = text.split("Top 1 queries by change in AP:\n")[1].split("\n\n")[0].splitlines()
    assert [line.split()[:2] for line in top] == [["QUERY_ID", "LEVEL"],
                                                  ["CSSF17_ENG_d8c8ecef3e", "1"]]


def test_query_takes_short_ids_and_rows_as_the_sides_spell_them(tmp_path):
    case = os.path.join(FIXTURES, "diff", "policy_switch")
    run_diff_case(case, str(tmp_path))
    full = run_diff(["-query", "CSSF17_ENG_d8c8ecef3e", "A/run", "B/run"], str(tmp_path))
    assert full[0] == 1 and "Queries touched: 1 of 1 (1 with a scoring difference)" in full[1]
    # The SF short id (spec §2.2) stands for its full id: the same diff.
    assert run_diff(["-query", "d8c8ecef3e", "A/run", "B/run"], str(tmp_path)) == full
    # Q:1 is the row, not the query Q and an id '1'.
    status, text, stderr = run_diff(["-query", "d8c8ecef3e:1", "A/run", "B/run"],
                                    str(tmp_path))
    assert (status, stderr) == (0, "")  # the row's counts moved, its P/R/F1 did not
    assert "queries: CSSF17_ENG_d8c8ecef3e:1 (aggregates not compared)" in text
    assert "Responses: 0 changed, 1 only in A, 0 only in B" in text
    assert "Queries touched: 1 of 1 (0 with a scoring difference)" in text


@pytest.mark.parametrize("query, named", [
    ("NOPE", "query NOPE"),
    ("CSSF17_ENG_d8c8ecef3e:NOPE:X", "queries NOPE, X"),
    ("CSSF17_ENG_d8c8ecef3", "query CSSF17_ENG_d8c8ecef3"),
])
def test_a_query_in_neither_report_set_is_an_error_not_an_empty_diff(query, named, tmp_path):
    case = os.path.join(FIXTURES, "diff", "policy_switch")
    run_diff_case(case, str(tmp_path))
    status, stdout, stderr = run_diff(["-output_file", "d", "-query", query, "A/run", "B/run"],
                                      str(tmp_path))
    assert (status, stdout) == (255, "")
    assert stderr == f"ERROR: -query: neither A/run nor B/run holds {named} (ids there are " \
                     f"like CSSF17_ENG_3f0bc7c062, CSSF17_ENG_3f0bc7c062:1, CS17_0001)\n"
    assert not [name for name in os.listdir(tmp_path) if name.startswith("d.")]


def test_a_claim_in_neither_report_set_is_an_error(tmp_path):
    prefix = os.path.join(FIXTURES, "fever", "inline", "expected", "run")
    status, _, stderr = run_diff(["-query", "2:99", prefix, prefix], str(tmp_path))
    assert status == 255
    assert stderr.startswith("ERROR: -query: neither ") and \
        " holds claim 99 (claim ids there are like 1, 2, 3)\n" in stderr


# ----------------------------------------------------------------- errors

def _truncated(tmp_path):
    with open(os.path.join(DEMO_EXPECTED, "run.debug"), encoding="utf-8") as f:
        lines = f.read().split("\n")
    (tmp_path / "cut.debug").write_text("\n".join(lines[:14]) + "\n", encoding="utf-8")
    return ["cut.debug", os.path.join(DEMO_EXPECTED, "run.debug")], \
        "cut.debug line 14: the file is truncated: it ends inside a response of row " \
        "CSSF17_ENG_3f0bc7c062:1 (from line 13)"


def _unknown(tmp_path):
    (tmp_path / "odd.debug").write_text("hello\n", encoding="utf-8")
    return ["odd.debug", "odd.debug"], "odd.debug line 1: unknown .debug layout"


def _bad_line(tmp_path):
    with open(os.path.join(DEMO_EXPECTED, "run.debug"), encoding="utf-8") as f:
        lines = f.read().split("\n")
    lines[5] = "\tASSESSED:\tsomething"
    (tmp_path / "bad.debug").write_text("\n".join(lines), encoding="utf-8")
    return ["bad.debug", "bad.debug"], "bad.debug line 6: expected 'ASSESSMENT:' in a " \
                                      "response of row CSSF17_ENG_3f0bc7c062 (from line 3)"


def _cut_claims(tmp_path):
    path = os.path.join(FIXTURES, "fever", "inline", "expected", "run.debug")
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    (tmp_path / "cut.debug").write_text("\n".join(lines[:24]) + "\n", encoding="utf-8")
    return ["cut.debug", path], "cut.debug line 24: the file is truncated: it ends inside " \
                                "claim 2 (from line 14)"


def _mixed(tmp_path):
    return [os.path.join(DEMO_EXPECTED, "run"),
            os.path.join(FIXTURES, "fever", "inline", "expected", "run")], \
        "is a coldstart report and"


def _missing(tmp_path):
    return ["nothere", "nothere"], "nothere: neither a .debug file nor a report prefix"


def _one_side(tmp_path):
    return ["a"], "expected two report sets A and B, got 1"


def _bad_top(tmp_path):
    return ["-top", "0", "a", "b"], "-top needs a whole number of at least 1, not '0'"


def _unknown_switch(tmp_path):
    return ["-topp", "3", "a", "b"], "Unknown switch: -topp"


@pytest.mark.parametrize("bad", [_truncated, _unknown, _bad_line, _cut_claims, _mixed,
                                 _missing, _one_side, _bad_top, _unknown_switch],
                         ids=lambda f: f.__name__.strip("_"))
def test_errors_name_file_and_line_and_exit_255(bad, tmp_path):
    argv, message = bad(tmp_path)
    status, stdout, stderr = run_diff(["-output_file", "out", *argv], str(tmp_path))
    assert status == 255
    assert stderr.startswith("ERROR: ") and message in stderr
    assert "Traceback" not in stderr and stdout == ""
    assert not [name for name in os.listdir(tmp_path) if name.startswith("out")]


@pytest.mark.parametrize("prefix", ["", " ", ".", "..", "out/", "./"])
def test_an_output_file_that_names_no_file_is_refused(prefix, tmp_path):
    """As python -m scorer refuses an empty -output_file: '' (or a directory)
    would write the hidden files .diff and .diff.csv."""
    (tmp_path / "out").mkdir()
    side = os.path.join(DEMO_EXPECTED, "run")
    status, stdout, stderr = run_diff(["-output_file", prefix, side, side], str(tmp_path))
    assert status == 255 and stdout == ""
    assert stderr.startswith(f"ERROR: -output_file needs a file name prefix (it writes "
                             f"PREFIX.diff and PREFIX.diff.csv), not '{prefix}'\n")
    written = [os.path.join(d, name) for d, _, names in os.walk(tmp_path) for name in names]
    assert written == []


def _damaged(extension: str, change, prefix: str = None) -> callable:
    """A copy of a report set (the demo's unless ``prefix``) as B, its
    ``extension`` file passed through ``change`` (text -> text)."""
    def make(tmp_path):
        source = prefix or os.path.join(DEMO_EXPECTED, "run")
        (tmp_path / "b").mkdir()
        for name in os.listdir(os.path.dirname(source)):
            if name.startswith("run."):
                shutil.copy(os.path.join(os.path.dirname(source), name), tmp_path / "b" / name)
        path = tmp_path / "b" / f"run.{extension}"
        path.write_bytes(change(path.read_text(encoding="utf-8")).encode("utf-8"))
        return [source, "b/run"]
    return make


def _replace_line(number: int, old: str, new: str):
    def change(text):
        lines = text.split("\n")
        assert old in lines[number - 1]
        lines[number - 1] = lines[number - 1].replace(old, new)
        return "\n".join(lines)
    return change


DAMAGED_TABLES = {
    # The fuzzed cases: cut in the middle of line 3 ('CS17_0001:'), a damaged number.
    "ldcmax_cut_mid_line": (_damaged("ldcmax", lambda text: text[:300]),
                            "b/run.ldcmax line 3: the file is truncated (its last line does "
                            "not end)"),
    "sf_damaged_number": (_damaged("sf", _replace_line(4, "0.5000", "0.5x00")),
                          "b/run.sf line 4: expected a decimal number in column Prec of row "
                          "CSSF17_ENG_47a114c77c DEMORUN 0, found '0.5x00'"),
    "ldcmax_cut_at_a_line_end": (
        _damaged("ldcmax", lambda text: "".join(text.splitlines(True)[:3])),
        "b/run.ldcmax line 3: the file is truncated: the table from line 1 ends without its "
        "footnote ('*ALL-Macro ...')"),
    "ldcmax_row_cut_short": (
        _damaged("ldcmax", lambda text: "".join(text.splitlines(True)[:2]) + "CS17_0001:\n"),
        "b/run.ldcmax line 3: expected a row of the table 'QID/EC RunID Hop GT Submitted"),
    "sf_damaged_count": (_damaged("sf", _replace_line(2, "DEMORUN 0      1", "DEMORUN 0     1x")),
                         "b/run.sf line 2: expected a whole number in column GT of row "
                         "CSSF17_ENG_3f0bc7c062 DEMORUN 0, found '1x'"),
    "sf_bad_hop": (_damaged("sf", _replace_line(2, "DEMORUN 0 ", "DEMORUN X ")),
                   "b/run.sf line 2: expected a hop (0, 1, ... or ALL) in column Hop, found 'X'"),
    "sf_row_twice": (_damaged("sf", lambda text: text.replace(
        text.splitlines(True)[1], text.splitlines(True)[1] * 2, 1)),
        "b/run.sf line 3: a second row CSSF17_ENG_3f0bc7c062 DEMORUN 0 (the first is on line 2)"),
    "sf_of_other_fields": (_damaged("sf", lambda text: "F1 QID/EC RunID Hop\n"),
                           "b/run.sf line 1: expected a table header of 'QID/EC RunID Hop', "
                           "counts, then scores (Cold Start, in the default -fields order) or "
                           "'Metric Score' (SciFact, FEVER), found 'F1 QID/EC RunID Hop'"),
    "summary_text_after_the_footnote": (
        _damaged("summary", lambda text: text + "something else\n"),
        "b/run.summary line 19: expected a table header of 'QID/EC RunID Hop'"),
    "claims_summary_damaged_score": (
        _damaged("summary", _replace_line(3, "0.6000", "O.6000"),
                 os.path.join(FIXTURES, "fever", "inline", "expected", "run")),
        "b/run.summary line 3: expected a decimal number in column Score of row "
        "label_accuracy, found 'O.6000'"),
}


@pytest.mark.parametrize("case", sorted(DAMAGED_TABLES))
def test_a_damaged_sf_ldcmax_or_summary_is_an_error_naming_file_and_line(case, tmp_path):
    """Checked as the .debug is: never read as rows that are missing (F1 B '-')."""
    make, message = DAMAGED_TABLES[case]
    argv = make(tmp_path)
    status, stdout, stderr = run_diff(["-output_file", "out", *argv], str(tmp_path))
    assert (status, stdout) == (255, "")
    assert stderr.startswith(f"ERROR: {message}") and stderr.endswith("\n")
    assert not [name for name in os.listdir(tmp_path) if name.startswith("out")]


def test_tables_laid_out_with_tabs_or_a_shorter_fields_list_read_as_the_default(tmp_path):
    """-tabs and a -fields list of QID/EC RunID Hop and scores: the same numbers."""
    for name, extra in (("tabs", "-tabs\n"), ("f1", "-fields\nEC:RUNID:LEVEL:P:R:F\n")):
        overrides = tmp_path / f"{name}-args"
        overrides.mkdir()
        with open(os.path.join(DEMO, "args"), encoding="utf-8") as f:
            (overrides / "args").write_text(extra + f.read(), encoding="utf-8")
        score_side(str(tmp_path), name, str(overrides))
    with open(tmp_path / "tabs" / "run.sf", encoding="utf-8") as f:
        assert "\t" in f.read()
    for name in ("tabs", "f1"):
        status, text, stderr = run_diff([os.path.join(DEMO_EXPECTED, "run"), f"{name}/run"],
                                        str(tmp_path))
        assert (status, stderr) == (0, ""), name
        assert "Top 20 .sf rows by change in F1:\n  no F1 changed\n" in text
        assert "no aggregate changed" in text


def test_help_exits_0(tmp_path):
    status, stdout, _ = run_diff(["-help"], str(tmp_path))
    assert status == 0 and stdout.startswith("Usage: python -m scorer.diff")


# ----------------------------------------------------------- claim tasks

def test_claims_label_strict_and_evidence_changes(tmp_path):
    case = os.path.join(FIXTURES, "fever", "inline")
    shutil.copy(os.path.join(case, "predictions.jsonl"), tmp_path / "a.jsonl")
    with open(os.path.join(case, "predictions.jsonl"), encoding="utf-8") as f:
        lines = f.read().splitlines()
    # Claim 1: predicted REFUTES (label and strict flip); its wrong sentence dropped.
    lines[0] = lines[0].replace('"predicted_label": "SUPPORTS"', '"predicted_label": "REFUTES"') \
        .replace(', ["Rome", 2]', "")
    (tmp_path / "b.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    from scorer.cli import main as score
    for name in ("a", "b"):
        assert score(["-policy", os.path.join(ROOT, "configs", "fever.yaml"), "-output_file",
                      str(tmp_path / name), "-error_file", str(tmp_path / f"{name}.errlog"),
                      str(tmp_path / f"{name}.jsonl")]) == 0
    status, text, _ = run_diff(["-output_file", "d", "a", "b"], str(tmp_path))
    assert status == 1
    rows = csv_rows(tmp_path / "d.diff.csv")
    assert [(r["id"], r["change"]) for r in rows] == [
        ("1", "label SUPPORTS -> REFUTES (RIGHT -> WRONG), strict YES -> NO, evidence -1 +0, "
              "counts")]
    assert (rows[0]["before"], rows[0]["after"]) == (
        "label SUPPORTS (RIGHT, gold SUPPORTS); strict YES; precision=0.5000 recall=1",
        "label REFUTES (WRONG, gold SUPPORTS); strict NO; precision=1.0000 recall=1")
    with open(tmp_path / "d.diff", encoding="utf-8") as f:
        text = f.read()
    # The predicted labels as the predictions write them ('refutes' too), then RIGHT/WRONG.
    assert ("Transitions of predicted labels (rows A, columns B; (not listed): not in that "
            ".debug):\n"
            "  A \\ B            NOT ENOUGH INFO  REFUTES  SUPPORTS  refutes\n"
            "  NOT ENOUGH INFO                1        0         0        0\n"
            "  REFUTES                        0        1         0        0\n"
            "  SUPPORTS                       0        1         1        0\n"
            "  refutes                        0        0         0        1\n\n"
            "Transitions of label verdicts (the predicted label against the gold label):\n"
            "  A \\ B  RIGHT  WRONG\n"
            "  RIGHT      2      1\n"
            "  WRONG      0      2\n") in text
    assert "      evidence only in A: [\"Rome\", 2]" in text
    assert "      precision 0.5000 -> 1.0000" in text
    assert "Claims touched: 1 of 5 (1 with a scoring difference)" in text
    assert "label_accuracy Score: 0.6000 -> 0.4000" in text


# ------------------------------------------------------------ determinism

def test_the_diff_does_not_depend_on_the_hash_seed(tmp_path):
    case = os.path.join(FIXTURES, "diff", "assessment_flipped")
    run_diff_case(case, str(tmp_path))
    texts = []
    for seed in ("0", "4242"):
        env = dict(os.environ, PYTHONHASHSEED=seed, PYTHONPATH=str(ROOT))
        done = subprocess.run([sys.executable, "-m", "scorer.diff", "A/run", "B/run"],
                              cwd=tmp_path, env=env, capture_output=True)
        assert done.returncode == 1
        texts.append(done.stdout)
    assert texts[0] == texts[1]
    with open(os.path.join(case, "expected", "diff.diff"), "rb") as f:
        assert io.BytesIO(f.read()).read() == texts[0]


def test_a_debug_of_several_runs_keys_each_runs_ap_by_its_run_id(tmp_path):
    from coldstart_cases import score, two_children_case
    two_children_case(run_lines=("A", "B")).write(str(tmp_path / "case"))
    status, _, _ = score(str(tmp_path / "case"), ["ldc-query.xml", "qrel.txt", "runs.tab.txt"])
    assert status == 0
    debug = debugfile.read(str(tmp_path / "case" / "out" / "run.debug"))
    assert {key[0] for key in debug.ap} == {"A", "B"}
    assert sorted({r.submission.split("\t")[2] for r in debug.responses}) == ["A", "B"]
    prefix = str(tmp_path / "case" / "out" / "run")
    assert run_diff([prefix, prefix], str(tmp_path))[0] == 0


def test_scifact_label_flip_and_evidence_lost(tmp_path):
    case = os.path.join(FIXTURES, "scifact", "basic")
    with open(os.path.join(case, "predictions.jsonl"), encoding="utf-8") as f:
        lines = f.read().splitlines()
    assert lines[0] == '{"id": 1, "evidence": {"10": {"sentences": [7, 8, 0, 1], ' \
                       '"label": "SUPPORT"}}}'
    changed = ['{"id": 1, "evidence": {"10": {"sentences": [7, 8, 0], '
               '"label": "CONTRADICT"}}}'] + lines[1:]
    (tmp_path / "b.jsonl").write_text("\n".join(changed) + "\n", encoding="utf-8")
    from scorer.cli import main as score
    for name, predictions in (("a", os.path.join(case, "predictions.jsonl")),
                              ("b", str(tmp_path / "b.jsonl"))):
        assert score(["-policy", os.path.join(ROOT, "configs", "scifact.yaml"), "-output_file",
                      str(tmp_path / name), "-error_file", str(tmp_path / f"{name}.errlog"),
                      os.path.join(case, "gold.jsonl"), predictions]) == 0
    status, text, _ = run_diff(["a", "b"], str(tmp_path))
    assert status == 1
    claim = text.split("CLAIM 1\n")[1].splitlines()
    assert claim[0] == "  ~ label SUPPORT -> CONTRADICT (RIGHT -> WRONG), evidence -1 +0, counts"
    assert claim[3:] == ["      evidence only in A: 10:1",
                         "      abstract_label_only 1 -> 0",
                         "      sentence_retrieved 4 -> 3",
                         "      sentence_selection 2 -> 0",  # rationale [0, 1] now incomplete
                         "      sentence_label 2 -> 0"]
    assert "  RIGHT      1      1\n  WRONG      0      2\n" in text
    assert ("  A \\ B       CONTRADICT  SUPPORT\n"
            "  CONTRADICT           2        0\n"
            "  SUPPORT              1        1\n") in text


def test_a_label_changed_without_changing_its_verdict_shows_and_does_not_score(tmp_path):
    """Claim 3's gold label is NOT ENOUGH INFO: SUPPORTS then REFUTES are both
    wrong, and FEVER scores neither's evidence."""
    case = os.path.join(FIXTURES, "fever", "inline")
    with open(os.path.join(case, "predictions.jsonl"), encoding="utf-8") as f:
        lines = f.read().splitlines()
    assert '"label": "NOT ENOUGH INFO"' in lines[2]
    from scorer.cli import main as score
    for name, label in (("a", "SUPPORTS"), ("b", "REFUTES")):
        changed = lines[:2] + [lines[2].replace('"predicted_label": "NOT ENOUGH INFO"',
                                                f'"predicted_label": "{label}"')] + lines[3:]
        assert changed != lines
        (tmp_path / f"{name}.jsonl").write_text("\n".join(changed) + "\n", encoding="utf-8")
        assert score(["-policy", os.path.join(ROOT, "configs", "fever.yaml"), "-output_file",
                      str(tmp_path / name), "-error_file", str(tmp_path / f"{name}.errlog"),
                      str(tmp_path / f"{name}.jsonl")]) == 0
    status, text, _ = run_diff(["-output_file", "d", "a", "b"], str(tmp_path))
    assert status == 0
    rows = csv_rows(tmp_path / "d.diff.csv")
    assert [(r["id"], r["change"], r["counts"]) for r in rows] == [
        ("3", "label SUPPORTS -> REFUTES (WRONG -> WRONG)", "no")]
    with open(tmp_path / "d.diff", encoding="utf-8") as f:
        text = f.read()
    assert "Scoring differences: none" in text
    assert "      A: label SUPPORTS (WRONG, gold NOT ENOUGH INFO); strict NO; " in text


# ------------------------------------------------------ full precision

def test_the_csv_scores_and_their_changes_are_exact_from_counts_and_rankings():
    """f1_a/f1_b: the F1 of the row's counts (2 Right / (Submitted - Ignored +
    GT)), not the report's 4 decimals; ap_a/ap_b from the ranking; each change
    is B - A of those very numbers (-0.0833..., not -0.0834 from 0.4167 and 0.3333)."""
    from fractions import Fraction
    seen = 0
    for case in DIFF_CASES:
        for row in csv_rows(os.path.join(case, "expected", "diff.diff.csv")):
            for name in ("f1", "ap"):
                a, b, delta = (row[f"{name}_{part}"] for part in ("a", "b", "delta"))
                if not a:
                    continue
                seen += 1
                assert float(delta) == float(b) - float(a)
                assert repr(float(a)) == a and repr(float(b)) == b
    assert seen >= 9
    flipped = csv_rows(os.path.join(FIXTURES, "diff", "assessment_flipped", "expected",
                                    "diff.diff.csv"))
    hop1 = next(r for r in flipped if r["row"])
    # the hop-1 row of A: GT 1, 2 submitted, none ignored, 1 right
    assert float(hop1["f1_a"]) == float(Fraction(2 * 1, 2 - 0 + 1))
    every_level = next(r for r in flipped if r["id"] == "AP level ALL")
    assert (every_level["ap_a"], every_level["ap_b"]) == ("0.41666666666666663",
                                                          "0.3333333333333333")
    assert abs(float(every_level["ap_delta"]) - float(Fraction(1, 3) - Fraction(5, 12))) < 1e-15


def test_two_runs_with_no_run_id_in_common_are_said_to_be_other_runs(tmp_path):
    """Two systems' Cold Start runs share no submission line and no row: the diff
    says so, rather than leave every response 'only in A' or 'only in B' as if
    that were a finding.  One run scored two ways says nothing of it."""
    other = tmp_path / "other"
    other.mkdir()
    with open(os.path.join(DEMO, "DEMORUN.tab.txt"), encoding="utf-8") as f:
        (other / "DEMORUN.tab.txt").write_text(f.read().replace("\tDEMORUN\t", "\tOTHER\t"),
                                               encoding="utf-8")
    score_side(str(tmp_path), "A")
    score_side(str(tmp_path), "B", str(other))
    score_side(str(tmp_path), "C")
    status, text, stderr = run_diff(["A/run", "B/run"], str(tmp_path))
    assert status == 1, stderr
    assert "Run ids: A DEMORUN, B OTHER: none in common." in text
    status, text, stderr = run_diff(["A/run", "C/run"], str(tmp_path))
    assert status == 0, stderr
    assert "Run ids:" not in text
