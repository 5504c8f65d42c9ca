"""Bootstrap samples: the seeded generator, the samples-file format, and the
Cold Start bootstrap reports (spec §6)."""
from __future__ import annotations

import os
import shutil

import numpy as np

from coldstart_cases import score
from golden import FIXTURES
from scorer import bootstrap
from scorer.coldstart.reports.confidence import interval_line
from scorer.samples import main as samples_main

DEMO = os.path.join(FIXTURES, "coldstart", "demo", "input")


def test_same_seed_same_bytes_and_a_known_first_line(tmp_path):
    first, again, other = (tmp_path / name for name in ("a.txt", "b.txt", "c.txt"))
    qids = os.path.join(DEMO, "qids.txt")
    assert samples_main(["-seed", "7", "-output_file", str(first), "200", qids]) == 0
    assert samples_main(["-seed", "7", "-output_file", str(again), "200", qids]) == 0
    assert samples_main(["-seed", "8", "-output_file", str(other), "200", qids]) == 0
    assert first.read_bytes() == again.read_bytes()
    assert first.read_bytes() != other.read_bytes()
    # Pinned: the generator reads only numpy's raw PCG64 stream, which is stable.
    assert first.read_text().splitlines()[0] == (
        "1 CS17_0002:CSSF17_ENG_3f0bc7c062 CS17_0003:CSSF17_SPA_9aae9b619c "
        "CS17_0003:CSSF17_SPA_9aae9b619c")


def test_generated_samples_draw_every_group_with_all_its_members():
    groups = [("L2", ("b1",)), ("L1", ("a1", "a2", "a3"))]
    samples = bootstrap.generate(groups, 400, seed=0)
    assert samples.numbers == list(range(1, 401))
    firsts = {}
    for draw in samples.draws:
        assert len(draw) == 2
        for index in draw:
            element = samples.elements[index]
            expected = dict(groups)[element.group]
            assert sorted(element.members) == sorted(expected)
            firsts[element.members[0]] = firsts.get(element.members[0], 0) + 1
    # each member of L1 comes first about a third of the times L1 is drawn
    l1 = sum(count for member, count in firsts.items() if member.startswith("a"))
    for member in ("a1", "a2", "a3"):
        assert abs(firsts[member] / l1 - 1 / 3) < 0.1


def test_samples_file_round_trip_and_multiplicities():
    text = "2 L1:a,b L2:c\n1 L1:b,a L1:b,a\n2 L2:c L2:c\n"
    samples = bootstrap.parse_samples(text.splitlines(True))
    assert samples.numbers == [1, 2]          # numeric order; the later line 2 wins
    assert samples.text() == "1 L1:b,a L1:b,a\n2 L2:c L2:c\n"
    everything = samples.multiplicities(["a", "b", "c"])
    first_only = samples.multiplicities(["a", "b", "c"], first_only=True)
    assert everything.tolist() == [[2, 2, 0], [0, 0, 2]]
    assert first_only.tolist() == [[0, 2, 0], [0, 0, 2]]


def test_missing_values_sort_before_zeros_and_print_empty():
    texts = [None, "0.0000", "0.5000", None, "1.0000"]
    line = interval_line("ALLEP_SLOTFLG_Mi_1_P", texts, None)
    # n = 5: every bound is index 0 (low) or 3 (high); index 0 is a missing value
    assert line == "ALLEP_SLOTFLG_Mi_1_P    0.3000      - 0.5000 0.5000 0.5000\n"


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


def test_samplescores_cells_from_the_table_equal_formatting():
    import numpy as np
    from scorer.coldstart.reports.confidence import render_samplescores
    from scorer.coldstart.resample import round4
    rng = np.random.default_rng(3)
    codes = ["A", "B", "C"]
    for scale in (1.0, 3.0):             # 3.0: values above 1 take the formatting path
        values = round4(rng.random((40, 3)) * scale)
        values[rng.random((40, 3)) < 0.2] = np.nan
        text = "".join(render_samplescores(list(range(1, 41)), codes,
                                           {c: values[:, j] for j, c in enumerate(codes)},
                                           "R%1")())
        expected = "Sample# A B C #RUNID\n" + "".join(
            "%6d" % (i + 1) + "".join("               %0.4f" % (0.0 if np.isnan(v) else v)
                                      for v in values[i]) + " #R%1\n" for i in range(40))
        assert text == expected
