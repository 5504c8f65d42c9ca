"""A whole track: find the runs, score each one, rank them, put intervals on
the headline score, test the differences, and write the track folder
(``folder.py``: built under a temporary name beside the target and moved
into place only when complete, so an interrupted or failed track leaves
either the earlier folder or the new one, never a mix).
"""
from __future__ import annotations

import dataclasses
import os
import shutil
from typing import Optional

import scorer.request
from scorer import bootstrap, stopping, tasks
from scorer.display.plot import check_width
from scorer.problems import ScorerError
from scorer.request import PROGRAM, check_each_file_once, sample_settings
from scorer.results import per_hop, per_query
from scorer.track import comparisons, folder, power, runner, slices, slicespec, statistics, tables
from scorer.track.clusters import Clusters, read_clusters
from scorer.track.power import METHODS
from scorer.track.signaturetext import signature_text
from scorer.version import __version__

COMPARE_CHOICES = ("all", "adjacent")
DEFAULT_TRIALS = comparisons.DEFAULT_TRIALS
CORRECTION_CHOICES = statistics.CORRECTIONS


@dataclasses.dataclass(frozen=True)
class TrackOptions:
    output_dir: Optional[str] = None   # None: compute only (the Python API)
    jobs: int = 1
    metric: Optional[str] = None
    compare: str = "all"
    #: approximate randomization trials; None: DEFAULT_TRIALS and the tail rule beyond
    trials: Optional[int] = None
    correction: str = statistics.HOLM   # which adjusted p decides `significant` and groups
    baseline: Optional[str] = None      # compare every run with this one
    clusters: Optional[str] = None      # a clusters file: units drawn and swapped together
    figure_width: float = 7.0          # inches: the leaderboard picture's (7: two columns)
    slices: Optional[str] = None       # -slices SPEC: leaderboards per slice (track/slices.py)
    power: Optional[tuple] = None      # -power SIZES: multiples of the units (track/power.py)
    power_method: str = "simulation"   # -power_method: simulation (default) or normal


@dataclasses.dataclass
class TrackResult:
    task: str
    metric: str
    metric_title: str
    leaderboard: object          # pandas DataFrame
    significance: object         # pandas DataFrame (empty without samples)
    #: every run's per-query rows (pandas DataFrame); None where the track
    #: wrote them to its folder's per_query.csv.gz, which ``per_query`` reads
    per_query_rows: object
    per_hop: object
    signature: str
    invocation: str
    run_files: dict
    results: list
    has_samples: bool
    correction: str = statistics.HOLM
    #: what a reader must know (a -trials too small for the family, ...)
    warnings: list = dataclasses.field(default_factory=list)
    #: how p_randomization was made: "R trials" and, at the default, how many
    #: pairs' p-values came from the tail rule
    randomization: str = ""
    #: the metrics a leaderboard shows beside the headline (leaderboard.tex, the
    #: page's table): the policy's leaderboard, else the task's default
    main_metrics: tuple = ()

    #: the folder's per_query.csv.gz, where the rows went (None: per_query_rows has them)
    per_query_file: Optional[str] = None
    #: -slices: every slice's leaderboard and tests (track/slices.SliceResult), else None
    slices: object = None
    #: -power: (sizes frame, pairs frame) of track/power.py, else None
    power: object = None

    @property
    def exit_status(self) -> int:
        return 255 if any(r.status != "ok" for r in self.results) else 0

    @property
    def per_query(self):
        """Every run's per-query rows (a DataFrame of results.PER_QUERY_COLUMNS),
        read from the folder's per_query.csv.gz where the track wrote them there."""
        if self.per_query_rows is None and self.per_query_file is not None:
            self.per_query_rows = folder.read_per_query(self.per_query_file)
        return self.per_query_rows


def build(request, options: TrackOptions) -> TrackResult:
    """Score a track: ``request`` (from :func:`track_request`) names the
    shared files and the runs' files together, as ``python -m scorer.track``
    takes them."""
    task = tasks.get(request.policy.task)
    catalogue = task.scoring.catalogue(request)
    metric = options.metric or catalogue[0][0]
    _check_options(options, task.name, metric, dict(catalogue))
    shared, runs = task.track.find_runs(list(request.files))
    if not runs:
        raise ScorerError(f"no run found among the files (for {task.title}: "
                          f"{task.track.files_help})")
    if options.baseline is not None and options.baseline not in {run.name for run in runs}:
        raise ScorerError(f"-baseline {options.baseline}: no run of that name; the runs are "
                          f"{_listed([run.name for run in runs])}")
    if options.power is not None and len(runs) < 2:
        raise ScorerError("-power measures the spread of two runs' paired differences: give "
                          "at least two runs (a pilot's, or last year's track)")
    clusters = _read_clusters(options, request)
    slicing = None
    if options.slices is not None:
        slicing = slicespec.read(options.slices, task, shared)
        task.track.check_slicing(slicing, metric)
    # As found in the folders (a file holding several run ids serves each of them).
    named = list(dict.fromkeys(shared + [path for run in runs for path in run.files]))
    check_each_file_once(named)
    _check_readable(named)
    # Read (and checked) once for every run: a fatal problem there stops the track
    # before anything is scored; the samples read (or drawn) once for all runs.
    plan = bootstrap.SamplingPlan(request, clusters)
    samples = task.track.read_shared_inputs(request, shared, plan)
    if samples is not None:
        # -trials bounded before any run is scored (the units drawn: at least
        # one per element; the exact count after scoring, in _assemble)
        _check_trials(options, task, len(samples.elements), len(runs))
        # Every run's signature names the samples: their digest made once,
        # here, not by every run (a thousand samples of 100,000 claims: 0.8 s).
        bootstrap.samples_digest(samples)
    run_request = plan.run_request(request)._replace(argv=None, program=PROGRAM)
    staging = folder.staging_dir(options.output_dir)
    try:
        job = runner.TrackJob(run_request, tuple(shared), staging, options.output_dir or ".",
                              samples,
                              linked=runner.LINKED_REPORTS if samples is not None else (),
                              metric=metric,
                              per_query_dir=os.path.join(staging, folder.PER_QUERY_PARTS)
                              if options.output_dir is not None else None,
                              levels=tuple(slicing.levels.values())
                              if slicing is not None and slicing.levels else ())
        results = runner.score_runs(job, runs, options.jobs)
        if samples is None:
            samples = plan.after_runs(lambda: runner.unit_ids(results, metric))
        result = _assemble(task, metric, catalogue, results, samples, options, request,
                           clusters, slicing)
        if options.output_dir is not None:
            folder.write(staging, result, request, samples, runs, shared, options.figure_width,
                         request.bootstrap is not None)
            folder.move_into_place(staging, options.output_dir)
            staging = None
            result.per_query_file = os.path.join(options.output_dir, folder.PER_QUERY_FILE)
        return result
    finally:
        if staging is not None:
            with stopping.deferred(raise_pending=False):
                shutil.rmtree(staging, ignore_errors=True)


def _listed(names: list, most: int = 10) -> str:
    return ", ".join(names[:most]) + (", ..." if len(names) > most else "")


def _read_clusters(options: TrackOptions, request) -> Optional[Clusters]:
    """The -clusters file, read and checked before anything is scored."""
    if options.clusters is None:
        return None
    if request.samples:
        raise ScorerError(f"-clusters {options.clusters} draws whole clusters itself: give "
                          f"-bootstrap N -seed S, not -samples")
    if request.bootstrap is None:
        raise ScorerError(f"-clusters {options.clusters} needs -bootstrap N -seed S (without "
                          f"samples the track has no intervals and no tests)")
    return read_clusters(options.clusters)


def _check_readable(paths: list) -> None:
    """Every file named must open before any run is scored: a missing run
    file is a typing mistake in the command, not a run to score (it ended in
    a traceback while the track's own .params was written, after every run)."""
    for path in paths:
        try:
            with open(path, "rb"):
                pass
        except OSError as error:
            raise ScorerError(f"Could not open {path}: {error.strerror or error}")


def _check_options(options: TrackOptions, task: str, metric: str, titles: dict) -> None:
    if metric not in titles:
        raise ScorerError(f"unknown -metric '{metric}' for {task}; the metrics are: "
                          f"{', '.join(titles)}")
    if options.compare not in COMPARE_CHOICES:
        raise ScorerError(f"-compare must be one of {', '.join(COMPARE_CHOICES)}, "
                          f"not '{options.compare}'")
    if options.correction not in CORRECTION_CHOICES:
        raise ScorerError(f"-correction must be one of {', '.join(CORRECTION_CHOICES)}, "
                          f"not '{options.correction}'")
    if options.baseline is not None and options.compare != "all":
        raise ScorerError(f"-baseline {options.baseline} compares every run with one run: "
                          f"give it or -compare {options.compare}, not both")
    if options.power_method not in METHODS:
        raise ScorerError(f"-power_method must be one of {', '.join(METHODS)}, not "
                          f"'{options.power_method}'")
    if options.trials is not None and options.trials < 1:
        raise ScorerError("-trials must be a whole number of at least 1")
    try:
        check_width(options.figure_width)
    except ValueError as error:
        raise ScorerError(f"-figure_width {error}") from None
    if options.output_dir is not None:
        folder.check_output_dir(options.output_dir)


def track_request(files, policy=None, *, samples=None, bootstrap=None, seed=None,
                  argv=None, program: str = "python -m scorer.track", cwd=None, **switches):
    """The request of a track (typed arguments, as :func:`scorer.request.build`
    takes them): as for a single run, except that -seed also seeds the
    randomization trials (so it may come with -samples or alone), that
    -output_file, -error_file and the switches that pick runs are the
    track's to decide, and the task's own rules for a track's samples."""
    for name in ("output_file", "error_file", *_run_picking_switches(tasks.every())):
        if name in switches:
            raise ScorerError(f"-{name} is not a track switch: the track names its files "
                              f"itself (DIR/runs/<RUN>/run.*) and scores every run it finds")
    samples, count, seed = sample_settings(samples, bootstrap, seed)
    request = scorer.request.build(files, policy, argv=argv, program=program, cwd=cwd, **switches)
    request = request._replace(bootstrap=count, seed=seed, samples=samples)
    request = tasks.get(request.policy.task).scoring.shared_request(request)
    tasks.get(request.policy.task).track.check_request(request)
    return request


def _run_picking_switches(every) -> list:
    return [name for task in every for name in task.run_switches]


def _assemble(task, metric, catalogue, results, samples, options, request,
              clusters: Optional[Clusters] = None, slicing=None) -> TrackResult:
    names = [name for name, _title in catalogue]
    titles = dict(catalogue)
    found = comparisons.Comparisons()
    scored = tables.ranked(results, metric)
    multiplicity = settings = None
    if samples is not None and len(samples) and scored:
        units = runner.unit_ids(scored, metric)
        most_trials = _check_trials(options, task, len(units), len(results))
        rule, if_empty, stacked = runner.stacked_statistics(scored, metric, units)
        multiplicity = samples.group_multiplicities(units)
        sampled = statistics.bootstrap_values(rule, if_empty, stacked, len(scored), multiplicity)
        settings = comparisons.Settings(
            compare=options.compare, baseline=options.baseline, correction=options.correction,
            trials=options.trials, seed=_seed(request), most_trials=most_trials,
            clusters=clusters.numbers(units) if clusters is not None else None)
        found = comparisons.compare([r.name for r in scored], [r.values[metric] for r in scored],
                                    metric, rule, if_empty, stacked, sampled, settings)
    leaderboard = tables.leaderboard(results, metric, [n for n in names if n != metric],
                                     found.intervals, found.rank_ranges, found.groups)
    sliced = powered = None
    if slicing is not None:
        if multiplicity is None:
            units = runner.unit_ids(scored, metric)
            rule, if_empty, stacked = runner.stacked_statistics(scored, metric, units) \
                if scored else (None, (), None)
        slicing.check_units(units, task.units)
        own = _level_statistics(slicing, scored, metric, units)
        sliced = slices.compute(slicing, results, metric, units, rule, if_empty, stacked,
                                multiplicity, settings or comparisons.Settings(), leaderboard,
                                own)
    if options.power is not None and scored:
        if multiplicity is None and slicing is None:
            units = runner.unit_ids(scored, metric)
            rule, if_empty, stacked = runner.stacked_statistics(scored, metric, units)
        n_pairs = comparisons.pair_count(len(scored), comparisons.Settings(
            compare=options.compare, baseline=options.baseline))
        names_scored = [r.name for r in scored]
        powered = power.compute(names_scored, metric, rule, if_empty, stacked, options.power,
                                n_pairs, options.power_method, _seed(request))
        if sliced is not None:
            powered = power.compute_sliced(powered, sliced, names_scored, metric, rule,
                                           if_empty, stacked, units, slicing, options.power,
                                           options.power_method, _seed(request), own)
    signature = track_signature(task, request, samples, metric, options, clusters)
    written = any(r.units is not None for r in results)      # (rows in per_query.csv.gz)
    return TrackResult(task.name, metric, titles[metric], leaderboard,
                       tables.significance(found.rows), None if written else per_query(results),
                       per_hop(results), signature, request.invocation(),
                       {r.name: r.report_files for r in results}, results,
                       samples is not None and len(samples) > 0, options.correction,
                       found.warnings, _randomization_note(options, found),
                       tuple(paper_metrics(request, leaderboard.columns)), slices=sliced,
                       power=powered)


def _level_statistics(slicing, scored: list, metric: str, units: list):
    """slice -> its own ``units x (runs * k)`` statistics (Cold Start's hops:
    the headline at that hop, rows the track's units), or None where the
    slices take the track's statistics of their units."""
    if not slicing.levels or not scored:
        return None
    return {name: runner.stacked_statistics(scored, runner.level_statistic(metric, level),
                                            units)[2]
            for name, level in slicing.levels.items()}


def _randomization_note(options: TrackOptions, found) -> str:
    if not found.rows:
        return ""
    if options.trials is not None:
        return f"p_randomization: {options.trials} trials, Monte Carlo p-values only."
    exact, approximate = found.exact_tail_pairs, found.tail_pairs - found.exact_tail_pairs
    if not exact:
        source = "the normal approximation of the tail"
    elif not approximate:
        source = "the exact sign test"
    else:
        source = (f"the tail ({exact} from the exact sign test, {approximate} from the normal "
                  f"approximation)")
    return (f"p_randomization: {DEFAULT_TRIALS} trials; {found.tail_pairs} of {len(found.rows)} "
            f"p-values from {source} (fewer than {statistics.TAIL_HITS} trials reached the "
            f"observed difference).")


def _check_trials(options: TrackOptions, task, n_units: int, n_runs: int) -> int:
    """Refuse a -trials that would run for hours, counting every run given;
    returns the most trials the track allows."""
    settings = comparisons.Settings(compare=options.compare, baseline=options.baseline,
                                    trials=options.trials)
    pairs = comparisons.pair_count(n_runs, settings)
    comparisons.check_trials(options.trials, n_units, n_runs, pairs, task.units)
    return comparisons.most_trials(n_units, n_runs, pairs)


def _seed(request) -> int:
    """Approximate randomization's seed: -seed, else 0 (recorded in the signature)."""
    return request.seed if request.seed is not None else 0


def track_signature(task, request, samples, metric: str, options: TrackOptions,
                    clusters: Optional[Clusters] = None) -> str:
    policy = request.policy
    parts = [f"scorer:{__version__}", f"task:{policy.task}",
             f"policy:{policy.digest()}", f"metric:{metric}", *task.track.signature_parts(request)]
    if samples is not None:
        parts += [f"samples:{bootstrap.samples_digest(samples)}", f"B:{len(samples)}"]
    else:
        parts.append("samples:none")
    trials = f"{DEFAULT_TRIALS}+tail" if options.trials is None else options.trials
    # What was compared: every pair, rank neighbours, or every run with the baseline
    compared = options.compare if options.baseline is None \
        else f"baseline={signature_text(options.baseline)}"
    parts += [f"compare:{compared}", f"correction:{options.correction}", f"trials:{trials}",
              f"seed:{_seed(request)}"]
    if clusters is not None:
        parts.append(f"clusters:{clusters.digest()}")
    return "|".join(parts)


def paper_metrics(request, columns) -> list:
    """The metrics a leaderboard shows beside the headline (leaderboard.tex, the
    page's table): the policy's leaderboard, else the task's default (those in
    ``columns``)."""
    task = tasks.get(request.policy.task)
    keys = request.policy.leaderboard or task.leaderboard.columns(request)
    return [key for key in keys if key in columns]
