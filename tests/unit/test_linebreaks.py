"""Breaking names over lines (scorer/linebreaks.py): no character is lost,
no line is wider than asked unless one character is, breaks fall after the
characters that allow one, and the balanced lines are no more and no wider."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from scorer import linebreaks

TEXT = st.text(alphabet=st.sampled_from(list("abcXYZ019_-./:;,| ") + ["\u00fc", "\u6f22"]),
               max_size=80)


def measure(text: str) -> float:
    """A proportional font of sorts: wide capitals and ideographs, narrow punctuation."""
    return sum(9.0 if c.isupper() or ord(c) > 0x3000 else 2.5 if c in "._-:;,| " else 5.0
               for c in text)


@settings(max_examples=300, deadline=None)
@given(TEXT, st.floats(min_value=5.0, max_value=200.0))
def test_lines_keep_every_character_and_fit(text, most):
    for lines in (linebreaks.wrap(text, most, measure), linebreaks.balanced(text, most, measure)):
        assert "".join(lines).replace(" ", "") == text.replace(" ", "")
        for number, line in enumerate(lines):
            assert measure(line) <= most or len(line.strip()) == 1, (line, most)
            # spaces at a break are dropped (the name's own first ones kept)
            assert line == (line.rstrip(" ") if number == 0 else line.strip(" "))


@settings(max_examples=300, deadline=None)
@given(TEXT, st.floats(min_value=20.0, max_value=200.0))
def test_balanced_lines_are_no_more_and_no_wider(text, most):
    wrapped = linebreaks.wrap(text, most, measure)
    balanced = linebreaks.balanced(text, most, measure)
    assert len(balanced) <= len(wrapped)
    assert max(map(measure, balanced)) <= max(map(measure, wrapped)) + 1e-9


def test_breaks_fall_after_separators_when_there_are_any():
    name = "team007_system-with-a-rather-long-descriptive-name_v07_final"
    lines = linebreaks.wrap(name, 100.0, measure)
    assert len(lines) > 1 and all(line[-1] in linebreaks.BREAK_AFTER for line in lines[:-1])
    assert linebreaks.balanced("zeta_baseline_with_a_very_long_descriptive_name_x", 200.0,
                               measure)[-1] != "x"
