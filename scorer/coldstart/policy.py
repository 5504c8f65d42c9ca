"""Cold Start's policy: the post-policy lists (which pre-policy categories
count as right, wrong or ignored), justifications, the matching discipline
and the columns of the tables, with the Perl scorer's checks in its order
(spec §1.2) and scorer's own among them."""
from __future__ import annotations

import re

from scorer.problems import ScorerError

#: Post-policy lists and the pre-policy categories legal in each (spec §1.2).
LEGAL_CHOICES = {
    "CORRECT": ("RIGHT",),
    "DUPLICATE": ("RIGHT", "WRONG", "IGNORE"),
    "INCORRECT": ("WRONG",),
    "INCORRECT_PARENT": ("WRONG", "IGNORE"),
    "INEXACT": ("RIGHT", "WRONG", "IGNORE"),
    "UNASSESSED": ("WRONG", "IGNORE"),
}

DISCIPLINES = ("ASSESSED", "STRING_CASE", "STRING_EXACT")

DEFAULT_FIELDS = ("EC", "RUNID", "LEVEL", "GT", "SUBMITTED", "CORRECT", "INCORRECT",
                  "INEXACT", "INCORRECT_PARENT", "UNASSESSED", "REDUNDANT", "RIGHT",
                  "WRONG", "IGNORED", "P", "R", "F")

#: The Perl scorer's defaults (CS-Score-MASTER.pl).
DEFAULTS = dict(right=("CORRECT",), wrong=("INCORRECT", "INCORRECT_PARENT", "INEXACT"),
                ignore=("UNASSESSED", "DUPLICATE"), justifications="1:3",
                discipline="ASSESSED", fields=DEFAULT_FIELDS)

JUSTIFICATIONS_PATTERN = re.compile(r"^[0-9M]:[0-9M]$")
JUSTIFICATIONS_MESSAGE = ("Argument to -justifications switch must be of the form A:B where A and B "
                          "are either positive numbers or character 'M' representing infinity.")


def justification_limits(justifications: str) -> tuple:
    """(A, B) of ``A:B``: justifications allowed per document, and counted
    per node (None: any number)."""
    per_document, total = justifications.split(":")
    return _limit(per_document), _limit(total)


def _limit(text: str) -> int | None:
    return None if text == "M" else int(text)


def option_text(policy, option: str) -> str:
    """A post-policy list written the Perl's way (``INCORRECT:INEXACT``)."""
    return ":".join(getattr(policy, option.lower()))


#: What an empty item of a colon-separated list comes from.
EMPTY_ITEM = "an empty item: two colons in a row, or one in front"


def validate(policy, where=lambda key: "", origin=lambda key: f"-{key}") -> None:
    """The Perl's checks, in its order: IGNORE, RIGHT, WRONG, then justifications;
    scorer's own among them.  ``where(key)`` names the policy file and key a bad
    value came from (before the Perl's messages); ``origin(key)`` the switch, the
    policy file and key, or the default (in scorer's own messages)."""
    for option in ("IGNORE", "RIGHT", "WRONG"):
        for item in getattr(policy, option.lower()):
            if item == "":
                # The Perl's message, "Unexpected choice  for WRONG", hides the cause.
                raise ScorerError(f"{origin(option.lower())}: Unexpected choice '' "
                                  f"({EMPTY_ITEM}) for {option}")
            if option not in LEGAL_CHOICES.get(item, ()):
                raise ScorerError(f"{where(option.lower())}Unexpected choice {item} for {option}")
    if not policy.right:
        # The Perl scores every response wrong then: all zeros that look like a result.
        legal = ", ".join(name for name, lists in LEGAL_CHOICES.items() if "RIGHT" in lists)
        raise ScorerError(f"{where('right') or '-right: '}no category is counted as right, so "
                          f"every score would be 0; name at least one of {legal}")
    _check_each_category_once(policy, origin)
    if not JUSTIFICATIONS_PATTERN.match(policy.justifications):
        raise ScorerError(where("justifications") + JUSTIFICATIONS_MESSAGE)
    if policy.discipline not in DISCIPLINES:
        raise ScorerError(f"{where('discipline')}No matcher called {policy.discipline}")
    if not policy.fields:
        # The Perl prints tables of empty lines.
        raise ScorerError(f"{origin('fields')}: no field is named, so the tables would be "
                          f"empty; name some of {':'.join(DEFAULT_FIELDS)}")
    for field in policy.fields:
        if field == "":
            raise ScorerError(f"{origin('fields')}: Unknown field: '' ({EMPTY_ITEM})")
        if field not in DEFAULT_FIELDS:
            raise ScorerError(f"{where('fields')}Unknown field: {field}")
    if policy.justifications.split(":")[1] == "0":
        # The Perl divides by zero here (spec §7.35); B counts justifications, so 0 is meaningless.
        raise ScorerError(where("justifications") + JUSTIFICATIONS_MESSAGE)


def _check_each_category_once(policy, origin) -> None:
    """A category named twice in RIGHT, WRONG and IGNORE: the Perl adds its
    responses to a list once per naming (right and wrong at once, or right
    twice: precision 4.0), or, for DUPLICATE, to the last list naming it
    only.  Neither is what was asked for."""
    for option in ("right", "wrong", "ignore"):
        items = getattr(policy, option)
        repeated = sorted({item for item in items if items.count(item) > 1})
        if repeated:
            raise ScorerError(f"{origin(option)} names {', '.join(repeated)} twice: its "
                              f"responses would be counted twice; name each category once")
    for first, second in (("right", "wrong"), ("right", "ignore"), ("wrong", "ignore")):
        shared = [item for item in getattr(policy, first) if item in getattr(policy, second)]
        if shared:
            how = f"leave {'it' if len(shared) == 1 else 'them'} out of one of them"
            for option in (second, first):
                if origin(option).startswith("the default"):
                    # A default cannot be edited: say what to give instead.
                    rest = ":".join(item for item in getattr(policy, option) if item not in shared)
                    how = (f"give -{option} {rest or repr('')} as well (in a policy file "
                           f"'{option}:', in scorer.score() {option}=)")
                    break
            raise ScorerError(f"{', '.join(shared)} {'is' if len(shared) == 1 else 'are'} in "
                              f"both {origin(first)} and {origin(second)}: each category "
                              f"belongs in one list; {how}")


DISCIPLINE_HELP = {
    "ASSESSED": "No match unless this exact entry appears in the assessments",
    "STRING_CASE": "String matches modulo case differences; provenance need not match",
    "STRING_EXACT": "Exact string match, but provenance need not match",
}

CATEGORY_HELP = {
    "CORRECT": "Number of assessed correct responses.",
    "DUPLICATE": "Number of duplicate responses.",
    "INCORRECT": "Number of assessed incorrect responses.",
    "INCORRECT_PARENT": "Number of responses that had incorrect (grand-)parent.",
    "INEXACT": "Number of assessed inexact responses.",
    "UNASSESSED": "Number of unassessed responses.",
}


def help_lines() -> list:
    """What -help says of the disciplines, the fields and the categories, as
    the Perl scorer says it."""
    # (for -help alone: this module is loaded with the task's record by every run)
    from scorer.coldstart.reports.columns import FIELDS
    lines = ["-discipline is one of the following:"]
    lines += [f"  {name + ':':14}{DISCIPLINE_HELP[name]}" for name in DISCIPLINES]
    lines.append("-fields is a colon-separated list drawn from the following:")
    lines += [f"  {name + ':':18}{FIELDS[name][3]}" for name in sorted(DEFAULT_FIELDS)]
    lines.append("policy options are a colon-separated list drawn from the following:")
    for name in sorted(LEGAL_CHOICES):
        legal = " and ".join(f"-{option.lower()}" for option in LEGAL_CHOICES[name])
        lines.append(f"  {name + ':':18}{CATEGORY_HELP[name]} Legal choice for {legal}.")
    return lines
