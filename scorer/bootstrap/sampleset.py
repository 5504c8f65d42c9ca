"""Bootstrap samples as data (:class:`~scorer.bootstrap.sampleset.SampleSet`): reading and writing the
samples-file format, and the sample-by-item multiplicity matrix every
resampled statistic is gathered with (seeded generation:
``scorer/bootstrap/draws.py``).

The samples file is the one ``CS-GenerateSamples-MASTER.pl`` writes and
``CS-Score-MASTER.pl -samples`` reads (spec §6.1), one sample per line::

    <sample number> <GROUP>:<ID>[,<ID>...] <GROUP>:<ID>... ...

For Cold Start a group is an LDC query and its ids are the SF queries (entry
points) of that LDC query.  For the claim tasks every claim is its own group
and an element is just ``<ID>``.
"""
from __future__ import annotations

import dataclasses
import hashlib
import operator
from typing import Iterable, Optional, Sequence

import numpy as np

from scorer.limits import MAX_DIGITS, has_lone_surrogate, is_short_number, shorten
from scorer.problems import ScorerError
from scorer.textfile import open_input

#: Cells (samples x columns, and drawn columns) one counting step holds at a
#: time in ``SampleSet._count``: 32 MB of counts, whatever the number of samples.
_COUNT_CELLS = 4_000_000
#: Samples written (and fingerprinted) a block at a time, and their draws at most.
_SAMPLES_A_BLOCK = 10_000
_DRAWS_A_BLOCK = 200_000
#: Characters of the pieces the samples file is written in.
_PIECE_CHARACTERS = 1 << 16
#: Draws a sample from which it is counted alone (one bincount of its own: as
#: fast as any, and no larger blocks of memory); shorter ones, many at once.
_LONG_SAMPLE = 64


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
    #: The line each sample was read from, as ``numbers`` (None: generated).
    line_numbers: Optional[list] = None

    def __len__(self) -> int:
        return len(self.numbers)

    def text(self) -> str:
        """The samples file, one line per sample."""
        return "".join(self.lines())

    def lines(self, render=None):
        """The samples file, whole lines at a time (a generator: files of
        millions of samples are written without holding them whole): short
        lines gathered into pieces of about _PIECE_CHARACTERS, a long line (a
        sample of 2,000 LDC queries) alone, not copied once more.  ``render``
        maps an element to its text (default: the samples-file form)."""
        render = render or Element.text
        rendered = np.array([render(element) for element in self.elements] or [""], dtype=object)
        for numbers, lengths, drawn in self._blocks():
            texts = rendered[drawn].tolist()
            piece, size, position = [], 0, 0
            for number, length in zip(numbers, lengths):
                line = " ".join([str(number), *texts[position:position + length]]) + "\n"
                position += length
                if len(line) >= _PIECE_CHARACTERS:
                    if piece:
                        yield "".join(piece)
                        piece, size = [], 0
                    yield line
                    continue
                piece.append(line)
                size += len(line)
                if size >= _PIECE_CHARACTERS:
                    yield "".join(piece)
                    piece, size = [], 0
            if piece:
                yield "".join(piece)

    def _blocks(self):
        """(numbers, draw lengths, every draw's elements in one array) for each
        block of samples, of at most _SAMPLES_A_BLOCK samples and (but for a
        sample alone) _DRAWS_A_BLOCK draws: a million samples are a few hundred
        numpy calls, and 10,000 samples of 2,000 draws hold no more at a time."""
        lengths = np.fromiter(map(len, self.draws), dtype=np.int64, count=len(self.draws))
        ends = np.cumsum(lengths)
        first = 0
        while first < len(lengths):
            before = ends[first - 1] if first else 0
            stop = int(np.searchsorted(ends, before + _DRAWS_A_BLOCK, side="right"))
            stop = min(max(stop, first + 1), first + _SAMPLES_A_BLOCK)
            draws = self.draws[first:stop]
            drawn = np.concatenate(draws).astype(np.intp, copy=False) if ends[stop - 1] > before \
                else np.zeros(0, dtype=np.intp)
            yield self.numbers[first:stop], lengths[first:stop].tolist(), drawn
            first = stop

    def multiplicities(self, ids: Sequence[str], first_only: bool = False, key=None,
                       start: int = 0, stop: Optional[int] = None) -> np.ndarray:
        """Matrix (samples x ids): how often each id occurs in each sample.

        With ``first_only`` only the first member of each element counts (the
        Perl's ONE_ENTRYPOINT mode).  ``key`` maps a member id to the form
        ``ids`` use (e.g. an SF query's short id); members not in ``ids`` are
        ignored.  ``start``/``stop`` select a block of samples.
        """
        kept = self.__dict__.get("_kept_counts")
        if kept is not None and not first_only and key is None and \
                (ids is kept[0] or (type(ids) is list and ids == kept[0])):
            if ids is not kept[0]:
                self._kept_counts = (ids, kept[1])     # the next call: found at once
            return kept[1][start:stop].astype(np.int32)
        # The table of each element's columns, made once for the same ``ids``
        # (a claim run counts its samples a block at a time: a hundred
        # thousand elements' columns again for every block took 5 s a run).
        cached = self.__dict__.get("_columns_of")
        if cached is not None and cached[0] is ids and cached[1] == first_only and \
                cached[2] is key:
            return self._count_table(cached[3], len(ids), start, stop)
        position = {identifier: i for i, identifier in enumerate(ids)}
        members_key = key or (lambda member: member)
        columns = []
        for element in self.elements:
            members = element.members[:1] if first_only else element.members
            columns.append([column for column in map(position.get, map(members_key, members))
                            if column is not None])
        table = self._table(columns, len(ids))
        self._columns_of = (ids, first_only, key, table)
        return self._count_table(table, len(ids), start, stop)

    #: The most cells (samples x ids) :meth:`keep_multiplicities` keeps (as
    #: bytes where every count fits one: 256 MB).
    KEPT_CELLS = 1 << 28

    def keep_multiplicities(self, ids: Sequence[str]) -> None:
        """Count how often each of ``ids`` occurs in each sample now, and keep
        the matrix (as bytes where every count fits one): :meth:`multiplicities`
        of the same ids (equal, not only the same list) is then a slice of it.
        A track counts its samples so once, before its workers start, where
        every run counted them again (0.3 s a run of 100,000 claims by 1,000
        samples).  Nothing is kept for more than ``KEPT_CELLS`` cells."""
        if len(self) * len(ids) > self.KEPT_CELLS:
            return
        ids = list(ids)
        step = max(1, _COUNT_CELLS // max(len(ids), 1))
        blocks = []
        for start in range(0, len(self), step):
            block = self.multiplicities(ids, start=start, stop=min(start + step, len(self)))
            blocks.append(block.astype(np.uint8) if block.size and int(block.max()) < 256
                          else block)
        counts = np.concatenate(blocks) if blocks else np.zeros((0, len(ids)), dtype=np.uint8)
        self._kept_counts = (ids, counts)

    def group_multiplicities(self, groups: Sequence[str]) -> np.ndarray:
        """Matrix (samples x groups): how often each group is drawn in each sample."""
        position = {group: i for i, group in enumerate(groups)}
        return self._count([[position[element.group]] if element.group in position else []
                            for element in self.elements], len(groups), 0, None)

    def _count(self, columns: list, width: int, start: int, stop: Optional[int]) -> np.ndarray:
        """Matrix (samples start:stop x width): how often each column occurs,
        a draw of element e counting once in each of ``columns[e]``.  A table
        of each element's columns (padded with column ``width``, dropped), and
        a bincount a sample, or for short samples one over a block of them at
        a time, each sample's cells offset by its row: a million samples of
        one LDC query are a few numpy calls, not a million (faster than a
        sparse product or ``np.add.at`` too)."""
        return self._count_table(self._table(columns, width), width, start, stop)

    @staticmethod
    def _table(columns: list, width: int) -> Optional[np.ndarray]:
        """Each element's columns as a row, padded with column ``width``
        (dropped by the count); None when no element has a column."""
        most = max(map(len, columns), default=0)
        if not most or not width:
            return None
        table = np.full((len(columns), most), width, dtype=np.intp)
        for e, element_columns in enumerate(columns):
            table[e, :len(element_columns)] = element_columns
        return table

    def _count_table(self, table: Optional[np.ndarray], width: int, start: int,
                     stop: Optional[int]) -> np.ndarray:
        """:meth:`_count` with the elements' table made already."""
        draws = self.draws[start:stop]
        result = np.zeros((len(draws), width), dtype=np.int32)
        if table is None:
            return result
        most = table.shape[1]
        lengths = np.fromiter(map(len, draws), dtype=np.intp, count=len(draws))
        if len(draws) and lengths.mean() >= _LONG_SAMPLE:
            flat = table[:, 0] if most == 1 else table
            for i, draw in enumerate(draws):
                if len(draw):
                    result[i] = np.bincount(flat[draw].ravel(), minlength=width + 1)[:width]
            return result
        # Samples a block: the block's cells and its draws' columns stay small.
        rows = max(1, min(_COUNT_CELLS // (width + 1),
                          _COUNT_CELLS // max(1, most * int(lengths.max(initial=1)))))
        for first in range(0, len(draws), rows):
            block, counted = draws[first:first + rows], lengths[first:first + rows]
            if not counted.any():
                continue
            drawn = np.concatenate(block).astype(np.intp, copy=False)
            cells = table[drawn] + (np.repeat(np.arange(len(block)), counted)
                                    * (width + 1))[:, None]
            counts = np.bincount(cells.ravel(), minlength=len(block) * (width + 1))
            result[first:first + len(block)] = counts.reshape(len(block), width + 1)[:, :width]
        return result


def parse_samples(lines: Iterable, source: str = "samples") -> SampleSet:
    """Parse samples-file lines (text, or bytes as a binary file gives them);
    a later line with the same number replaces an earlier one."""
    parser = _SamplesParser(source)
    for line in lines:
        if isinstance(line, str):
            parser.text_line(line)
        else:
            parser.binary_line(line)
    return parser.sample_set()


#: Bytes after which a binary line is not split as text would split it: a
#: carriage return ends a line in text mode, and str.split() (unlike
#: bytes.split()) also splits on these separators.
_TEXT_ONLY_SEPARATORS = (b"\r", b"\x1c", b"\x1d", b"\x1e", b"\x1f")


class _SamplesParser:
    """The lines of a samples file in order: elements are keyed by the bytes
    of their token, so that the common line (ASCII, no odd separators) is
    split and looked up as bytes, without decoding its 100,000 characters;
    any other line is decoded (surrogateescape) and read as text, as text
    mode reads it (universal newlines, str.split)."""

    def __init__(self, source: str):
        self.source = source
        self.line_number = 0
        self.by_number: dict = {}
        self.element_index: dict = {}
        self.elements: list = []
        self.origins: list = []
        self.line_of_number: dict = {}      # (a later line of a number replaces it)

    def binary_line(self, line: bytes) -> None:
        if not line.isascii() or any(separator in line for separator in _TEXT_ONLY_SEPARATORS):
            text = line.decode("utf-8", "surrogateescape")
            pieces = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
            if pieces and pieces[-1] == "":
                pieces.pop()
            for piece in pieces:
                self.text_line(piece)
            return
        self.line_number += 1
        self._tokens(line.split())

    def text_line(self, line: str) -> None:
        self.line_number += 1
        self._tokens([token.encode("utf-8", "surrogateescape") for token in line.split()])

    def _tokens(self, tokens: list) -> None:
        """One line's tokens, as bytes."""
        if not tokens:
            return
        first = tokens[0]
        if not (first.isdigit() and is_short_number(first)):
            shown = first.decode("utf-8", "surrogateescape")
            raise ScorerError(f"{self.source} line {self.line_number}: a sample line must start "
                              f"with its sample number (a whole number of at most {MAX_DIGITS} "
                              f"digits), not '{shorten(shown)}'")
        number = int(first)
        drawn = tokens[1:]
        try:
            # Most lines draw only elements seen before: looked up in one C
            # loop (itemgetter of one key gives the value, not a tuple).
            indices = (operator.itemgetter(*drawn)(self.element_index) if len(drawn) > 1
                       else [self.element_index[token] for token in drawn])
        except KeyError:
            indices = [self._index(token) for token in drawn]
        # fromiter: a third faster than np.array on a tuple of 2,000 ints (it
        # need not find the tuple's shape and type first)
        draw = np.fromiter(indices, dtype=np.int32, count=len(indices))
        self.by_number[number] = draw
        self.line_of_number[number] = self.line_number

    def _index(self, token: bytes) -> int:
        index = self.element_index.get(token)
        if index is not None:
            return index
        text = token.decode("utf-8", "surrogateescape")
        if ":" in text:
            group, members = text.split(":", 1)
            element = Element(group, tuple(m for m in members.split(",") if m))
        else:
            element = Element(text, (text,))
        if has_lone_surrogate(text):
            raise ScorerError(f"{self.source} line {self.line_number}: not valid UTF-8 "
                              f"(in '{token!r}')")
        index = self.element_index[token] = len(self.elements)
        self.elements.append(element)
        self.origins.append(self.line_number)
        return index

    def sample_set(self) -> SampleSet:
        numbers = sorted(self.by_number)
        return SampleSet(numbers, [self.by_number[n] for n in numbers], self.elements,
                         [(self.source, line) for line in self.origins],
                         [self.line_of_number[n] for n in numbers])


#: Bytes read from a samples file at once.
_READ_BUFFER = 1 << 20


def read_samples(path: str) -> SampleSet:
    # A large buffer: lines of 100,000 characters are read in one piece
    # rather than grown 8 KiB at a time (a fifth of the parse).
    f = open_input(path, buffering=_READ_BUFFER)
    try:
        with f:
            return parse_samples(f, path)
    except OSError as error:
        raise ScorerError(f"Could not read {path}: {error.strerror}")


def samples_digest(samples: Optional[SampleSet]) -> str:
    """A short fingerprint of the samples (for ``.params`` signatures)."""
    if samples is None:
        return "none"
    known = samples.__dict__.get("_digest")
    if known is not None:
        return known        # (a track's runs share the samples: made once, before forking)
    # Over each sample's sequence of element fingerprints: defined by the
    # content (a file and the generator give the same digest for the same
    # samples) and much cheaper than hashing the text.
    fingerprints = np.array([int.from_bytes(hashlib.sha256(e.text().encode("utf-8")).digest()[:8],
                                            "little") for e in samples.elements] or [0],
                            dtype="<u8")
    digest = hashlib.sha256()
    # Per sample "#N:LENGTH" and its elements' fingerprints, a block at a time.
    for numbers, lengths, drawn in samples._blocks():
        data = fingerprints[drawn].tobytes()
        parts, position = [], 0
        for number, length in zip(numbers, lengths):
            parts.append(f"#{number}:{length}".encode("ascii"))
            parts.append(data[position:position + 8 * length])
            position += 8 * length
        digest.update(b"".join(parts))
    samples._digest = digest.hexdigest()[:12]
    return samples._digest
