"""The toolkit's catalogue is the Perl library's, text for text, and agrees with
the scorer's own catalogue wherever both name a problem."""
import os
import re

import pytest

from places import perl_dir
from scorer.coldstart.toolkit.catalogue import FORMATS
from scorer.problems import CATALOGUE


def test_the_scorer_and_the_toolkit_word_a_shared_problem_alike():
    shared = set(CATALOGUE) & set(FORMATS)
    assert len(shared) > 30
    assert {name: CATALOGUE[name] for name in shared} == \
        {name: tuple(FORMATS[name]) for name in shared}


def test_a_trailing_space_of_a_template_is_kept():
    assert FORMATS["SEMICOLON_AS_SEPARATOR"].template.endswith("with a comma. ")


@pytest.mark.perl
def test_every_problem_of_the_perl_library_with_its_type_and_text():
    folder = perl_dir()
    if folder is None:
        pytest.skip("no checkout of the Perl toolkit (../ColdStart or SCORER_PERL_DIR)")
    source = open(os.path.join(folder, "ColdStartLib.pm"), encoding="utf-8").read()
    table = re.search(r"<<'END_PROBLEM_FORMATS';\n(.*?)\nEND_PROBLEM_FORMATS", source, re.S).group(1)
    perl = {}
    for line in table.split("\n"):
        line = line.lstrip()
        if line.strip() and not line.startswith("#"):
            name, kind, template = line.split(None, 2)
            perl[name] = (kind, template)
    assert {name: tuple(value) for name, value in FORMATS.items()} == perl
