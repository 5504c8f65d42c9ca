"""Bootstrap samples drawn with a seed: the Perl generator's rule
(:func:`~scorer.bootstrap.draws.generate`: as many groups as there are, uniformly with replacement,
each with its members in a uniformly random order), whole clusters
(:func:`~scorer.bootstrap.draws.generate_clustered`), read from the raw PCG64 stream of numpy's
``default_rng(seed)`` so that the same seed gives the same samples on every
machine and numpy version; the bounds on what one run may draw, and the
``-seed`` switch's value.
"""
from __future__ import annotations

import itertools
from typing import Sequence

import numpy as np

from scorer.bootstrap.sampleset import Element, SampleSet
from scorer.limits import shorten
from scorer.problems import ScorerError

#: Groups with at most this many ids get a uniform random order from one
#: random number (an index into all their permutations); larger groups fall
#: back to one shuffle each.
_MAX_TABULATED_GROUP = 6

#: The most samples one run may draw; more is a typing mistake, not a bootstrap.
MAX_SAMPLES = 10_000_000
#: The most draws (samples x groups) one run may make: the draws are kept (4
#: bytes each) and written out as text (several bytes each).
MAX_DRAWS = 200_000_000
#: Draws made at once: bounds the memory of the random numbers whatever N.
_CHUNK_DRAWS = 1_000_000


def check_size(n_samples: int, n_groups: int, what: str = "-bootstrap") -> None:
    """Refuse, before any work, a bootstrap whose samples would not fit (say how large)."""
    if n_samples > MAX_SAMPLES:
        raise ScorerError(f"{what} {n_samples:,}: at most {MAX_SAMPLES:,} samples")
    draws = n_samples * n_groups
    if draws > MAX_DRAWS:
        raise ScorerError(f"{what} {n_samples:,} over {n_groups:,} groups would draw "
                          f"{draws:,} items: {draws * 4 / 2 ** 30:,.1f} GiB of memory for the "
                          f"draws alone, and more for their text; at most {MAX_DRAWS:,} draws "
                          f"(fewer samples, or fewer queries or claims)")


#: The most text the bootstrap reports of one run may take.
MAX_REPORT_BYTES = 2 << 30


def check_report_size(n_bytes: int, what: str) -> None:
    """Refuse, before any work, bootstrap reports too large to be of use (say how large)."""
    if n_bytes > MAX_REPORT_BYTES:
        raise ScorerError(f"{what}: the bootstrap reports would take about "
                          f"{n_bytes / 2 ** 30:,.1f} GiB; at most {MAX_REPORT_BYTES / 2 ** 30:.0f} "
                          f"GiB (fewer samples or run ids)")


def _element_table(groups: list) -> tuple:
    """``(elements, offsets, orderings)``: for each group every ordering of its
    members (a group of at most _MAX_TABULATED_GROUP members; a larger one is
    one element, its members shuffled per draw), so that a sample is a row of
    indices into one table; each group's first element, and its number of
    orderings (0: too big to tabulate)."""
    elements: list = []
    offsets = np.zeros(len(groups), dtype=np.int64)
    orderings = np.zeros(len(groups), dtype=np.int64)
    for g, (group, members) in enumerate(groups):
        offsets[g] = len(elements)
        if len(members) <= _MAX_TABULATED_GROUP:
            perms = list(itertools.permutations(members)) or [()]
            orderings[g] = len(perms)
            elements.extend(Element(group, p) for p in perms)
        else:
            elements.append(Element(group, members))
    return elements, offsets, orderings


def generate(groups: Sequence[tuple], n_samples: int, seed: int) -> SampleSet:
    """Draw ``n_samples`` samples with numpy's ``default_rng(seed)``.

    ``groups`` is a list of ``(group id, member ids)``; the Perl generator's
    rule: each sample draws as many groups as there are, uniformly with
    replacement from the groups in string order, each written with all its
    members in a uniformly random order.  The same seed gives the same samples
    on every machine and numpy version (only the raw PCG64 stream is used).

    The stream is read as three runs: the groups drawn (samples x groups
    numbers), the orderings chosen (as many), then one shuffle per draw of a
    group too big to tabulate.  Samples are made a block at a time, each
    block reading its own part of the runs (PCG64 can jump ahead), so memory
    does not grow with the number of samples beyond the samples kept.
    """
    if n_samples < 0:
        raise ScorerError("the number of bootstrap samples must not be negative")
    groups = sorted((str(g), tuple(m)) for g, m in groups)
    n_groups = len(groups)
    check_size(n_samples, n_groups)
    if n_groups == 0 or n_samples == 0:
        return SampleSet(list(range(1, n_samples + 1)), [np.zeros(0, np.int32)] * n_samples, [])
    elements, offsets, orderings = _element_table(groups)
    large = np.flatnonzero(orderings == 0)
    total = n_samples * n_groups
    draw_bits = _bits(seed, 0)
    choice_bits = _bits(seed, total)
    shuffle_bits = _bits(seed, 2 * total)
    rows_per_chunk = max(1, _CHUNK_DRAWS // n_groups)
    draws: list = []
    for start in range(0, n_samples, rows_per_chunk):
        rows = min(rows_per_chunk, n_samples - start)
        chosen = np.minimum((_uniform(draw_bits, (rows, n_groups)) * n_groups).astype(np.int64),
                            n_groups - 1)
        choice = _uniform(choice_bits, (rows, n_groups))
        ordering = np.minimum((choice * orderings[chosen]).astype(np.int64),
                              np.maximum(orderings[chosen] - 1, 0))
        table_index = (offsets[chosen] + ordering).astype(np.int32)
        first = len(draws)
        draws.extend(table_index)
        if len(large):
            # Rare: groups too big to tabulate get one shuffle per draw.
            for i, row in enumerate(chosen):
                for j in np.flatnonzero(np.isin(row, large)):
                    group, members = groups[row[j]]
                    order = np.argsort(_uniform(shuffle_bits, len(members)), kind="stable")
                    elements.append(Element(group, tuple(members[k] for k in order)))
                    draws[first + i][j] = len(elements) - 1
    return SampleSet(list(range(1, n_samples + 1)), draws, elements)


def generate_clustered(clusters: Sequence[tuple], n_samples: int, seed: int) -> SampleSet:
    """Draw ``n_samples`` samples of whole clusters with numpy's ``default_rng(seed)``.

    ``clusters`` is a list of ``(cluster id, [(group id, member ids), ...])``: each
    sample draws as many clusters as there are, uniformly with replacement from
    the clusters in string order, and writes every group of each drawn cluster
    (in string order), each with its members in a uniformly random order, as
    :func:`generate` writes a group.  The stream is read as two runs: the
    clusters drawn (samples x clusters numbers), then one number per group
    written (its ordering) or, for a group too big to tabulate, one per member."""
    if n_samples < 0:
        raise ScorerError("the number of bootstrap samples must not be negative")
    clusters = sorted((str(c), sorted((str(g), tuple(m)) for g, m in groups))
                      for c, groups in clusters)
    n_clusters = len(clusters)
    groups = [group for _cluster, members in clusters for group in members]
    check_size(n_samples, len(groups))
    if n_clusters == 0 or n_samples == 0:
        return SampleSet(list(range(1, n_samples + 1)), [np.zeros(0, np.int32)] * n_samples, [])
    sizes = np.array([len(members) for _cluster, members in clusters], dtype=np.int64)
    first_group = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    elements, offsets, orderings = _element_table(groups)
    draw_bits = _bits(seed, 0)
    choice_bits = _bits(seed, n_samples * n_clusters)
    draws: list = []
    for _sample in range(n_samples):
        chosen = np.minimum((_uniform(draw_bits, n_clusters) * n_clusters).astype(np.int64),
                            n_clusters - 1)
        lengths = sizes[chosen]
        total = int(lengths.sum())
        # the groups written: each drawn cluster's groups, one after the other
        starts = np.repeat(first_group[chosen] - np.concatenate([[0], np.cumsum(lengths)[:-1]]),
                           lengths)
        written = starts + np.arange(total)
        choice = _uniform(choice_bits, total)
        ordering = np.minimum((choice * orderings[written]).astype(np.int64),
                              np.maximum(orderings[written] - 1, 0))
        row = (offsets[written] + ordering).astype(np.int32)
        for j in np.flatnonzero(orderings[written] == 0):
            # Rare: a group too big to tabulate gets one shuffle per draw.
            group, members = groups[written[j]]
            order = np.argsort(_uniform(choice_bits, len(members)), kind="stable")
            elements.append(Element(group, tuple(members[k] for k in order)))
            row[j] = len(elements) - 1
        draws.append(row)
    return SampleSet(list(range(1, n_samples + 1)), draws, elements)


def _bits(seed: int, skip: int):
    """The PCG64 stream of ``default_rng(seed)``, ``skip`` numbers on."""
    bits = np.random.default_rng(seed).bit_generator
    if skip:
        bits.advance(skip)
    return bits


def _uniform(bits, shape) -> np.ndarray:
    """Doubles in [0, 1) from the raw 64-bit stream of the bit generator, whose
    output numpy keeps stable across versions (unlike Generator methods)."""
    raw = bits.random_raw(int(np.prod(shape)))
    return ((raw >> np.uint64(11)).astype(np.float64) * (1.0 / 9007199254740992.0)).reshape(shape)


def doubles(seed: int, skip: int, out: np.ndarray) -> None:
    """Fill ``out`` with the doubles in [0, 1) that :func:`generate` draws
    from ``default_rng(seed)``'s PCG64 stream, ``skip`` numbers on: each raw
    64-bit number's top 53 bits over 2**53.  numpy's ``Generator.random``
    makes them so in one step where it does (checked once: numpy promises its
    bit generators' streams, not its Generator methods'), else they are made
    from the raw numbers."""
    stream_of_doubles(seed, skip)(out)


def stream_of_doubles(seed: int, skip: int):
    """A function that fills the array it is given with the next doubles of
    the stream :func:`doubles` reads (``skip`` numbers on at the first call),
    each call going on where the last one stopped."""
    bits = _bits(seed, skip)
    if _random_is_raw():
        generator = np.random.Generator(bits)

        def fill(out: np.ndarray) -> None:
            generator.random(out=out)
        return fill

    def fill_from_raw(out: np.ndarray) -> None:
        size = len(out)
        step = 1 << 20
        for start in range(0, size, step):
            raw = bits.random_raw(min(step, size - start))
            np.multiply(raw >> np.uint64(11), 1.0 / 9007199254740992.0,
                        out=out[start:start + len(raw)])
    return fill_from_raw


_RANDOM_IS_RAW = None


def _random_is_raw() -> bool:
    """Whether ``Generator.random`` gives ``(raw >> 11) / 2**53`` of one raw number each."""
    global _RANDOM_IS_RAW
    if _RANDOM_IS_RAW is None:
        raw_bits, generator_bits = _bits(20261127, 0), _bits(20261127, 0)
        expected = (raw_bits.random_raw(257) >> np.uint64(11)).astype(np.float64) \
            * (1.0 / 9007199254740992.0)
        got = np.random.Generator(generator_bits).random(257)
        _RANDOM_IS_RAW = bool(np.array_equal(expected, got)) and \
            raw_bits.random_raw() == generator_bits.random_raw()
    return _RANDOM_IS_RAW


def seed_from_text(text: str) -> int:
    """A seed switch value as an integer (0 is a real seed, not 'no seed')."""
    if isinstance(text, str) and len(text.strip().lstrip("+-").lstrip("0")) > 39:
        raise ScorerError(f"-seed is too large ({shorten(text.strip())}); at most 39 digits")
    try:
        seed = int(text)
    except (TypeError, ValueError):
        raise ScorerError(f"-seed must be a whole number, not '{shorten(str(text))}'")
    if seed < 0:
        raise ScorerError(f"-seed must not be negative, not '{text}'")
    return seed
