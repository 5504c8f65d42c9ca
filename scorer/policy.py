"""The scoring policy: which categories count as right, wrong or ignored, how many
justifications count, which matching discipline, and (claim tasks) how much
evidence is read.

A policy comes from a YAML file (``-policy configs/NAME.yaml``) and the
command-line switches, which override it.  The result is frozen: nothing below
the command line reads switches.
"""
from __future__ import annotations

import re
from collections import namedtuple

from scorer.limits import has_lone_surrogate, shorten, whole_number
from scorer.problems import ScorerError

TASKS = ("coldstart", "scifact", "fever")

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

#: Defaults per task; Cold Start's are those of CS-Score-MASTER.pl.
TASK_DEFAULTS = {
    "coldstart": dict(right=("CORRECT",), wrong=("INCORRECT", "INCORRECT_PARENT", "INEXACT"),
                      ignore=("UNASSESSED", "DUPLICATE"), justifications="1:3",
                      discipline="ASSESSED", fields=DEFAULT_FIELDS),
    "scifact": dict(max_evidence=3, labels=("SUPPORT", "CONTRADICT")),
    "fever": dict(max_evidence=5, labels=("SUPPORTS", "REFUTES", "NOT ENOUGH INFO")),
}

#: Every key a policy file may hold, with its meaning (printed by ``-help``).
POLICY_KEYS = {
    "task": "which task the policy scores: coldstart, scifact or fever",
    "right": "Cold Start: pre-policy categories counted as right (list)",
    "wrong": "Cold Start: pre-policy categories counted as wrong (list)",
    "ignore": "Cold Start: pre-policy categories ignored (list)",
    "justifications": "Cold Start: 'A:B', justifications per document and in all (M = any number)",
    "discipline": "Cold Start: how a response finds its assessment: " + ", ".join(DISCIPLINES),
    "fields": "Cold Start: columns of the .sf and .ldcmax tables (list)",
    "max_evidence": "claim tasks: predicted evidence read per claim (a number, or 'all')",
    "labels": "claim tasks: the labels the gold and predictions may use (list)",
    "leaderboard": "python -m scorer.competition: the metrics a leaderboard shows, in order "
                   "(list; default per task)",
}

JUSTIFICATIONS_PATTERN = re.compile(r"^[0-9M]:[0-9M]$")
JUSTIFICATIONS_MESSAGE = ("Argument to -justifications switch must be of the form A:B where A and B "
                          "are either positive numbers or character 'M' representing infinity.")


class Policy(namedtuple("Policy", ("task", "right", "wrong", "ignore", "justifications",
                                   "discipline", "fields", "max_evidence", "labels",
                                   "leaderboard"),
                        defaults=("coldstart", (), (), (), "1:3", "ASSESSED", DEFAULT_FIELDS,
                                  None, (), ()))):
    """The frozen scoring choices.  ``leaderboard``: the leaderboard's columns
    (metric names; () means the task's default), which change no score.

    A named tuple (immutable; ``policy._replace(labels=...)`` is a changed
    copy, ``Policy._fields`` the settings in order), not a dataclass:
    importing ``dataclasses`` is a tenth of a small run's start-up.
    """

    __slots__ = ()

    @property
    def per_document(self) -> int | None:
        """A of ``A:B``: justifications allowed per document (None: any number)."""
        return _limit(self.justifications.split(":")[0])

    @property
    def k(self) -> int | None:
        """B of ``A:B``: justifications counted per node (None: any number)."""
        return _limit(self.justifications.split(":")[1])

    def option_text(self, option: str) -> str:
        """A post-policy list written the Perl's way (``INCORRECT:INEXACT``)."""
        return ":".join(getattr(self, option.lower()))

    def digest(self) -> str:
        """A short, stable fingerprint of every setting that changes a number
        (for ``.params`` signatures): all but ``fields`` (layout) and
        ``leaderboard`` (which columns a leaderboard shows)."""
        values = tuple(() if name == "fields" else value
                       for name, value in zip(self._fields, self) if name != "leaderboard")
        text = repr(values).encode("utf-8")
        from scorer.textfile import sha256
        return sha256(text).hexdigest()[:12]


def _limit(text: str) -> int | None:
    return None if text == "M" else int(text)


def _as_list(value, key: str, source: str) -> tuple:
    if value is None:
        return ()
    if isinstance(value, str):
        return colon_items(value)
    if isinstance(value, (list, tuple)):
        for item in value:
            if isinstance(item, (list, tuple, dict)):
                raise ScorerError(f"{source}: policy key '{key}' must be a list of names, "
                                  f"not of lists or mappings")
        return tuple(str(item) for item in value)
    raise ScorerError(f"{source}: policy key '{key}' must be a list or a colon-separated string")


def colon_items(text: str) -> tuple:
    """A colon-separated list split as the Perl splits it: empty items are
    kept (``A::B``, ``:A``; they are refused later, as the Perl refuses them),
    trailing empty ones dropped (``A:`` is ``A``, ``''`` and ``:`` no item)."""
    items = text.split(":")
    while items and items[-1] == "":
        items.pop()
    return tuple(items)


#: A policy is a handful of short lists: more than this many values (counting
#: each use of an alias again) is an alias bomb or a mistake, never a policy.
MAX_POLICY_VALUES = 10_000
MAX_POLICY_DEPTH = 16
MAX_POLICY_BYTES = 1 << 20

#: Keys a policy file may set for one task but not the other.
COLDSTART_KEYS = ("right", "wrong", "ignore", "justifications", "discipline", "fields")
CLAIMS_KEYS = ("max_evidence", "labels")


def _check_expanded_size(data, path: str) -> None:
    """Walk the loaded policy as if every alias were copied out, giving up
    beyond MAX_POLICY_VALUES values (so a billion-item alias bomb costs nothing);
    refuse strings that are not Unicode text."""
    stack = [(data, 0)]
    seen = 0
    while stack:
        value, depth = stack.pop()
        seen += 1
        if seen > MAX_POLICY_VALUES or depth > MAX_POLICY_DEPTH:
            raise ScorerError(f"{path}: the policy expands to more than "
                              f"{MAX_POLICY_VALUES:,} values or {MAX_POLICY_DEPTH} levels "
                              f"(a repeated or recursive YAML alias?); a policy is a few "
                              f"short lists")
        if isinstance(value, str) and has_lone_surrogate(value):
            raise ScorerError(f"{path}: a string holds a lone surrogate (an escape \\ud800 to "
                              f"\\udfff not part of a pair), which is not Unicode text")
        if isinstance(value, dict):
            stack.extend((item, depth + 1) for pair in value.items() for item in pair)
        elif isinstance(value, list):
            stack.extend((item, depth + 1) for item in value)


def load_policy_file(path: str) -> dict:
    """Read a YAML policy file into a plain dict of known keys."""
    from scorer import policyfile
    data = policyfile.load(policyfile.read(path, MAX_POLICY_BYTES), path)
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ScorerError(f"{path}: a policy file must be a mapping of keys to values")
    _check_expanded_size(data, path)
    unknown = sorted(set(map(str, data)) - set(POLICY_KEYS))
    if unknown:
        raise ScorerError(f"{path}: unknown policy key(s) {', '.join(map(str, unknown))}; "
                          f"known keys: {', '.join(POLICY_KEYS)}")
    return data


def build_policy(file_settings: dict, switches: dict, source: str = "policy") -> Policy:
    """Merge a policy file's settings and the switches (switches win); validate.

    ``switches`` holds only switches given on the command line, with the
    Perl's spellings (``right`` as ``INCORRECT:INEXACT`` strings and so on).
    """
    merged = dict(file_settings)
    merged.update({key: value for key, value in switches.items() if value is not None})
    task = str(merged.get("task", "coldstart")).lower()
    if task not in TASKS:
        raise ScorerError(f"{source}: unknown task '{task}'; known tasks: {', '.join(TASKS)}")
    not_for_task = CLAIMS_KEYS if task == "coldstart" else COLDSTART_KEYS
    misplaced = [key for key in not_for_task if key in file_settings]
    if misplaced:
        raise ScorerError(f"{source}: policy key(s) {', '.join(misplaced)} do not apply to the "
                          f"task {task}; remove them")

    def from_switch(key: str) -> bool:
        return switches.get(key) is not None

    def where(key: str) -> str:
        """The policy file and key a value came from (switches keep the Perl's messages)."""
        return f"{source}, key '{key}': " if key in file_settings and not from_switch(key) else ""

    def origin(key: str) -> str:
        """Where a setting came from, for messages of scorer's own checks."""
        if from_switch(key):
            return f"-{key}"
        if key in file_settings:
            return f"{source}, key '{key}'"
        return f"the default -{key} ({':'.join(values[key])})"
    values = dict(TASK_DEFAULTS[task])
    for key in ("right", "wrong", "ignore", "fields", "labels", "leaderboard"):
        if key in merged:
            values[key] = _as_list(merged[key], key, source)
    for key in ("justifications", "discipline"):
        if key in merged and merged[key] is not None:
            values[key] = str(merged[key])
    if "max_evidence" in merged:
        values["max_evidence"] = _max_evidence(
            merged["max_evidence"],
            "-max_evidence" if from_switch("max_evidence") else f"{source}: max_evidence",
            in_file=not from_switch("max_evidence"))
    for key in ("justifications", "discipline"):
        if isinstance(merged.get(key), (list, dict)):
            raise ScorerError(f"{where(key)}a single value is expected, not a list or mapping")
    policy = Policy(task=task, **values)
    if task == "coldstart":
        validate_coldstart(policy, where, origin)
    else:
        validate_labels(policy, source)
    validate_leaderboard(policy, source)
    return policy


def validate_labels(policy: Policy, source: str = "policy") -> None:
    """A claim task's labels (from the policy file only: there is no switch):
    at least one, none empty.  With none every gold and predicted label is
    unknown, which the claim readers report far from the cause."""
    if not policy.labels:
        raise ScorerError(f"{source}, key 'labels': no label is given; name the labels the "
                          f"gold and predictions use (for {policy.task}: "
                          f"{', '.join(TASK_DEFAULTS[policy.task]['labels'])}), or leave the "
                          f"key out")
    if any(not label.strip() for label in policy.labels):
        raise ScorerError(f"{source}, key 'labels': an empty label in "
                          f"{', '.join(repr(label) for label in policy.labels)}")


def validate_leaderboard(policy: Policy, source: str = "policy") -> None:
    """Every leaderboard metric must be one the task computes, each named once
    (whether it needs -expand is checked where -expand is known)."""
    if not policy.leaderboard:
        return
    if policy.task == "coldstart":
        from scorer.coldstart.units import METRICS
    else:
        from scorer.claims.metrics import metrics_of
        METRICS = metrics_of(policy.task)
    known = [metric.name for metric in METRICS]
    unknown = [name for name in policy.leaderboard if name not in known]
    if unknown:
        raise ScorerError(f"{source}: leaderboard metric(s) {', '.join(unknown)} unknown for "
                          f"{policy.task}; the metrics are: {', '.join(known)}")
    repeated = sorted({name for name in policy.leaderboard if policy.leaderboard.count(name) > 1})
    if repeated:
        raise ScorerError(f"{source}: leaderboard metric(s) {', '.join(repeated)} named twice")


#: More evidence than any claim holds; a larger number is a mistake.
MAX_EVIDENCE = 1_000_000


def _max_evidence(value, what: str, in_file: bool = False) -> int | None:
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


#: What an empty item of a colon-separated list comes from.
EMPTY_ITEM = "an empty item: two colons in a row, or one in front"


def validate_coldstart(policy: Policy, where=lambda key: "",
                       origin=lambda key: f"-{key}") -> None:
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


def _check_each_category_once(policy: Policy, origin) -> None:
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
