"""Assessment (qrel) and submission files: file type, line checks, derived
fields, generated hop-1 queries and the indexes scoring uses (spec §2.5).

Parsing decides nothing about scores; it only turns lines into entries.
"""
from __future__ import annotations

import glob
import os
import re
from typing import Optional

from scorer.coldstart import ids, slots
from scorer.coldstart.provenance import parse_provenance, perl_split
from scorer.coldstart.queries import QuerySet, generate_query
from scorer.limits import shorten
from scorer.problems import Problems, ScorerError, Where
from scorer.textfile import read_text

ASSESSMENT = "ASSESSMENT"
SUBMISSION = "SUBMISSION"

SUBMISSION_COLUMNS = ("FULL_QUERY_ID", "SLOT_NAME", "RUNID", "RELATION_PROVENANCE_TRIPLES",
                      "VALUE", "VALUE_TYPE", "VALUE_PROVENANCE_TRIPLES", "CONFIDENCE", "NODEID")
ASSESSMENT_COLUMNS = ("ASSESSMENT_ID", "QUERY_AND_SLOT_NAME", "RELATION_PROVENANCE_TRIPLES",
                      "VALUE", "VALUE_PROVENANCE_TRIPLES", "VALUE_ASSESSMENT",
                      "VALUE_MENTION_TYPE", "PROVENANCE_ASSESSMENT", "VALUE_EC",
                      "EC_MENTION_TYPE")

#: Assessment codes and the category names they stand for.
ASSESSMENT_CODES = {"C": "CORRECT", "W": "INCORRECT", "X": "INEXACT", "I": "IGNORE",
                    "S": "INEXACT_SHORT", "L": "INEXACT_LONG"}

_TRIPLES = r"(?:[^:]+:\d+-\d+,){0,3}[^:]+:\d+-\d+"
_CODE = r"(?:C|W|X|I|S|L)"
_MENTION = r"(?i:NAM|NOM|0)"
_FIRST_LINE_PATTERNS = {
    SUBMISSION: [r".+", r"[^:]+:[^:]+", r".+", _TRIPLES, r".+", r".+", _TRIPLES,
                 r"\d+(?:\.\d+(e[-+]?\d\d)?)?", r".+"],
    ASSESSMENT: [r".+", r".+:.+:.+", _TRIPLES, r".+", _TRIPLES, _CODE, _MENTION, _CODE, r".+",
                 _MENTION],
}
_FIRST_LINE_PATTERNS = {kind: [re.compile(p) for p in patterns]
                        for kind, patterns in _FIRST_LINE_PATTERNS.items()}
_LEGACY_COLUMN_COUNTS = (7, 8, 11)

# "0?." and digits, one of them not 0 (the Perl's 0?\.[0-9]*[1-9][0-9]*, which
# backtracks quadratically on a long column; the lookahead scans it once).
_LEGAL_CONFIDENCE = re.compile(r"^(?:1\.0*)$|^(?:0?\.(?=[0-9]*[1-9])[0-9]+)$")
_SCIENTIFIC_CONFIDENCE = re.compile(r"^\d+\.\d+e[-+]?\d\d$")


class Entry:
    """One accepted line of an assessment or submission file."""

    __slots__ = (
        "kind", "file", "line_number", "line", "query", "query_id", "base", "full_query_id",
        "slot_name", "runid", "value", "value_type", "confidence", "relation_provenance",
        "value_provenance", "docid", "target_query_id", "target_query", "nodeid", "fqnodeid",
        "assessment_id", "assessment", "value_mention_type", "ec_mention_type", "value_ec",
        "judgment", "discarded",
    )

    def __init__(self):
        self.discarded = False
        self.fqnodeid = None
        self.nodeid = None
        self.runid = None
        self.value_ec = None
        self.assessment = None
        self.confidence = None

    @property
    def level(self) -> int:
        return self.query.level

    @property
    def target_full_id(self) -> str:
        """The full id of the hop-1 query the line generates."""
        return self.target_query.full_id

    @property
    def where(self) -> Where:
        return Where(self.file, self.line_number)


class RunFiles:
    """Everything read from the assessment and submission files."""

    def __init__(self):
        self.assessments: list = []
        self.submissions: list = []
        self.assessments_by_base: dict = {}
        self.submissions_by_base: dict = {}
        #: FQNODEID -> submissions (all runs), in load order
        self.submissions_by_node: dict = {}
        #: target query id -> the last C/X assessment that generated it
        self.parent_assessment: dict = {}
        #: target query id -> short id of the query of the line that generated it
        self.parent_query: dict = {}
        #: target query id -> the first submission generating it (for hop-1 FQNODEIDs)
        self._first_submission_by_target: dict = {}
        self.runids: set = set()
        #: run id of the first accepted submission line (labels the AP rows)
        self.file_runid: Optional[str] = None
        #: run id -> the submission file holding it
        self.file_of_runid: dict = {}
        #: the files read as assessments, and those that were empty
        self.assessment_files: list = []
        self.empty_files: list = []


def expand_run_paths(paths) -> list:
    """Directories stand for the ``*.tab.txt`` files in them (spec §1.3)."""
    result = []
    for path in paths:
        if os.path.isdir(path):
            result.extend(sorted(glob.glob(os.path.join(path, "*.tab.txt"))))
        else:
            result.append(path)
    return result


def read_run_files(paths, queries: QuerySet, problems: Problems, on_submission_file=None,
                   submission_lines=None, sources=None) -> RunFiles:
    """Read assessment and submission files in command-line order.

    ``on_submission_file(run_files)`` is called after each submission file
    (the justification checks run there, spec §2.7).  ``submission_lines(path,
    lines)``, when given, says what to read of a submission file instead:
    ``(name, lines)``, or None for nothing (-validate: scorer/coldstart/validation.py).
    ``sources``: path -> ``(name, lines)`` read in place of the file (-kb: a
    KB's lines as the chain validated them, scorer/coldstart/kbchain.py).
    """
    if not paths:
        raise ScorerError("EvaluationQueryOutput->new called with no filenames: "
                          "give the assessment and submission files after the query file")
    run_files = RunFiles()
    for path in expand_run_paths(paths):
        name = path
        if sources is not None and path in sources:
            name, lines = sources[path]
            lines = lines or None
        else:
            lines = _read_lines(path)
        if lines is None:
            problems.record("EMPTY_FILE", name)
            run_files.empty_files.append(name)
            continue
        kind = identify_file_type(name, lines)
        if kind == ASSESSMENT:
            run_files.assessment_files.append(path)
        if kind == SUBMISSION and submission_lines is not None:
            replaced = submission_lines(path, lines)
            if replaced is None:
                continue
            name, lines = replaced
            if not lines:
                problems.record("EMPTY_FILE", name)
                run_files.empty_files.append(name)
                continue
        _load(name, lines, kind, queries, run_files, problems)
        if kind == SUBMISSION and on_submission_file is not None:
            on_submission_file(run_files)
    return run_files


def _read_lines(path: str) -> Optional[list]:
    text = read_text(path)
    if not text:
        return None
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def _clean(line: str) -> str:
    """Remove CRs; a line whose first non-blank character is # is empty."""
    if "\r" in line:
        line = line.replace("\r", "")
    if "#" in line and line.lstrip().startswith("#"):
        return ""
    return line


def identify_file_type(path: str, lines: list) -> str:
    """The first non-blank line decides: 9 columns = submission, 10 = assessments."""
    for raw in lines:
        line = _clean(raw)
        if not line.strip():
            continue
        # Split as the Perl splits: a line ending in TABs loses its empty last fields (§2.5.2).
        columns = perl_split(line, "\t")
        for kind, patterns in _FIRST_LINE_PATTERNS.items():
            if len(columns) == len(patterns) and all(
                    p.fullmatch(c) for p, c in zip(patterns, columns)):
                return kind
        if len(columns) in _LEGACY_COLUMN_COUNTS:
            raise ScorerError(
                f"{path}: this looks like a 2014/2015 Cold Start file ({len(columns)} columns); "
                f"scorer reads the 2017 formats only: submissions with 9 columns "
                f"({' '.join(SUBMISSION_COLUMNS)}) and assessments with 10 columns "
                f"({' '.join(ASSESSMENT_COLUMNS)})")
        if looks_like_json(line):
            raise ScorerError(f"Unknown file type: {path} (its first line is a JSON object, "
                              f"not a Cold Start line: {CLAIMS_HINT})")
        raise ScorerError(f"Unknown file type: {path} (its first line has {len(columns)} "
                          f"tab-separated columns that fit neither the 9-column submission nor "
                          f"the 10-column assessment format)")
    raise ScorerError(f"Empty file: {path}")


#: What a user who gave claim files without a policy needs to hear.
CLAIMS_HINT = ("the task is Cold Start because no -policy chose another; for SciFact or FEVER "
               "files give -policy configs/scifact.yaml or configs/fever.yaml")


def looks_like_json(line: str) -> bool:
    """A line of a JSONL file (SciFact, FEVER): an object, no TAB-separated columns."""
    stripped = line.strip()
    return stripped.startswith("{") and "\t" not in stripped


def first_line_looks_like_json(path: str) -> bool:
    """The first non-blank line of ``path`` is a JSON object (False when unreadable)."""
    try:
        with open(path, "rb") as f:
            head = f.read(4096)
    except OSError:
        return False
    text = head.decode("utf-8", "replace").lstrip("\ufeff")
    return looks_like_json(next((line for line in text.splitlines() if line.strip()), ""))


def _load(path, lines, kind, queries: QuerySet, run_files: RunFiles, problems: Problems):
    columns = SUBMISSION_COLUMNS if kind == SUBMISSION else ASSESSMENT_COLUMNS
    seen_lines: set = set()
    # full query id -> (query, base) once its line found it loaded: most ids
    # recur on many lines, and a query found stays (reading only adds queries).
    resolved: dict = {}
    for line_number, raw in enumerate(lines, 1):
        line = _clean(raw)
        if not line or line.isspace():
            continue
        where = Where(path, line_number)
        if line in seen_lines:
            problems.record("DUPLICATE_LINE", "\n" + line, where=where)
            continue
        seen_lines.add(line)
        fields = line.split("\t")
        if not fields[-1]:     # trailing TABs: split as the Perl splits (§2.5.2)
            fields = perl_split(line, "\t")
        if len(fields) != len(columns):
            problems.record("WRONG_NUM_ENTRIES", len(columns), len(fields), where=where)
            continue
        entry = _make_entry(kind, fields, line, path, line_number, where, queries, resolved,
                            problems)
        if entry is None:
            continue
        _accept(entry, run_files, path, line_number)


def normalised_confidence(text: str, problems: Problems, where: Where) -> str:
    """The CONFIDENCE column as the Perl keeps it: ``1`` becomes ``1.0``, a
    value in scientific notation 12 decimals, an illegal one ``1.0``, each
    with its problem recorded at ``where``."""
    value = text
    if value == "1":
        problems.record("MISSING_DECIMAL_POINT", value, where=where)
        value = "1.0"
    elif "e" in value and _SCIENTIFIC_CONFIDENCE.match(value):   # (most have no e)
        problems.record("IMPROPER_CONFIDENCE_VALUE", value, where=where)
        value = "%.12f" % float(value)
    if not _LEGAL_CONFIDENCE.match(value):
        problems.record("ILLEGAL_CONFIDENCE_VALUE", text, where=where)
        value = "1.0"
    return value


def _normalise_confidence(text: str, problems: Problems, where: Where) -> float:
    return float(normalised_confidence(text, problems, where))


def _resolve_query(full_query_id: str, path, line_number, where, queries: QuerySet,
                   problems: Problems) -> tuple:
    """(query, base) of a line's query id: it must have been read or
    generated, under exactly this full id."""
    try:
        parsed = ids.parse_query_id(full_query_id)
    except ScorerError as error:
        raise ScorerError(f"{path} line {line_number}: {error}")
    query = queries.get(parsed.short_id)
    if query is None or query.full_id != full_query_id:
        problems.record("UNLOADED_QUERY", parsed.short_id, where=where)
        raise ScorerError(f"{path} line {line_number}: Query {full_query_id} not loaded "
                          f"(it is neither in the query files nor generated by an earlier line; "
                          f"with -expand the files must use the expanded SF query ids)")
    return query, ids.parse_query_id(query.full_id).base


def _make_entry(kind, fields, line, path, line_number, where, queries: QuerySet,
                resolved: dict, problems: Problems) -> Optional[Entry]:
    """The entry of one line (``fields``: its columns), or None when a
    problem drops it; problems are recorded in the Perl's order."""
    entry = Entry()
    entry.kind = kind
    entry.file, entry.line_number, entry.line = path, line_number, line
    if kind == SUBMISSION:
        (full_query_id, slot_name, runid, relation_text, value, value_type, value_text,
         confidence, nodeid) = fields
        entry.runid = runid
        entry.confidence = _normalise_confidence(confidence, problems, where)
        if not slots.is_node_type(value_type):
            problems.record("ILLEGAL_VALUE_TYPE", value_type, where=where)
        entry.value_type = value_type.upper()
        entry.nodeid = nodeid
    else:
        (assessment_id, query_and_slot, relation_text, value, value_text, code,
         value_mention_type, provenance_code, value_ec, ec_mention_type) = fields
        if ":" not in query_and_slot:
            raise ScorerError(f"{path} line {line_number}: column QUERY_AND_SLOT_NAME must be "
                              f"QUERYID:domain:slot, not '{query_and_slot}'")
        full_query_id, slot_name = query_and_slot.split(":", 1)
        entry.assessment_id = assessment_id
        entry.value_mention_type = value_mention_type
        entry.ec_mention_type = ec_mention_type
        entry.value_ec = value_ec
    entry.full_query_id, entry.slot_name, entry.value = full_query_id, slot_name, value

    query_and_base = resolved.get(full_query_id)
    if query_and_base is None:
        query_and_base = resolved[full_query_id] = _resolve_query(
            full_query_id, path, line_number, where, queries, problems)
    query, entry.base = query_and_base
    entry.query = query
    entry.query_id = query.short_id

    if slots.quantity(slot_name) is None:
        problems.record("UNKNOWN_SLOT_NAME", slot_name, where=where)

    relation = parse_provenance(relation_text, 4, problems, where)
    value_provenance = parse_provenance(value_text, 2, problems, where)
    if relation.docid != value_provenance.docid:
        problems.record("MULTIPLE_DOCIDS_IN_RESPONSE", "\n" + line, where=where)
    entry.relation_provenance = relation.text
    entry.value_provenance = value_provenance.text
    entry.docid = value_provenance.docid if value_provenance.docid is not None else "NO DOCUMENT"

    entry.target_query_id = target_id = ids.target_query_short_id(full_query_id, value,
                                                                  value_provenance.text)
    target = queries.get(target_id)
    if target is None:
        target = generate_query(query, target_id, value, value_provenance.docid or "", problems)
        queries.add(target)
    entry.target_query = target

    if kind == ASSESSMENT:
        entry.assessment = ASSESSMENT_CODES.get(code)
        has_ec = value_ec not in ("", "0")
        if entry.assessment in ("CORRECT", "INEXACT") and not has_ec:
            raise ScorerError(f"{path} line {line_number}: Correct entry without equivalence "
                              f"class, query = {entry.query_id} at line {line_number}")
        if has_ec:
            # The EC is named after a loaded query; the Perl dies later without a place.
            root = value_ec.split(":", 1)[0]
            try:
                known = queries.get(ids.parse_query_id(root).short_id) is not None
            except ScorerError:
                known = False
            if not known:
                raise ScorerError(f"{path} line {line_number}: column VALUE_EC must be "
                                  f"QUERYID:N[:N...] (or 0) naming a loaded query, not "
                                  f"'{shorten(value_ec)}'")
        if entry.assessment not in ("CORRECT", "INEXACT") and has_ec:
            raise ScorerError(f"{path} line {line_number}: Equivalence class without correct "
                              f"entry, query = {entry.query_id}, judgment = , "
                              f"ec = {value_ec}")

    if "" in fields or any(map(str.isspace, fields)):
        columns = SUBMISSION_COLUMNS if kind == SUBMISSION else ASSESSMENT_COLUMNS
        for column, text in zip(columns, fields):
            if not text or text.isspace():
                problems.record("EMPTY_FIELD", column, where=where)
                return None
    expected_slot = query.slot(0)
    if slot_name != expected_slot:
        problems.record("WRONG_SLOT_NAME", slot_name, query.full_id,
                        "" if expected_slot is None else expected_slot, where=where)
        return None
    if kind == ASSESSMENT:
        for column_code in (code, provenance_code):
            if column_code not in ASSESSMENT_CODES:
                raise ScorerError(f"Unknown assessment code: {shorten(column_code)} in file: "
                                  f"{path} at line: {line_number}")
    return entry


def runid_in_two_files(runid: str, first: str, second: str, line_number=None) -> ScorerError:
    """The refusal of a run id found in two submission files."""
    where = f"{second} line {line_number}" if line_number is not None else second
    return ScorerError(f"the run id {runid} is in two submission files, {first} and {where}: "
                       f"they would be merged into one run (with a copy, every response "
                       f"counted twice); give each run id in one file")


def _accept(entry: Entry, run_files: RunFiles, path: str, line_number: int) -> None:
    if entry.kind == SUBMISSION:
        # The Perl merges them, and finds duplicate lines within a file only (spec §7.48).
        first = run_files.file_of_runid.setdefault(entry.runid, path)
        if first != path:
            raise runid_in_two_files(entry.runid, first, path, line_number)
        run_files.runids.add(entry.runid)
        if run_files.file_runid is None:
            run_files.file_runid = entry.runid
    if entry.kind == ASSESSMENT and entry.assessment in ("CORRECT", "INEXACT"):
        run_files.parent_assessment[entry.target_query_id] = entry
    run_files.parent_query[entry.target_query_id] = entry.query_id
    if entry.kind == SUBMISSION:
        if entry.nodeid:
            if entry.query.level == 1:
                first = run_files._first_submission_by_target.get(entry.query_id)
                prefix = first.fqnodeid if first is not None and first.fqnodeid else ""
            else:
                prefix = entry.query.full_id
            entry.fqnodeid = prefix + entry.nodeid
            run_files.submissions_by_node.setdefault(entry.fqnodeid, []).append(entry)
        run_files._first_submission_by_target.setdefault(entry.target_query_id, entry)
        run_files.submissions.append(entry)
        run_files.submissions_by_base.setdefault(entry.base, []).append(entry)
    else:
        run_files.assessments.append(entry)
        run_files.assessments_by_base.setdefault(entry.base, []).append(entry)


# -- a track's runs --------------------------------------------------------------

def track_runs(paths: list) -> tuple:
    """(shared files: query XML and assessments, runs) of Cold Start track files.

    Every run id found in a submission file is a run; a run id in two files
    is refused (a resubmitted copy left beside the first would be merged into
    it, every response counted twice).  A file whose kind cannot be told is a
    run of its own (named after the file), which then fails with that file's
    error in its own ``run.errlog``."""
    from scorer.taskrecord import TrackRun, checked_runs, run_name
    shared, file_of_run, unreadable = [], {}, []
    runids_of_file: dict = {}
    for path in expand_run_paths(paths):
        if path.endswith(".xml"):
            shared.append(path)
            continue
        try:
            lines = read_text(path).split("\n")
            kind = identify_file_type(path, lines)
        except ScorerError:
            unreadable.append(path)
            continue
        if kind == ASSESSMENT:
            shared.append(path)
            continue
        runids_of_file[path] = _runids_of(lines)
        for runid in runids_of_file[path]:
            earlier = file_of_run.setdefault(runid, path)
            if earlier != path:
                raise runid_in_two_files(runid, earlier, path)
    if not any(not path.endswith(".xml") for path in shared):
        hint = f" ({CLAIMS_HINT})" if any(map(first_line_looks_like_json, unreadable)) else ""
        raise ScorerError("no assessment file among the files: a Cold Start track needs the "
                          "query XML, the assessment file(s), then the run files" + hint)
    runs = []
    for runid, path in sorted(file_of_run.items()):
        several = len(runids_of_file[path]) > 1
        runs.append(TrackRun(runid, (path,), (("runids", runid),) if several else ()))
    taken = {run.name for run in runs}
    for path in unreadable:
        name = run_name(path)
        runs.append(TrackRun(name if name not in taken else path, (path,)))
    return shared, checked_runs(runs)


def _runids_of(lines: list) -> list:
    found = {}
    for line in lines:
        if line.lstrip().startswith("#"):
            continue
        columns = line.split("\t")
        if len(columns) >= 3 and columns[2].strip():
            found[columns[2]] = True
    return list(found)
