"""TAC KBP Cold Start slot filling, scored as CS-Score-MASTER.pl 2017.2.0
scores it (its switches, its reports byte for byte): the task's record.  The
work is in ``scorer/coldstart/``."""
from __future__ import annotations

from scorer.capabilities import Diff, Leaderboard, Picture, Scoring, Track
from scorer.coldstart import metrics as declared
from scorer.coldstart.options import options
from scorer.coldstart import policy as coldstart_policy
from scorer.coldstart.policy import DEFAULTS, DISCIPLINES
from scorer.coldstart.validation import signature_part
from scorer.policy import flag_value, list_value, single_value
from scorer.problems import Problems, ScorerError
from scorer.switches import Switch
from scorer.taskrecord import PolicyKey, Task
from scorer.version import PERL_REFERENCE_VERSION

# Cold Start is the default task: a command line without -policy loads this
# record, -version and -help included.  So the scoring modules (numpy, the
# runs' and the KB chain's readers: most of a run's start-up) are imported in
# the methods that use them, each saying so (tests/e2e/test_imports.py).


def input_value(value, key, source: str, from_switch: bool = False):
    """The policy key ``input``: ``sf`` or ``kb`` (None: left out, SF submissions)."""
    if value is None:
        return key.default
    text = single_value(value, key, source, from_switch)
    if text not in ("sf", "kb"):
        raise ScorerError(f"{source}, key 'input': sf or kb is expected, not {text!r}")
    return text


class ColdStartScoring(Scoring):
    """Scoring as CS-Score-MASTER.pl does (scorer/coldstart/driver.py)."""

    def check_request(self, request) -> None:
        # (the KB chain and the runs' readers: see the note at the top)
        from scorer.coldstart.kbchain import check_request as check_kb_request
        check_kb_request(request)
        if request.option("docs") and request.policy.validate is False:
            # The document lengths are the validator's; without it they would check nothing.
            raise ScorerError("-docs is read by the validator (it checks the provenance "
                              "against it), which the policy's validate: false turns off: "
                              "leave one of them out")
        if (request.samples or request.bootstrap is not None) and not request.option("expand"):
            # The Perl dies here after writing half its reports (spec §7.24).
            raise ScorerError("-samples and -bootstrap need -expand: bootstrap samples are "
                              "drawn over LDC queries")

    def input_paths(self, files) -> list:
        from scorer.coldstart.runs import expand_run_paths       # (as check_request's)
        return expand_run_paths(files)

    def score(self, request, problems, samples=None):
        from scorer.coldstart import driver      # (numpy: see the note at the top)
        return driver.score(request, problems, samples=samples)

    # LDC-MEAN and LDC-MAX need the SF -> LDC index of -expand.

    def catalogue(self, request) -> list:
        return declared.catalogue(bool(request is not None and request.option("expand")))

    def catalogues(self) -> list:
        return [("Cold Start with -expand", declared.catalogue(True)),
                ("Cold Start without -expand", declared.catalogue(False))]

    def run_result(self, name: str, outcome, status: str = "ok", statistics=True,
                   per_query: bool = True):
        from scorer.coldstart.units import run_result        # (numpy, as score's)
        return run_result(name, outcome, status, statistics)

    def run_ids(self, outcome) -> tuple:
        # Every run id of the submission files, scored (the numbers are the first's);
        # validated, those the files held (the validator scores one run a file).
        return tuple(getattr(outcome, "submitted_runids", ())) or \
            tuple(run.runid for run in outcome.runs or ())

    def shared_request(self, request):
        # A track and a leaderboard validate each submission first, unless the
        # policy says validate: false (-kb: through the toolkit's chain).
        from scorer.coldstart.kbchain import check_shared_request    # (as check_request's)
        check_shared_request(request)
        if request.policy.validate is None:
            return request._replace(policy=request.policy.replace(validate=True))
        return request


class ColdStartTrack(Track):
    """Every run id is a run; the samples draw LDC queries (-expand), and so
    do the slicings (scorer/coldstart/slicings.py)."""

    files_help = ("the query XML, the assessment file(s), then run files or folders "
                  "(every run id is a run)")
    slicings = ("slot", "language", "hop")

    def find_runs(self, paths: list) -> tuple:
        from scorer.coldstart.runs import track_runs     # (as check_request's)
        return track_runs(paths)

    def check_request(self, request) -> None:
        if request.samples and not request.option("expand"):
            raise ScorerError("-samples needs -expand (its samples draw LDC queries); without "
                              "-expand use -bootstrap N -seed S, which draws SF queries")

    def read_shared_inputs(self, request, shared: list, plan):
        from scorer.coldstart import driver      # (numpy, as score's)
        _queries, samples = driver.read_shared_inputs(
            request._replace(files=tuple(shared)), [f for f in shared if not f.endswith(".xml")],
            Problems(), plan=plan)
        return samples

    def signature_parts(self, request) -> list:
        return [f"expand:{request.option('expand') or 'none'}",
                f"queries:{request.option('queries') or 'all'}", signature_part(request)]

    def shown_per_query(self, per_query):
        # The scores over all hops, not the counts, to keep the page small.
        return per_query[per_query["metric"].isin(["P", "R", "F1", "AP"])
                         & (per_query["hop"] == "ALL")]

    def slicing(self, spec: str, shared: list):
        from scorer.coldstart import slicings        # (a track's alone, with dataclasses)
        if spec == "hop":
            return slicings.hop_slicing(spec, shared)
        return slicings.query_slicing(spec, shared)

    def check_slicing(self, slicing, metric: str) -> None:
        from scorer.coldstart import slicings        # (as slicing's)
        slicings.check_metric(slicing, metric)


class ColdStartDiff(Diff):
    """The Perl's .debug, with the .sf and .ldcmax beside it."""

    header = False
    tables = ("sf", "ldcmax", "summary")

    def read(self, path: str, lines: list):
        from scorer.diff.debugfile import read_coldstart     # (scorer.diff's alone)
        return read_coldstart(path, lines, self.task.name)


class ColdStartLeaderboard(Leaderboard):
    """One run (one run id) a submission; the query XML and assessments the
    references."""

    submission = "one Cold Start submission file (9 tab-separated columns, one run)"
    title_words = {"sf": "SF", "ldcmean": "LDC-MEAN", "ldcmax": "LDC-MAX"}
    kb_submission = ("one Cold Start knowledge base in the TAC format (the -kb chain validates "
                     "it, resolves the queries against it and scores its answers)")

    def submission_for(self, request) -> str:
        return self.kb_submission if options(request).kb else self.submission

    def columns(self, request) -> tuple:
        if request.option("expand"):
            return ("ldcmean_ap", "ldcmean_macro_p", "ldcmean_macro_r", "ldcmean_macro_f1")
        return ("sf_ap", "sf_macro_p", "sf_macro_r", "sf_macro_f1")

    def missing_metrics_hint(self, request) -> str:
        return "" if request.option("expand") else " (they need -expand)"

    def submission_problem(self, result, name: str) -> str | None:
        if len(result.run_ids) == 1:
            return None
        held = f"runs {', '.join(result.run_ids)}" if result.run_ids else "no run"
        return f"{name}: holds {held}; a submission is one run (one run id)"

    def check_references(self, request, files: list) -> None:
        from scorer.coldstart.driver import check_references     # (numpy, as score's)
        check_references(request, files)


class ColdStartPicture(Picture):
    """Per hop, the all-entry-point scores."""

    interval_reports = ("confidence", "apconfidence")
    variant_order = ("SF", "LDCMAX", "LDCMEAN")

    def title(self, outcome) -> str:
        return outcome.runs[0].runid if outcome.runs else "no run"

    def interval_key(self, code: str):
        from scorer.coldstart.reports.confidence import per_hop_key     # (numpy, as score's)
        return per_hop_key(code)


class ColdStart(Task):
    name = "coldstart"
    title = "Cold Start"
    unit, units = "query", "queries"
    # (in the order a leaderboard's policy.yaml has always listed them)
    policy_keys = (
        PolicyKey("right", "Cold Start: pre-policy categories counted as right (list)",
                  DEFAULTS["right"], list_value),
        PolicyKey("wrong", "Cold Start: pre-policy categories counted as wrong (list)",
                  DEFAULTS["wrong"], list_value),
        PolicyKey("ignore", "Cold Start: pre-policy categories ignored (list)",
                  DEFAULTS["ignore"], list_value),
        PolicyKey("fields", "Cold Start: columns of the .sf and .ldcmax tables (list)",
                  DEFAULTS["fields"], list_value, in_digest=False),
        PolicyKey("justifications", "Cold Start: 'A:B', justifications per document and in "
                                    "all (M = any number)", DEFAULTS["justifications"],
                  single_value),
        PolicyKey("discipline", "Cold Start: how a response finds its assessment: "
                                + ", ".join(DISCIPLINES), DEFAULTS["discipline"], single_value),
        # (not in the policy digest: .params signatures say validate: themselves)
        PolicyKey("validate", "Cold Start: true scores the lines CS-ValidateSF keeps of each "
                              "submission file (the official numbers), as -validate; false "
                              "the raw runs, unchecked; left out, a track and a leaderboard "
                              "validate, python -m scorer warns when the validator would drop "
                              "lines", None, flag_value, in_digest=False),
        # (not in the policy digest either: the signature says validate:kb:...)
        PolicyKey("input", "Cold Start: kb scores KBs (the files after the assessments), "
                           "each through the toolkit's chain (validatekb, validatequeries "
                           "-expand, resolvequeries, validatesf), as -kb; sf (the default) "
                           "SF submission files", None, input_value, in_digest=False),
    )
    # The Perl scorer's switches (CS-Score-MASTER.pl -help), in the order a
    # refusal lists them.
    switches = (
        Switch("expand", help="Expand multi-entrypoint queries, using string provided as base "
                              "for expanded query names"),
        Switch("queries", names_file=True,
               help="file (one LDC query ID, SF query ID pair, separated by space, per line "
                    "with an optional number separated by space representing the hop upto "
                    "which evaluation is to be performed) or colon-separated list of SF query "
                    "IDs to be scored (if omitted, all query files in 'files' parameter will "
                    "be scored)"),
        Switch("runids", help="Colon-separated list of run IDs to be scored (if omitted, all "
                              "runids will be scored)"),
        Switch("right", default="CORRECT", sets_policy=True,
               help="Colon-separated list of assessment codes, submitted value corresponding "
                    "to which to be counted as right (post-policy) (see policy options below "
                    "for legal choices)"),
        Switch("wrong", default="INCORRECT:INCORRECT_PARENT:INEXACT", sets_policy=True,
               help="Colon-separated list of assessment codes, submitted value corresponding "
                    "to which to be counted as wrong (post-policy) (see policy options below "
                    "for legal choices)"),
        Switch("ignore", default="UNASSESSED:DUPLICATE", sets_policy=True,
               help="Colon-separated list of assessment codes, submitted value corresponding "
                    "to which to be ignored (post-policy) (see policy options below for legal "
                    "choices)"),
        Switch("justifications", default="1:3", sets_policy=True,
               help="Are multiple justifications allowed? Legal values are of the form A:B "
                    "where A represents justifications per document and B represents total "
                    "justifications. Use 'M' to allow any number of justifications, for e.g., "
                    "'M:10' to allow multiple justifications per document but overall not "
                    "more than 10 (best or top) justifications."),
        Switch("discipline", default="ASSESSED", sets_policy=True,
               help="Discipline for identifying ground truth (see below for options)"),
        Switch("fields", default=":".join(DEFAULTS["fields"]), sets_policy=True,
               help="Colon-separated list of output fields to print (see below for options)"),
        Switch("tabs", False, help="Use tabs to separate output fields instead of spaces "
                                   "(useful for export to spreadsheet)"),
        # scorer's own: CS-ValidateSF in front of the scoring (scorer/coldstart/validation.py)
        Switch("validate", False, sets_policy=True,
               help="Validate each submission file first, as CS-ValidateSF-MASTER.pl does "
                    "(python -m scorer.coldstart validatesf, with -justifications and -docs), "
                    "and score the lines it keeps: the official numbers; its errors stop the "
                    "run without reports"),
        # scorer's own: a KB through the toolkit's chain (scorer/coldstart/kbchain.py)
        Switch("kb", False,
               help="The files after the assessments are KBs (TAC format): each is "
                    "validated (validatekb -output tac), resolved against the SF queries "
                    "(with -expand, validatequeries' expansion), validated as an SF run "
                    "(validatesf) and scored, as the toolkit's Perl chain does; one error "
                    "log holds every stage's messages, each marked with its stage (policy: "
                    "input: kb)"),
        Switch("keep_stages", names_file=False,
               help="With -kb: a folder for each stage's file, named as the Perl chain "
                    "names them (NAME.tac.valid, sf-query.xml, NAME.rq, "
                    "NAME.valid.ldc.tab.txt), written with the reports"),
        Switch("docs", names_file=True,
               help="The corpus's document lengths (DOCID, length, file), against which "
                    "the validator (-validate, or the check without it) checks every "
                    "provenance"),
    )
    report_extensions = ("debug", "ap", "sf", "ldcmax", "ldcmean", "summary", "sample",
                         "samplescores", "confidence", "apconfidence", "bootsamples", "params",
                         "png")
    summary = ("TAC Cold Start slot-filling runs (byte-identical to CS-Score-MASTER.pl "
               f"{PERL_REFERENCE_VERSION})")
    files_help = "query file (.xml), assessment files, then submission files"

    def validate_policy(self, policy, where, origin, source: str) -> None:
        coldstart_policy.validate(policy, where, origin)

    def digest_values(self, policy) -> tuple:
        # The layout of the policy record before each task had its own keys
        # (the claim tasks' max_evidence and labels empty), so that signatures
        # stay comparable with earlier versions'.
        return (self.name, policy.right, policy.wrong, policy.ignore, policy.justifications,
                policy.discipline, (), None, ())

    def help_lines(self) -> list:
        return coldstart_policy.help_lines()

    # -- metrics: LDC-MEAN and LDC-MAX need the SF -> LDC index of -expand -----------

    metrics = declared.METRICS
    #: switches that pick runs: a track scores every run id
    run_switches = ("runids",)

    scoring = ColdStartScoring
    track = ColdStartTrack
    diff = ColdStartDiff
    leaderboard = ColdStartLeaderboard
    picture = ColdStartPicture


TASK = ColdStart()
