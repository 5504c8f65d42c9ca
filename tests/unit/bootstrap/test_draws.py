"""scorer/bootstrap/draws.py: seeded samples, the same bytes for the same
seed (the first line pinned), every group drawn with all its members in a
uniformly random order."""
from __future__ import annotations

import os

from scorer import bootstrap
from scorer.samples.__main__ import main as samples_main

from golden import FIXTURES

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


def test_generator_random_is_read_as_the_raw_stream_where_numpy_makes_it_so():
    """bootstrap.doubles: Generator.random where it is (raw >> 11) / 2**53 of
    one raw number each, which the check finds on this numpy; the numbers
    generate draws from, read from where a block of samples starts."""
    import numpy as np
    from scorer.bootstrap import draws
    draws._RANDOM_IS_RAW = None
    assert draws._random_is_raw()
    out = np.empty(1000)
    bootstrap.doubles(11, 12345, out)
    raw = np.random.default_rng(11).bit_generator
    raw.advance(12345)
    raw = raw.random_raw(1000)
    assert np.array_equal(out, (raw >> np.uint64(11)).astype(np.float64) / 2.0 ** 53)
