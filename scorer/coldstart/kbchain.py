"""``-kb`` (policy ``input: kb``): a KB submission scored as the toolkit's
chain scores it, in memory.  README-Scoring's KB teams run, by hand,
CS-ValidateKB ``-output tac`` -> CS-ValidateQueries ``-expand -query_base
BASE`` -> CS-ResolveQueries -> CS-ValidateSF -> CS-Score (the Makefile's
``setup-sf`` without the round split); here each stage is the toolkit's API
(``validate_kb``, ``validate_queries``' expansion, ``resolve_queries``,
``validate_sf``) and the scorer reads the lines validatesf keeps, as it reads
them from the Perl chain's ``NAME.valid.ldc.tab.txt``.

The files after the query XML are assessment files (10 columns) and KBs
(anything else: a KB starts with its run id line); an SF submission among
them is refused.  Each stage's messages go to the one error log, marked with
the stage (``[validatekb] WARNING: ...`` is written ``WARNING: [validatekb]
...``); the scorer's own are marked ``[score]``.  A stage's errors, or what
stops it, stop the run: no report, exit status 255, the errors in the fatal
message.  ``-keep_stages DIR`` writes each stage's file, named as the
Perl chain names them (``NAME.tac.valid``, ``sf-query.xml``, ``NAME.rq``,
``NAME.valid.ldc.tab.txt``; NAME the KB's file name without ``.tac``), with
the reports, all or none.
"""
from __future__ import annotations

import itertools
import os
import tempfile

from scorer.coldstart.options import options
from scorer.coldstart.runs import ASSESSMENT, SUBMISSION, identify_file_type
from scorer.coldstart.validation import (DocumentLengths, _fatal_message, error_lines,
                                         record_problems, sf_query_texts)
from scorer.problems import ScorerError

#: The stages, in order (the toolkit's command names).
STAGES = ("validatekb", "validatequeries", "resolvequeries", "validatesf")
#: The values of the policy key ``input``.
INPUTS = ("sf", "kb")


def is_kb_input(request) -> bool:
    """Whether the request scores KBs (-kb, or the policy's ``input: kb``)."""
    return options(request).kb


def check_request(request) -> None:
    """What cannot go with -kb, refused before any file is read."""
    if is_kb_input(request) and request.policy.validate is False:
        raise ScorerError("-kb runs the toolkit's whole chain, validatesf included; the "
                          "policy's validate: false does not go with it: leave one of them out")
    keep = request.option("keep_stages")
    if keep is not None and not is_kb_input(request):
        raise ScorerError("-keep_stages keeps the files of the -kb chain's stages; give -kb "
                          "(or the policy's input: kb) too")
    if keep is not None and os.path.lexists(keep) and not os.path.isdir(keep):
        raise ScorerError(f"-keep_stages {keep}: not a folder")


def check_shared_request(request) -> None:
    """A track's or a leaderboard's request: each run is a KB of its own, whose
    stage files -keep_stages would write into one folder, unseen."""
    if request.option("keep_stages") is not None:
        raise ScorerError("-keep_stages writes the stage files of one python -m scorer -kb "
                          "run; a track and a leaderboard keep their runs' reports only: "
                          "leave it out (and run python -m scorer -kb -keep_stages DIR on "
                          "the KB whose stages you want)")


def base_name(path: str) -> str:
    """NAME of the chain's files: the KB's file name without ``.tac``, as
    validatekb names its ``-output tac`` file."""
    name = os.path.basename(path)
    return name[:-4] if name.endswith(".tac") else name


class KBChain:
    """The chain's stages on each KB of a request; ``run`` gives what the
    scorer reads in place of each KB (validatesf's lines), ``files`` what
    -keep_stages writes, ``runids`` the KBs' run ids."""

    def __init__(self, request, query_paths: list, problems):
        self.request = request
        self.query_paths = list(query_paths)
        self.problems = problems
        self.expand = options(request).expand
        self.docs_path = request.option("docs")
        self.justifications = request.policy.justifications
        self.keep = request.option("keep_stages")
        #: path -> text, written with the reports (-keep_stages)
        self.files: dict = {}
        self.runids: list = []
        self.documents = DocumentLengths(self.docs_path)

    # -- the files --------------------------------------------------------------

    def split(self, run_paths: list) -> tuple:
        """(assessment files, KB files) of the files after the query XML."""
        assessments, kbs = [], []
        for path in run_paths:
            if os.path.isdir(path):
                raise ScorerError(f"-kb: {path} is a folder; name each KB file (and each "
                                  f"assessment file)")
            try:
                with open(path, encoding="utf-8", errors="surrogateescape") as f:
                    first = [line.rstrip("\n") for line in itertools.islice(f, 200)]
            except OSError as error:
                raise ScorerError(f"Could not open {path}: {error.strerror}")
            try:
                kind = identify_file_type(path, first)
            except ScorerError:
                kind = None     # (not a scorer's file: a KB, which validatekb reads)
            if kind == ASSESSMENT:
                assessments.append(path)
            elif kind == SUBMISSION:
                raise ScorerError(f"-kb: {path} is an SF submission file (9 columns), not a "
                                  f"KB; score it without -kb (with -validate for the official "
                                  f"numbers)")
            else:
                kbs.append(path)
        if not kbs:
            raise ScorerError("-kb: no KB among the files (after the query XML: the "
                              "assessment file(s), then the KB file(s))")
        names = {}
        for path in kbs:
            name = base_name(path)
            if name in names and self.keep is not None:
                raise ScorerError(f"-keep_stages: two KBs are named {name} ({names[name]} and "
                                  f"{path}); their stages' files would be one")
            names[name] = path
        return assessments, kbs

    def stage_path(self, kb_path: str, suffix: str) -> str:
        """Where -keep_stages puts a stage's file of the KB (its name as the
        Perl chain's; without -keep_stages, the name messages cite)."""
        name = suffix if suffix == "sf-query.xml" else base_name(kb_path) + suffix
        return os.path.join(self.keep, name) if self.keep is not None else name

    # -- the stages -------------------------------------------------------------

    def run(self, run_paths: list) -> tuple:
        """(the files for read_run_files, {KB path: (name, lines)} to read in
        place of each KB); a stage that fails on any KB raises ScorerError."""
        assessments, kbs = self.split(run_paths)
        queries_name, queries = self._sf_queries()
        sources, refused = {}, []
        for kb_path in kbs:
            try:
                lines = self._chain(kb_path, queries_name, queries)
            except _Refused as refusal:
                refused.append((kb_path, refusal.lines))
                continue
            sources[kb_path] = (self.stage_path(kb_path, ".valid.ldc.tab.txt"), lines)
        self.problems.stage = ""
        if refused:
            found = "".join(f"\n{line}" for _path, lines in refused for line in lines)
            raise ScorerError(f"-kb: the chain found errors in "
                              f"{', '.join(path for path, _lines in refused)}, so no report is "
                              f"written; fix the KB:{found}")
        return [*assessments, *kbs], sources

    def _sf_queries(self) -> tuple:
        """(name, text) of the SF query file the resolver and validatesf read:
        the query file, or with -expand validatequeries' expansion of it
        (``sf-query.xml``).  The query files' own problems are the scorer's
        to report (it reads the same files)."""
        name = self.stage_path("", "sf-query.xml") if self.expand else None
        try:
            texts = sf_query_texts(self.query_paths, self.expand, name)
        except ScorerError as error:
            raise ScorerError(f"[validatequeries] {_one_line(error)}")
        if self.expand and self.keep is not None:
            self.files[name] = texts[0][1]
        return texts[0][0] if len(texts) == 1 else " ".join(n for n, _t in texts), texts

    def _chain(self, kb_path: str, queries_name: str, texts: list) -> list:
        """The lines validatesf keeps of what the KB answers (without ends)."""
        # (the toolkit loads only to validate or to score a KB: tests/e2e/test_imports.py)
        from scorer.coldstart.toolkit.catalogue import FORMATS
        # (the toolkit loads only to validate or to score a KB: tests/e2e/test_imports.py)
        from scorer.coldstart.toolkit.problemlog import ProblemLog
        # (the toolkit loads only to validate or to score a KB: tests/e2e/test_imports.py)
        from scorer.coldstart.toolkit.queryfile import QuerySet, read_query_text
        # (the toolkit loads only to validate or to score a KB: tests/e2e/test_imports.py)
        from scorer.coldstart.toolkit.kbtac import tac_lines
        # (the toolkit loads only to validate or to score a KB: tests/e2e/test_imports.py)
        from scorer.coldstart.toolkit.resolvequeries import resolve_queries
        # (the toolkit loads only to validate or to score a KB: tests/e2e/test_imports.py)
        from scorer.coldstart.toolkit.validatekb import validate_kb
        # (the toolkit loads only to validate or to score a KB: tests/e2e/test_imports.py)
        from scorer.coldstart.toolkit.validatesf import validate_sf
        documents = self._read_documents()
        # 1. validatekb -output tac
        self.problems.stage = "[validatekb] "
        try:
            checked = validate_kb(kb_path, docs=self.docs_path)
        except ScorerError as error:
            raise _Refused([f"FATAL_ERROR: [validatekb] {_one_line(error)}"])
        record_problems(checked.log, self.problems, kinds=("WARNING",),
                        names=("KB_STAGE_ERROR", "KB_STAGE_WARNING"))
        if checked.log.error_count:
            raise _Refused(_marked(error_lines(checked.log), "validatekb"))
        tac_path = self.stage_path(kb_path, ".tac.valid")
        # 2. resolvequeries, on the SF queries as the resolver reads sf-query.xml, and
        # on the validated KB as validatekb writes it: a file of its own, which the
        # resolver reads in blocks and again where a task looks at a line (a KB of
        # millions of lines is never held as text)
        self.problems.stage = "[resolvequeries] "
        log = ProblemLog(FORMATS)
        resolver_queries = QuerySet([name for name, _text in texts])
        rq_path = self.stage_path(kb_path, ".rq")
        with tempfile.TemporaryDirectory(prefix="scorer-kb-") as folder:
            written = os.path.join(folder, os.path.basename(tac_path))
            with open(written, "w", encoding="utf-8", errors="surrogateescape",
                      newline="") as f:
                f.writelines(tac_lines(checked.kb))
            # (the KB read is not needed past here: its memory is the resolver's)
            del checked
            try:
                for name, text in texts:
                    read_query_text(text, name, resolver_queries, log)
                resolution = resolve_queries(queries_name, written, queries=resolver_queries)
            except ScorerError as error:
                raise _Refused([f"FATAL_ERROR: [resolvequeries] "
                                f"{_one_line(error).replace(written, tac_path)}"])
            if self.keep is not None:
                with open(written, encoding="utf-8", errors="surrogateescape",
                          newline="") as f:
                    self.files[tac_path] = f.read()
        self.runids.append(resolution.runid)
        rq = resolution.text
        if self.keep is not None:
            self.files[rq_path] = rq
        # 3. validatesf -justifications A:B [-docs]
        self.problems.stage = "[validatesf] "
        query_log = ProblemLog(FORMATS)
        sf_queries = QuerySet([name for name, _text in texts])
        try:
            for name, text in texts:
                read_query_text(text, name, sf_queries, query_log, documents)
            validated = validate_sf(queries_name, rq_path, justifications=self.justifications,
                                    queries=sf_queries, documents=documents,
                                    run_bytes=rq.encode("utf-8", "surrogateescape"))
        except ScorerError as error:
            raise _Refused([f"FATAL_ERROR: [validatesf] {_one_line(error)}"])
        record_problems(validated.log, self.problems, kinds=("WARNING",))
        if not validated.ok or query_log.error_count:
            raise _Refused(_marked(error_lines(query_log) + error_lines(validated.log),
                                   "validatesf"))
        if self.keep is not None:
            self.files[self.stage_path(kb_path, ".valid.ldc.tab.txt")] = validated.text
        return [line[:-1] for line in validated.lines]

    def _read_documents(self):
        return self.documents.read()


class _Refused(Exception):
    """A stage refused the KB: its error lines."""

    def __init__(self, lines):
        super().__init__("\n".join(lines))
        self.lines = lines


def _marked(lines: list, stage: str) -> list:
    """``ERROR: text`` lines as ``ERROR: [stage] text``."""
    marked = []
    for line in lines:
        kind, found, text = line.partition(": ")
        marked.append(f"{kind}: [{stage}] {text}" if found else f"[{stage}] {line}")
    return marked


def _one_line(error) -> str:
    return _fatal_message(error)


def write_stage_files(files: dict, written) -> None:
    """-keep_stages: the stages' files into the report set ``written`` (an
    output.FileSet), their folder made when missing."""
    for path, text in files.items():
        folder = os.path.dirname(path)
        if folder:
            os.makedirs(folder, exist_ok=True)
        written.add(path, text)
