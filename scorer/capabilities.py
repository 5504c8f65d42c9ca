"""What a task can do, one concern a class: the capabilities a task's record
(:class:`scorer.taskrecord.Task`) carries.

* :class:`Scoring`: score a request, and say what its metrics are;
* :class:`Track`: find a track's runs, read what they share;
* :class:`Diff`: read a ``.debug`` back for ``scorer.diff``;
* :class:`Leaderboard`: a leaderboard's columns, references and refusals;
* :class:`Picture`: a run's picture (``-plot``).

Each is built with the task's record (``self.task``) and has defaults where
a default is right; a task overrides the hooks its concern needs in a
subclass, and names the subclass in its record (``track = MyTrack``).  A task
without a capability names None: shared code asking it then meets a
:class:`Absent`, whose use is a ScorerError ("task X has no diff"), never an
AttributeError.
"""
from __future__ import annotations

from scorer.problems import ScorerError


class Capability:
    """One concern of one task; ``task``: its record."""

    __slots__ = ("task",)

    def __init__(self, task):
        self.task = task


class Absent:
    """The capability a task does not have: false, and any use of it a
    ScorerError naming the task and what it lacks."""

    __slots__ = ("task_name", "kind")

    def __init__(self, task_name: str, kind: str):
        self.task_name = task_name
        self.kind = kind

    def __bool__(self) -> bool:
        return False

    def __getattr__(self, name: str):
        if name.startswith("__"):
            # (copy, pickle and hasattr ask for special names; they expect AttributeError)
            raise AttributeError(name)
        raise ScorerError(f"task {self.task_name} has no {self.kind}")


class Scoring(Capability):
    """Scoring one request, and what its metrics are (every task has it)."""

    __slots__ = ()

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

    def metric_names(self, policy) -> list:
        """Every metric a run of this policy may have (whatever its switches):
        what a leaderboard may show."""
        return [metric.name for metric in self.task.declared_metrics(policy)]

    def catalogue(self, request) -> list:
        """(name, title) of every metric a run of ``request`` has, the
        headline (the official score) first: what a track ranks by."""
        raise NotImplementedError

    def catalogues(self) -> list:
        """(heading, catalogue) of every kind of run whose metrics differ, for
        -help and the documentation (a task whose metrics follow the policy:
        those of its default policy)."""
        return [(self.task.title, self.catalogue(None))]

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

    def shared_request(self, request):
        """The request a track scores its runs with, and a leaderboard its
        submissions (where the task's defaults differ from one run's: Cold
        Start validates each submission first)."""
        return request


class Track(Capability):
    """A track: many runs scored against the files they share."""

    __slots__ = ()

    #: what a track's files are, for python -m scorer.track -help
    files_help = ("the gold file, then one predictions file per run (named by the file "
                  "name without extension; a folder stands for its *.jsonl files)")
    #: the task's own slicings for ``scorer.track -slices`` (besides
    #: ``field:KEY`` and ``file:PATH``), each made by ``slicing``
    slicings: tuple = ()

    def find_runs(self, paths: list) -> tuple:
        """(the files every run shares, the runs: TrackRun) of a track's files."""
        raise NotImplementedError

    def check_request(self, request) -> None:
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

    def slicing(self, spec: str, shared: list):
        """The slicing ``spec`` (one of ``slicings``) of a track whose shared
        files are ``shared`` (the gold first): a
        :class:`scorer.slicing.Slicing`, by default of the gold's units by
        their labels (``slice_records``, ``slice_labels``, ``slice_label_order``)."""
        # (dataclasses and hashlib, which a run of one file does without)
        from scorer.slicing import gold_slicing
        return gold_slicing(spec, self, shared)

    def slice_records(self, path: str) -> list:
        """``(line, unit id as the track names it, record)`` of every unit of
        the gold file ``path`` (``record``: its keys, for ``field:KEY``, and
        its label)."""
        known = ", ".join(tuple(self.slicings) + ("file:PATH",))
        raise ScorerError(f"{path}: {self.task.title}'s gold has no lines of keys to slice; "
                          f"-slices takes {known}")

    def slice_labels(self, record: dict) -> list:
        """The label slices a gold record's unit sits in: its ``label``."""
        return [str(record.get("label"))]

    def slice_label_order(self) -> tuple:
        """The label slices in order (the labels the gold holds beyond these
        after them, as they come): the record's ``labels``."""
        return tuple(getattr(self.task, "labels", ()) or ())

    def check_slicing(self, slicing, metric: str) -> None:
        """This task's rules for a slicing of a track ranked by ``metric``
        (none by default)."""


class Diff(Capability):
    """Reading a run's ``.debug`` back, for ``scorer.diff``."""

    __slots__ = ()

    #: whether the task's .debug starts with a "#NAME:" header (else: the Perl's layout)
    header = True
    #: the reports besides the .debug that scorer.diff reads beside it
    tables: tuple = ("summary",)

    def read(self, path: str, lines: list):
        """This task's ``.debug`` (``lines``: its lines)."""
        raise NotImplementedError


class Leaderboard(Capability):
    """A leaderboard: its columns, its references, the submissions it refuses."""

    __slots__ = ()

    #: what a submission is, for a leaderboard's pages and messages
    submission = "one predictions file"
    #: words of the metrics' names as a leaderboard's column titles write them
    #: (beyond ap, p, r, f1, written AP, P, R, F1)
    title_words: dict = {}

    def submission_for(self, request) -> str:
        """What a submission is under ``request`` (its policy may change it)."""
        return self.submission

    def columns(self, request) -> tuple:
        """The metrics a leaderboard (and a track's tables) show by default,
        in column order."""
        return tuple(name for name, _title in self.task.scoring.catalogue(request))

    def missing_metrics_hint(self, request) -> str:
        """Why a metric the task knows is not computed for ``request`` (" (...)")."""
        return ""

    def submission_problem(self, result, name: str) -> str | None:
        """What makes a scored submission (scorer.api.ScoreResult of the file
        ``name``) unfit for a leaderboard, or None."""
        return None

    def check_references(self, request, files: list) -> None:
        """Read a leaderboard's reference ``files`` as every submission's run
        will; a problem that would fail every submission is a ScorerError
        naming the file."""
        raise NotImplementedError


class Picture(Capability):
    """A run's picture (``-plot``): its title and the intervals it draws."""

    __slots__ = ()

    #: the reports whose intervals the picture draws (``.confidence``'s layout)
    interval_reports: tuple = ("confidence",)
    #: the order of the score variants (per-hop rows' ``variant``) in the picture
    #: (others after them, as they come)
    variant_order: tuple = ()

    def title(self, outcome) -> str:
        """The title of a run's picture."""
        raise NotImplementedError

    def interval_key(self, code: str):
        """(variant, aggregate, hop, metric) of a ``.confidence`` code, as
        the run's per-hop rows key it (None: no per-hop row)."""
        return (self.task.units, "", "ALL", code)
