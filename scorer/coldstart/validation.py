"""``-validate`` of Cold Start scoring: CS-ValidateSF (``validatesf``) run in
memory on each submission file of a request before the scorer reads it, so
that one command gives the official numbers (README-Scoring scores the
validator's output, ``CSrun.valid.ldc.tab.txt``, not the raw run).

With -validate (policy ``validate: true``) the scorer reads, in place of each
submission file, the lines the validator keeps, numbered as the validated
file numbers them (the order breaks ties), under the name ``FILE
(validated)``; the validator's messages go to the error log; an error, or
what stops the validator, stops the run: no report, exit status 255.
Without it the validator runs all the same, and one warning per submission
file says when it would drop lines or refuse the file: the numbers are then
not the official ones.

The SF queries the validator reads are the scorer's query files, or with
``-expand BASE`` what ``validatequeries -expand -query_base BASE`` makes of
them (the SF query file of the official release).  Their own problems are
the scorer's to report (it reads the same files): the validator's warnings
about them are left out, its errors kept.
"""
from __future__ import annotations

from scorer.coldstart.options import options
from scorer.problems import CATALOGUE, ScorerError, Where

#: What a run's .params signature says of validation (the validator's version).
SIGNATURE = "CS-ValidateSF-2017.2.0"
#: ... and of the -kb chain's (kbchain), whose stages' versions are the toolkit's.
KB_CHAIN_SIGNATURE = "CS-ValidateKB>CS-ValidateQueries>CS-ResolveQueries>CS-ValidateSF-2017.2.0"


class DocumentLengths:
    """The -docs file (None without it), read when a stage first needs it and
    then once for every submission of the run."""

    def __init__(self, path):
        self.path = path
        self._read = None

    def read(self):
        if self.path is not None and self._read is None:
            # (the toolkit loads only to validate or to score a KB: tests/e2e/test_imports.py)
            from scorer.coldstart.toolkit.documents import read_documents
            self._read = read_documents(self.path)
        return self._read


def signature_part(request) -> str:
    """``validate:...`` of the .params signature: whether the lines scored are
    the validator's (-kb: the toolkit's chain's), and with which -docs."""
    docs = request.option("docs")
    if options(request).kb:
        return f"validate:kb:{KB_CHAIN_SIGNATURE}" + (f"|docs:{docs}" if docs else "")
    if request.policy.validate is not True:
        return "validate:none"
    return f"validate:{SIGNATURE}" + (f"|docs:{docs}" if docs else "")


class SubmissionValidator:
    """The hook :func:`scorer.coldstart.runs.read_run_files` calls for each
    submission file: ``(name, lines)`` to read in its place, or None to read
    nothing of it (-validate found errors: :meth:`check` then stops the run)."""

    def __init__(self, request, query_paths, problems):
        self.validate = request.policy.validate is True
        self.expand = options(request).expand
        self.runids = options(request).runids
        self.justifications = request.policy.justifications
        self.docs_path = request.option("docs")
        self.query_paths = list(query_paths)
        self.problems = problems
        self.documents = DocumentLengths(self.docs_path)
        self._query_texts = None
        #: the submission files -validate refused
        self.refused: list = []
        #: -validate: the run ids of the files validated, as submitted (the
        #: validated file holds its first line's alone)
        self.submitted_runids: dict = {}
        #: without -validate: (file, why its numbers are not the official ones, whether
        #: the validator refuses it)
        self._pending: list = []
        #: the submission files met; without -validate, (file, its distinct lines) to check
        self.files: list = []
        self._deferred: list = []

    def __call__(self, path: str, lines: list):
        asked = self._of_runids(lines)
        if self.runids is not None and not _distinct_lines(asked):
            # (none of the run ids asked for: nothing of the file is scored)
            return None if self.validate else (path, lines)
        self.files.append(path)
        if self.validate:
            return self._validated(path, asked)
        if self.runids is None:
            # The check: decided once the scorer has read the file (check()).
            self._deferred.append((path, _distinct_lines(lines)))
        else:
            self._check(path, asked)
        return path, lines

    def _validated(self, path: str, asked: list):
        """-validate: what the scorer reads of the file (None: refused)."""
        try:
            result, query_log = self._validate(path, self._bytes(asked))
        except ScorerError as error:   # (a Fatal too: what stops the validator)
            self.refused.append((path, [f"FATAL_ERROR: {_fatal_message(error)}"]))
            return None
        # The warnings join the error log; the errors the fatal message that
        # stops the run, so that whoever catches it (a track, a leaderboard)
        # has them.  (The scorer reports the query files' warnings itself.)
        record_problems(result.log, self.problems, kinds=("WARNING",))
        self.submitted_runids.update(dict.fromkeys(result.responses.runids))
        if not result.ok or query_log.error_count:
            self.refused.append((path, error_lines(query_log) + error_lines(result.log)))
            return None
        return f"{path} (validated)", [line[:-1] for line in result.lines]

    def _bytes(self, asked):
        """What the validator reads in place of the file (None: the file)."""
        if self.runids is None:
            return None
        return "".join(line + "\n" for line in asked).encode("utf-8", "surrogateescape")

    def _check(self, path: str, asked: list = None, distinct: int = None) -> None:
        """Without -validate: the warning, when the validator would drop lines
        of the file (``asked``: its lines; or ``distinct``: how many distinct
        ones it has, the validator then reading the file)."""
        try:
            result, query_log = self._validate(path, self._bytes(asked))
        except ScorerError as error:   # (a Fatal too: what stops the validator)
            self._unofficial(path, f"validatesf stops on it ({_fatal_message(error)})",
                             error=True)
            return
        if not result.ok or query_log.error_count:
            count = result.log.error_count + query_log.error_count
            self._unofficial(path, f"validatesf finds {count} error{'s' if count != 1 else ''} "
                                   f"in it, so it would not be scored officially", error=True)
        else:
            if distinct is None:
                distinct = _distinct_lines(asked)
            self._dropped(path, distinct - len(result.lines), distinct)

    def _dropped(self, path: str, dropped: int, distinct: int) -> None:
        if dropped > 0:
            self._unofficial(path, f"validatesf (CS-ValidateSF, run before official scoring) "
                                   f"drops {dropped} of its {distinct} distinct lines")

    def check(self, run_files=None) -> None:
        """After the files are read (``run_files``: what the scorer read):
        without -validate, the warnings (that the validator refuses a file
        only where the scorer found no error itself: its own errors say so
        already); with it, a file refused stops the run, without reports."""
        for path, distinct in self._deferred:
            # (-docs: what the validator finds in the corpus, the scorer does not read)
            dropped = None if run_files is None or len(self.files) != 1 or self.docs_path \
                or not self._queries_clean() \
                else scorers_count(path, run_files, self.problems, distinct)
            if dropped is None:
                self._check(path, distinct=distinct)
            else:
                self._dropped(path, dropped, distinct)
        scorer_errors = self.problems.error_count
        for path, why, error in self._pending:
            if not error or not scorer_errors:
                self.problems.record("UNOFFICIAL_SCORES", path, why)
        if self.refused:
            found = "".join(f"\n{line}" for _path, lines in self.refused for line in lines)
            raise ScorerError(f"-validate: validatesf found errors in "
                              f"{', '.join(path for path, _lines in self.refused)}, so no report "
                              f"is written; fix the run, or score it as it is without -validate "
                              f"(not the official numbers):{found}")

    def _unofficial(self, path: str, why: str, error: bool = False) -> None:
        self._pending.append((path, why, error))

    def _of_runids(self, lines: list) -> list:
        """With -runids, what the validator reads of a file: the lines of the
        run ids asked for (the others blank, so that every line keeps its
        number): a file of several runs is validated run by run, as each
        would be submitted (the validator makes one run of a file, under its
        first line's run id)."""
        if self.runids is None:
            return lines
        # (the toolkit loads only to validate or to score a KB: tests/e2e/test_imports.py)
        from scorer.coldstart.toolkit.responses import split_columns
        kept = []
        for line in lines:
            columns = split_columns(line) if "\t" in line else ()
            kept.append(line if len(columns) < 3 or columns[2] in self.runids else "")
        return kept

    def _validate(self, path: str, run_bytes=None):
        # (the toolkit loads only to validate or to score a KB: tests/e2e/test_imports.py)
        from scorer.coldstart.toolkit.catalogue import FORMATS
        # (the toolkit loads only to validate or to score a KB: tests/e2e/test_imports.py)
        from scorer.coldstart.toolkit.problemlog import ProblemLog
        # (the toolkit loads only to validate or to score a KB: tests/e2e/test_imports.py)
        from scorer.coldstart.toolkit.queryfile import QuerySet, read_query_text
        # (the toolkit loads only to validate or to score a KB: tests/e2e/test_imports.py)
        from scorer.coldstart.toolkit.validatesf import validate_sf
        documents = self._read_documents()
        texts = self._sf_query_texts()
        queries = QuerySet([name for name, _text in texts])
        query_log = ProblemLog(FORMATS)
        for name, text in texts:
            read_query_text(text, name, queries, query_log, documents)
        result = validate_sf(texts[0][0] if texts else "", path,
                             justifications=self.justifications, queries=queries,
                             documents=documents, run_bytes=run_bytes)
        return result, query_log

    def _queries_clean(self) -> bool:
        """Whether the validator finds nothing in the SF query files but
        languages it infers (a query it refuses, offsets it repairs, change
        what it keeps of a run, which the scorer's reading does not see)."""
        # (the toolkit loads only to validate or to score a KB: tests/e2e/test_imports.py)
        from scorer.coldstart.toolkit.catalogue import FORMATS
        # (the toolkit loads only to validate or to score a KB: tests/e2e/test_imports.py)
        from scorer.coldstart.toolkit.problemlog import ProblemLog
        # (the toolkit loads only to validate or to score a KB: tests/e2e/test_imports.py)
        from scorer.coldstart.toolkit.queryfile import QuerySet, read_query_text
        log = ProblemLog(FORMATS)
        try:
            texts = self._sf_query_texts()
            queries = QuerySet([name for name, _text in texts])
            for name, text in texts:
                read_query_text(text, name, queries, log)
        except ScorerError:
            return False
        return all(name == "FAILED_LANG_INFERENCE" for name, _message, _places in log.records())

    def _read_documents(self):
        return self.documents.read()

    def _sf_query_texts(self) -> list:
        if self._query_texts is None:
            self._query_texts = sf_query_texts(self.query_paths, self.expand)
        return self._query_texts


def sf_query_texts(query_paths, expand, name=None) -> list:
    """(name, text) of the SF query files the validator reads: the query
    files, or with -expand their expansion as validatequeries writes it
    (under ``name``, by default the files and the switch)."""
    # (the toolkit loads only to validate or to score a KB: tests/e2e/test_imports.py)
    from scorer.coldstart.toolkit.queryfile import query_file_text
    texts = [(path, query_file_text(path)) for path in query_paths]
    if expand:
        # (the toolkit loads only to validate or to score a KB: tests/e2e/test_imports.py)
        from scorer.coldstart.toolkit.catalogue import FORMATS
        # (the toolkit loads only to validate or to score a KB: tests/e2e/test_imports.py)
        from scorer.coldstart.toolkit.problemlog import ProblemLog
        # (the toolkit loads only to validate or to score a KB: tests/e2e/test_imports.py)
        from scorer.coldstart.toolkit.queryfile import (ALL_LANGUAGES, QuerySet,
                                                         read_query_text)
        # (the toolkit loads only to validate or to score a KB: tests/e2e/test_imports.py)
        from scorer.coldstart.toolkit.validatequeries import expand_queries
        log = ProblemLog(FORMATS)
        ldc = QuerySet(list(query_paths))
        for path, text in texts:
            read_query_text(text, path, ldc, log)
        expanded, _index = expand_queries(ldc, expand, ALL_LANGUAGES, False, log)
        if name is None:
            name = f"{' '.join(query_paths)} (-expand {expand})"
        texts = [(name, expanded.text(omit=("SLOT", "NODEID"), languages=ALL_LANGUAGES))]
    return texts


#: What the scorer records of a file whose lines the validator would keep
#: but for the ones the scorer marks (and reads once).
_MARKS_ONLY = frozenset(("DISCARDED_ENTRY", "DISCARDED_DEPENDENT", "DUPLICATE_LINE"))


def scorers_count(path: str, run_files, problems, distinct: int):
    """How many of the file's ``distinct`` lines the validator drops, from what
    the scorer read of it, where that tells: the scorer refused no line and
    said nothing of the file but the lines it marks as the validator drops
    them (past the -justifications limits, below them, the weaker children
    of single-valued slots: the same checks of the Perl's library), every
    line has one run id, and no two lines kept are one line once normalised.
    None where it does not tell: the validator must read the file."""
    if not problems.names_at(path) <= _MARKS_ONLY:
        return None
    entries = [entry for entry in run_files.submissions if entry.file == path]
    if len(entries) != distinct or len({entry.runid for entry in entries}) > 1:
        return None
    kept = [entry for entry in entries if not entry.discarded]
    written = {(entry.full_query_id, entry.slot_name, entry.relation_provenance, entry.value,
                entry.value_type, entry.value_provenance, entry.confidence, entry.nodeid)
               for entry in kept}
    if len(written) != len(kept):
        return None
    return distinct - len(kept)


def _distinct_lines(lines: list) -> int:
    """How many different lines of a run the validator reads as responses (not
    blank, not comments; a line repeated is read once, by the scorer too)."""
    # (the toolkit loads only to validate or to score a KB: tests/e2e/test_imports.py)
    from scorer.coldstart.toolkit.responses import clean_line
    return len({line for line in map(lambda raw: clean_line(raw, False), lines) if line})


def _fatal_message(error) -> str:
    """What stopped the validator, on one line: the message, then its place."""
    text = getattr(error, "text", str(error))
    if text.startswith("FATAL_ERROR: "):
        text = text[len("FATAL_ERROR: "):]
    head, _, where = text.partition("\n")
    return f"{head} ({where})" if where.strip() else head


def error_lines(log) -> list:
    """The validator's errors, a line each as its report writes them (the
    first place, and how many others)."""
    # (the toolkit loads only to validate or to score a KB: tests/e2e/test_imports.py)
    from scorer.coldstart.toolkit.problemlog import NO_SOURCE
    lines = []
    for _name, message, places in log.records():
        if not message.startswith("ERROR: "):
            continue
        where = ""
        if places[0] != NO_SOURCE:
            others = len(places) - 1
            where = f" ({places[0]}" + (f" and {others} other place{'s' if others > 1 else ''}"
                                         if others else "") + ")"
        lines.append(message.replace("\n", " ") + where)
    return lines


def record_problems(log, problems, kinds=("ERROR", "WARNING"),
                    names=("VALIDATESF_ERROR", "VALIDATESF_WARNING")) -> None:
    """The validator's messages (a toolkit ProblemLog) of ``kinds`` into the
    scorer's ``Problems``, each at its places, with their texts (``names``:
    the scorer's names, error and warning, of those it does not know)."""
    # (the toolkit loads only to validate or to score a KB: tests/e2e/test_imports.py)
    from scorer.coldstart.toolkit.problemlog import NO_SOURCE
    for name, message, places in log.records():
        kind, _, text = message.partition(": ")
        if kind not in kinds:
            continue
        if CATALOGUE.get(name, ("",))[0] != kind:
            # (a problem the scorer knows keeps its name: found by both, it is reported once)
            name = names[0] if kind == "ERROR" else names[1]
        for place in places:
            problems.record_text(name, text, None if place == NO_SOURCE else _where(place))


def _where(place: str) -> Where:
    """A toolkit place (``FILE line N``, or free text) as the scorer's Where."""
    file, found, line = place.rpartition(" line ")
    if found and line.isdigit():
        return Where(file, int(line))
    return Where(detail=place)
