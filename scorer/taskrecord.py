"""What a task is, as the shared code sees it: the
:class:`~scorer.taskrecord.Task` record.

The command line, the policy reader, the track, the leaderboard program, the
diff and the pictures ask a task's record instead of naming the task.  A task
is one module in ``scorer/tasks/`` whose ``TASK`` is an instance of a
:class:`~scorer.taskrecord.Task` subclass.  The record's attributes declare
(names, words, policy keys, switches, report files, metrics); its
capabilities do, one concern each (scorer/capabilities.py): ``scoring``
scores a request, ``track`` finds and reads a track's runs, ``leaderboard``
checks a leaderboard's references and submissions, ``diff`` reads a
``.debug`` back, ``picture`` titles and draws a run's picture.  The work
itself stays in the task's own package (``scorer/coldstart/``,
``scorer/claims/``, ``scorer/countstable/``).  :func:`scorer.registry.get`
finds a record by name (``scorer.tasks.get`` is the same).

A plain class, not a dataclass or an abstract base: every command reads the
records, and ``dataclasses``/``abc`` (with ``inspect``) would be most of a
small run's start-up.
"""
from __future__ import annotations

import os
from collections import namedtuple

from scorer import capabilities
from scorer.problems import ScorerError


class PolicyKey:
    """One key of a task's policy file, and of :class:`scorer.policy.Policy`.

    ``read(value, key, source)`` turns what a policy file or a switch gives
    into the setting (``source``: the policy file, or "command line"); the
    readers of :mod:`scorer.policy` cover lists and single values.
    ``in_digest``: whether the setting changes a number (``.params``
    signatures hash those only); ``write``: the setting as a policy file
    holds it (default: lists as lists, other values as they are)."""

    __slots__ = ("name", "help", "default", "read", "in_digest", "write")

    def __init__(self, name: str, help: str, default, read, in_digest: bool = True, write=None):
        self.name = name
        self.help = help
        self.default = default
        self.read = read
        self.in_digest = in_digest
        self.write = write

    def written(self, value):
        """``value`` as a policy file holds it (``yaml.safe_dump`` writes it)."""
        if self.write is not None:
            return self.write(value)
        return list(value) if isinstance(value, tuple) else value


#: The capabilities a task's record carries, in the order they are built
#: (scorer/capabilities.py).
CAPABILITIES = ("scoring", "track", "diff", "leaderboard", "picture")


class Task:
    """The record of one task: what it declares (names, words, policy keys,
    switches, report files, metrics), and the capabilities it has, each an
    object of its concern (scorer/capabilities.py): ``scoring``, ``track``,
    ``diff``, ``leaderboard``, ``picture``.  A subclass names each
    capability's class (``track = MyTrack``), or None for one it lacks;
    each record holds an instance of it, built with the record, under the
    same name (an :class:`~scorer.capabilities.Absent` for None).
    (``scorer.countstable.task.TableTask`` names those of a task scored from
    a gold file, one predictions file per run and a per-unit counts table.)"""

    #: the name a policy file gives (``task: NAME``) and the registry knows
    name = ""
    #: the name as people write it (titles, headings)
    title = ""
    #: the word for what the bootstrap draws and per-unit tables list
    unit = "item"
    units = "items"
    #: the task's own policy keys (PolicyKey), in the order .params lists them
    policy_keys: tuple = ()
    #: the task's own command-line switches (scorer.switches.Switch): refused
    #: for any other task; those setting a policy key are named as the key
    switches: tuple = ()
    #: switches that pick runs among a request's files (a track scores every
    #: run; a leaderboard's submission is one)
    run_switches: tuple = ()
    #: every report a run may write at an output prefix, whatever its switches
    report_extensions: tuple = ()
    #: what the task scores, for -help's first line
    summary = ""
    #: what a run's files are, for -help
    files_help = ""

    #: the capabilities' classes (None: the task has none); every task scores
    scoring = capabilities.Scoring
    track = None
    diff = None
    leaderboard = None
    picture = None

    def __init__(self):
        for kind in CAPABILITIES:
            made = getattr(type(self), kind)
            setattr(self, kind, capabilities.Absent(self.name, kind) if made is None
                    else made(self))

    # -- the policy -------------------------------------------------------------

    def key(self, name: str) -> PolicyKey | None:
        for key in self.policy_keys:
            if key.name == name:
                return key
        return None

    def defaults(self) -> dict:
        """Each policy key's default, in key order."""
        return {key.name: key.default for key in self.policy_keys}

    def validate_policy(self, policy, where, origin, source: str) -> None:
        """Refuse settings that cannot be scored together (ScorerError).
        ``where(key)``: the policy file and key a value came from, for a
        message's start (empty for a switch); ``origin(key)``: the switch, the
        file and key, or the default, for a message naming the setting;
        ``source``: the policy file (or "command line")."""

    def digest_values(self, policy) -> tuple:
        """What :meth:`scorer.policy.Policy.digest` hashes: the task and every
        setting that changes a number."""
        return (self.name, *(getattr(policy, key.name) for key in self.policy_keys
                             if key.in_digest))

    def settings_text(self, policy) -> list:
        """(key, text) of each policy setting, as ``.params`` shows them (a
        list joined with ':')."""
        shown = []
        for key in self.policy_keys:
            value = key.written(getattr(policy, key.name))
            shown.append((key.name, ":".join(value) if isinstance(value, list) else str(value)))
        return shown

    #: the policy keys a run's signature names besides the policy's digest
    signature_keys: tuple = ()

    # -- the metrics, declared ----------------------------------------------------------

    #: what -help says of the metrics' names, after "NAME metrics (...)"
    metrics_note = ""

    #: the task's metric declarations, each with a ``name`` and an
    #: ``explanation`` (scorer.countstable.metrics: Ratio, HarmonicMean, Mean,
    #: for a counts-table task), when they do not follow the policy
    metrics: tuple = ()

    def declared_metrics(self, policy) -> tuple:
        """The metric declarations of a run of ``policy`` (``metrics``, unless
        the task's metrics follow its policy)."""
        return self.metrics

    def explanations(self) -> list:
        """(metric name, what it measures) of every metric, for -help and the docs."""
        return [(metric.name, metric.explanation) for metric in self.metrics]

    def help_lines(self) -> list:
        """Lines -help adds for this task: its metrics and what they measure."""
        import textwrap     # (here: a run without -help does without it; test_imports.py)
        lines = [f"{self.name} metrics (run.json and .summary{self.metrics_note}):"]
        for name, text in self.explanations():
            lines += textwrap.wrap(text, width=80, initial_indent=f"  {name + ':':33}",
                                   subsequent_indent=" " * 35)
        return lines


class TrackRun(namedtuple("TrackRun", "name files options", defaults=((),))):
    """One run of a track: its name, the files ``python -m scorer`` scores it
    from besides the shared ones, and the switches it adds to the track's
    request ((name, value) pairs: Cold Start's -runids for a file holding
    several run ids)."""

    __slots__ = ()


def run_name(path: str) -> str:
    """A run file's name without its extension (``.tab.txt`` as one)."""
    name = os.path.basename(path.rstrip("/"))
    return name[:-len(".tab.txt")] if name.endswith(".tab.txt") else os.path.splitext(name)[0]


def checked_runs(runs: list) -> list:
    """The runs sorted by name; two runs of one name, or a name that cannot
    name a folder, are refused."""
    seen: dict = {}
    for run in runs:
        if run.name in seen:
            raise ScorerError(f"two runs are named {run.name}: {' '.join(seen[run.name].files)} "
                              f"and {' '.join(run.files)} (run names must be unique)")
        if not run.name or run.name in (".", "..") or "/" in run.name or "\0" in run.name:
            raise ScorerError(f"{' '.join(run.files)}: '{run.name}' cannot name a run folder")
        if any(ord(character) < 32 or ord(character) == 127 for character in run.name):
            # A tab or a line break would split the rows of the tables (.md, .tex,
            # .csv read by hand) and the lines of the picture.
            raise ScorerError(f"{' '.join(map(repr, run.files))}: the run's name "
                              f"{run.name!r} holds a tab, a line break or another control "
                              f"character; rename the file")
        seen[run.name] = run
    return sorted(runs, key=lambda run: run.name)
