"""Problems found in the input: the one fatal error type, the collector of
warnings and errors, and the text of the error log (``.errlog``).

Messages keep the Perl scorer's wording (spec §1.5) so that organizers who grep
old error logs find the same text.  Unlike the Perl, each distinct message is
reported once, ordered by where it was first found (file, then line), and no
stack traces are printed (spec, "Decisions for scorer" 3 and 5).
"""
from __future__ import annotations

from collections import namedtuple

#: The NIST convention: any error found in the input ends the run with this status.
ERROR_EXIT_STATUS = 255


class ScorerError(Exception):
    """A fatal problem: scoring cannot go on.

    The message is printed as it is (no traceback) and the program exits with
    status 255.  Raised for a user's mistake, never for a bug.
    """

    exit_status = ERROR_EXIT_STATUS


class Where(namedtuple("Where", ("file", "line", "detail"), defaults=("", 0, ""))):
    """Where a problem was found: a file and line, or a free-text place.

    Ordered by file, then line number, then the free text, which is the order
    the error log lists problems in.  (A named tuple: immutable, hashable and
    ordered as such, without the cost of importing ``dataclasses`` at start-up.)
    """

    __slots__ = ()

    def text(self) -> str:
        if self.detail and self.file:
            return f"{self.file} line {self.detail}"
        if self.detail:
            return self.detail
        return f"{self.file} line {self.line}"


#: Every problem the scorers can report: name -> (type, message template).
#: Cold Start texts are those of CS-Score-MASTER.pl 2017.2.0 (spec §1.5).
CATALOGUE = {
    # Cold Start: query files
    "FAILED_LANG_INFERENCE": ("WARNING", "Unable to infer language from DOCID %s. Using %s by default."),
    "UNKNOWN_QUERY_FIELD": ("WARNING", "<%s> is not a recognized query field"),
    "DUPLICATE_QUERY_FIELD": ("WARNING", "Duplicate <%s> tag"),
    "MISMATCHED_TAGS": ("WARNING", "<%s> tag closed with </%s>"),
    "MALFORMED_QUERY": ("ERROR", "Malformed query %s"),
    "NO_QUERIES_LOADED": ("WARNING", "No queries found"),
    "UNKNOWN_SLOT_NAME": ("ERROR", "Unknown slot name: %s"),
    "UNLOADED_QUERY": ("WARNING", "Query %s is not present in the query files; skipping it"),
    "UNKNOWN_QUERY_ID_WARNING": ("WARNING", "Unknown query: %s"),
    # Cold Start: assessment and submission files
    "EMPTY_FILE": ("WARNING", "Empty response or assessment file: %s"),
    "DUPLICATE_LINE": ("WARNING", "Following line appears more than once in the submission therefore all copies but one will be removed: %s"),
    "WRONG_NUM_ENTRIES": ("ERROR", "Wrong number of entries on line (expected %d, got %d)"),
    "EMPTY_FIELD": ("WARNING", "Empty value for column %s"),
    "WRONG_SLOT_NAME": ("WARNING", "Slot %s is not the requested slot for query %s (expected %s)"),
    "MISSING_DECIMAL_POINT": ("WARNING", "Decimal point missing in confidence value: %s"),
    "IMPROPER_CONFIDENCE_VALUE": ("WARNING", "Confidence value in scientific format: %s"),
    "ILLEGAL_CONFIDENCE_VALUE": ("ERROR", "Illegal confidence value: %s"),
    "ILLEGAL_VALUE_TYPE": ("ERROR", "Illegal value type: %s"),
    "ILLEGAL_OFFSET_TRIPLE_STRING": ("ERROR", "%s is not a valid docid/offset pair string"),
    "ILLEGAL_OFFSET_PAIR": ("ERROR", "(%s, %s) is not a valid offset pair"),
    "ILLEGAL_OFFSET": ("ERROR", "%s is not a valid offset"),
    "TOO_MANY_CHARS": ("WARNING", "Provenance contains too many characters; only the first %d will be used"),
    "TOO_MANY_TOTAL_CHARS": ("ERROR", "All provenance strings contain a total of more than %d characters"),
    "TOO_MANY_PROVENANCE_TRIPLES_E": ("ERROR", "Unexpected number of provenance triples: provided=(%d) expected=(%d)"),
    "MULTIPLE_DOCIDS_IN_PROV": ("ERROR", "%s contains multiple DOCIDs"),
    "MULTIPLE_DOCIDS_IN_RESPONSE": ("ERROR", "Multiple DOCIDs used in response: %s"),
    "SEMICOLON_AS_SEPARATOR": ("WARNING", "A semicolon is used as a triple separator in the provenance %s. The semicolon will be replaced with a comma. "),
    "SEMICOLON_IN_PROVENANCE_E": ("ERROR", "A semicolon is used in the provenance %s"),
    "DISCARDED_ENTRY": ("WARNING", "Following line has been discarded due to constraints on multiple justifications: %s"),
    "DISCARDED_DEPENDENT": ("WARNING", "Following line has been discarded because all of its parents were discarded due to constraints on multiple justifications: %s"),
    "UNEXPECTED_ASSESSMENT_ENTRY": ("ERROR", "Child with no correct parent found in assessment file. %s %s"),
    "MULTIPLE_CORRECT_GROUND_TRUTH": ("WARNING", "More than one correct choice for ground truth for query %s"),
    # scorer's own (deliberate differences from the Perl, spec "Decisions")
    "AP_NODE_VALUE_CAPPED": ("WARNING", "Query %s: the AP value V of node %s was %s and is capped at 1.0"),
    "AP_ABOVE_ONE": ("WARNING", "Query %s level %s: AP is %s, greater than 1.0 (the Perl scorer stops here)"),
    "BOOTSTRAP_MISSING_LEVEL": ("WARNING", "Some bootstrap samples have no value for %s; they count as 0.0000"),
    "LEGACY_FORMAT": ("ERROR", "%s"),
    "EARLIER_REPORTS_REMOVED": ("WARNING", "Removed reports of an earlier run at %s, so that none is taken for this run's: %s"),
    # -validate: validatesf's messages on a run (its texts), and what scoring a raw run misses
    "VALIDATESF_ERROR": ("ERROR", "%s"),
    "VALIDATESF_WARNING": ("WARNING", "%s"),
    "UNOFFICIAL_SCORES": ("WARNING", "%s: %s; these numbers are not the official ones (score with -validate for those)"),
    # -kb: the messages of the toolkit's stages before scoring (validatekb's, each marked)
    "KB_STAGE_ERROR": ("ERROR", "%s"),
    "KB_STAGE_WARNING": ("WARNING", "%s"),
    "UNKNOWN_RUNID": ("ERROR", "Run id %s was asked for (-runids) but is in no submission file; its reports are all zeros. Run ids found: %s%s"),
    # Claim verification (SciFact, FEVER)
    "BAD_CLAIM_INPUT": ("ERROR", "%s"),
    "CLAIM_WARNING": ("WARNING", "%s"),
    # FEVER predictions carrying their own label and evidence beside a gold
    # file: the reference scores them against themselves; a leaderboard,
    # whose gold alone must decide, refuses such a submission.
    "CLAIM_OWN_GOLD": ("WARNING", "%s"),
}


#: One recorded problem (``where`` may be None).
_Record = namedtuple("_Record", ("name", "message", "where"))


class Problems:
    """Collects warnings and errors while the input is read and scored.

    A problem is a message at a place; recording it again changes nothing
    (the Perl counts every recording, spec §1.5, which inflates its count
    with its own repeated passes).  The report lists each distinct message
    once, with the first place it was found and how many other places.
    """

    def __init__(self):
        self._records: list[_Record] = []
        self._seen: set = set()
        #: put before each message recorded: the stage of a chain that found it
        #: (``python -m scorer -kb``: ``[validatekb]`` and a space); empty otherwise
        self.stage = ""

    def record(self, name: str, *args, where: Where | None = None) -> None:
        """Record a problem; the same message at the same place is kept once."""
        kind, template = CATALOGUE[name]
        message = self.stage + (template % args if args else template)
        key = (name, message, where)
        if key in self._seen:
            return
        self._seen.add(key)
        self._records.append(_Record(name, message, where))

    def record_text(self, name: str, message: str, where: Where | None = None) -> None:
        """Record a problem whose message is already written (another tool's,
        under a name of the catalogue: its type is the name's)."""
        message = self.stage + message
        key = (name, message, where)
        if key in self._seen:
            return
        self._seen.add(key)
        self._records.append(_Record(name, message, where))

    def names_at(self, file: str) -> set:
        """The names of the problems recorded at a place in ``file``."""
        return {r.name for r in self._records if r.where is not None and r.where.file == file}

    def kind(self, name: str) -> str:
        return CATALOGUE[name][0]

    @property
    def error_count(self) -> int:
        return sum(1 for r in self._records if CATALOGUE[r.name][0] == "ERROR")

    @property
    def warning_count(self) -> int:
        return sum(1 for r in self._records if CATALOGUE[r.name][0] == "WARNING")

    def names(self) -> list[str]:
        """The problem names recorded, in recording order (for tests)."""
        return [r.name for r in self._records]

    def report_fatal(self, message: str) -> str:
        """The error log of a run stopped by a fatal error: what was found so
        far, then the fatal message (no stack trace, spec decision 5)."""
        return self.report(final=f"FATAL_ERROR: {message}")

    def report(self, final: str | None = None) -> str:
        """The error-log text: each distinct message once, then the count line."""
        groups: dict[tuple[str, str], set] = {}
        for record in self._records:
            key = (CATALOGUE[record.name][0], record.message)
            groups.setdefault(key, set())
            if record.where is not None:
                groups[key].add(record.where)

        def order(item):
            (kind, message), places = item
            first = min(places) if places else Where()
            return (first, kind, message)

        lines = []
        for (kind, message), places in sorted(groups.items(), key=order):
            text = f"{kind}: {message}"
            if places:
                ordered = sorted(places)
                text += f" ({ordered[0].text()}"
                others = len(ordered) - 1
                if others:
                    text += f" and {others} other place{'s' if others > 1 else ''}"
                text += ")"
            lines.append(text + "\n\n")
        lines.append((final if final is not None else self.count_line()) + "\n")
        return "".join(lines)

    def count_line(self) -> str:
        errors = self.error_count
        if errors:
            return f"{errors} error{'s' if errors != 1 else ''} encountered"
        warnings = self.warning_count
        if warnings == 0:
            return "No warnings encountered"
        return f"{warnings} warning{'s' if warnings != 1 else ''} encountered"
