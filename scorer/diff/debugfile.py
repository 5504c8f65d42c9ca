"""Reading a ``.debug`` report back into keyed rows, for ``python -m scorer.diff``.

Two layouts are read, each by the task whose ``.debug`` it is (the task's
record says which: ``task.diff.read``):

* Cold Start (ours, and CS-Score-MASTER.pl 2017.2.0's, which is the same
  layout, spec §5.4): per run, part 1 lists per SF row the responses whose
  post-policy labels differ from their pre-policy category; part 2 shows each
  AP computation (ground truth, ranking, mapped ECs, V);
* blocks of facts (every counts-table task's, SciFact's and FEVER's too,
  read by ``scorer/countstable/debugblocks.py``): a ``#task:`` header, then
  one block of facts per claim (item).

The diff is the one reader of ``.debug`` (the design keeps every other step on
the counts tables); a file that ends early or does not have one of these
layouts is an error naming the file and line.
"""
from __future__ import annotations

import dataclasses

from scorer.linereader import LineReader, clip
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
    readable = [record for record in registry.every() if record.diff]
    headed = [record for record in readable if record.diff.header]
    for record in headed:
        if record.name == named:
            return record.diff.read(path, lines)
    if named in registry.names() and not registry.get(named).diff:
        raise ScorerError(f"{path} line 1: a .debug of the task {named}, which has no diff "
                          f"(scorer.diff cannot read its reports)")
    if first in (RULE, "", AP_BEGINS):
        perl = [record for record in readable if not record.diff.header]
        if perl:
            return perl[0].diff.read(path, lines)
    shown = "/".join(f"'#{record.name}:'" for record in headed)
    raise ScorerError(f"{path} line 1: unknown .debug layout: expected a Cold Start "
                      f"report (a '=' rule) or a {shown} header, "
                      f"found '{clip(first)}'")


def read_coldstart(path: str, lines: list, task: str) -> ColdStartDebug:
    """A ``.debug`` of the Perl's layout (``lines``: its lines, without ends)."""
    return _ColdStartReader(path, lines, task).read()


class _ColdStartReader(LineReader):
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
                                f"found '{clip(line)}'")
            row = self.take("part 1 (a row name)")
            if not row or row.startswith("\t") or row in (RULE, DOTS):
                self.i -= 1
                raise self.fail(f"expected an SF row name after the rule, found '{clip(row)}'")
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
                                f"found '{clip(line)}'")
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
                                    f"{inside}, found '{clip(self.lines[self.i])}'")
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


