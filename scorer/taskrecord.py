"""What a task is, as the shared code sees it: the
:class:`~scorer.taskrecord.Task` record.

The command line, the policy reader, the track, the leaderboard program, the
diff and the pictures ask a task's record instead of naming the task.  A task
is one module in ``scorer/tasks/`` whose ``TASK`` is an instance of a
:class:`~scorer.taskrecord.Task` subclass; the record's attributes declare (names,
words, policy keys, switches, report files), its methods do (score a
request, find a track's runs, check a leaderboard's references, read a
``.debug``).  The work itself stays in the task's own package
(``scorer/coldstart/``, ``scorer/claims/``, ``scorer/countstable/``), imported
when a method is called, so that reading the records costs a command
nothing.  :func:`scorer.registry.get` finds a record by name
(``scorer.tasks.get`` is the same).

A plain class, not a dataclass or an abstract base: every command reads the
records, and ``dataclasses``/``abc`` (with ``inspect``) would be most of a
small run's start-up.
"""
from __future__ import annotations

import os
from collections import namedtuple

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


class Task:
    """The record of one task.  Subclasses set the attributes and override
    the methods (``scorer.countstable.task.TableTask`` fills in those of a task
    scored from a gold file, one predictions file per run and a per-unit
    counts table)."""

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
    #: every report a run may write at an output prefix, whatever its switches
    report_extensions: tuple = ()
    #: what the task scores, for -help's first line
    summary = ""
    #: what a run's files are, for -help
    files_help = ""
    #: what a track's files are, for python -m scorer.track -help
    track_files_help = ("the gold file, then one predictions file per run (named by the file "
                        "name without extension; a folder stands for its *.jsonl files)")
    #: what a submission is, for a leaderboard's pages and messages
    submission = "one predictions file"
    #: words of the metrics' names as a leaderboard's column titles write them
    #: (beyond ap, p, r, f1, written AP, P, R, F1)
    title_words: dict = {}

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
        import textwrap
        lines = [f"{self.name} metrics (run.json and .summary{self.metrics_note}):"]
        for name, text in self.explanations():
            lines += textwrap.wrap(text, width=80, initial_indent=f"  {name + ':':33}",
                                   subsequent_indent=" " * 35)
        return lines

    # -- a request ---------------------------------------------------------------

    def check_request(self, request) -> None:
        """This task's rules for a request to score, beyond the common ones
        (scorer.request.build calls it last)."""

    def input_paths(self, files) -> list:
        """The files a run reads (folders standing for the files they hold)."""
        return list(files)

    def score(self, request, problems, samples=None):
        """Score a request: an outcome with ``reports`` (scorer.reportset.Reports)
        and the task's scores as data.  ``samples``: the request's samples,
        read or drawn already (a track's runs share them)."""
        raise NotImplementedError

    # -- scorer.diff: reading a .debug ------------------------------------------------

    #: whether the task's .debug starts with a "#NAME:" header (else: the Perl's layout)
    debug_header = True
    #: the reports besides the .debug that scorer.diff reads beside it
    diff_tables: tuple = ("summary",)

    def read_debug(self, path: str, lines: list):
        """This task's ``.debug`` (``lines``: its lines) for scorer.diff."""
        raise NotImplementedError

    # -- metrics --------------------------------------------------------------------

    def metric_names(self, policy) -> list:
        """Every metric a run of this policy may have (whatever its switches):
        what a leaderboard may show."""
        return [metric.name for metric in self.declared_metrics(policy)]

    def catalogue(self, request) -> list:
        """(name, title) of every metric a run of ``request`` has, the
        headline (the official score) first: what a track ranks by."""
        raise NotImplementedError

    def catalogues(self) -> list:
        """(heading, catalogue) of every kind of run whose metrics differ, for
        -help and the documentation (a task whose metrics follow the policy:
        those of its default policy)."""
        return [(self.title, self.catalogue(None))]

    def run_result(self, name: str, outcome, status: str = "ok", statistics=True,
                   per_query: bool = True):
        """A scored run as data (scorer.results.RunResult): its values, the
        per-unit statistics of the metrics asked for (``statistics``: True,
        every metric's; False, none; or the metrics' names), the per-unit rows
        (unless ``per_query`` is False: then made when first wanted)."""
        raise NotImplementedError

    def unit_table(self, outcome):
        """(unit keys, {column: one value per unit}): the counts table of a
        run, when the task has one (else None)."""
        return None

    def run_ids(self, outcome) -> tuple:
        """The ids of the runs a scored request's files hold, when its files
        can hold several (``ScoreResult.run_ids``), else ()."""
        return ()

    def sparse_columns(self, columns) -> frozenset:
        """The columns of a counts table whose zeros the per-unit rows leave
        out (``per_query.csv``, ``ScoreResult.per_query``): those of which a
        unit has a value for few of many (a unit labelled with one of a few
        hundred labels), whose rows would grow with the units times the
        columns."""
        return frozenset()

    # -- a leaderboard ----------------------------------------------------------------

    def leaderboard(self, request) -> tuple:
        """The metrics a leaderboard shows by default, in column order."""
        return tuple(name for name, _title in self.catalogue(request))

    def missing_metrics_hint(self, request) -> str:
        """Why a metric the task knows is not computed for ``request`` (" (...)")."""
        return ""

    def submission_problem(self, result, name: str) -> str | None:
        """What makes a scored submission (scorer.api.ScoreResult of the file
        ``name``) unfit for a leaderboard, or None."""
        return None

    def shared_request(self, request):
        """The request a track scores its runs with, and a leaderboard its
        submissions (where the task's defaults differ from one run's: Cold
        Start validates each submission first)."""
        return request

    def check_references(self, request, files: list) -> None:
        """Read a leaderboard's reference ``files`` as every submission's run
        will; a problem that would fail every submission is a ScorerError
        naming the file."""
        raise NotImplementedError

    # -- pictures ---------------------------------------------------------------------

    def picture_title(self, outcome) -> str:
        """The title of a run's picture (``-plot``)."""
        raise NotImplementedError

    #: the reports whose intervals the picture draws (``.confidence``'s layout)
    interval_reports: tuple = ("confidence",)
    #: the order of the score variants (per-hop rows' ``variant``) in the picture
    #: (others after them, as they come)
    variant_order: tuple = ()

    def interval_key(self, code: str):
        """(variant, aggregate, hop, metric) of a ``.confidence`` code, as
        the run's per-hop rows key it (None: no per-hop row)."""
        return (self.units, "", "ALL", code)

    # -- a track --------------------------------------------------------------------

    #: switches that pick runs among a request's files (a track scores every run)
    run_switches: tuple = ()

    def find_runs(self, paths: list) -> tuple:
        """(the files every run shares, the runs: TrackRun) of a track's files."""
        raise NotImplementedError

    def check_track_request(self, request) -> None:
        """This task's rules for a track's request (its samples)."""

    def read_shared_inputs(self, request, shared: list, plan):
        """Read the files every run shares, so that a fatal problem there stops
        the track before anything is scored; the samples the request asks
        for, read or drawn once for all runs by ``plan``
        (:class:`scorer.bootstrap.plan.SamplingPlan`: ``plan.samples_of(groups,
        check)``, told the units the shared files give), else None."""
        return plan.samples_of()

    def signature_parts(self, request) -> list:
        """What a track's signature records of the request beyond the policy
        and the samples (``name:value`` texts)."""
        return []

    def shown_per_query(self, per_query):
        """The per-unit rows a track's pictures and page show (per_query.csv
        has every row)."""
        return per_query


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
