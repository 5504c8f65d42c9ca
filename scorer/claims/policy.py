"""The claim tasks' own policy key: how much predicted evidence is read per
claim (``max_evidence``, a number or 'all')."""
from __future__ import annotations

from scorer.limits import shorten, whole_number
from scorer.problems import ScorerError

#: More evidence than any claim holds; a larger number is a mistake.
MAX_EVIDENCE = 1_000_000

HELP = "claim tasks: predicted evidence read per claim (a number, or 'all')"


def read_max_evidence(value, key, source: str, from_switch: bool = False) -> int | None:
    """The setting of the switch (``-max_evidence``) or of a policy file's key."""
    what = "-max_evidence" if from_switch else f"{source}: max_evidence"
    return max_evidence(value, what, in_file=not from_switch)


def max_evidence(value, what: str, in_file: bool = False) -> int | None:
    """``what``: the switch (``-max_evidence``) or ``<policy file>: max_evidence``."""
    if value is None or (isinstance(value, str) and value.lower() in ("all", "none", "null")):
        return None
    text = str(value).strip()
    if isinstance(value, bool) or isinstance(value, float) or not isinstance(value, (int, str)) \
            or not text.lstrip("-").isdigit() or not text.isascii():
        raise ScorerError(f"{what} must be a whole number or 'all', not '{shorten(text)}'")
    if text.startswith("-"):
        raise ScorerError(f"{what} must not be negative, not '{shorten(text)}'")
    if in_file and len(text) > 1 and text.startswith("0"):
        # YAML reads a plain 010 as octal 8 (refused by scorer/policyfile.py), 08 as
        # text: either way a leading zero has no one meaning in a policy file.
        raise ScorerError(f"{what} must be written without leading zeros, not "
                          f"'{shorten(text)}'")
    return whole_number(text, what, MAX_EVIDENCE)
