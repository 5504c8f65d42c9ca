"""``python -m scorer.coldstart validatekb``: validate a Cold Start knowledge
base in the TAC format, as CS-ValidateKB-MASTER.pl 2017.2.0 does, and write
it for the evaluations fed from it.

    python -m scorer.coldstart validatekb -docs doclength.txt -output tac \\
        -error_file team.errlog team.kb.tac

What it reads is ``toolkit/kbreader.py``'s, what it checks and repairs
``toolkit/kb.py``'s (each assertion) and ``toolkit/kbchecks.py``'s (the whole
KB).  With errors, nothing is written but the error output, and the exit
status is 255.  Without, ``-output`` (colon-separated; ``none`` by default)
says what is written, beside the KB or in ``-output_dir``:

- ``tac``: ``NAME.tac.valid``, the validated KB (what CS-ResolveQueries reads);
- ``edl``: ``NAME.edl.valid``, its entity mentions for entity linking;
- ``nug``: ``NAME.nug.valid``, its event mentions (event nuggets);
- ``eal``: the folder ``event_arguments`` (event arguments and linking);
- ``sen``: the folder ``sentiments`` (the sentiments, ERE and BeSt XML).

An output that exists already is refused before any work, as the Perl
refuses it.  ``validate_kb`` is the same as data (``scorer.coldstart.validate_kb``).
"""
from __future__ import annotations

import os
from collections import namedtuple
from importlib import import_module

from scorer import gcpause
from scorer.coldstart.toolkit import toolrun
from scorer.coldstart.toolkit.catalogue import FORMATS
from scorer.coldstart.toolkit.documents import read_documents
from scorer.coldstart.toolkit.kb import MULTIPLE
from scorer.coldstart.toolkit.kbchecks import check_integrity
from scorer.coldstart.toolkit.kbpredicates import LabelledPredicates
from scorer.coldstart.toolkit.kbreader import read_tac
from scorer.coldstart.toolkit.kbstats import stats_text
from scorer.coldstart.toolkit.kbtac import tac_text
from scorer.coldstart.toolkit.problemlog import Fatal, ProblemLog, count_line
from scorer.problems import ERROR_EXIT_STATUS
from scorer.switches import Switch

DESCRIPTION = ("validatekb (CS-ValidateKB-MASTER.pl 2017.2.0): Validate a TAC Cold Start KB "
               "file, checking for common errors, and optionally exporting to a variety of "
               "formats.")

#: The tasks (-task): the predicates each allows (None: all).
TASKS = {
    "CSED": ("Cold Start Entity Discovery variant", ("type", "mention")),
    "CSEDL": ("Cold Start Entity Discovery and Linking variant",
              ("type", "mention", "nominal_mention", "link")),
    "CSKB": ("Cold Start Knowledge Base variant", None),
}
#: The output formats: kind (a file or a folder) and where, from the KB's name.
FORMATS_OUT = {
    "EAL": ("DIR", "event_arguments", ("arguments", "corpusLinking", "linking")),
    "EDL": ("FILE", ".edl.valid", ()),
    "NUG": ("FILE", ".nug.valid", ()),
    "SEN": ("DIR", "sentiments", ("predicted-ere", "predicted-best")),
    "TAC": ("FILE", ".tac.valid", ()),
}
#: The writer of each output format: (module, function(kb, path, labels, linkkb) -> {file: text}),
#: the module imported by name when its format is asked for (a run writes one or two).
WRITERS = {
    "TAC": ("scorer.coldstart.toolkit.kbtac", "tac_files"),
    "EDL": ("scorer.coldstart.toolkit.kbedl", "edl_files"),
    "NUG": ("scorer.coldstart.toolkit.kbnug", "nug_files"),
    "EAL": ("scorer.coldstart.toolkit.kbeal", "eal_files"),
    "SEN": ("scorer.coldstart.toolkit.kbsen", "sen_files"),
}
_OUTPUT_NAMES = "[" + ", ".join(name.lower() for name in sorted(FORMATS_OUT)) + ", none]"

SWITCHES = {switch.name: switch for switch in (
    Switch("docs", help=toolrun.DOCS_HELP, names_file=True),
    toolrun.ERROR_FILE,
    *toolrun.HELP_SWITCHES,
    Switch("ignore", default="MULTIPLE_FILLS_ENTITY",
           help="Colon-separated list of warnings to ignore. Legal values are: " +
                ", ".join(name for name in sorted(FORMATS) if FORMATS[name].type == "WARNING")),
    Switch("labels", default="TAC",
           help="Colon-separated list of triple labels for output. Useful in conjunction with "
                "-predicates switch."),
    Switch("linkkb", default="LDC2015E42",
           help="Specify which links should be used to produce KB IDs for the \"-output edl\" "
                "option. Legal values depend upon the prefixes found in the argument to "
                "'link' relations in the KB being validated. This option has no effect unless "
                "\"-output edl\" has been specified."),
    Switch("multiple", default="MANY",
           help="Are multiple assertions of the same triple allowed? Legal values are: " +
                ", ".join(f"{name} ({text})" for name, text in sorted(MULTIPLE.items()))),
    Switch("output", default="none",
           help=f"Colon-separated list of output formats. Legal formats are {_OUTPUT_NAMES}. "
                f"Use 'none' to perform error checking with no output."),
    Switch("output_dir", help="Specify a directory to which output files should be written. "
                              "Default would be the directory containing the KB to be "
                              "validated."),
    Switch("predicates", help="File containing specification of additional predicates to "
                              "allow", names_file=True),
    Switch("stats_file", help="Specify a file into which statistics about the KB being "
                              "validated will be placed"),
    Switch("task", default="CSKB",
           help="Specify task to validate. Legal values are: " +
                ", ".join(f"{name} ({TASKS[name][0]})" for name in sorted(TASKS)) + "."),
)}
PARAMS = (("filename", True, "File containing input KB specification."),)
USAGE = toolrun.usage_text("validatekb", DESCRIPTION, SWITCHES, PARAMS)


class KBValidation(toolrun.LoggedResult, namedtuple("KBValidation", ("kb", "log"))):
    """What validatekb makes: the KB read and repaired (``kb``, a
    :class:`~scorer.coldstart.toolkit.kb.KB`) and the problems found
    (``log``; as data, ``problems``).  ``outputs(formats, ...)`` gives the
    texts of the output formats (none when there were errors)."""

    __slots__ = ()

    @property
    def errlog(self) -> str:
        log = self.log
        return log.report() + (count_line(log.error_count, "error") if log.error_count
                               else count_line(log.warning_count, "warning"))

    def tac(self, labels=("TAC",)) -> str:
        """The validated KB (``-output tac``)."""
        return tac_text(self.kb, labels)

    def output(self, mode: str, path: str, labels=("TAC",), linkkb="LDC2015E42") -> dict:
        """{file: text} of the output format ``mode`` (TAC, EDL, NUG, EAL,
        SEN) written at ``path`` (a file, or for EAL and SEN a folder)."""
        writer = WRITERS.get(mode)
        if writer is None:
            raise Fatal(f"-output {mode.lower()} is not written yet by this version")
        module, function = writer
        return getattr(import_module(module), function)(self.kb, path, labels=labels,
                                                        linkkb=linkkb.upper())


def output_paths(filename: str, output_dir=None) -> dict:
    """FORMAT -> where -output FORMAT writes (a file, or a folder)."""
    head, _, base = filename.rpartition("/")
    head = head.rstrip("/") if head else ""
    if base.endswith(".tac"):
        base = base[:-4]
    folder = output_dir or (head if head.strip() else ".")
    paths = {}
    for name, (kind, suffix, _) in FORMATS_OUT.items():
        paths[name] = f"{folder}/{base}{suffix}" if kind == "FILE" else f"{folder}/{suffix}"
    return paths


def check_options(task: str = "CSKB", multiple: str = "MANY", ignore=None) -> tuple:
    """(task, -multiple, warnings to ignore) checked as the Perl checks them."""
    task = task.upper()
    if task not in TASKS:
        raise Fatal(f"Unknown task: {task} (known tasks are [{', '.join(TASKS)}]")
    multiple = multiple.upper()
    if multiple not in MULTIPLE:
        raise Fatal(f"Argument to -multiple switch must be one of [{', '.join(sorted(MULTIPLE))}]")
    warnings = [name.upper() for name in (ignore or "").split(":") if name] \
        if ignore is not None else ["MULTIPLE_FILLS_ENTITY"]
    for name in warnings:
        if name not in FORMATS:
            raise Fatal(f"Unknown warning: {name}")
        if FORMATS[name].type != "WARNING":
            raise Fatal(f"{name} is a fatal error; cannot ignore it")
    return task, multiple, warnings


def validate_kb(filename: str, *, docs=None, task: str = "CSKB", multiple: str = "MANY",
                ignore=None, predicates=None) -> KBValidation:
    """CS-ValidateKB on the KB ``filename``, as data (nothing is written).
    The keywords are the switches of the same names (``ignore``: a
    colon-separated list, None for the Perl's default; ``predicates``: a
    ``LABEL.predicates.txt`` file of predicates to add).  A problem that stops
    the Perl (a file that cannot be read, a DOCID not in -docs) raises
    :class:`~scorer.coldstart.toolkit.problemlog.Fatal` (a ScorerError)."""
    if not os.path.lexists(filename):
        raise Fatal(f"File {filename} does not exist")
    task, multiple, warnings = check_options(task, multiple, ignore)
    predicate_set = labels = None
    if predicates is not None:
        predicate_set = LabelledPredicates()
        predicate_set.load(predicates)
        labels = predicate_set.labels
    log = ProblemLog(FORMATS)
    for name in warnings:
        log.ignore(name)
    documents = read_documents(docs) if docs is not None else None
    legal = TASKS[task][1]
    with gcpause.paused():
        kb = read_tac(filename, log, documents, multiple,
                      frozenset(legal) if legal is not None else None, task, predicate_set,
                      labels)
        check_integrity(kb, legal is None or "canonical_mention" in legal)
    return KBValidation(kb, log)


def main(argv) -> int:
    return toolrun.run(argv, SWITCHES, PARAMS, USAGE, _command)


def _command(given: dict, params: dict, errors) -> int:
    filename = params["filename"]
    if not os.path.lexists(filename):
        raise Fatal(f"File {filename} does not exist")
    task, multiple, warnings = check_options(given.get("task", "CSKB"),
                                             given.get("multiple", "MANY"),
                                             given.get("ignore"))
    output_dir = given.get("output_dir")
    if output_dir and os.path.lexists(output_dir) and not os.path.isdir(output_dir):
        raise Fatal(f"{output_dir} exists but its not a directory")
    errors.open(refuse_existing=False)
    labels = [label for label in given.get("labels", "TAC").upper().split(":")]
    if "TAC" not in labels:
        errors.write("WARNING: 'TAC' not included in output labels\n")
    paths = output_paths(filename, output_dir)
    modes = [mode for mode in given.get("output", "none").upper().split(":")]
    for mode in modes:
        if mode not in FORMATS_OUT and mode != "NONE":
            raise Fatal(f"Unknown output mode: {mode.lower()}")
        if mode == "NONE":
            continue
        kind, path = FORMATS_OUT[mode][0], paths[mode]
        if kind == "FILE" and os.path.lexists(path):
            raise Fatal(f"Output file already exists at {path}")
        if kind == "DIR" and os.path.isdir(path):
            raise Fatal(f"Output directory already exists at {path}")
    inputs = [filename, given.get("docs")]
    for mode in modes:
        if mode in FORMATS_OUT and FORMATS_OUT[mode][0] == "FILE":
            toolrun.refuse_input_written_over(paths[mode], inputs)
    stats_file = given.get("stats_file")
    if stats_file:
        toolrun.check_writable(stats_file)
    result = validate_kb(filename, docs=given.get("docs"), task=task, multiple=multiple,
                         ignore=given.get("ignore"), predicates=given.get("predicates"))
    log = result.log
    errors.write(log.report())
    if log.error_count:
        errors.write(count_line(log.error_count, "error"))
        return ERROR_EXIT_STATUS
    outputs = {}
    # the Perl makes -output_dir at the start (and then stops: its check of
    # mkdir's status is upside down); made here when there is something to write
    folders = [output_dir] if output_dir and not os.path.isdir(output_dir) else []
    for mode in modes:
        if mode in FORMATS_OUT:
            outputs.update(result.output(mode, paths[mode], labels=labels,
                                         linkkb=given.get("linkkb", "LDC2015E42")))
            if FORMATS_OUT[mode][0] == "DIR":
                folders += [paths[mode]] + [f"{paths[mode]}/{sub}"
                                            for sub in FORMATS_OUT[mode][2]]
    if stats_file:
        outputs[stats_file] = stats_text(result.kb)
    for folder in folders:
        os.makedirs(folder, exist_ok=True)
    toolrun.write_outputs(outputs)
    errors.write(count_line(log.warning_count, "warning"))
    return 0
