"""``python -m scorer.coldstart validateqrel``: validate a Cold Start assessment
(qrel) file against its SF query file, as CS-ValidateQREL-MASTER.pl 2017.2.0
does, and write it whole and per language.

    python -m scorer.coldstart validateqrel -output_file qrel sf-query.xml qrel.txt

writes ``qrel.eng``, ``qrel.spa``, ``qrel.cmn`` (the assessments of queries
in that language whose provenance is all in it, with the hop-1 assessments
below them) and ``qrel.xling`` (every assessment), each assessment's EC
mention type made that of its equivalence class in the file's language (a
class with a named mention in another language only is nominal in this one).

The lines are read and checked as validatesf reads a run
(``toolkit/responses.py``); with errors nothing is written but the error
output, and the exit status is 255.  ``validate_qrel`` is the same as data
(``scorer.coldstart.validate_qrel``).
"""
from __future__ import annotations

import dataclasses
import re
import sys

from scorer import output
from scorer.coldstart import toolkit
from scorer.coldstart.queries import read_query_files
from scorer.coldstart.toolkit import toolcommand
from scorer.coldstart.toolkit.catalogue import FORMATS
from scorer.coldstart.toolkit.documents import read_documents
from scorer.coldstart.toolkit.problemlog import ProblemLog, count_line
from scorer.coldstart.toolkit.responses import ASSESSMENT_LETTERS, query_language, \
    read_responses
from scorer.coldstart.toolkit.toolcommand import ErrorOutput, Param
from scorer.coldstart.toolkit.validatesf import DOCS_HELP
from scorer.problems import ERROR_EXIT_STATUS, ScorerError
from scorer.switches import HELP, H, VERSION, Switch, UsageError, table

TOOL = next(tool for tool in toolkit.TOOLS if tool.name == "validateqrel")
SUMMARY = ("Validate a TAC Cold Start cross-lingual assessment file, checking for common errors "
           "and optionally produce language specific assessment file(s).")

#: The files written, by their suffix: the three languages of the provenance
#: (and the name queries give them), and every language together.
LANGUAGES = {"ENG": "ENGLISH", "SPA": "SPANISH", "CMN": "CHINESE"}
ALL_LANGUAGES = "XLING"
#: The order the files are written in (the Perl's hash order; any is right).
SUFFIXES = ("CMN", "ENG", "SPA", "XLING")
LANGUAGE_HELP = {"ENG": "English only", "SPA": "Spanish only", "CMN": "Chinese only",
                 "XLING": "Any language."}

SWITCHES = table((
    Switch("docs", help=DOCS_HELP, names_file=True),
    Switch("error_file", default="STDERR",
           help="Specify a file to which error output should be redirected"),
    Switch("groundtruth", False, help="Treat input file as ground truth (so don't, e.g., "
                                      "enforce single-valued slots)"),
    HELP, H,
    Switch("languages", default="ENG:SPA:CMN:XLING", help="Colon-separated lanugage "
                                                           "identifiers."),
    Switch("output_file", default="none", help="Specify output file prefix."),
    VERSION,
))
PARAMS = (Param("queryfile", True, "File containing queries used to generate the file being "
                                   "validated"),
          Param("filename", True, "File containing assessments."))


@dataclasses.dataclass
class QrelValidation:
    """What validating an assessment file found: ``files``, suffix (``eng``,
    ``spa``, ``cmn``, ``xling``) -> the lines of that file (each ending in a
    newline; none when there were errors); the ``problems`` as (name,
    message, places); their counts; the error output's ``report`` and its
    count line ``final``."""

    files: dict
    problems: list
    error_count: int
    warning_count: int
    report: str
    final: str

    @property
    def ok(self) -> bool:
        return not self.error_count

    @property
    def errlog(self) -> str:
        return self.report + self.final


def check_languages(languages: str) -> None:
    for language in languages.split(":"):
        if language not in LANGUAGES and language != ALL_LANGUAGES:
            raise ScorerError(f"Unexpected language {language} for -languages")


def validate_qrel(queryfile: str, filename: str, docs=None, languages: str = "ENG:SPA:CMN:XLING",
                  groundtruth: bool = False) -> QrelValidation:
    """Validate the assessment file ``filename`` against ``queryfile``, as
    ``python -m scorer.coldstart validateqrel`` does (-languages is checked,
    as the Perl checks it, but every file is written).  A fatal problem
    raises ``ScorerError`` with the command line's message."""
    log = ProblemLog(FORMATS)
    if groundtruth:
        log.ignore("MULTIPLE_FILLS_SLOT")
    check_languages(languages)
    documents = read_documents(docs) if docs is not None else None
    import os
    if not os.path.lexists(filename):
        raise ScorerError(f"File {filename} does not exist")
    queries = read_query_files([queryfile], log, documents)
    responses = read_responses([filename], queries, log, "M:M", None, documents)
    report = log.report()
    files = {suffix.lower(): [] for suffix in SUFFIXES}
    if not log.error_count:
        try:
            files = split_by_language(responses.entries)
        except ScorerError as error:
            # The Perl dies here, after its report of the problems.
            raise AfterReport(str(error), report) from None
    final = count_line(log.error_count, "error") if log.error_count \
        else count_line(log.warning_count, "warning")
    return QrelValidation(files, list(log.records()), log.error_count, log.warning_count,
                          report, final)


class AfterReport(ScorerError):
    """A fatal problem found after the problems were reported: ``report``, what
    the error output held before the message."""

    def __init__(self, message: str, report: str):
        super().__init__(message)
        self.report = report


_LANGUAGE_IN_PROVENANCE = {code: re.compile(f"{code}_") for code in LANGUAGES}


def language_of(entry) -> str:
    """The file an assessment belongs in: its query's language when every
    language code found in its provenance (``ENG_``, ``SPA_``, ``CMN_``) names
    that language, else XLING."""
    provenance = f"{entry.column('RELATION_PROVENANCE_TRIPLES')}," \
                 f"{entry.column('VALUE_PROVENANCE_TRIPLES')}"
    found = {LANGUAGES[code] for code, pattern in _LANGUAGE_IN_PROVENANCE.items()
             if pattern.search(provenance)}
    language = query_language(entry.query)
    if len(found) == 1 and language in found:
        return next(code for code, name in LANGUAGES.items() if name == language)
    return ALL_LANGUAGES


_LANGUAGE_OF_DOCUMENT = re.compile("(ENG|CMN|SPA)_")


def split_by_language(entries) -> dict:
    """suffix -> lines of each file (the Perl's two passes: the mention type
    of each equivalence class per language, then the lines)."""
    languages = [language_of(entry) for entry in entries]
    parent_languages: dict = {}
    mention_types: dict = {}
    for entry, language in zip(entries, languages):
        if entry.level == 0:
            parent_languages.setdefault(entry.target_query_id, set()).add(language)
        value_type, ec_type = _column(entry, "VALUE_MENTION_TYPE"), _column(entry,
                                                                           "EC_MENTION_TYPE")
        types = mention_types.setdefault(entry.value_ec, {})
        if value_type == ec_type and value_type in ("NAM", "NOM"):
            known = types.setdefault(language, ec_type)
            if known != ec_type:
                raise ScorerError(f"{entry.file} line {entry.line_number}: Unexpected mention "
                                  f"type: the equivalence class {entry.value_ec} is {known} "
                                  f"in {language} on an earlier line and {ec_type} here")
        elif value_type == "NOM" and ec_type not in ("NAM", "NOM"):
            # A named mention found in the collection (docid and value) but by no run.
            found = _LANGUAGE_OF_DOCUMENT.search(ec_type or "")
            if found is None:
                raise ScorerError(f"{entry.file} line {entry.line_number}: Unexpected value: "
                                  f"==>{ec_type}<== (EC_MENTION_TYPE of a nominal value must "
                                  f"be NAM, NOM or a mention in an ENG_, CMN_ or SPA_ document)"
                                  f"\nin line: {entry.line}")
            if found.group(1) == language:
                types[language] = ec_type
        types[ALL_LANGUAGES] = ec_type
    files: dict = {suffix.lower(): [] for suffix in SUFFIXES}
    for entry, language in zip(entries, languages):
        if entry.level == 0 or language in parent_languages.get(entry.query_id, ()):
            files[language.lower()].append(_corrected(entry, language, mention_types))
            if language != ALL_LANGUAGES:
                files["xling"].append(_corrected(entry, ALL_LANGUAGES, mention_types))
        else:
            files["xling"].append(_corrected(entry, ALL_LANGUAGES, mention_types))
    return files


def _column(entry, name: str):
    return entry.column(name) if name in entry.schema.columns else None


def _corrected(entry, language: str, mention_types: dict) -> str:
    """An assessment's line in one language's file: as read, but for a correct
    one, whose EC mention type becomes that of its class in this language
    (NOM where the class has none there); every column that reads as an
    assessment's name is written as its letter, as the Perl writes it."""
    if entry.value_ec == "0":
        return entry.line + "\n"
    types = mention_types.get(entry.value_ec, {})
    values = entry.values()
    columns = entry.schema.columns
    if "EC_MENTION_TYPE" in columns:
        values[columns.index("EC_MENTION_TYPE")] = types.get(language, "NOM")
    return "\t".join(ASSESSMENT_LETTERS.get(value) or value for value in values) + "\n"


def main(argv) -> int:
    usage_text = toolcommand.usage(TOOL, SUMMARY, SWITCHES, PARAMS) + \
        "-language is a colon-separated list drawn from the following:\n" + \
        "".join(f"  {code}: {LANGUAGE_HELP[code]}\n" for code in sorted(LANGUAGE_HELP))
    try:
        given, params = toolcommand.parse(argv, SWITCHES, PARAMS)
    except UsageError as error:
        return toolcommand.usage_error(error, usage_text)
    if given.get("help"):
        sys.stdout.write(usage_text)
        return 0
    if given.get("version"):
        sys.stdout.write(toolcommand.version_text(TOOL))
        return 0
    prefix = given.get("output_file", "none")
    writes_files = prefix != "none" and not output.is_stream(prefix)
    errors = None
    try:
        targets = [f"{prefix}.{suffix.lower()}" for suffix in SUFFIXES]
        if writes_files:
            for target in targets:
                output.check_writable(target)
            over = output.input_written_over(targets, [params["queryfile"], params["filename"],
                                                       given.get("docs")])
            if over:
                raise ScorerError(f"-output_file {prefix} would write {over[0]} over the input "
                                  f"{over[1]}; choose another prefix")
        errors = ErrorOutput(given.get("error_file", "STDERR"))
        validation = validate_qrel(params["queryfile"], params["filename"], given.get("docs"),
                                   given.get("languages", "ENG:SPA:CMN:XLING"),
                                   bool(given.get("groundtruth")))
        errors.write(validation.report)
        if not validation.ok:
            errors.write(validation.final)
            errors.close()
            return ERROR_EXIT_STATUS
        if writes_files:
            output.write_files({target: validation.files[target.rsplit(".", 1)[1]]
                                for target in targets})
        elif prefix != "none":
            stream = output.stream(prefix)
            for suffix in SUFFIXES:
                stream.writelines(validation.files[suffix.lower()])
            stream.flush()
        errors.write(validation.final)
        errors.close()
    except AfterReport as error:
        errors.write(error.report)
        return toolcommand.fail(error, errors)
    except ScorerError as error:
        return toolcommand.fail(error, errors)
    return 0
