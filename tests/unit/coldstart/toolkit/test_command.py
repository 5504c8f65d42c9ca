"""python -m scorer.coldstart: the list of tools, -version, an unknown tool."""
import io

from commands import call_main as call_with

from scorer.coldstart import toolkit
from scorer.coldstart.toolkit.command import main


def call_main(function, argv, folder):
    out, err = io.StringIO(), io.StringIO()
    status = call_with(function, argv, folder, out, err)
    return status, out.getvalue(), err.getvalue()


def test_help_lists_every_available_tool_with_its_perl_script(tmp_path):
    status, out, err = call_main(main, ["-help"], tmp_path)
    assert status == 0 and err == ""
    for tool in toolkit.available():
        assert f"  {tool.name}" in out and tool.perl in out


def test_no_tool_is_a_mistake_that_shows_the_list(tmp_path):
    status, out, _ = call_main(main, [], tmp_path)
    assert status == 255 and out.startswith("Usage: python -m scorer.coldstart TOOL")


def test_an_unknown_tool_names_the_tools(tmp_path):
    status, out, err = call_main(main, ["validatesff"], tmp_path)
    assert status == 255 and out == ""
    assert err.startswith("ERROR: unknown tool 'validatesff'; the tools are: ")


def test_version(tmp_path):
    status, out, _ = call_main(main, ["-version"], tmp_path)
    assert status == 0 and out.startswith("scorer version ")
