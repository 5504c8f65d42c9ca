"""Bootstrap samples: reading and writing the samples-file format, seeded
generation, and the sample-by-item multiplicity matrix every resampled
statistic is gathered with.

The samples file is the one ``CS-GenerateSamples-MASTER.pl`` writes and
``CS-Score-MASTER.pl -samples`` reads (spec §6.1), one sample per line::

    <sample number> <GROUP>:<ID>[,<ID>...] <GROUP>:<ID>... ...

For Cold Start a group is an LDC query and its ids are the SF queries (entry
points) of that LDC query.  For the claim tasks every claim is its own group
and an element is just ``<ID>``.
"""
from __future__ import annotations

import dataclasses
import itertools
from typing import Iterable, Optional, Sequence

import numpy as np

from scorer.limits import MAX_DIGITS, has_lone_surrogate, is_short_number, shorten
from scorer.problems import ScorerError

#: Groups with at most this many ids get a uniform random order from one
#: random number (an index into all their permutations); larger groups fall
#: back to one shuffle each.
_MAX_TABULATED_GROUP = 6


@dataclasses.dataclass(frozen=True)
class Element:
    """One drawn group: its id and its member ids in the order written."""

    group: str
    members: tuple

    def text(self) -> str:
        if len(self.members) == 1 and self.members[0] == self.group:
            return self.group
        return f"{self.group}:{','.join(self.members)}"


@dataclasses.dataclass
class SampleSet:
    """Samples in numeric order of their sample numbers.

    ``elements`` is the table of distinct elements; ``draws[i]`` lists, for
    sample ``numbers[i]``, the indices into that table in file order.
    """

    numbers: list
    draws: list
    elements: list
    #: Where each element was first read: ``(file, line)`` (None: generated).
    origins: Optional[list] = None

    def __len__(self) -> int:
        return len(self.numbers)

    def text(self) -> str:
        """The samples file, one line per sample."""
        return "".join(self.lines())

    def lines(self, render=None):
        """The samples file line by line (a generator: files of thousands of
        samples are written without holding them whole).  ``render`` maps an
        element to its text (default: the samples-file form)."""
        render = render or Element.text
        rendered = np.array([render(element) for element in self.elements] or [""], dtype=object)
        for number, draw in zip(self.numbers, self.draws):
            parts = rendered[np.asarray(draw, dtype=np.intp)] if len(draw) else []
            yield " ".join([str(number), *parts]) + "\n"

    def multiplicities(self, ids: Sequence[str], first_only: bool = False, key=None,
                       start: int = 0, stop: Optional[int] = None) -> np.ndarray:
        """Matrix (samples x ids): how often each id occurs in each sample.

        With ``first_only`` only the first member of each element counts (the
        Perl's ONE_ENTRYPOINT mode).  ``key`` maps a member id to the form
        ``ids`` use (e.g. an SF query's short id); members not in ``ids`` are
        ignored.  ``start``/``stop`` select a block of samples.
        """
        from scipy import sparse
        position = {identifier: i for i, identifier in enumerate(ids)}
        key = key or (lambda member: member)
        incidence_rows, incidence_cols = [], []
        for e, element in enumerate(self.elements):
            members = element.members[:1] if first_only else element.members
            for member in members:
                column = position.get(key(member))
                if column is not None:
                    incidence_rows.append(e)
                    incidence_cols.append(column)
        draws = self.draws[start:stop]
        n_samples = len(draws)
        if not incidence_rows or not n_samples or not self.elements:
            return np.zeros((n_samples, len(ids)), dtype=np.int32)
        lengths = [len(draw) for draw in draws]
        sample_rows = np.repeat(np.arange(n_samples), lengths)
        element_cols = (np.concatenate([np.asarray(d, dtype=np.int64) for d in draws])
                        if sum(lengths) else np.zeros(0, dtype=np.int64))
        drawn = sparse.csr_matrix((np.ones(len(element_cols), dtype=np.int32),
                                   (sample_rows, element_cols)),
                                  shape=(n_samples, len(self.elements)))
        incidence = sparse.csr_matrix((np.ones(len(incidence_rows), dtype=np.int32),
                                       (incidence_rows, incidence_cols)),
                                      shape=(len(self.elements), len(ids)))
        return (drawn @ incidence).toarray().astype(np.int32)

    def group_multiplicities(self, groups: Sequence[str]) -> np.ndarray:
        """Matrix (samples x groups): how often each group is drawn in each sample."""
        position = {group: i for i, group in enumerate(groups)}
        column_of_element = np.array([position.get(e.group, -1) for e in self.elements] or [-1],
                                     dtype=np.int64)
        result = np.zeros((len(self.draws), len(groups)), dtype=np.int32)
        lengths = [len(draw) for draw in self.draws]
        if not sum(lengths):
            return result
        rows = np.repeat(np.arange(len(self.draws)), lengths)
        columns = column_of_element[np.concatenate([np.asarray(d, dtype=np.intp)
                                                    for d in self.draws])]
        kept = columns >= 0
        np.add.at(result, (rows[kept], columns[kept]), 1)
        return result


def parse_samples(lines: Iterable[str], source: str = "samples") -> SampleSet:
    """Parse samples-file lines; a later line with the same number replaces an earlier one."""
    by_number: dict = {}
    element_index: dict = {}
    elements: list = []
    origins: list = []
    known = element_index.__getitem__
    for line_number, line in enumerate(lines, 1):
        tokens = line.split()
        if not tokens:
            continue
        if not (tokens[0].isascii() and tokens[0].isdigit() and is_short_number(tokens[0])):
            raise ScorerError(f"{source} line {line_number}: a sample line must start with "
                              f"its sample number (a whole number of at most {MAX_DIGITS} "
                              f"digits), not '{shorten(tokens[0])}'")
        number = int(tokens[0])
        try:
            # Most lines draw only elements seen before: looked up in one C loop.
            draw = np.fromiter(map(known, itertools.islice(tokens, 1, None)), dtype=np.int32,
                               count=len(tokens) - 1)
        except KeyError:
            draw = []
            for token in tokens[1:]:
                index = element_index.get(token)
                if index is None:
                    if ":" in token:
                        group, members = token.split(":", 1)
                        element = Element(group, tuple(m for m in members.split(",") if m))
                    else:
                        element = Element(token, (token,))
                    if has_lone_surrogate(token):
                        raise ScorerError(f"{source} line {line_number}: not valid UTF-8 "
                                          f"(in '{token.encode('utf-8', 'surrogateescape')!r}')")
                    index = element_index[token] = len(elements)
                    elements.append(element)
                    origins.append(line_number)
                draw.append(index)
            draw = np.asarray(draw, dtype=np.int32)
        by_number[number] = draw
    numbers = sorted(by_number)
    return SampleSet(numbers, [by_number[n] for n in numbers], elements,
                     [(source, line) for line in origins])


def read_samples(path: str) -> SampleSet:
    try:
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            return parse_samples(f, path)
    except OSError as error:
        raise ScorerError(f"Could not open {path}: {error.strerror}")


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
    # Element table: for each group every ordering of its members (small groups),
    # so that a sample is a row of indices into one table.
    elements: list = []
    offsets = np.zeros(n_groups, dtype=np.int64)
    orderings = np.zeros(n_groups, dtype=np.int64)
    for g, (group, members) in enumerate(groups):
        offsets[g] = len(elements)
        if len(members) <= _MAX_TABULATED_GROUP:
            perms = list(itertools.permutations(members)) or [()]
            orderings[g] = len(perms)
            elements.extend(Element(group, p) for p in perms)
        else:
            orderings[g] = 0
            elements.append(Element(group, members))
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


def read_groups(path: str) -> list:
    """Read an ids file: ``GROUP ID [ANYTHING]`` lines (Cold Start ``qids.txt``),
    or one ``ID`` per line (claim tasks: each id its own group).

    Members keep their first-seen order; repeated lines are ignored.
    """
    from scorer.textfile import read_text
    groups: dict = {}
    # Universal newlines, as text mode reads them.
    for line in read_text(path).replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        fields = line.split()
        if not fields:
            continue
        group, member = (fields[0], fields[1]) if len(fields) > 1 else (fields[0], fields[0])
        groups.setdefault(group, {})[member] = None
    return [(group, tuple(members)) for group, members in groups.items()]


def samples_digest(samples: Optional[SampleSet]) -> str:
    """A short fingerprint of the samples (for ``.params`` signatures)."""
    import hashlib
    if samples is None:
        return "none"
    # Over each sample's sequence of element fingerprints: defined by the
    # content (a file and the generator give the same digest for the same
    # samples) and much cheaper than hashing the text.
    fingerprints = np.array([int.from_bytes(hashlib.sha256(e.text().encode("utf-8")).digest()[:8],
                                            "little") for e in samples.elements] or [0],
                            dtype="<u8")
    digest = hashlib.sha256()
    for number, draw in zip(samples.numbers, samples.draws):
        digest.update(f"#{number}:{len(draw)}".encode("ascii"))
        digest.update(fingerprints[np.asarray(draw, dtype=np.intp)].tobytes())
    return digest.hexdigest()[:12]


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
