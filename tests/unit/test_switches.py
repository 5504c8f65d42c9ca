"""scorer/switches.py: the command line read the Perl's way (exact ``-NAME``,
a value switch takes the next argument, a flag is True), each mistake's
message, the did-you-mean, -help/-version ending the reading, and the help
laid out in the Perl's columns."""
from __future__ import annotations

import os

import pytest

from scorer import switches
from scorer.switches import Switch, UsageError, help_lines, parse, suggestion, table

TABLE = table(switches.COMMON, [Switch("expand"), Switch("tabs", False),
                                Switch("fields", default="EC:RUNID:" + "X" * 60,
                                       help="Columns of the tables, separated by colons")])


def test_values_flags_and_files_in_any_order():
    given, files = parse(["a.xml", "-expand", "CSSF17", "-tabs", "b.txt", "-seed", "0", "c"],
                         TABLE)
    assert given == {"expand": "CSSF17", "tabs": True, "seed": "0"}
    assert files == ["a.xml", "b.txt", "c"]
    # '-' alone is a file (standard input), and a value may start with a dash
    assert parse(["-", "-expand", "-x"], TABLE) == ({"expand": "-x"}, ["-"])


@pytest.mark.parametrize("argv", [["-help"], ["-h", "-unknown"], ["--help"], ["a", "-help", "-x"]])
def test_help_ends_the_reading(argv):
    assert parse(argv, TABLE)[0] == {"help": True}


@pytest.mark.parametrize("argv", [["-version"], ["--version", "-bootstrap"]])
def test_version_ends_the_reading(argv):
    assert parse(argv, TABLE)[0] == {"version": True}


@pytest.mark.parametrize("argv, message, brief", [
    (["-expandd", "X", "f"], "Unknown switch: -expandd (did you mean -expand?)", True),
    (["--expand", "X", "f"], "Unknown switch: --expand (did you mean -expand?)", True),
    (["-zzz", "f"], "Unknown switch: -zzz", True),
    (["-unknown", "-help"], "Unknown switch: -unknown", True),   # before -help: it wins
    (["f", "-expand"], "Switch -expand needs a value", True),
    (["-output_file", "-policy", "p.yaml", "f"],
     "Switch -output_file needs a value, not the switch -policy", True),
    (["-output_file", "--help", "f"], "Switch -output_file needs a value, not the switch --help",
     True),
    (["-output_file", " ", "f"],
     "Switch -output_file needs a file name (or stdout, stderr), not ' '", True),
    (["-tabs"], "Not enough arguments; files must be provided", False),
    (["f", os.fsdecode(b"run\xe9.txt")],
     "the argument 'run\\xe9.txt' is not valid UTF-8 (rename the file, or give its name in "
     "UTF-8)", True),
])
def test_mistakes_and_their_messages(argv, message, brief):
    with pytest.raises(UsageError) as error:
        parse(argv, TABLE)
    assert (str(error.value), error.value.brief) == (message, brief)


def test_no_files_is_fine_where_none_are_needed():
    assert parse(["-tabs"], TABLE, files_needed=False) == ({"tabs": True}, [])


def test_a_mistake_is_followed_by_the_usage_or_a_pointer_to_help():
    assert switches.usage_error_text(UsageError("Switch -x needs a value", brief=True),
                                     "USAGE") == \
        "ERROR: Switch -x needs a value\nRun with -help for the switches and what they mean.\n"
    assert switches.usage_error_text(UsageError("Not enough arguments"), "USAGE\n") == \
        "ERROR: Not enough arguments\n\nUSAGE\n"


def test_suggestions_only_when_one_switch_is_close():
    names = {"bootstrap": None, "samples": None, "seed": None, "h": None}
    assert suggestion("bootstrp", names) == " (did you mean -bootstrap?)"
    assert suggestion("-seed", names) == " (did you mean -seed?)"
    assert suggestion("zzz", names) == ""            # close to nothing (cut-off 0.75)
    assert suggestion("hh", names) == ""             # one-letter switches are never suggested


def test_a_table_keeps_the_first_switch_of_a_name():
    first, second = Switch("x", help="first"), Switch("x", help="second")
    assert table([first], {"x": second, "y": Switch("y")})["x"] is first


def test_help_lines_in_the_perls_columns_with_long_words_kept_whole():
    lines = help_lines(TABLE)
    names = [line.split()[0] for line in lines if line.startswith("  -")]
    assert names == sorted(names) and "-h" not in names and "-expand" not in names
    assert "  -tabs" not in "\n".join(lines)                       # no help: not listed
    # the name in 27 columns, the text after it; its continuation indented 29
    fields = lines.index(next(line for line in lines if line.startswith("  -fields")))
    assert lines[fields] == "  -fields <value>          Columns of the tables, separated by " \
                            "colons (Default ="
    assert lines[fields + 1] == " " * 29 + "EC:RUNID:" + "X" * 60 + ")."
    assert all(line[:29].strip() == "" or line.startswith("  -") for line in lines)
    assert all(len(line) <= 80 or " " not in line[29:] for line in lines)


def test_version_text_names_the_perl_reference():
    from scorer.version import PERL_REFERENCE_VERSION, __version__
    assert switches.version_text() == (
        f"scorer version {__version__} (Cold Start reports as CS-Score-MASTER.pl version "
        f"{PERL_REFERENCE_VERSION})\n")
