"""The policy file's YAML (scorer/policyfile.py): the subset read without
PyYAML gives exactly what PyYAML gives (with the policy's rules, and what
``yaml.safe_load`` gives), and everything else goes to PyYAML, messages
included."""
from __future__ import annotations

import re

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer import policyfile
from scorer.competition.layout import policy_text
from scorer.policy import build_policy
from scorer.problems import ScorerError

from places import ROOT


def outcome(read, text: str):
    """("value", value) or ("error", exception type, message) of ``read(text)``."""
    try:
        return ("value", read(text))
    except Exception as error:  # PyYAML's own errors too: they must be the same
        return ("error", type(error).__name__, str(error))


def by_pyyaml(text: str):
    return policyfile.load_with_pyyaml(text, "p.yaml")


def by_load(text: str):
    return policyfile.load(text, "p.yaml")


def assert_agrees(text: str) -> bool:
    """Where the subset reader takes ``text``, PyYAML reads the same value (and
    safe_load too); ``load`` always ends as PyYAML does.  True when taken."""
    document = policyfile.subset_document(text)
    expected = outcome(by_pyyaml, text)
    if document is not policyfile.OUTSIDE:
        assert expected == ("value", document), text
        if not re.search(r"\w:\w", text):
            # (safe_load reads a plain 1:3 as the number 63, where a policy has text)
            assert yaml.safe_load(text) == document, text
    assert outcome(by_load, text) == expected, text
    return document is not policyfile.OUTSIDE


def test_the_bundled_policies_need_no_pyyaml():
    for path in sorted((ROOT / "configs").glob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        assert assert_agrees(text), path


@pytest.mark.parametrize("settings_", [
    {"task": "coldstart"}, {"task": "scifact"}, {"task": "fever"},
    {"task": "fever", "max_evidence": "all", "leaderboard": ["strict_score", "label_accuracy"]},
    {"task": "coldstart", "justifications": "M:9", "wrong": ["INCORRECT", "DUPLICATE"],
     "ignore": ["UNASSESSED"]},
])
def test_the_policies_competition_bundles_write_need_no_pyyaml(settings_):
    text = policy_text(build_policy(settings_, {}))
    assert assert_agrees(text), text


#: Inside the subset: (text, value).
TAKEN = [
    ("", None),
    ("# only a comment\n\n", None),
    ("task: fever\n", {"task": "fever"}),
    ("task: fever", {"task": "fever"}),
    ("task: fever   \n", {"task": "fever"}),
    ("task:   fever # the task\n", {"task": "fever"}),
    ("task:\n", {"task": None}),
    ("task: # nothing\nright:\n", {"task": None, "right": None}),
    ("labels: [NOT ENOUGH INFO, 'a, b', \"c # d\"]\n",
     {"labels": ["NOT ENOUGH INFO", "a, b", "c # d"]}),
    ("labels: [ a ,b ]\nright: []\nwrong: [ ]\n", {"labels": ["a", "b"], "right": [], "wrong": []}),
    ("labels:\n- A\n-   B C # c\n-\n- 7\nx: 1\n", {"labels": ["A", "B C", None, 7], "x": 1}),
    ("labels:\n    # comment\n    - A\n\n    - 'B'\n", {"labels": ["A", "B"]}),
    ("justifications: \"1:3\"\nright: 'A:B'\n", {"justifications": "1:3", "right": "A:B"}),
    ("justifications: 1:3\nx: M:9 # c\ny:\n- 1:M\n- a:b:c\n",
     {"justifications": "1:3", "x": "M:9", "y": ["1:M", "a:b:c"]}),
    ("max_evidence: 0\nx: 123456789012345678\n", {"max_evidence": 0, "x": 123456789012345678}),
    ("task: fever\r\nlabels: [A]\r\n", {"task": "fever", "labels": ["A"]}),
    ("# § non-ASCII in a comment\ntask: \"é\"\n", {"task": "é"}),
    ("y: n\nnone: None\nNo_: yes_\n", {"y": "n", "none": "None", "No_": "yes_"}),
    ("a: inf\nb: nan\nc: Yes please\n", {"a": "inf", "b": "nan", "c": "Yes please"}),
]


@pytest.mark.parametrize("text, value", TAKEN)
def test_the_subset(text, value):
    assert policyfile.subset_document(text) == value
    assert assert_agrees(text)


#: Outside the subset: PyYAML reads them (values or errors), not the subset reader.
LEFT_TO_PYYAML = [
    "a: yes\n", "a: No\n", "a: ON\n", "a: off\n", "a: ~\n", "a: null\n", "a: NULL\n",
    "yes: a\n", "null: a\n", "a: [b, Off]\n", "a:\n- TRUE\n",
    "a: 1e3\n", "a: 0x1\n", "a: 0o7\n", "a: 017\n", "a: 08\n", "a: 1_000\n", "a: +1\n",
    "a: -1\n", "a: 1.5\n", "a: .inf\n", "a: 2001-12-14\n", "a: [1:3]\n", "a: [A:B]\n", "a: b:\n", "a: :b\n", "a: b:c d\n", "a: b::c\n",
    "a: 12345678901234567890\n", "a: 1" + "0" * 5000 + "\n",
    "a: b: c\n", "a:b\n", "a: b#c\n", "a: b\t# c\n",
    "a: 'it''s'\n", 'a: "tab\\tin"\n', 'a: "\\ud800"\n', "a: 'x\n  y'\n",
    "a: b\n  c\n", "a: b\n\n  c\n", "a:\n  b: c\n", "a:\n  - b\n - c\n", "a:\n- b\n  - c\n",
    "a:\n  - - b\n", "a:\n  - [b]\n", "a:\n  - {b: c}\n", "a: {b: c}\n", "a: [b, [c]]\n",
    "a: [b,]\n", "a: [b\n", "a: b]\n", "- a\n", "a: b\n- c\n", "  a: b\n",
    "a: 1\na: 2\n", "right: [CORRECT]\nright: [INEXACT]\n", "a: 1\n'a': 2\n",
    "a: &x b\nc: *x\n", "a: !!str 1\n", "a: |\n  b\n", "a: >\n  b\n",
    "---\na: b\n", "a: b\n...\n", "%YAML 1.1\n---\na: b\n", "a: b\n---\nc: d\n",
    "\ufeffa: b\n", "a:\tb\n", "a: b\rc: d\n", "a: b\x85c: d\n", "a: b # \u2028c: d\n",
    "a: \x07\n", "[a, b]\n", "a\n", "k" * 70 + ": v\n", "a: é\n", "a: b-c\n", "a: b.c\n",
    "a: b/c\n", "<<: {a: b}\n", "=: a\n", "a: =\n", "? a\n: b\n", "a : b\n", "a:  \t\n",
]


@pytest.mark.parametrize("text", LEFT_TO_PYYAML)
def test_outside_the_subset_pyyaml_decides(text):
    assert policyfile.subset_document(text) is policyfile.OUTSIDE
    assert_agrees(text)


@pytest.mark.parametrize("text, line, number, read", [
    ("max_evidence: 010\n", 1, "010", 8), ("max_evidence: 0x10\n", 1, "0x10", 16),
    ("max_evidence: 0b11\n", 1, "0b11", 3), ("max_evidence: 1_0\n", 1, "1_0", 10),
    ("max_evidence: -07\n", 1, "-07", -7), ("labels:\n- a\n- 017\n", 3, "017", 15),
    ("task: fever\nlabels: [a, 0x1f]\n", 2, "0x1f", 31),
])
def test_a_number_not_written_in_decimal_is_refused(text, line, number, read):
    """YAML 1.1 reads a plain 010 as octal 8 (a switch reads 10): the subset
    reader leaves such numbers to PyYAML, which refuses them with the line and key."""
    assert policyfile.subset_document(text) is policyfile.OUTSIDE
    key = "max_evidence" if "max_evidence" in text else "labels"
    with pytest.raises(ScorerError) as caught:
        policyfile.load(text, "p.yaml")
    assert str(caught.value) == (
        f"p.yaml line {line}, key '{key}': the number {number} is not written in decimal "
        f"(YAML 1.1 reads it as {read}); write it without leading zeros, 0x, 0b or _")


@pytest.mark.parametrize("text, value", [
    ("max_evidence: 10\n", 10), ("max_evidence: 0\n", 0), ("max_evidence: +3\n", 3),
    ("max_evidence: -1\n", -1), ("a: '010'\n", "010"), ("a: 08\n", "08"), ("a: 1.5\n", 1.5),
])
def test_decimal_numbers_and_quoted_text_are_read(text, value):
    assert policyfile.load(text, "p.yaml") == {text.split(":")[0]: value}


def test_pyyaml_messages_are_kept(tmp_path):
    with pytest.raises(ScorerError) as caught:
        policyfile.load("right: [CORRECT]\nright: [INEXACT]\n", "p.yaml")
    assert str(caught.value) == "p.yaml line 2: the key 'right' is given twice"
    with pytest.raises(ScorerError, match=r"^p\.yaml line 2: not a valid YAML policy: "):
        policyfile.load("a: [b\nc: d\n", "p.yaml")


# ------------------------------------------------------------- generated documents

#: Documents inside the subset by construction.
SUBSET_WORDS = st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,5}( {1,2}[A-Za-z0-9_]{1,4}){0,2}",
                             fullmatch=True).filter(
    lambda word: word.lower() not in ("yes", "no", "true", "false", "on", "off", "null"))
SUBSET_COLON_WORDS = st.from_regex(r"[A-Za-z0-9_]{1,3}(:[A-Za-z0-9_]{1,3}){1,2}", fullmatch=True)
SUBSET_SCALARS = st.one_of(SUBSET_WORDS, st.integers(0, 10 ** 18 - 1).map(str),
                           st.text(st.characters(blacklist_characters="\"\\\r\n\t\x85\u2028\u2029"
                                                                      "\ufeff",
                                                 blacklist_categories=("Cs", "Cc", "Cn")),
                                   max_size=6).map(lambda text: f'"{text}"'),
                           st.text("ab :#,[]", max_size=6).map(lambda text: f"'{text}'"),
                           st.sampled_from(["true", "false"]))


KEYS = st.one_of(st.from_regex(r"[a-z_][a-z0-9_]{0,8}", fullmatch=True),
                 st.sampled_from(["task", "right", "labels", "max_evidence", "x", "_k", "a1",
                                  "yes", "On", "NULL", "y", "k" * 65, "a b", "-a", "'q'", "1"]),
                 st.text("abAB_1 :-#", min_size=1, max_size=6))
SCALARS = st.one_of(
    SUBSET_SCALARS, SUBSET_COLON_WORDS, SUBSET_SCALARS,
    st.sampled_from(["CORRECT", "NOT ENOUGH INFO", "a  b", "all", "none", "3", "0", "07", "08",
                     "1_0", "+1", "-1", "1.5", "1e3", "0x1f", ".inf", ".NaN", "~", "null", "Null",
                     "yes", "No", "on", "OFF", "true", "y", "2001-12-14", "1:3", "M:10", "a:b",
                     "a: b", "a#b", "a #b", "'q'", "'it''s'", "\"d\"", "\"a\\tb\"", "\"#:,\"",
                     "'a, b'", "é", "\"é\"", "&x a", "*x", "!!str 1", "|", ">", "[a, b]", "[]",
                     "[ a ,b ]", "[yes]", "[a,]", "[a, [b]]", "{a: b}", "- a", "", " ", "\t",
                     "123456789012345678", "1234567890123456789"]),
    st.text("aZ09_ :#'\"[],-.é\t", max_size=10),
    st.integers(min_value=0, max_value=10 ** 20).map(str),
)
COMMENTS = st.sampled_from(["", "", " # c", "  #", "#x", " # § é", " # a: b"])
TRAILING = st.sampled_from(["", "", "", " ", "  ", "\t"])
SPACES = st.sampled_from([" ", " ", " ", "  ", ""])
INDENTS = st.sampled_from(["", " ", "  ", "    "])


@st.composite
def lines(draw) -> str:
    shape = draw(st.sampled_from(["entry"] * 4 + ["open", "item", "item", "comment", "blank",
                                                  "other"]))
    if shape == "entry":
        return (f"{draw(KEYS)}:{draw(SPACES)}{draw(SCALARS)}"
                f"{draw(COMMENTS)}{draw(TRAILING)}")
    if shape == "open":
        return f"{draw(KEYS)}:{draw(COMMENTS)}{draw(TRAILING)}"
    if shape == "item":
        return (f"{draw(INDENTS)}-{draw(SPACES)}{draw(SCALARS)}"
                f"{draw(COMMENTS)}{draw(TRAILING)}")
    if shape == "comment":
        return f"{draw(INDENTS)}#{draw(st.text(max_size=8))}"
    if shape == "blank":
        return draw(st.sampled_from(["", "  ", "\t"]))
    return draw(st.sampled_from(["---", "...", "%YAML 1.1", "  x: y", "? a", ": b",
                                 "\ufeffx: y", "x: y\rz: w"]))


@st.composite
def subset_lines(draw) -> list:
    """The lines of a document inside the subset."""
    keys = draw(st.lists(st.from_regex(r"[a-z_][a-z0-9_]{0,8}", fullmatch=True).filter(
        lambda key: key not in ("yes", "no", "true", "false", "on", "off", "null")),
        unique=True, max_size=5))
    out = []
    for key in keys:
        kind = draw(st.sampled_from(["scalar", "flow", "block", "null"]))
        comment = draw(st.sampled_from(["", " # why"]))
        if kind == "scalar":
            out.append(f"{key}: {draw(st.one_of(SUBSET_SCALARS, SUBSET_COLON_WORDS))}{comment}")
        elif kind == "flow":
            out.append(f"{key}: [{', '.join(draw(st.lists(SUBSET_SCALARS, max_size=4)))}]"
                       f"{comment}")
        elif kind == "null":
            out.append(f"{key}:{comment}")
        else:
            out.append(f"{key}:{comment}")
            indent = draw(INDENTS)
            out += [f"{indent}- {item}"
                    for item in draw(st.lists(st.one_of(SUBSET_SCALARS, SUBSET_COLON_WORDS),
                                              max_size=4))]
    return out


@st.composite
def documents(draw) -> str:
    """A document inside the subset with up to three lines put in or changed,
    each of any kind (most of them odd), and CRLF line ends or not."""
    body = draw(subset_lines())
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(body)))
        if at < len(body) and draw(st.booleans()):
            body[at] = draw(lines())
        else:
            body.insert(at, draw(lines()))
    end = draw(st.sampled_from(["\n", "\r\n"]))
    return end.join(body) + draw(st.sampled_from(["", end]))


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(documents())
def test_generated_documents_read_as_pyyaml_reads_them(text):
    assert_agrees(text)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(subset_lines())
def test_the_subset_is_read_without_pyyaml_and_as_pyyaml_reads_it(body):
    text = "\n".join(body) + "\n"
    assert assert_agrees(text), text


@pytest.mark.parametrize("text", [
    "task: fever\nlabels: [" + ", ".join(["A"] * 30) + "]\n",     # too many values (below)
    "task: fever\nlabels:\n" + "- A\n" * 30,
    "task: fever\nmax_evidence: 123456789012345678\n",                 # too large
    "task: fever\nlabels: [A]\nbogus: 1\n",                            # unknown key
    "task: scifact\nmax_evidence: 1:3\n",                              # not a number
])
def test_policy_files_are_judged_alike_whichever_reader(tmp_path, monkeypatch, text):
    from scorer import policy
    from scorer.policy import load_policy_file
    monkeypatch.setattr(policy, "MAX_POLICY_VALUES", 25)
    path = tmp_path / "policy.yaml"
    path.write_text(text, encoding="utf-8")
    assert policyfile.subset_document(text) is not policyfile.OUTSIDE

    def judged():
        try:
            return ("settings", build_policy(load_policy_file(str(path)), {}))
        except ScorerError as error:
            return ("error", str(error))
    by_subset = judged()
    monkeypatch.setattr(policyfile, "subset_document", lambda text: policyfile.OUTSIDE)
    assert judged() == by_subset
