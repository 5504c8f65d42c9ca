"""Cold Start scoring, from the request to the report texts, in the Perl's
write order (spec §1.7).  Reads the inputs; never writes files itself.
"""
from __future__ import annotations

import dataclasses
import sys

from scorer import output
from scorer.coldstart import ids
from scorer.coldstart import queries as query_files
from scorer.coldstart.ap import APScorer
from scorer.coldstart.counts import counts_table
from scorer.coldstart.evaluation import Evaluator
from scorer.coldstart.justifications import check_justifications
from scorer.coldstart.options import options
from scorer.coldstart.policy import justification_limits
from scorer.coldstart.projections import RunStructure
from scorer.coldstart.reports import ap as ap_report
from scorer.coldstart.reports import debug, ldc, params, prepare, sf, summary
from scorer.coldstart.runs import expand_run_paths, read_run_files
from scorer.coldstart.validation import SubmissionValidator
from scorer.limits import shorten
from scorer.problems import Problems, ScorerError
from scorer.progress import Progress
from scorer.reportset import Reports
from scorer.textfile import hash_in_background


def report_extensions(request) -> list:
    """The files a run writes, in the Perl's creation order (spec §1.4)."""
    expand = options(request).expand
    extensions = ["debug", "ap", "sf"]
    if expand:
        extensions += ["ldcmax", "ldcmean"]
    extensions.append("summary")
    if request.samples or request.bootstrap is not None:
        extensions += ["sample", "samplescores", "confidence"]
        if expand and not output.is_stream(request.output_file):
            # scorer's own file (intervals of the AP scores); never in the Perl's stream
            extensions.append("apconfidence")
    if request.bootstrap is not None:
        extensions.append("bootsamples")
    extensions.append("params")
    return extensions


@dataclasses.dataclass
class RunScores:
    """What scoring one run id produced, as data (for the track and the API)."""

    runid: str
    #: the counts table's index arrays (every P/R/F1 of the reports comes from it)
    structure: RunStructure
    #: AP rows of the SF queries, every level kept (spec §4.7)
    ap_rows: list
    #: SF short id -> LDC short id (empty without -expand)
    sf_to_ldc: dict
    #: LDC short id -> LDC full id
    ldc_full_ids: dict


@dataclasses.dataclass
class Outcome:
    reports: Reports
    runs: list
    #: the bootstrap samples used (None without -samples / -bootstrap)
    samples: object = None
    #: with -validate, the run ids of the submission files as submitted (the
    #: validated lines hold a file's first run id alone); else empty
    submitted_runids: tuple = ()
    #: with -kb -keep_stages, each stage's file: path -> text (written with the reports)
    stage_files: dict = dataclasses.field(default_factory=dict)


def run(request, problems: Problems) -> Reports:
    """The report texts of a request, in the Perl's write order."""
    return score(request, problems).reports


def score(request, problems: Problems, samples=None) -> Outcome:
    """Score a request: the reports and, per run id, the scores as data.

    ``samples`` may bring the request's samples already read (a track reads
    its samples file once for all runs)."""
    policy = request.policy
    asked = options(request)
    query_paths = [f for f in request.files if f.endswith(".xml")]
    run_paths = [f for f in request.files if not f.endswith(".xml")]
    chain = sources = None
    if asked.kb:
        problems.stage = "[score] "
    queries, index, queries_to_score = _read_queries(query_paths, asked, problems)
    if asked.kb:
        # -kb: each KB through the toolkit's chain; the scorer reads what validatesf keeps
        from scorer.coldstart.kbchain import KBChain
        chain = KBChain(request, query_paths, problems)
        run_paths, sources = chain.run(run_paths)
        problems.stage = "[score] "
    # (validate: false: the raw runs, unchecked; -kb: validated by the chain)
    validator = None if policy.validate is False or chain is not None else \
        SubmissionValidator(request, query_paths, problems)
    try:
        run_files = read_run_files(
            run_paths, queries, problems,
            on_submission_file=lambda files: check_justifications(
                files, *justification_limits(policy.justifications), problems),
            submission_lines=validator, sources=sources)
    finally:
        problems.stage = ""
    _check_assessments_read(run_files, run_paths)
    runids = list(asked.runids) if asked.runids else sorted(run_files.runids)
    _check_runids(runids, run_files.runids, problems)
    if validator is not None:
        validator.check(run_files)

    if request.samples or request.bootstrap is not None or samples is not None:
        # Imported here: a run without samples uses none of them.
        from scorer import bootstrap
        from scorer.coldstart import resample
        from scorer.coldstart.reports import confidence
        from scorer.coldstart.units import RunUnits
    if request.bootstrap is not None:
        bootstrap.check_report_size(_samplescores_bytes(request.bootstrap, runids),
                                    f"-bootstrap {request.bootstrap:,}")
    if request.samples:
        if samples is None:
            # Hashed for .params while it is parsed (scorer/textfile.py).
            hash_in_background(request.samples)
            samples = bootstrap.read_samples(request.samples)
            # (samples handed in were checked where they were read: read_shared_inputs)
            _check_sample_ids(samples, queries, index)
        bootstrap.check_report_size(_samplescores_bytes(len(samples), runids),
                                    f"-samples {request.samples} ({len(samples):,} samples)")
    elif samples is None and request.bootstrap is not None:
        samples = bootstrap.generate(_sample_groups(queries, index, queries_to_score),
                                     request.bootstrap, request.seed)
    reports = Reports(report_extensions(request))
    samples_text = "none"
    if samples is not None:
        samples_text = (f"{bootstrap.samples_digest(samples)}|B:{len(samples)}"
                        + (f"|seed:{request.seed}" if request.bootstrap is not None else ""))
    reports.add("params", params.render(request, samples_text, selection=queries_to_score,
                                        inputs=_input_files(request, query_paths, run_paths)))
    if request.bootstrap is not None:
        reports.add("bootsamples", samples.lines)
    evaluator = Evaluator(run_files, queries, policy, problems)
    ap_scorer = APScorer(run_files, queries, policy, problems)

    def ldc_full_id(short_id):
        return queries.get(short_id).full_id

    ldc_full_ids = {ldc: ldc_full_id(ldc) for ldc in set(index.values())}
    scored = []
    for runid in runids:
        # Progress on a terminal only; scoring then AP visit each query once.
        progress = Progress(f"scoring {runid}", 2 * len(queries_to_score),
                            enabled=sys.stderr.isatty())
        evaluation = evaluator.evaluate_run(runid, queries_to_score, asked.expand, progress)
        table = counts_table(evaluation.rows, index, queries)
        structure = RunStructure(table, has_index=bool(index))
        tables = prepare.prepare(structure, runid, policy.fields)
        reports.add("debug", debug.render_categories(evaluation.rows, evaluation.assessment_of))
        reports.add("sf", sf.render(tables, asked.tabs))
        if index:
            reports.add("ldcmax", ldc.render_ldcmax(tables, asked.tabs))
            reports.add("ldcmean", ldc.render_ldcmean(tables, asked.tabs))
        reports.add("summary", summary.render(tables, asked.tabs))

        ap_rows = []
        for short_id in sorted(queries_to_score):
            progress.advance()
            limit = queries_to_score[short_id]
            for query in evaluator.scored_queries(short_id, asked.expand):
                for row in ap_scorer.score_query(query, evaluation):
                    if row.level != "ALL" and (limit or 0) < int(row.level):
                        continue
                    ap_rows.append(row)
        progress.done()
        reports.add("debug", debug.render_ap(ap_rows))
        reports.add("ap", ap_report.render(ap_rows, runid, index, ldc_full_id, bool(index),
                                           asked.tabs))
        scores = RunScores(runid, structure, ap_rows, dict(index), ldc_full_ids)
        if samples is not None:
            _add_bootstrap_reports(reports, structure, samples, runid, problems)
            if "apconfidence" in reports.extensions:
                ap_values, ap_originals = resample.ap_sample_values(RunUnits(scores), samples)
                reports.add("apconfidence", confidence.render_confidence(
                    sorted(ap_values), ap_values, ap_originals))
        scored.append(scores)
    submitted = tuple(validator.submitted_runids) if validator is not None else \
        tuple(dict.fromkeys(chain.runids)) if chain is not None else ()
    return Outcome(reports, scored, samples, submitted,
                   dict(chain.files) if chain is not None else {})


def _read_queries(query_paths: list, asked, problems: Problems, none_is_fatal: bool = False):
    """``(queries, SF -> LDC index, SF queries to score with their hop
    limits)`` of the query files, expanded (-expand) and selected (-queries)
    as a run reads them.  ``none_is_fatal``: files without a query stop a
    track or a leaderboard (one run only warns, as the Perl does)."""
    queries = query_files.read_query_files(query_paths, problems)
    if none_is_fatal and not queries.queries:
        raise ScorerError(f"no queries in {', '.join(query_paths) or 'no query file'}: "
                          f"nothing to score")
    if asked.expand:
        queries.expand(asked.expand)
    index = queries.index()
    queries_to_score = query_files.resolve_queries_to_score(asked.queries, queries, problems)
    if asked.queries is not None and not queries_to_score:
        raise ScorerError(f"-queries {asked.queries}: none of the queries it names is in the "
                          f"query files ({len(queries.top_level_ids())} queries loaded)")
    return queries, index, queries_to_score


def read_shared_inputs(request, assessment_paths, problems: Problems, plan=None) -> tuple:
    """Read what every run of a track (every submission of a leaderboard)
    shares: query files, ``-queries``, assessments, samples, so that a fatal
    problem there stops before any run is scored (query files without a
    query too).  Returns the queries, and the samples the request asks for,
    read or drawn once for all runs by ``plan`` (a track's
    scorer.bootstrap.SamplingPlan; by default the request's own), None
    without samples.  The samples draw LDC queries, whose groups are the
    SF queries of each, with -expand; without it the plan draws the SF
    queries once the runs are scored."""
    from scorer import bootstrap
    asked = options(request)
    query_paths = [f for f in request.files if f.endswith(".xml")]
    queries, index, queries_to_score = _read_queries(query_paths, asked, problems,
                                                     none_is_fatal=True)
    read_run_files(list(assessment_paths), queries, problems)
    if plan is None:
        plan = bootstrap.SamplingPlan(request)
    groups = (lambda: _sample_groups(queries, index, queries_to_score)) \
        if asked.expand is not None else None
    return queries, plan.samples_of(groups, lambda samples: _check_sample_ids(samples, queries,
                                                                              index))


def check_references(request, files: list) -> None:
    """A leaderboard's reference files: the query XML file(s) and the
    assessment file(s), read as every submission's run reads them (a run
    among them would be scored with every submission); a problem that would
    fail every submission is a ScorerError naming the file."""
    import itertools
    from scorer.coldstart.runs import ASSESSMENT, identify_file_type
    # The split a scoring run makes (scorer/coldstart/driver.py): XML is queries.
    query_paths = [f for f in files if f.endswith(".xml")]
    assessment_paths = [f for f in files if not f.endswith(".xml")]
    need = ("a Cold Start leaderboard's reference files are the query XML file(s) and the "
            "assessment file(s)")
    if not query_paths:
        raise ScorerError(f"no query file (.xml) among the reference files; {need}")
    if not assessment_paths:
        raise ScorerError(f"no assessment file among the reference files; {need}")
    for path in assessment_paths:
        # Its first lines tell (the whole file is read next, as every run reads it).
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            first_lines = [line.rstrip("\n") for line in itertools.islice(f, 1000)]
        if identify_file_type(path, first_lines) != ASSESSMENT:
            raise ScorerError(f"{path}: a submission file (9 columns), not assessments; {need} "
                              f"(the run is the participant's)")
    problems = Problems()
    # What a track reads once for all its runs, every submission's run reads too.
    read_shared_inputs(request._replace(files=tuple(files), bootstrap=None),
                              assessment_paths, problems)
    if problems.error_count:
        # Every submission's run would have these errors, and fail.
        raise ScorerError("the reference files have errors, which would fail every "
                          "submission:\n" + problems.report().rstrip())


def _input_files(request, query_paths, run_paths) -> tuple:
    """Every file the numbers were read from, for ``.params``."""
    import os
    paths = list(query_paths) + expand_run_paths(run_paths)
    selection = options(request).queries
    if selection is not None and os.path.isfile(selection):
        paths.append(selection)
    paths += [p for p in (request.samples, request.policy_file, request.option("docs")) if p]
    return tuple(paths)


def _check_assessments_read(run_files, run_paths) -> None:
    """Without an assessment file every response is unassessed and every score
    0, which the Perl reports as a run without warnings; a track refuses it too."""
    if run_files.assessment_files:
        return
    empty = (f" ({', '.join(run_files.empty_files)} "
             f"{'is' if len(run_files.empty_files) == 1 else 'are'} empty)"
             if run_files.empty_files else "")
    raise ScorerError(f"no assessment file among the files {' '.join(map(shorten, run_paths))}"
                      f"{empty}: Cold Start scoring needs the query XML, the assessment "
                      f"file(s) (10 columns), then the submission files; without assessments "
                      f"every score would be 0")


def _check_runids(asked: list, present: set, problems: Problems) -> None:
    """A run id asked for and absent is scored as the Perl scores it (all
    zeros), but as an ERROR naming the run ids there are: a typo must not
    pass for a run that scored nothing."""
    for runid in asked:
        if runid in present:
            continue
        import difflib
        close = difflib.get_close_matches(runid, sorted(present), n=1, cutoff=0.6)
        problems.record("UNKNOWN_RUNID", runid, ", ".join(sorted(present)) or "none",
                        f" (did you mean {close[0]}?)" if close else "")


def _samplescores_bytes(n_samples: int, runids) -> int:
    """The size of ``.samplescores``: a line per sample and run, 21 bytes a code."""
    from scorer.coldstart import resample
    return sum(n_samples * (len(resample.codes()) * 21 + 10 + len(runid)) for runid in runids)


def _check_sample_ids(samples, queries, index: dict) -> None:
    """Every element of a samples file must be ``LDC_ID:SF_ID[,SF_ID...]`` with
    SF queries of the query files (after -expand) and the LDC query they were
    expanded from (file, line and id named).  The Perl counts an unknown SF
    id as no query and never reads the LDC id, so a samples file of another
    query set gives intervals of nothing; the AP intervals go by the LDC id.
    SF queries that -queries leaves out are let through: the Perl drops them
    from every sample, so samples drawn over the whole query set serve a
    selection of it."""
    for element, (path, line) in zip(samples.elements, samples.origins or ()):
        if not element.members:
            raise ScorerError(f"{path} line {line}: '{shorten(element.text())}' names no SF "
                              f"query; expected LDC_ID:SF_ID[,SF_ID...]")
        for member in element.members:
            try:
                short_id = ids.parse_query_id(member).short_id
            except ScorerError as error:
                raise ScorerError(f"{path} line {line}: {error}")
            owner = index.get(short_id)
            if owner is None:
                raise ScorerError(f"{path} line {line}: {shorten(member)} is not an SF query "
                                  f"of the query files (after -expand)")
            expected = queries.get(owner).full_id
            if element.group != expected:
                raise ScorerError(f"{path} line {line}: {member} belongs to the LDC query "
                                  f"{expected}, not to '{shorten(element.group)}'; expected "
                                  f"LDC_ID:SF_ID[,SF_ID...]")


def _sample_groups(queries, index: dict, queries_to_score: dict) -> list:
    """(LDC full id, SF full ids) of the queries to score, for -bootstrap."""
    groups: dict = {}
    for sf_id in sorted(queries_to_score):
        ldc_id = index.get(sf_id)
        if ldc_id is None:
            continue
        groups.setdefault(queries.get(ldc_id).full_id, []).append(queries.get(sf_id).full_id)
    return [(ldc, tuple(sorted(members))) for ldc, members in groups.items()]


def _add_bootstrap_reports(reports, structure, samples, runid, problems) -> None:
    from scorer.coldstart import resample
    from scorer.coldstart.reports import confidence
    values = resample.sample_values(structure, samples, show_progress=sys.stderr.isatty())
    originals = resample.original_values(structure)
    codes = [code for code, *_ in resample.codes()]
    missing = resample.missing_codes(values)
    if missing:
        problems.record("BOOTSTRAP_MISSING_LEVEL", ", ".join(sorted(missing)))
    reports.add("sample", lambda: confidence.sample_lines(samples))
    reports.add("samplescores", confidence.render_samplescores(samples.numbers, codes, values,
                                                               runid))
    reports.add("confidence", confidence.render_confidence(codes, values, originals))
