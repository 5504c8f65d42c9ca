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

import os
import re
from collections import namedtuple

from scorer.coldstart.toolkit import toolrun
from scorer.coldstart.toolkit.catalogue import FORMATS
from scorer.coldstart.toolkit.documents import read_documents
from scorer.coldstart.toolkit.problemlog import Fatal, ProblemLog, count_line
from scorer.coldstart.toolkit.queryfile import read_query_file
from scorer.coldstart.toolkit.responses import ASSESSMENT_LETTERS, query_language, \
    read_responses
from scorer.coldstart.toolkit.validatesf import DOCS_HELP
from scorer.problems import ERROR_EXIT_STATUS, ScorerError
from scorer.switches import Switch

#: The files written, by their suffix: the three languages of the provenance
#: (and the name queries give them), and every language together.
LANGUAGES = {"ENG": "ENGLISH", "SPA": "SPANISH", "CMN": "CHINESE"}
ALL_LANGUAGES = "XLING"
#: The order the files are written in (the Perl's hash order; any is right).
SUFFIXES = ("cmn", "eng", "spa", "xling")
LANGUAGE_HELP = {"ENG": "English only", "SPA": "Spanish only", "CMN": "Chinese only",
                 "XLING": "Any language."}

DESCRIPTION = ("validateqrel (CS-ValidateQREL-MASTER.pl 2017.2.0): Validate a TAC Cold Start "
               "cross-lingual assessment file, checking for common errors and optionally "
               "produce language specific assessment file(s).")
SWITCHES = {switch.name: switch for switch in (
    Switch("docs", help=DOCS_HELP, names_file=True),
    toolrun.ERROR_FILE,
    Switch("groundtruth", False, help="Treat input file as ground truth (so don't, e.g., "
                                      "enforce single-valued slots)"),
    *toolrun.HELP_SWITCHES,
    Switch("languages", default="ENG:SPA:CMN:XLING", help="Colon-separated lanugage "
                                                           "identifiers."),
    Switch("output_file", default="none", help="Specify output file prefix."),
)}
PARAMS = (("queryfile", True, "File containing queries used to generate the file being "
                              "validated"),
          ("filename", True, "File containing assessments."))
USAGE = toolrun.usage_text("validateqrel", DESCRIPTION, SWITCHES, PARAMS) + \
    "-language is a colon-separated list drawn from the following:\n" + \
    "".join(f"  {code}: {LANGUAGE_HELP[code]}\n" for code in sorted(LANGUAGE_HELP))


class QrelValidation(toolrun.LoggedResult,
                     namedtuple("QrelValidation", ("files", "responses", "log"))):
    """What validateqrel makes: ``files``, suffix (``cmn``, ``eng``, ``spa``,
    ``xling``) -> the lines of that file (each ending in a newline; none when
    there were errors), the assessments read (``responses``) and the problems
    found (``log``; as data, ``problems``)."""

    __slots__ = ()

    def text(self, suffix: str) -> str:
        return "".join(self.files[suffix])

    @property
    def errlog(self) -> str:
        log = self.log
        return log.report() + (count_line(log.error_count, "error") if log.error_count
                               else count_line(log.warning_count, "warning"))


def check_languages(languages: str) -> None:
    for language in languages.split(":"):
        if language not in LANGUAGES and language != ALL_LANGUAGES:
            raise Fatal(f"Unexpected language {language} for -languages")


def validate_qrel(query_file: str, qrel_file: str, *, docs=None,
                  languages: str = "ENG:SPA:CMN:XLING",
                  groundtruth: bool = False) -> QrelValidation:
    """CS-ValidateQREL on ``qrel_file`` against ``query_file``, as data
    (nothing is written).  -languages is checked, as the Perl checks it, but
    every file is made.  A problem that stops the Perl raises
    :class:`~scorer.coldstart.toolkit.problemlog.Fatal`; the others are in the
    result's log (with errors, the files are empty)."""
    log = ProblemLog(FORMATS)
    if groundtruth:
        log.ignore("MULTIPLE_FILLS_SLOT")
    check_languages(languages)
    documents = read_documents(docs) if docs is not None else None
    if not os.path.lexists(qrel_file):
        raise Fatal(f"File {qrel_file} does not exist")
    queries = read_query_file(query_file, log, documents)
    responses = read_responses([qrel_file], queries, log, "M:M", None, documents)
    files = {suffix: [] for suffix in SUFFIXES}
    if not log.error_count:
        try:
            files = split_by_language(responses.entries)
        except ScorerError as error:
            # The Perl dies here, after its report of the problems.
            raise AfterReport(str(error), log) from None
    return QrelValidation(files, responses, log)


class AfterReport(Fatal):
    """A fatal problem found after the problems were reported: ``log``, the
    problems the error output reports before the message."""

    def __init__(self, message: str, log):
        super().__init__(message)
        self.log = log


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
    files: dict = {suffix: [] for suffix in SUFFIXES}
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
    return toolrun.run(argv, SWITCHES, PARAMS, USAGE, _command)


def _command(given: dict, params: dict, errors) -> int:
    prefix = given.get("output_file", "none")
    # Without -output_file the Perl writes none.cmn, none.eng, ...: nothing here.
    targets = {} if prefix == "none" else {suffix: prefix if toolrun.is_stream(prefix)
                                           else f"{prefix}.{suffix}" for suffix in SUFFIXES}
    inputs = [params["queryfile"], params["filename"], given.get("docs")]
    if not toolrun.is_stream(prefix):
        for target in targets.values():
            toolrun.check_writable(target)
            toolrun.refuse_input_written_over(target, inputs)
    errors.open()
    try:
        result = validate_qrel(params["queryfile"], params["filename"], docs=given.get("docs"),
                               languages=given.get("languages", "ENG:SPA:CMN:XLING"),
                               groundtruth=bool(given.get("groundtruth")))
    except AfterReport as error:
        errors.write(error.log.report())
        raise
    errors.write(result.log.report())
    if not result.ok:
        errors.write(count_line(result.log.error_count, "error"))
        return ERROR_EXIT_STATUS
    if toolrun.is_stream(prefix):
        toolrun.write_outputs({prefix: "".join(result.text(suffix) for suffix in SUFFIXES)})
    else:
        toolrun.write_outputs({target: result.text(suffix) for suffix, target in targets.items()})
    errors.write(count_line(result.log.warning_count, "warning"))
    return 0
