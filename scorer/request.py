"""A request to score: the policy, the input files, the output targets, the
bootstrap settings and the task's own switches, checked and frozen.

:func:`build` makes one from typed arguments (the Python API, the track, the
leaderboard program), doing every check the command line does;
:func:`from_switches` makes one from the switches ``python -m scorer`` read
off its argv.  Tasks read the request, never the switches.
"""
from __future__ import annotations

import os
import shlex
from collections import namedtuple

from scorer import switches as switch_table
from scorer import tasks
from scorer.limits import shorten, whole_number
from scorer.policy import Policy, build_policy, load_policy_file, policy_path, task_hint
from scorer.problems import ScorerError
from scorer.switches import COMMON

#: What a request's command line starts with, unless another program built it.
PROGRAM = "python -m scorer"

#: Each field, with its default (``policy`` has none: every request has one).
_FIELDS = {
    "policy": None,            # scorer.policy.Policy
    "files": (),
    "output_file": "stdout",
    "error_file": "stderr",
    "policy_file": None,
    "samples": None,           # -samples FILE
    "bootstrap": None,         # -bootstrap N
    "seed": None,              # -seed S
    "plot": False,             # -plot
    #: the task's own switches and the policy switches, as given: (name, text) pairs
    #: (a flag's value is True), in the order given
    "switches": (),
    "argv": None,              # the command line as typed (None: not typed; see arguments())
    "program": PROGRAM,
    "cwd": "",
}

#: Switches a request holds in fields of their own (the others are in ``switches``).
_OWN_FIELDS = ("policy", "output_file", "error_file", "samples", "bootstrap", "seed", "plot")
#: Switches that answer instead of scoring (scorer.switches.parse ends there): no request has them.
_ANSWERING = ("help", "h", "version")


class Request(namedtuple("Request", tuple(_FIELDS), defaults=tuple(_FIELDS.values())[1:])):
    """A named tuple (immutable; ``request._replace(seed=7)`` is a changed
    copy), not a dataclass: importing ``dataclasses`` is a tenth of a small
    run's start-up."""

    __slots__ = ()

    def option(self, name: str, default=None):
        """A switch of ``switches`` (the task's own, or a policy switch) as
        given: its text, True for a flag, ``default`` when not given."""
        for given, value in self.switches:
            if given == name:
                return value
        return default

    def with_option(self, name: str, value) -> "Request":
        """A copy with the switch ``name`` set to ``value`` (None: not given)."""
        kept = tuple((given, text) for given, text in self.switches if given != name)
        return self._replace(switches=kept + (((name, value),) if value is not None else ()))

    def arguments(self) -> list:
        """The command line's arguments this request stands for: as typed,
        or (a request built from typed arguments: the API, a track's runs)
        the switches that make the same request."""
        if self.argv is not None:
            return list(self.argv)
        arguments = ["-policy", self.policy_file] if self.policy_file else []
        for name, value in self.switches:
            arguments += [f"-{name}"] if value is True else [f"-{name}", value]
        if self.samples is not None:
            arguments += ["-samples", self.samples]
        if self.bootstrap is not None:
            arguments += ["-bootstrap", str(self.bootstrap)]
        if self.seed is not None:
            arguments += ["-seed", str(self.seed)]
        if self.plot:
            arguments.append("-plot")
        for name in ("output_file", "error_file"):
            if getattr(self, name) != _FIELDS[name]:
                arguments += [f"-{name}", getattr(self, name)]
        return arguments + list(self.files)

    def invocation(self) -> str:
        """``cwd$ program arguments...``, for ``.params``."""
        return f"{self.cwd}$ {self.program} " + " ".join(map(shlex.quote, self.arguments()))


def build(files, policy=None, *, output_file="stdout", error_file="stderr", samples=None,
          bootstrap=None, seed=None, plot=False, argv=None, program: str = PROGRAM,
          cwd: str | None = None, **switches) -> Request:
    """A checked request from typed arguments: ``files`` (a path or a list of
    them), ``policy`` (the path of a policy file, or a
    :class:`~scorer.policy.Policy`), ``switches`` (the policy switches and the
    task's own, by name: a string, a whole number, a path or a list of them
    for a switch that takes a value (a list is joined with ':'), True for a
    flag; None or False: not given).
    Every check of the command line is made here; a mistake is a ScorerError
    with the command line's message."""
    given_policy = policy if isinstance(policy, Policy) else None
    # The common switches, and those of the task the policy names when the
    # task's own are given (any other task's is still read, then refused by
    # name: _check_switches_apply).
    table = _COMMON_TABLE if not switches else switch_table.run_table(
        given_policy.task if given_policy is not None else task_hint(policy))
    files = input_paths(files)
    if policy is not None and given_policy is None and not isinstance(policy, (str, os.PathLike)):
        raise ScorerError(f"policy must be a shipped policy's name (such as fever) or the "
                          f"path of a policy file, not {type(policy).__name__}")
    texts = {name: _text(table[name], value)
             for name, value in (("output_file", output_file), ("error_file", error_file),
                                 ("plot", plot))}
    named = {}
    for name, value in switches.items():
        switch = table.get(name)
        if switch is None or name in _OWN_FIELDS or name in _ANSWERING:
            raise ScorerError(f"Unknown switch: -{name}"
                              + switch_table.suggestion(name, _settable(table)))
        text = _text(switch, value)
        if text is not None:
            named[name] = text
    policy_file = None if given_policy else _text(table["policy"], policy)
    if policy_file:
        policy_file = policy_path(policy_file)      # a shipped policy's name: its file
    policy_switches = {name: text for name, text in named.items() if table[name].sets_policy}
    if given_policy is not None and not policy_switches:
        policy = given_policy
    else:
        file_settings = (dict(given_policy.items()) if given_policy is not None
                         else load_policy_file(policy_file) if policy_file else {})
        policy = build_policy(file_settings, policy_switches,
                              source=policy_file or "command line")
    task = tasks.get(policy.task)
    _check_switches_apply(task, named, policy_file)
    samples_file, bootstrap_count, seed_value = sample_settings(samples, bootstrap, seed)
    if seed_value is not None and bootstrap_count is None:
        # A seed that seeds nothing: the user meant to draw samples.
        raise ScorerError("-seed applies only with -bootstrap N (the samples it draws)")
    request = Request(policy=policy, files=files,
                      output_file=texts["output_file"] or "stdout",
                      error_file=texts["error_file"] or "stderr", policy_file=policy_file,
                      samples=samples_file, bootstrap=bootstrap_count, seed=seed_value,
                      plot=bool(texts["plot"]), switches=tuple(named.items()),
                      argv=None if argv is None else tuple(argv), program=program,
                      cwd=os.getcwd() if cwd is None else cwd)
    task.scoring.check_request(request)
    check_each_file_once(task.scoring.input_paths(files))
    return request


def input_paths(files) -> tuple:
    """``files`` (a path, or a list of paths: text or ``os.PathLike``) as a
    tuple of texts; anything else is refused, naming what was given (a
    bytes path would become the text "b'run.jsonl'", its letters' numbers or
    a list's text, each then a file not found, or worse, found)."""
    if isinstance(files, (str, os.PathLike)):
        files = [files]
    elif isinstance(files, (bytes, bytearray)) or not hasattr(files, "__iter__") \
            or isinstance(files, dict):
        raise ScorerError(f"files must be a path or a list of paths (str or os.PathLike), "
                          f"not {type(files).__name__}")
    paths = []
    for given in files:
        path = os.fspath(given) if isinstance(given, os.PathLike) else given
        if not isinstance(path, str):
            raise ScorerError(f"files must be paths (str or os.PathLike), not "
                              f"{type(path).__name__} ({shorten(repr(path))})"
                              + ("; decode it with os.fsdecode()" if isinstance(path, bytes)
                                 else ""))
        if not path:
            raise ScorerError("an empty file name (an empty argument, '', among the files?); "
                              "name each file")
        if "\0" in path:
            raise ScorerError(f"{shorten(repr(path))}: a file name cannot hold a NUL character")
        paths.append(path)
    return tuple(paths)


def from_switches(given: dict, files: list, argv, cwd: str) -> Request:
    """The request of ``python -m scorer``'s switches (as
    :func:`scorer.switches.parse` returns them) and files."""
    named = {name: value for name, value in given.items()
             if name not in _OWN_FIELDS and name not in _ANSWERING}
    return build(files, given.get("policy"), output_file=given.get("output_file", "stdout"),
                 error_file=given.get("error_file", "stderr"), samples=given.get("samples"),
                 bootstrap=given.get("bootstrap"), seed=given.get("seed"),
                 plot=bool(given.get("plot")), argv=argv, cwd=cwd, **named)


def _settable(table: dict) -> dict:
    return {name: switch for name, switch in table.items()
            if name not in _ANSWERING}


def _text(switch, value):
    """A switch's value as the command line gives it: text, True for a flag,
    None when not given; a value of the wrong kind is refused, naming the
    argument (as text it would become a file name, or another switch's value)."""
    name = switch.name
    if value is None or value is False:
        return None
    if not switch.takes_value:
        if value is not True:
            raise ScorerError(f"{name} is a switch without a value: give {name}=True, "
                              f"not {value!r}")
        return True
    if value is True:
        raise ScorerError(f"{name} takes a value ({_what(switch)}), not True")
    if isinstance(value, (list, tuple)) and all(_plain(v) for v in value):
        return ":".join(_plain_text(v, name) for v in value)
    if not _plain(value):
        raise ScorerError(f"{name} must be a string, a whole number or a list of them "
                          f"({_what(switch)}), not {type(value).__name__}")
    return _plain_text(value, name)


def _plain(value) -> bool:
    """A value that stands for itself on a command line."""
    return isinstance(value, (str, int, os.PathLike)) and not isinstance(value, bool)


def _plain_text(value, name: str) -> str:
    if isinstance(value, os.PathLike):
        value = os.fspath(value)
        if not isinstance(value, str):
            raise ScorerError(f"{name} must be a path as text, not {type(value).__name__} "
                              f"({shorten(repr(value))})")
        return value
    if isinstance(value, int) and value.bit_length() > 200:
        # (str() of an int of more than 4,300 digits is a ValueError; no switch
        # takes a number of more than 60 digits)
        raise ScorerError(f"{name}: a number of {value.bit_length():,} bits is too large")
    return str(value)


def _what(switch) -> str:
    """A switch's meaning, as -help gives it, shortened to its first clause."""
    text = (switch.help or "").split(" (")[0].split(";")[0]
    return text[:1].lower() + text[1:] if text else "see python -m scorer -help"


_COMMON_NAMES = frozenset(switch.name for switch in COMMON)
_COMMON_TABLE = switch_table.table(COMMON)


def _check_switches_apply(task, named: dict, policy_file) -> None:
    """Another task's switches are refused: ignoring them would give numbers
    that look right for a run that was not asked for."""
    own = {switch.name for switch in task.switches}
    if all(name in own or name in _COMMON_NAMES for name in named):
        return              # (no other task's: their records need not be loaded)
    others = []
    for other in tasks.every():
        others += [switch.name for switch in other.switches
                   if switch.name not in own and switch.name not in others]
    misplaced = [f"-{name}" for name in others if name in named]
    if misplaced:
        raise ScorerError(f"{', '.join(misplaced)} {'does' if len(misplaced) == 1 else 'do'} "
                          f"not apply to the task {task.name}"
                          + (f" (set by {policy_file})" if policy_file else "")
                          + "; remove it, or choose the task with -policy")


def sample_settings(samples=None, bootstrap=None, seed=None) -> tuple:
    """(-samples FILE, -bootstrap N, -seed S), checked: the file's name, and
    the numbers (None where not given); each argument typed as :func:`build`
    takes them (the command line's texts, or numbers and paths)."""
    table = {switch.name: switch for switch in COMMON}
    samples = _text(table["samples"], samples)
    bootstrap_count, seed_value = bootstrap_settings(_text(table["bootstrap"], bootstrap),
                                                     _text(table["seed"], seed), samples)
    return samples, bootstrap_count, seed_value


def bootstrap_settings(bootstrap: str | None, seed: str | None, samples: str | None) -> tuple:
    """(-bootstrap N, -seed S) as numbers (None where not given), checked;
    each argument is the switch's text, None when not given."""
    count = None
    if bootstrap is not None:
        # scorer.bootstrap (numpy) for the samples alone: a plain run imports none
        # of it (tests/e2e/test_imports.py).
        from scorer.bootstrap import MAX_SAMPLES
        if bootstrap.strip().startswith("-"):
            raise ScorerError("-bootstrap must not be negative")
        count = whole_number(bootstrap, "-bootstrap (the number of samples)", MAX_SAMPLES)
        if count == 0:
            # No sample: empty intervals and no tests, which look like a finished run.
            raise ScorerError("-bootstrap must be at least 1 (the number of samples to draw), "
                              "not 0; leave it out to score without samples")
        if seed is None:
            raise ScorerError("-bootstrap needs -seed S, so that the samples can be drawn again")
        if samples is not None:
            raise ScorerError("give either -samples FILE or -bootstrap N -seed S, not both")
    seed_value = None
    if seed is not None:
        from scorer.bootstrap import seed_from_text    # (see -bootstrap above)
        seed_value = seed_from_text(seed)
    return count, seed_value


def check_each_file_once(paths: list) -> None:
    """Refuse a file named twice (the same path, or the same file by a link or
    another name): its lines would be read, and counted, twice."""
    by_name: dict = {}
    by_identity: dict = {}
    for number, path in enumerate(paths):
        earlier = by_name.setdefault(os.path.realpath(path), number)
        if earlier == number:
            try:
                status = os.stat(path)
            except (OSError, ValueError):
                continue   # a missing file is reported when it is opened
            if not status.st_ino:
                continue   # a file system without file numbers
            earlier = by_identity.setdefault((status.st_dev, status.st_ino), number)
        if earlier != number:
            same = "" if paths[earlier] == path else f" (as {paths[earlier]})"
            raise ScorerError(f"{path} is given twice{same}: its lines would be read and "
                              f"counted twice; name each file once")
