"""Query ids: parsing full ids, and the MD5-based ids of expanded (SF) queries
and of generated hop-1 queries (spec §2.2, §2.3, §2.5.3).
"""
from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import re
from typing import Optional

from scorer.problems import ScorerError

_HEX_ID = re.compile(r"^(?:(.+)_)?([0-9A-Fa-f]{10})((?:_[0-9A-Fa-f]{12})*)$")
_LDC_ID = re.compile(r"^(?:(.+)_)?(\d+)$")
_NIL_NAMESPACE = b"\x00" * 16


@dataclasses.dataclass(frozen=True)
class ParsedId:
    prefix: Optional[str]
    base: str
    short_id: str
    level: int
    #: True for hash-style ids (SF and generated queries), False for LDC numeric ids.
    hashed: bool


@functools.lru_cache(maxsize=65536)
def parse_query_id(full_id: str) -> ParsedId:
    """Split ``CSSF17_ENG_afddc4ed21_1fa227e2e937`` into its parts.

    Raises ScorerError for ids of neither form (the Perl dies there).
    """
    match = _HEX_ID.match(full_id)
    if match:
        prefix, initial, remainder = match.groups()
        hops = remainder.split("_")[1:] if remainder else []
        short_id = hops[-1] if hops else initial
        # The Perl's regex keeps only the last 12-digit part, so any hop counts as level 1.
        return ParsedId(prefix, initial, short_id, 1 if hops else 0, True)
    match = _LDC_ID.match(full_id)
    if match:
        prefix, digits = match.groups()
        return ParsedId(prefix, digits, digits, 0, False)
    raise ScorerError(f'unexpected query id "{full_id}": expected PREFIX_<10 hex digits>'
                      f'[_<12 hex digits>] or PREFIX_<digits>')


def _nil_uuid3_tail(data: bytes, length: int) -> str:
    # The version/variant bits of a v3 UUID sit in bytes 6 and 8, so the last
    # 12 hex digits are plain MD5 digits.
    return hashlib.md5(_NIL_NAMESPACE + data).hexdigest()[-length:]


def expanded_query_short_id(docid: str, start: str, end: str, slots) -> str:
    """Short id of the SF query made from one entry point (10 hex digits)."""
    text = f"{docid}:{start}:{end}:" + ":".join(slots)
    return _nil_uuid3_tail(text.encode("utf-8"), 10)


def target_query_short_id(full_query_id: str, value: str, provenance: str) -> str:
    """Short id of the query a response generates (12 hex digits).

    The Perl JSON-escapes ``QUERY:VALUE:PROVENANCE``, encodes it as UTF-8 and
    then encodes those bytes as UTF-8 once more (spec §2.5.3, §7.43).
    """
    text = f"{full_query_id}:{value}:{provenance}"
    if text.isascii() and text.isprintable() and '"' not in text and "\\" not in text:
        # Printable ASCII without quotes or backslashes: escaping and the double
        # encoding leave it as it is.
        return _nil_uuid3_tail(text.encode("ascii"), 12)
    escaped = json.dumps(text, ensure_ascii=False)[1:-1]
    twice = escaped.encode("utf-8", "surrogateescape").decode("latin-1").encode("utf-8")
    return _nil_uuid3_tail(twice, 12)
