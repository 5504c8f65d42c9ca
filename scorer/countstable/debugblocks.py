"""A ``.debug`` of blocks of facts read back, for ``python -m scorer.diff``:
the layout every counts-table task writes (``countstable/reports.py``'s
header, then one block of facts per unit: a claim, an item).  A
:class:`~scorer.countstable.debugblocks.BlockLayout` of the task says how its blocks begin and end and what
of their facts scores (a :class:`~scorer.countstable.debugblocks.Claim`); a file that ends early or does not
have the layout is an error naming the file and line."""
from __future__ import annotations

import dataclasses

from scorer.linereader import LineReader, clip

RULE = "=" * 80
DOTS = "." * 80


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


def read_blocks(path: str, lines: list, layout: BlockLayout) -> ClaimsDebug:
    """A ``.debug`` of a ``#task:`` header and blocks of facts."""
    return _BlocksReader(path, lines, layout).read()


class _BlocksReader(LineReader):
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
            raise self.fail(f"expected '#{task}: N {word}(s), ...', found '{clip(header)}'",
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
            raise self.fail(f"expected '{head} <id>' after the rule, found '{clip(line)}'")
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
                                f"found '{clip(line)}'")
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
