"""The ids file of ``python -m scorer.samples``: the groups a sample draws.

``LDC_ID SF_ID [HOP]`` lines (Cold Start ``qids.txt``, as
``CS-GenerateSamples-MASTER.pl`` reads it: each LDC query a group of its SF
queries) or one claim id per line (each claim its own group); the file's
first line says which.
"""
from __future__ import annotations

from scorer.coldstart.ids import parse_query_id
from scorer.coldstart.queries import is_hop_limit_text
from scorer.limits import shorten
from scorer.problems import ScorerError
from scorer.textfile import read_text

#: What an ids file holds, for messages.
_IDS_FORMAT = "'LDC_ID SF_ID [HOP]' lines (Cold Start) or one claim id per line"


def read_ids(path: str) -> list:
    """The groups of an ids file, ``(group, member ids)`` in first-seen order:
    ``LDC_ID SF_ID [HOP]`` lines (each LDC query a group of its SF queries)
    or one claim id per line (each claim its own group).  Blank lines and
    repeated query lines are skipped, a repeated claim id refused; any other line that is not of the file's
    format (its first line's) is refused with the file and line, as is a
    file without ids: samples of junk would score as intervals of nothing."""
    groups: dict = {}
    seen: dict = {}     # member id -> (group, line), to refuse one under two groups
    claims = first = None
    # Universal newlines, as text mode reads them.
    lines = read_text(path).replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for number, line in enumerate(lines, 1):
        fields = line.split()
        if not fields:
            continue
        if claims is None:
            claims, first = len(fields) == 1, number
        place = f"{path} line {number}"
        if claims:
            group = member = _claim_id(fields, place, first)
        else:
            group, member = _query_pair(fields, place, None if number == first else first)
        earlier = seen.setdefault(member, (group, number))
        if claims and earlier[1] != number:
            # Ids that repeat name no claim (the official FEVER dev set's are all
            # 0): the scorer names such claims by line, and samples of the one id
            # would draw nothing it knows.
            raise ScorerError(f"{place}: claim id {shorten(member)} is on line {earlier[1]} "
                              f"too; ids that repeat name no claim (the scorer then names "
                              f"the claims line1, line2, ...: list those)")
        if earlier[0] != group:
            raise ScorerError(f"{place}: {member} is given for {group} here and for "
                              f"{earlier[0]} on line {earlier[1]}; each id belongs to one group")
        groups.setdefault(group, {})[member] = None
    if not groups:
        raise ScorerError(f"{path}: no ids; expected {_IDS_FORMAT}")
    return [(group, tuple(members)) for group, members in groups.items()]


def _claim_id(fields: list, place: str, first: int) -> str:
    """A claim id line (the file's first line, line ``first``, has one field)."""
    if len(fields) != 1:
        raise ScorerError(f"{place}: {len(fields)} columns, but line {first} gives one claim "
                          f"id per line; expected {_IDS_FORMAT}")
    claim = fields[0]
    if ":" in claim or "," in claim:
        # A samples file separates groups from members with ':' and members with ','.
        raise ScorerError(f"{place}: '{shorten(claim)}' is not a claim id (it holds ':' or "
                          f"','); expected {_IDS_FORMAT}")
    return claim


def _query_pair(fields: list, place: str, first: int | None) -> tuple:
    """``(LDC id, SF id)`` of a Cold Start line, each checked to be of its kind
    (``first``: the file's first line, which set the format; None for that line)."""
    if len(fields) not in (2, 3):
        if first is None:
            raise ScorerError(f"{place}: {len(fields)} columns; expected {_IDS_FORMAT}")
        raise ScorerError(f"{place}: {len(fields)} column{'s' if len(fields) > 1 else ''}, but "
                          f"line {first} gives 'LDC_ID SF_ID [HOP]'; expected {_IDS_FORMAT}")
    ldc_id, sf_id = fields[0], fields[1]
    for text, hashed, kind in ((ldc_id, False, "an LDC query id (PREFIX_<digits>)"),
                               (sf_id, True, "an SF query id (PREFIX_<10 hex digits>)")):
        try:
            parsed = parse_query_id(text)
        except ScorerError:
            parsed = None
        if parsed is None or parsed.hashed != hashed or parsed.level != 0:
            raise ScorerError(f"{place}: '{shorten(text)}' is not {kind}; expected "
                              f"'LDC_ID SF_ID [HOP]'")
    if len(fields) == 3 and (not is_hop_limit_text(fields[2]) or fields[2].startswith("-")):
        raise ScorerError(f"{place}: the hop limit '{shorten(fields[2])}' is not a whole number; "
                          f"expected 'LDC_ID SF_ID [HOP]'")
    return ldc_id, sf_id
