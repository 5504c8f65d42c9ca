"""Reading a ``.debug`` report back into keyed rows, for ``python -m scorer.diff``.

Two layouts are read, each by the task whose ``.debug`` it is (the task's
record says which: ``Task.read_debug``):

* Cold Start (ours, and CS-Score-MASTER.pl 2017.2.0's, which is the same
  layout, spec §5.4): per run, part 1 lists per SF row the responses whose
  post-policy labels differ from their pre-policy category; part 2 shows each
  AP computation (ground truth, ranking, mapped ECs, V);
* blocks of facts (SciFact and FEVER, ``scorer/countstable/reports.py``, and any
  task whose record gives a layout): a ``#task:`` header, then one block of
  facts per claim (item); a :class:`BlockLayout` of the task says how its
  blocks begin and end and what of their facts scores.

The diff is the one reader of ``.debug`` (the design keeps every other step on
the counts tables); a file that ends early or does not have one of these
layouts is an error naming the file and line.
"""
from __future__ import annotations

import dataclasses
from typing import Optional

from scorer.problems import ScorerError
from scorer.textfile import read_text

RULE = "=" * 80
DOTS = "." * 80
AP_BEGINS = "AP COMPUTATION DEBUG INFO BEGINS:"
AP_ENDS = "AP COMPUTATION DEBUG INFO ENDS"
RANKING_HEADER = "RANK NODEID CONFIDENCE MAPPED_EC V"
#: The fields of one response of part 1, in file order.
RESPONSE_FIELDS = ("FQNODEID", "SUBMISSION", "TARGET_QID", "ASSESSMENT")
#: The eight lines of a response entry, as they begin.
ENTRY_PREFIXES = (*(f"\t{name}:\t" for name in RESPONSE_FIELDS), "",
                  "\tPREPOLICY ASSESSMENT:\t", "\tPOSTPOLICY ASSESSMENT:\t", DOTS)


@dataclasses.dataclass(frozen=True)
class Response:
    """One response listed in part 1 of a Cold Start ``.debug``."""

    row: str             # the SF row (``Q`` at hop 0, ``Q:1`` ... below)
    submission: str      # the submission line (the alignment key)
    fqnodeid: str
    target_qid: str
    assessment: str      # the qrel line it matched, or ``-``
    prepolicy: str
    postpolicy: str      # the labels, as the file joins them
    line: int            # where its entry starts in the file

    @property
    def query(self) -> str:
        return self.row.split(":", 1)[0]

    @property
    def hop(self) -> int:
        return self.row.count(":")


@dataclasses.dataclass(frozen=True)
class RankEntry:
    rank: int
    nodeid: str
    confidence: str
    mapped_ec: str
    v: str


@dataclasses.dataclass(frozen=True)
class APComputation:
    """One AP block of part 2 (a query at one level: 0, 1, ..., ALL)."""

    query: str
    level: str
    ap: str
    ground_truth_count: str
    ground_truth: tuple
    ranking: tuple       # of RankEntry, in rank order
    line: int


def exact_ap(computation: APComputation):
    """The AP of a computation at full precision, from its ranking and ground
    truth (as the scorer computes it, so the very same double), or None when
    a node's V is a fraction (printed to 4 decimals: only the printed AP is
    known then) or the printed AP is not what the ranking gives."""
    if any(entry.v not in ("0.0000", "1.0000") for entry in computation.ranking):
        return None
    try:
        ground_truth = int(computation.ground_truth_count or 0)
    except ValueError:
        return None
    running = total = 0.0
    for entry in computation.ranking:
        if entry.v == "1.0000":
            running += 1.0
            total += running / entry.rank
    value = total / ground_truth if ground_truth else 0.0
    return value if "%0.4f" % value == computation.ap else None


@dataclasses.dataclass
class ColdStartDebug:
    path: str
    responses: list      # of Response, file order
    rows: list           # SF row names, file order (with or without responses)
    ap: dict             # (run, query, level) -> APComputation; run '' if only one
    task: str = ""       # the task whose .debug it is


@dataclasses.dataclass(frozen=True)
class Claim:
    """One block of a ``.debug`` of blocks (a claim, an item): what scores,
    and the evidence it was scored on."""

    id: str
    label: str           # RIGHT or WRONG
    strict: tuple        # FEVER: (YES|NO,); SciFact: the rationalized abstracts
    evidence: frozenset  # FEVER: sentences read; SciFact: ``doc:sentence``
    scores: tuple        # (name, value) pairs: the per-claim counts
    line: int
    predicted: str = ""  # the predicted label (SUPPORTS, NOT ENOUGH INFO...)
    gold: str = ""       # the gold label


@dataclasses.dataclass(frozen=True)
class BlockLayout:
    """How a task's ``.debug`` of blocks is read and its changes told:
    ``head``, the word a block starts with (CLAIM, ITEM); ``last_fact``, the
    fact that ends a complete block; ``entry(id, facts, line)``, the block's
    :class:`Claim`; ``strict``, what its ``strict`` values are called in a
    block's state and in a change (empty: the task has none), and how none
    is shown."""

    head: str
    last_fact: str
    entry: object
    strict: tuple = ()   # (in a state, in a change, when none)


@dataclasses.dataclass
class ClaimsDebug:
    path: str
    task: str            # the task whose .debug it is
    claims: list         # of Claim, file order
    layout: BlockLayout = None


def read(path: str):
    """A ``ColdStartDebug`` or a ``ClaimsDebug``, read by the task whose
    ``.debug`` it is (its first line says: a ``#task:`` header, or the Perl's
    layout); ScorerError naming file and line when the file ends early or has
    an unknown layout."""
    lines = read_text(path).split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    else:
        # Every layout ends with a newline: a missing one means a cut file.
        if lines:
            raise ScorerError(f"{path} line {len(lines)}: the file is truncated "
                              f"(its last line does not end)")
    if not lines:
        raise ScorerError(f"{path} line 1: empty file: not a .debug report")
    from scorer import registry
    first = lines[0]
    named = first[1:].split(":", 1)[0] if first.startswith("#") and ":" in first else None
    headed = [record for record in registry.every() if record.debug_header]
    for record in headed:
        if record.name == named:
            return record.read_debug(path, lines)
    if first in (RULE, "", AP_BEGINS):
        perl = [record for record in registry.every() if not record.debug_header]
        if perl:
            return perl[0].read_debug(path, lines)
    shown = "/".join(f"'#{record.name}:'" for record in headed)
    raise ScorerError(f"{path} line 1: unknown .debug layout: expected a Cold Start "
                      f"report (a '=' rule) or a {shown} header, "
                      f"found '{_clip(first)}'")


def _clip(text: str, width: int = 60) -> str:
    return text if len(text) <= width else text[:width] + "..."


class _Reader:
    def __init__(self, path: str, lines: list):
        self.path = path
        self.lines = lines
        self.i = 0

    def fail(self, message: str, line: Optional[int] = None) -> ScorerError:
        number = (self.i + 1) if line is None else line
        return ScorerError(f"{self.path} line {number}: {message}")

    def truncated(self, inside: str) -> ScorerError:
        return self.fail(f"the file is truncated: it ends inside {inside}",
                         line=len(self.lines))

    def peek(self) -> Optional[str]:
        return self.lines[self.i] if self.i < len(self.lines) else None

    def take(self, inside: str) -> str:
        if self.i >= len(self.lines):
            raise self.truncated(inside)
        line = self.lines[self.i]
        self.i += 1
        return line

    def expect(self, wanted: str, inside: str) -> None:
        line = self.take(inside)
        if line != wanted:
            self.i -= 1
            raise self.fail(f"expected '{_clip(wanted)}' in {inside}, found '{_clip(line)}'")

    def field(self, prefix: str, inside: str) -> str:
        line = self.take(inside)
        if not line.startswith(prefix):
            self.i -= 1
            raise self.fail(f"expected '{prefix.strip()}' in {inside}, found '{_clip(line)}'")
        return line[len(prefix):]


def read_coldstart(path: str, lines: list, task: str) -> ColdStartDebug:
    """A ``.debug`` of the Perl's layout (``lines``: its lines, without ends)."""
    return _ColdStartReader(path, lines, task).read()


def read_blocks(path: str, lines: list, layout: BlockLayout) -> ClaimsDebug:
    """A ``.debug`` of a ``#task:`` header and blocks of facts."""
    return _BlocksReader(path, lines, layout).read()


class _ColdStartReader(_Reader):
    def __init__(self, path: str, lines: list, task: str):
        super().__init__(path, lines)
        self.task = task

    def read(self) -> ColdStartDebug:
        responses, rows, runs = [], [], []
        while self.peek() is not None:
            before = len(responses)
            self._part1(responses, rows)
            # Part 2 does not name its run: the submissions of part 1 do (column 3).
            run_ids = {r.submission.split("\t")[2] for r in responses[before:]
                       if r.submission.count("\t") >= 2}
            run = run_ids.pop() if len(run_ids) == 1 else f"#{len(runs) + 1}"
            ap: dict = {}
            self._part2(ap)
            runs.append((run, ap))
        if not runs:
            raise self.truncated("part 1")
        if len(runs) == 1:
            # One run: no need to name it in keys.
            return ColdStartDebug(self.path, responses, rows,
                                  {("", *key): value for key, value in runs[0][1].items()},
                                  self.task)
        return ColdStartDebug(self.path, responses, rows,
                              {(run, *key): value for run, ap in runs
                               for key, value in ap.items()}, self.task)

    def _part1(self, responses: list, rows: list) -> None:
        while True:
            line = self.take("part 1 (the SF rows)")
            if line == "":
                break
            if line != RULE:
                self.i -= 1
                raise self.fail(f"expected a '=' rule or an empty line in part 1, "
                                f"found '{_clip(line)}'")
            row = self.take("part 1 (a row name)")
            if not row or row.startswith("\t") or row in (RULE, DOTS):
                self.i -= 1
                raise self.fail(f"expected an SF row name after the rule, found '{_clip(row)}'")
            rows.append(row)
            while self.peek() is not None and self.peek().startswith("\tFQNODEID:\t"):
                responses.append(self._response(row))
        self.expect(AP_BEGINS, "the start of part 2")

    def _response(self, row: str) -> Response:
        lines = self.lines[self.i:self.i + len(ENTRY_PREFIXES)]
        if len(lines) == len(ENTRY_PREFIXES) and all(
                line.startswith(prefix) for line, prefix in zip(lines, ENTRY_PREFIXES)) \
                and lines[4] == "" and lines[7] == DOTS:
            # The usual entry, read at once; anything else takes the careful path
            # below, which says what is wrong where.
            self.i += len(ENTRY_PREFIXES)
            n = len
            return Response(row, lines[1][n(ENTRY_PREFIXES[1]):], lines[0][n(ENTRY_PREFIXES[0]):],
                            lines[2][n(ENTRY_PREFIXES[2]):], lines[3][n(ENTRY_PREFIXES[3]):],
                            lines[5][n(ENTRY_PREFIXES[5]):], lines[6][n(ENTRY_PREFIXES[6]):],
                            self.i - len(ENTRY_PREFIXES) + 1)
        start = self.i + 1
        inside = f"a response of row {row} (from line {start})"
        values = [self.field(f"\t{name}:\t", inside) for name in RESPONSE_FIELDS]
        self.expect("", inside)
        prepolicy = self.field("\tPREPOLICY ASSESSMENT:\t", inside)
        postpolicy = self.field("\tPOSTPOLICY ASSESSMENT:\t", inside)
        self.expect(DOTS, inside)
        return Response(row, values[1], values[0], values[2], values[3], prepolicy, postpolicy,
                        start)

    def _part2(self, ap: dict) -> None:
        while True:
            line = self.take("part 2 (the AP computations)")
            if line == AP_ENDS:
                return
            if line != RULE:
                self.i -= 1
                raise self.fail(f"expected a '=' rule or '{AP_ENDS}' in part 2, "
                                f"found '{_clip(line)}'")
            start = self.i + 1
            inside = f"an AP computation (from line {start})"
            query = self.field("QUERY_ID:         ", inside)
            level = self.field("LEVEL:            ", inside)
            value = self.field("AP:               ", inside)
            count = self.field("NUM_GROUND_TRUTH: ", inside)
            self.expect("GROUND TRUTH:", inside)
            # The ground truth and the ranking are runs of lines, each found by
            # one scan and read line by line without a call per line (a
            # thousand-query .debug has some 190,000 ranking lines).
            lines, first = self.lines, self.i
            end = first
            while end < len(lines) and lines[end].startswith("  "):
                end += 1
            truth = [line[2:] for line in lines[first:end]]
            self.i = end
            if self.peek() == "":  # no ground truth: the writer leaves an empty line
                self.take(inside)
            self.expect("RANKING:", inside)
            self.expect("........", inside)
            self.expect(RANKING_HEADER, inside)
            first = end = self.i
            while end < len(lines) and lines[end] != RULE and lines[end] != AP_ENDS:
                end += 1
            ranking = []
            make = object.__new__
            for self.i in range(first, end):
                cells = lines[self.i].split(" ")
                if len(cells) != 5 or not (cells[0].isascii() and cells[0].isdigit()):
                    raise self.fail(f"expected 'RANK NODEID CONFIDENCE MAPPED_EC V' in "
                                    f"{inside}, found '{_clip(self.lines[self.i])}'")
                # (a frozen dataclass made without its __init__'s setattr per field)
                entry = make(RankEntry)
                entry.__dict__.update(rank=int(cells[0]), nodeid=cells[1],
                                      confidence=cells[2], mapped_ec=cells[3], v=cells[4])
                ranking.append(entry)
            self.i = end
            if self.peek() is None:
                raise self.truncated(inside)
            key = (query, level)
            if key in ap:
                raise self.fail(f"query {query} level {level} has a second AP computation",
                                line=start)
            ap[key] = APComputation(query, level, value, count, tuple(truth),
                                    tuple(ranking), start)


class _BlocksReader(_Reader):
    def __init__(self, path: str, lines: list, layout: BlockLayout):
        super().__init__(path, lines)
        self.layout = layout

    def read(self) -> ClaimsDebug:
        header = self.take("the header")
        task = header[1:].split(":", 1)[0]
        word = self.layout.head.lower()
        try:
            announced = int(header.split(":", 1)[1].split()[0])
        except (IndexError, ValueError):
            raise self.fail(f"expected '#{task}: N {word}(s), ...', found '{_clip(header)}'",
                            line=1)
        claims = []
        while self.peek() is not None:
            claims.append(self._block())
        if len(claims) != announced:
            raise self.fail(f"the file is truncated: the header announces {announced} "
                            f"{word}(s), the file holds {len(claims)}", line=len(self.lines))
        return ClaimsDebug(self.path, task, claims, self.layout)

    def _block(self) -> Claim:
        head, last_fact = self.layout.head, self.layout.last_fact
        word = head.lower()
        self.expect(RULE, f"the list of {word}s")
        start = self.i + 1
        line = self.take(f"a {word}")
        if not line.startswith(head + " "):
            self.i -= 1
            raise self.fail(f"expected '{head} <id>' after the rule, found '{_clip(line)}'")
        claim_id = line[len(head) + 1:].split("\t", 1)[0]
        inside = f"{word} {claim_id} (from line {start})"
        facts = []
        while self.peek() is not None and self.peek() != RULE:
            line = self.take(inside)
            if line == DOTS:
                facts.append(("--", ()))
                continue
            if not line.startswith("\t") or ":\t" not in line:
                self.i -= 1
                raise self.fail(f"expected a '<TAB>NAME:<TAB>value' fact in {inside}, "
                                f"found '{_clip(line)}'")
            name, _, rest = line[1:].partition(":\t")
            facts.append((name, tuple(rest.split("\t"))))
        named = [name for name, _ in facts if name != "--"]
        if not named or named[-1] != last_fact:
            if self.peek() is None:
                raise self.truncated(inside)
            raise self.fail(f"{inside} does not end with {last_fact}")
        return self.layout.entry(claim_id, facts, start)


def fact(facts: list, name: str) -> tuple:
    """The values of the first fact ``name`` of a block (() when absent)."""
    for fact, values in facts:
        if fact == name:
            return values
    return ()


def labels(facts: list) -> tuple:
    """(predicted label, gold label) of a claim's facts ('' where absent)."""
    return tuple((fact(facts, name) or ("",))[0] for name in ("PREDICTED LABEL", "GOLD LABEL"))
