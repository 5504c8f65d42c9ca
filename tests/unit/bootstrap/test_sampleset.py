"""scorer/bootstrap/sampleset.py: bootstrap samples: the samples-file format,
the multiplicities, and the Cold Start bootstrap reports
a run writes from them (spec §6)."""
from __future__ import annotations

import io
import os
import shutil

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer import bootstrap
from scorer.bootstrap import sampleset
from scorer.problems import ScorerError
from scorer.samples.__main__ import main as samples_main

from coldstart_cases import score
from golden import FIXTURES

DEMO = os.path.join(FIXTURES, "coldstart", "demo", "input")


def test_samples_file_round_trip_and_multiplicities():
    text = "2 L1:a,b L2:c\n1 L1:b,a L1:b,a\n2 L2:c L2:c\n"
    samples = bootstrap.parse_samples(text.splitlines(True))
    assert samples.numbers == [1, 2]          # numeric order; the later line 2 wins
    assert samples.text() == "1 L1:b,a L1:b,a\n2 L2:c L2:c\n"
    everything = samples.multiplicities(["a", "b", "c"])
    first_only = samples.multiplicities(["a", "b", "c"], first_only=True)
    assert everything.tolist() == [[2, 2, 0], [0, 0, 2]]
    assert first_only.tolist() == [[0, 2, 0], [0, 0, 2]]


def test_bootstrap_switch_equals_the_same_samples_given_as_a_file(tmp_path):
    case = tmp_path / "case"
    shutil.copytree(DEMO, case)
    files = ["ldc-query.xml", "qrel.txt", "DEMORUN.tab.txt"]
    status, drawn, _ = score(str(case), files, "-bootstrap", "60", "-seed", "5")
    assert status == 0
    (case / "boot.txt").write_text(drawn["bootsamples"])
    status, replayed, _ = score(str(case), files, "-samples", "boot.txt")
    assert status == 0
    for report in ("sample", "samplescores", "confidence", "sf", "ap"):
        assert drawn[report] == replayed[report]
    assert len(drawn["samplescores"].splitlines()) == 61
    # every interval contains the full-data score for this sane input
    for line in drawn["confidence"].splitlines()[1:]:
        fields = line.split(" ")
        if "" in fields or "-" in line:
            continue
        low, score_value, high = float(fields[1]), float(fields[5]), float(fields[8])
        assert low <= score_value <= high, line


def test_no_samples_gives_header_only_reports(tmp_path):
    case = tmp_path / "case"
    shutil.copytree(DEMO, case)
    (case / "empty.txt").write_text("")
    status, texts, _ = score(str(case), ["ldc-query.xml", "qrel.txt", "DEMORUN.tab.txt"],
                             "-samples", "empty.txt")
    assert status == 0
    assert texts["sample"] == ""
    assert texts["samplescores"].count("\n") == 1
    assert texts["confidence"].count("\n") == 1


@pytest.mark.parametrize("line, message", [
    # an LDC id not of the query files: the Perl never reads it (.confidence
    # used the SF query, .apconfidence counted the element as nothing)
    ("2 CS17_0009:CSSF17_ENG_47a114c77c",
     "CSSF17_ENG_47a114c77c belongs to the LDC query CS17_0001, not to 'CS17_0009'; "
     "expected LDC_ID:SF_ID[,SF_ID...]"),
    ("2 CS17_0002:CSSF17_ENG_47a114c77c",
     "CSSF17_ENG_47a114c77c belongs to the LDC query CS17_0001, not to 'CS17_0002'; "
     "expected LDC_ID:SF_ID[,SF_ID...]"),
    # an SF id of no query: the Perl counts it as no query at all
    ("2 CS17_0001:CSSF17_ENG_0123456789",
     "CSSF17_ENG_0123456789 is not an SF query of the query files (after -expand)"),
    ("2 CS17_0001:CSSF17_ENG_47a114c77c_1fa227e2e937",
     "CSSF17_ENG_47a114c77c_1fa227e2e937 is not an SF query of the query files (after -expand)"),
    ("2 CS17_0001", "CS17_0001 is not an SF query of the query files (after -expand)"),
    ("2 CSSF17_ENG_47a114c77c",
     "CSSF17_ENG_47a114c77c belongs to the LDC query CS17_0001, not to 'CSSF17_ENG_47a114c77c'; "
     "expected LDC_ID:SF_ID[,SF_ID...]"),
    ("2 CS17_0001:", "'CS17_0001:' names no SF query; expected LDC_ID:SF_ID[,SF_ID...]"),
])
def test_a_samples_file_of_another_query_set_is_refused_naming_file_line_and_id(
        tmp_path, line, message):
    case = tmp_path / "case"
    shutil.copytree(DEMO, case)
    (case / "boot.txt").write_text("1 CS17_0001:CSSF17_ENG_47a114c77c,CSSF17_ENG_d8c8ecef3e\n"
                                   f"{line}\n")
    status, texts, _ = score(str(case), ["ldc-query.xml", "qrel.txt", "DEMORUN.tab.txt"],
                             "-samples", "boot.txt")
    assert status == 255
    assert list(texts) == ["errlog"]
    assert texts["errlog"] == f"FATAL_ERROR: boot.txt line 2: {message}\n"


def test_a_track_refuses_a_samples_file_of_another_query_set_before_scoring(
        tmp_path, monkeypatch, capsys):
    from scorer.track.__main__ import main as track_main
    case = tmp_path / "case"
    shutil.copytree(DEMO, case)
    (case / "boot.txt").write_text("1 CS17_0001:CSSF17_ENG_47a114c77c\n"
                                   "2 CS17_0009:CSSF17_ENG_47a114c77c\n")
    monkeypatch.chdir(case)
    assert track_main(["-expand", "CSSF17", "-samples", "boot.txt", "-jobs", "1", "-output_dir",
                       "t", "ldc-query.xml", "qrel.txt", "DEMORUN.tab.txt"]) == 255
    assert ("boot.txt line 2: CSSF17_ENG_47a114c77c belongs to the LDC query CS17_0001, not to "
            "'CS17_0009'") in capsys.readouterr().err
    assert not (case / "t").exists()


def test_samples_may_name_queries_that_queries_leaves_out(tmp_path):
    """-queries selects part of the query set; samples drawn over the whole set
    are read as the Perl reads them, each sample keeping the selected queries."""
    case = tmp_path / "case"
    shutil.copytree(DEMO, case)
    (case / "one.txt").write_text("CS17_0001 CSSF17_ENG_47a114c77c\n")
    (case / "boot.txt").write_text("1 CS17_0001:CSSF17_ENG_47a114c77c,CSSF17_ENG_d8c8ecef3e "
                                   "CS17_0002:CSSF17_ENG_3f0bc7c062\n"
                                   "2 CS17_0003:CSSF17_SPA_9aae9b619c "
                                   "CS17_0001:CSSF17_ENG_d8c8ecef3e,CSSF17_ENG_47a114c77c "
                                   "CS17_0001:CSSF17_ENG_47a114c77c,CSSF17_ENG_d8c8ecef3e\n")
    files = ["ldc-query.xml", "qrel.txt", "DEMORUN.tab.txt"]
    status, texts, _ = score(str(case), files, "-queries", "one.txt", "-samples", "boot.txt")
    assert status == 0
    (case / "selected.txt").write_text("1 CS17_0001:CSSF17_ENG_47a114c77c,CSSF17_ENG_d8c8ecef3e\n"
                                       "2 CS17_0001:CSSF17_ENG_d8c8ecef3e,CSSF17_ENG_47a114c77c "
                                       "CS17_0001:CSSF17_ENG_47a114c77c,CSSF17_ENG_d8c8ecef3e\n")
    status, selected, _ = score(str(case), files, "-queries", "one.txt", "-samples",
                                "selected.txt")
    assert status == 0
    assert texts["samplescores"] == selected["samplescores"]
    assert texts["confidence"] == selected["confidence"]
    assert texts["apconfidence"] == selected["apconfidence"]


def test_multiplicities_of_generated_samples_match_a_direct_count():
    groups = [(f"L{i}", tuple(f"s{i}_{j}" for j in range(i % 3 + 1))) for i in range(7)]
    samples = bootstrap.generate(groups, 50, seed=3)
    ids = [member for _g, members in groups for member in members]
    matrix = samples.multiplicities(ids)
    for row, draw in zip(matrix, samples.draws):
        direct = np.zeros(len(ids), dtype=int)
        for index in draw:
            for member in samples.elements[index].members:
                direct[ids.index(member)] += 1
        assert row.tolist() == direct.tolist()


def _as_read_in_text_mode(data: bytes):
    """The samples a file of these bytes gives when read as text (universal
    newlines, surrogateescape), line by line: the reference for the binary reader."""
    import io
    return bootstrap.parse_samples(io.TextIOWrapper(io.BytesIO(data), encoding="utf-8",
                                                    errors="surrogateescape"))


def _same_samples(left, right) -> bool:
    return (left.numbers == right.numbers and left.origins == right.origins
            and [(e.group, e.members) for e in left.elements]
            == [(e.group, e.members) for e in right.elements]
            and all(np.array_equal(a, b) for a, b in zip(left.draws, right.draws)))


_PIECES = [b"1", b"2", b"3", b"L1:a,b", b"L1:b,a", b"L2:c", b"L3", b"L1:a", b"\xc3\xa9:x",
           b" ", b"  ", b"\t", b"\n", b"\r", b"\r\n", b"\x1c", b"\x1f", b"\x0b", b"\x0c",
           b"\xc2\x85", b"\xc2\xa0", b"\xe2\x80\xa8", b",", b"\xef\xbb\xbf", b"\x00",
           b"\xed\xa0\x80"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=30))
def test_the_binary_reader_reads_a_samples_file_as_text_mode_would(pieces):
    """Separators that only text splits on (\\r, \\x1c-\\x1f, Unicode spaces and
    line ends) and non-ASCII bytes: the fast binary reader agrees with text
    mode, errors included (same message, same line)."""
    data = b"".join(pieces)
    outcomes = []
    for read in (_as_read_in_text_mode,
                 lambda d: bootstrap.parse_samples(io.BytesIO(d).readlines())):
        try:
            outcomes.append(read(data))
        except ScorerError as error:
            outcomes.append(str(error))
    text, binary = outcomes
    if isinstance(text, str) or isinstance(binary, str):
        assert text == binary
    else:
        assert _same_samples(text, binary)


def test_an_invalid_byte_in_a_samples_file_is_an_error_naming_its_line(tmp_path):
    path = tmp_path / "boot.txt"
    path.write_bytes(b"1 L1:a\n2 L1:a L2:\xff\n")
    expected = r"boot.txt line 2: not valid UTF-8 \(in 'b'L2:\\xff''\)"
    with pytest.raises(ScorerError, match=expected):
        bootstrap.read_samples(str(path))


@settings(max_examples=100, deadline=None)
@given(st.lists(st.lists(st.integers(0, 5), max_size=8), max_size=12), st.booleans(),
       st.integers(0, 12), st.integers(0, 12))
def test_multiplicities_of_any_draws_match_a_direct_count(draws, first_only, start, stop):
    """Elements of 0 to 3 members (some not among the ids), samples of any
    length, any block of samples: the counts are those of a direct count."""
    elements = [bootstrap.Element("L1", ()), bootstrap.Element("L1", ("a", "b")),
                bootstrap.Element("L2", ("c",)), bootstrap.Element("L2", ("z", "c", "a")),
                bootstrap.Element("L3", ("b",)), bootstrap.Element("L9", ("q",))]
    samples = bootstrap.SampleSet(list(range(1, len(draws) + 1)),
                                  [np.asarray(d, dtype=np.int32) for d in draws], elements)
    ids, groups = ["c", "a", "b"], ["L3", "L1", "L2"]
    matrix = samples.multiplicities(ids, first_only=first_only, start=start, stop=stop)
    expected = np.zeros((len(draws[start:stop]), len(ids)), dtype=int)
    for row, draw in enumerate(draws[start:stop]):
        for index in draw:
            members = elements[index].members
            for member in members[:1] if first_only else members:
                if member in ids:
                    expected[row, ids.index(member)] += 1
    assert matrix.dtype == np.int32 and matrix.tolist() == expected.tolist()
    by_group = samples.group_multiplicities(groups)
    assert by_group.tolist() == [[sum(elements[i].group == g for i in draw) for g in groups]
                                 for draw in draws]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.lists(st.integers(0, 5), max_size=8), max_size=12), st.booleans(),
       st.integers(1, 4), st.integers(1, 40), st.integers(1, 20), st.integers(1, 30),
       st.integers(1, 9))
def test_samples_counted_written_and_fingerprinted_a_block_at_a_time_as_one_by_one(
        draws, first_only, block, cells, block_draws, piece, long_sample):
    """The block-wise multiplicities, text and digest (a million samples are a
    few hundred numpy calls) are what counting, writing and hashing each sample
    by itself gives, whatever the block sizes."""
    import hashlib
    from unittest import mock
    elements = [bootstrap.Element("L1", ()), bootstrap.Element("L1", ("a", "b")),
                bootstrap.Element("L2", ("c",)), bootstrap.Element("L2", ("z", "c", "a")),
                bootstrap.Element("L3", ("b",)), bootstrap.Element("L9", ("q",))]
    numbers = [3 * n + 1 for n in range(len(draws))]
    samples = bootstrap.SampleSet(numbers, [np.asarray(d, dtype=np.int32) for d in draws],
                                  elements)
    with mock.patch.object(sampleset, "_SAMPLES_A_BLOCK", block), \
            mock.patch.object(sampleset, "_COUNT_CELLS", cells), \
            mock.patch.object(sampleset, "_DRAWS_A_BLOCK", block_draws), \
            mock.patch.object(sampleset, "_PIECE_CHARACTERS", piece), \
            mock.patch.object(sampleset, "_LONG_SAMPLE", long_sample):
        text = samples.text()
        firsts = "".join(samples.lines(render=lambda e: e.members[0] if e.members else "-"))
        digest = bootstrap.samples_digest(samples)
        matrix = samples.multiplicities(["c", "a", "b"], first_only=first_only)
    assert text == "".join(" ".join([str(n)] + [elements[i].text() for i in draw]) + "\n"
                           for n, draw in zip(numbers, draws))
    assert firsts == "".join(" ".join([str(n)] + [(elements[i].members or ("-",))[0]
                                                  for i in draw]) + "\n"
                             for n, draw in zip(numbers, draws))
    fingerprint = [hashlib.sha256(e.text().encode()).digest()[:8] for e in elements]
    direct = hashlib.sha256(b"".join(f"#{n}:{len(draw)}".encode() + b"".join(
        fingerprint[i] for i in draw) for n, draw in zip(numbers, draws)))
    assert digest == direct.hexdigest()[:12]
    assert matrix.tolist() == [[sum((elements[i].members[:1] if first_only
                                     else elements[i].members).count(member) for i in draw)
                                for member in ("c", "a", "b")] for draw in draws]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.integers(0, 5), max_size=300), max_size=9), st.booleans(),
       st.integers(0, 9), st.integers(0, 9), st.booleans())
def test_kept_multiplicities_are_those_counted_again(draws, first_only, start, stop, many):
    """keep_multiplicities: counted once for ids, kept (as bytes where every
    count fits one; ``many``: a count above 255), then any block of samples is
    what counting it again gives, for the same list of ids or an equal one;
    other ids, first_only or a key are counted as before."""
    if many and draws:
        draws[0] = draws[0] + [2] * 300
    elements = [bootstrap.Element("L1", ()), bootstrap.Element("L1", ("a", "b")),
                bootstrap.Element("L2", ("c",)), bootstrap.Element("L2", ("z", "c", "a")),
                bootstrap.Element("L3", ("b",)), bootstrap.Element("L9", ("q",))]

    def sample_set():
        return bootstrap.SampleSet(list(range(1, len(draws) + 1)),
                                   [np.asarray(d, dtype=np.int32) for d in draws], elements)
    ids = ["c", "a", "b"]
    fresh, kept = sample_set(), sample_set()
    kept.keep_multiplicities(ids)
    assert kept.__dict__.get("_kept_counts") is not None
    for asked in (ids, list(ids)):
        got = kept.multiplicities(asked, start=start, stop=stop)
        assert got.dtype == np.int32
        assert got.tolist() == fresh.multiplicities(ids, start=start, stop=stop).tolist()
    for other in (["a", "c"], ["c", "a", "b", "z"]):
        assert kept.multiplicities(other, first_only=first_only).tolist() == \
            fresh.multiplicities(other, first_only=first_only).tolist()
    assert kept.multiplicities(ids, first_only=True).tolist() == \
        fresh.multiplicities(ids, first_only=True).tolist()
    assert kept.multiplicities(ids, key=str.upper).tolist() == \
        fresh.multiplicities(ids, key=str.upper).tolist()


def test_multiplicities_too_many_to_keep_are_counted_each_time(monkeypatch):
    samples = bootstrap.generate([(f"c{i}", (f"c{i}",)) for i in range(40)], 30, seed=2)
    monkeypatch.setattr(bootstrap.SampleSet, "KEPT_CELLS", 30 * 40 - 1)
    samples.keep_multiplicities([f"c{i}" for i in range(40)])
    assert samples.__dict__.get("_kept_counts") is None
    monkeypatch.setattr(bootstrap.SampleSet, "KEPT_CELLS", 30 * 40)
    samples.keep_multiplicities([f"c{i}" for i in range(40)])
    assert samples._kept_counts[1].dtype == np.uint8
    assert samples.multiplicities([f"c{i}" for i in range(40)]).sum() == 30 * 40
