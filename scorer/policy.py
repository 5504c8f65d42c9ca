"""The scoring policy: a task, and its settings (Cold Start: which categories
count as right, wrong or ignored, how many justifications count, which
matching discipline; claim tasks: how much evidence is read, the labels).

A policy comes from a YAML file and the command-line switches, which
override it: a file of the user's (``-policy my/policy.yaml``), or one the
package ships, named alone (``-policy fever``: scorer/configs/fever.yaml, which
in a checkout is configs/fever.yaml, so ``-policy configs/fever.yaml`` reads
the same file there).  The task's record
(:mod:`scorer.taskrecord`) says which keys it has, their defaults, how a value is
read and which settings cannot go together; the result is frozen: nothing
below the command line reads switches.
"""
from __future__ import annotations

import errno
import os
import stat

from scorer import registry
from scorer.limits import has_lone_surrogate
from scorer.problems import ScorerError
from scorer.textfile import sha256

#: The task of a policy that names none (and of a run without -policy): the
#: Perl scorer's, whose switches ``python -m scorer`` takes.
DEFAULT_TASK = "coldstart"

#: The keys every policy may hold, whatever its task, with their meaning.
COMMON_KEYS = {
    "task": "which task the policy scores",
    "leaderboard": "python -m scorer.competition: the metrics a leaderboard shows, in order "
                   "(list; default per task)",
    "competition": "python -m scorer.competition: the phases of a bundle, its title and "
                   "format, and which submission of each team is ranked (a mapping; no score "
                   "changes)",
}


class Policy:
    """The frozen scoring choices: ``task`` (its name) and one setting per
    policy key of the task, read as attributes (``policy.max_evidence``),
    plus ``leaderboard``: the leaderboard's columns (metric names; () means
    the task's default), which change no score.

    ``policy.replace(labels=...)`` is a changed copy; ``policy.items()`` the
    settings in the task's order, ``task`` first."""

    __slots__ = ("task", "_settings")

    def __init__(self, task: str, settings: dict):
        self.task = task
        self._settings = dict(settings)
        self._settings.setdefault("leaderboard", ())

    def __getattr__(self, name: str):
        if not name.startswith("_"):
            try:
                return self._settings[name]
            except KeyError:
                pass
        raise AttributeError(f"a {self.task} policy has no setting '{name}'")

    def items(self) -> list:
        """(key, value) of every setting, ``task`` first, then the task's keys
        in order, ``leaderboard`` last."""
        return [("task", self.task), *self._settings.items()]

    def replace(self, **changes) -> "Policy":
        unknown = [name for name in changes if name not in self._settings]
        if unknown:
            raise AttributeError(f"a {self.task} policy has no setting "
                                 f"{', '.join(map(repr, unknown))}")
        return Policy(self.task, {**self._settings, **changes})

    def digest(self) -> str:
        """A short, stable fingerprint of every setting that changes a number
        (for ``.params`` signatures): not the layout (Cold Start's ``fields``)
        nor which columns a leaderboard shows."""
        text = repr(registry.get(self.task).digest_values(self)).encode("utf-8")
        return sha256(text).hexdigest()[:12]

    def __eq__(self, other) -> bool:
        return type(other) is Policy and (self.task, self._settings) == \
            (other.task, other._settings)

    def __hash__(self) -> int:
        return hash((self.task, tuple(self._settings.items())))

    def __repr__(self) -> str:
        return "Policy(" + ", ".join(f"{key}={value!r}" for key, value in self.items()) + ")"

    def __reduce__(self):
        return (Policy, (self.task, self._settings))


# -- readers of one key's value (a policy file's, or a switch's text) ----------------

def list_value(value, key, source: str, from_switch: bool = False) -> tuple:
    """A list key: a YAML list of names, or a colon-separated string."""
    name = key if isinstance(key, str) else key.name
    if value is None:
        return ()
    if isinstance(value, str):
        return colon_items(value)
    if isinstance(value, (list, tuple)):
        for item in value:
            if isinstance(item, (list, tuple, dict)):
                raise ScorerError(f"{source}: policy key '{name}' must be a list of names, "
                                  f"not of lists or mappings")
            if item is None or isinstance(item, (bool, float)):
                raise ScorerError(f"{source}, key '{name}': {_not_a_name(item)}")
        return tuple(str(item) for item in value)
    raise ScorerError(f"{source}: policy key '{name}' must be a list or a colon-separated "
                      f"string")


def _not_a_name(item) -> str:
    """Why a list item YAML read as a boolean, null or a fraction is not taken
    as a name: its text would change (``yes`` to 'True', ``null`` to 'None',
    ``1.50`` to '1.5'), and no file's name would then match it."""
    if isinstance(item, bool):
        read, quoted = (f"YAML reads an unquoted yes, no, true, false, on or off as a boolean "
                        f"({str(item).lower()})"), "'yes'"
    elif item is None:
        read, quoted = "YAML reads an unquoted null, ~ or an empty item as nothing", "'null'"
    else:
        read, quoted = f"YAML reads it as the number {item!r}", "'1.50'"
    return f"{read}, not as a name; put the name in quotes ({quoted})"


def single_value(value, key, source: str, from_switch: bool = False):
    """A key of one value (a name, ``A:B``): as text; no value keeps the default."""
    if value is None:
        return key.default
    if isinstance(value, (list, dict)):
        where = "" if from_switch else f"{source}, key '{key.name}': "
        raise ScorerError(f"{where}a single value is expected, not a list or mapping")
    return str(value)


def flag_value(value, key, source: str, from_switch: bool = False) -> bool:
    """A key that is on or off: a switch without a value (True), or a policy
    file's ``true``/``false`` (YAML's booleans); no value keeps the default."""
    if value is None:
        return key.default
    if isinstance(value, bool):
        return value
    where = "" if from_switch else f"{source}, key '{key.name}': "
    raise ScorerError(f"{where}true or false is expected, not {str(value)!r}")


def colon_items(text: str) -> tuple:
    """A colon-separated list split as the Perl splits it: empty items are
    kept (``A::B``, ``:A``; they are refused later, as the Perl refuses them),
    trailing empty ones dropped (``A:`` is ``A``, ``''`` and ``:`` no item)."""
    items = text.split(":")
    while items and items[-1] == "":
        items.pop()
    return tuple(items)


def known_keys() -> dict:
    """Every key a policy file may hold (of any task) -> its meaning: the
    common keys, then each task's own in task order (a key two tasks share,
    once)."""
    names = registry.names()
    keys = {"task": f"{COMMON_KEYS['task']}: {', '.join(names[:-1])} or {names[-1]}"}
    for record in registry.every():
        for key in record.policy_keys:
            keys.setdefault(key.name, key.help)
    keys["leaderboard"] = COMMON_KEYS["leaderboard"]
    keys["competition"] = COMMON_KEYS["competition"]
    return keys


#: A policy is a handful of short lists: more than this many values (counting
#: each use of an alias again) is an alias bomb or a mistake, never a policy.
MAX_POLICY_VALUES = 10_000
MAX_POLICY_DEPTH = 16
MAX_POLICY_BYTES = 1 << 20


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


#: The shipped policies' folder, package data (in a checkout, a link to configs/).
SHIPPED_FOLDER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "configs")


def shipped_policies() -> tuple:
    """The names of the shipped policies, sorted: ``coldstart-sf``, ``fever``, ..."""
    try:
        found = os.listdir(SHIPPED_FOLDER)
    except OSError:
        return ()
    return tuple(sorted(name[:-len(".yaml")] for name in found if name.endswith(".yaml")))


def policy_path(value: str) -> str:
    """The file a ``-policy`` value names: a shipped policy's for its name alone
    (``fever``), even where a file of that name lies in the current folder
    (``./fever`` names that one), so that a command means the same policy on
    every machine; any other value is a path, read as it is."""
    shipped = shipped_policies()
    if value in shipped:
        return os.path.join(SHIPPED_FOLDER, value + ".yaml")
    if not os.path.lexists(value):
        stem = os.path.basename(value)
        stem = stem[:-len(".yaml")] if stem.endswith(".yaml") else stem
        if stem in shipped:
            # configs/fever.yaml outside a checkout, say
            hint = f"the shipped policy {stem} is named alone: -policy {stem}"
        elif shipped and not any(mark in value for mark in ("/", os.sep, ".")):
            # a word, no path: meant as a shipped policy's name
            hint = f"the shipped policies are {', '.join(shipped)}"
        else:
            return value
        raise ScorerError(f"Could not open policy file {value}: {os.strerror(errno.ENOENT)} "
                          f"({hint})")
    return value


def load_policy_file(path: str) -> dict:
    """Read a YAML policy file into a plain dict of known keys."""
    # policyfile compiles its patterns as it is imported: -version, -help and a run
    # without a policy file do without them (1 ms, -X importtime).
    from scorer import policyfile
    data = policyfile.load(policyfile.read(path, MAX_POLICY_BYTES), path)
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ScorerError(f"{path}: a policy file must be a mapping of keys to values")
    _check_expanded_size(data, path)
    own = _own_keys(data.get("task", DEFAULT_TASK))
    if own is None or not own.issuperset(map(str, data)):
        # A key its task lacks: the message lists every task's keys (which
        # loads every task's record; a run with its own keys alone loads one).
        known = known_keys()
        unknown = sorted(set(map(str, data)) - set(known))
        if unknown:
            raise ScorerError(f"{path}: unknown policy key(s) {', '.join(map(str, unknown))}; "
                              f"known keys: {', '.join(known)}")
    return data


def _own_keys(task) -> frozenset | None:
    """The keys a policy of the task named ``task`` may hold (the common ones
    and the task's own), or None for a name that is no task's."""
    name = str(task).lower()
    if name not in registry.names():
        return None
    return frozenset(COMMON_KEYS).union(key.name for key in registry.get(name).policy_keys)


def task_hint(policy_argument) -> str:
    """The task a ``-policy`` argument most likely names (its ``task:`` line,
    read without parsing the file; the default task without one), to read a
    command line by that task's switches before the policy is read.  Only a
    hint, never an error: a wrong one costs the time of loading every task's
    switches (:class:`scorer.switches.RunSwitches`), not a wrong result."""
    try:
        policy_argument = os.fspath(policy_argument)
    except TypeError:
        return DEFAULT_TASK      # (None: no policy; anything else is refused later)
    if not isinstance(policy_argument, str):
        return DEFAULT_TASK
    try:
        path = policy_path(policy_argument)
        if not stat.S_ISREG(os.stat(path).st_mode):
            return DEFAULT_TASK      # (never opened: a pipe waits for a writer)
        with open(path, "rb") as f:
            text = f.read(MAX_POLICY_BYTES).decode("utf-8", "replace")
    except (OSError, ValueError, ScorerError):
        return DEFAULT_TASK
    for line in text.splitlines():
        if line.startswith("task:"):
            return line[len("task:"):].split("#")[0].strip().strip("'\"").lower()
    return DEFAULT_TASK


def build_policy(file_settings: dict, switches: dict, source: str = "policy") -> Policy:
    """Merge a policy file's settings and the switches (switches win); validate.

    ``switches`` holds only switches given on the command line, with the
    Perl's spellings (``right`` as ``INCORRECT:INEXACT`` strings and so on).
    """
    merged = dict(file_settings)
    merged.update({key: value for key, value in switches.items() if value is not None})
    name = str(merged.get("task", DEFAULT_TASK)).lower()
    if name not in registry.names():
        raise ScorerError(f"{source}: unknown task '{name}'; known tasks: "
                          f"{', '.join(registry.names())}")
    record = registry.get(name)
    misplaced = [key for key in file_settings
                 if key not in COMMON_KEYS and record.key(str(key)) is None]
    if misplaced:
        raise ScorerError(f"{source}: policy key(s) {', '.join(map(str, misplaced))} do not "
                          f"apply to the task {name}; remove them")

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
        return f"the default -{key} ({':'.join(settings[key])})"
    settings = record.defaults()
    for key in record.policy_keys:
        if key.name in merged:
            settings[key.name] = key.read(merged[key.name], key, source, from_switch(key.name))
    settings["leaderboard"] = list_value(merged.get("leaderboard"), "leaderboard", source)
    policy = Policy(name, settings)
    record.validate_policy(policy, where, origin, source)
    validate_leaderboard(policy, source)
    return policy


def check_labels(policy: Policy, where, defaults: tuple) -> None:
    """A task's labels (from the policy file only: there is no switch): at
    least one, none empty.  With none every gold and predicted label is
    unknown, which the readers report far from the cause."""
    if not policy.labels:
        raise ScorerError(f"{where('labels')}no label is given; name the labels the gold and "
                          f"predictions use (for {policy.task}: {', '.join(defaults)}), or "
                          f"leave the key out")
    if any(not label.strip() for label in policy.labels):
        raise ScorerError(f"{where('labels')}an empty label in "
                          f"{', '.join(repr(label) for label in policy.labels)}")


def validate_leaderboard(policy: Policy, source: str = "policy") -> None:
    """Every leaderboard metric must be one the task computes, each named once
    (whether it needs -expand is checked where -expand is known)."""
    if not policy.leaderboard:
        return
    known = registry.get(policy.task).scoring.metric_names(policy)
    unknown = [name for name in policy.leaderboard if name not in known]
    if unknown:
        raise ScorerError(f"{source}: leaderboard metric(s) {', '.join(unknown)} unknown for "
                          f"{policy.task}; the metrics are: {', '.join(known)}")
    repeated = sorted({name for name in policy.leaderboard if policy.leaderboard.count(name) > 1})
    if repeated:
        raise ScorerError(f"{source}: leaderboard metric(s) {', '.join(repeated)} named twice")
