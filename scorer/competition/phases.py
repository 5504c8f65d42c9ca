"""A competition's phases: what each one scores against, when it is open, how
many submissions it takes, and what a participant sees of a scored one.

Phases come from the command line (``-phase NAME[:GOLD[,GOLD...]]`` repeated,
``-phase_start NAME:DATE``, ``-phase_end NAME:DATE``, ``-max_submissions
NAME:N`` or ``NAME:N/day``) or from the ``competition:`` section of the policy
file (its ``phases:`` list; the command line wins, phase by phase and key by
key).  Without either a bundle has the one phase it always had.

The three names of SemEval's practice have defaults of their own:

- ``practice``: scores shown, the platform's limits, every detail shown;
- ``evaluation``: scores hidden, 3 submissions in all, the participant told
  only that the submission was scored and valid;
- ``post-evaluation``: scores shown, the platform's limits, the scores alone
  (its gold is the test gold).

Any other name: scores shown.  What a participant sees follows from the
gold: a phase whose reference files are those of a phase with hidden scores
(the test gold) shows the scores at most, never what each unit was given,
so that the page of detailed results and the report set never show the test
gold.  A phase named without gold (``-phase post-evaluation``) scores against
the gold of the phase before it.
"""
from __future__ import annotations

import dataclasses
import datetime
import hashlib
import os
import re
from typing import Optional

from scorer.policy import load_policy_file
from scorer.problems import ScorerError

#: What a participant sees of a scored submission: everything (the scores,
#: each unit's counts, the .debug, the report set); the scores alone; or only
#: that it was scored and valid.
DETAILS, SCORES, RECEIPT = "details", "scores", "receipt"
SHOWN, HIDDEN = "shown", "hidden"
#: SemEval's phases and their defaults (scores, most submissions in all).
SEMEVAL = {"practice": (SHOWN, None), "evaluation": (HIDDEN, 3),
           "post-evaluation": (SHOWN, None)}
#: The names a bundle keeps for its folders: letters, digits, '-', '_'.
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,39}")
#: The command line's repeated switches.
REPEATED = ("phase", "phase_start", "phase_end", "max_submissions")
#: Keys of a phase in the policy's ``competition: phases:`` list.
PHASE_KEYS = ("name", "gold", "start", "end", "max_submissions", "max_submissions_per_day",
              "scores", "description")
#: Keys of the ``competition:`` section.
SECTION_KEYS = ("title", "format", "phases", "ranked_submission")
RANKED = ("last", "best", "all")
FORMATS = ("codabench", "codalab")


@dataclasses.dataclass(frozen=True)
class Phase:
    name: str
    references: tuple                 # the phase's reference files, in command-line order
    start: datetime.datetime          # UTC
    end: Optional[datetime.datetime]  # None: open to the end (the last phase only)
    max_submissions: Optional[int]    # in all, per participant; None: the platform's default
    max_per_day: Optional[int]
    scores: str                       # SHOWN or HIDDEN
    shows: str                        # DETAILS, SCORES or RECEIPT
    description: str = ""

    def summary(self) -> dict:
        """The phase as the scoring program reads it (scoring.yaml's ``phase``)."""
        return {"name": self.name, "scores": self.scores, "shows": self.shows,
                "end": written(self.end) if self.end else None}


def written(moment: datetime.datetime) -> str:
    """A moment as both platforms' documentation writes it: ``YYYY-MM-DD HH:MM:SS`` (UTC)."""
    return moment.strftime("%Y-%m-%d %H:%M:%S")


def read_moment(value, where: str) -> datetime.datetime:
    """A date (midnight UTC) or a date and time, ``YYYY-MM-DD[ HH:MM[:SS]]``
    (a ``T`` for the space too); YAML's own dates and times as they are."""
    if isinstance(value, datetime.datetime):
        moment = value
    elif isinstance(value, datetime.date):
        moment = datetime.datetime.combine(value, datetime.time())
    else:
        text = str(value).strip()
        try:
            if len(text) == 10:
                moment = datetime.datetime.combine(datetime.date.fromisoformat(text),
                                                   datetime.time())
            else:
                moment = datetime.datetime.fromisoformat(text.replace("T", " ", 1))
        except ValueError:
            raise ScorerError(f"{where}: '{text}' is not a date, YYYY-MM-DD, or a date and "
                              f"time, YYYY-MM-DD HH:MM[:SS] (UTC)")
    if moment.tzinfo is not None:
        moment = moment.astimezone(datetime.timezone.utc).replace(tzinfo=None)
    return moment


def take_repeated(argv: list) -> tuple:
    """(argv without the repeated switches, {name: [values in order]})."""
    rest, found = [], {name: [] for name in REPEATED}
    i = 0
    while i < len(argv):
        name = argv[i][1:] if argv[i].startswith("-") else None
        if name in REPEATED:
            if i + 1 >= len(argv) or argv[i + 1].startswith("-"):
                shown = "" if i + 1 >= len(argv) else f", not '{argv[i + 1]}'"
                raise ScorerError(f"-{name} needs a value, {_FORMS[name]}{shown}")
            found[name].append(argv[i + 1])
            i += 2
            continue
        rest.append(argv[i])
        i += 1
    return rest, found


_FORMS = {"phase": "NAME or NAME:GOLD[,GOLD...]", "phase_start": "NAME:DATE",
          "phase_end": "NAME:DATE", "max_submissions": "NAME:N or NAME:N/day"}


def _split(value: str, switch: str) -> tuple:
    name, colon, rest = value.partition(":")
    if not colon or not rest.strip():
        raise ScorerError(f"-{switch} {value}: expected {_FORMS[switch]}")
    return name.strip(), rest.strip()


# -- the section of the policy file -------------------------------------------------

def read_section(policy_file: Optional[str]) -> dict:
    """The policy file's ``competition:`` section, checked ({} without one);
    phases' gold files relative to the policy file's folder."""
    if not policy_file:
        return {}
    section = load_policy_file(policy_file).get("competition")
    if section is None:
        return {}
    where = f"{policy_file}, key 'competition'"
    if not isinstance(section, dict):
        raise ScorerError(f"{where}: a mapping of {', '.join(SECTION_KEYS)}")
    unknown = sorted(set(map(str, section)) - set(SECTION_KEYS))
    if unknown:
        raise ScorerError(f"{where}: unknown key(s) {', '.join(unknown)}; the keys are "
                          f"{', '.join(SECTION_KEYS)}")
    found = dict(section)
    for key, choices in (("format", FORMATS), ("ranked_submission", RANKED)):
        if key in found and found[key] not in choices:
            raise ScorerError(f"{where}, '{key}': one of {', '.join(choices)}, not "
                              f"'{found[key]}'")
    phases = found.get("phases") or []
    if not isinstance(phases, list):
        raise ScorerError(f"{where}, 'phases': a list of phases (each a mapping with name, "
                          f"gold, ...)")
    base = os.path.dirname(os.path.abspath(policy_file))
    read = []
    for number, phase in enumerate(phases, 1):
        here = f"{where}, phase {number}"
        if not isinstance(phase, dict) or "name" not in phase:
            raise ScorerError(f"{here}: a mapping with at least a name")
        unknown = sorted(set(map(str, phase)) - set(PHASE_KEYS))
        if unknown:
            raise ScorerError(f"{here}: unknown key(s) {', '.join(unknown)}; the keys are "
                              f"{', '.join(PHASE_KEYS)}")
        phase = dict(phase)
        gold = phase.get("gold")
        if gold is not None:
            names = [gold] if isinstance(gold, str) else gold
            if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
                raise ScorerError(f"{here}, 'gold': a file or a list of files")
            phase["gold"] = [n if os.path.isabs(n) else os.path.join(base, n) for n in names]
        for key in ("max_submissions", "max_submissions_per_day"):
            if key in phase and phase[key] is not None and (
                    isinstance(phase[key], bool) or not isinstance(phase[key], int)
                    or phase[key] < 1):
                raise ScorerError(f"{here}, '{key}': a whole number of at least 1")
        if "scores" in phase and phase["scores"] not in (SHOWN, HIDDEN):
            raise ScorerError(f"{here}, 'scores': {SHOWN} or {HIDDEN}, not '{phase['scores']}'")
        phase["where"] = here
        read.append(phase)
    found["phases"] = read
    return found


# -- the phases ---------------------------------------------------------------------

def from_settings(repeated: dict, section: dict, first_start: Optional[str]) -> list:
    """The phases of the command line's repeated switches and the policy's
    section (the command line wins); [] when neither names a phase."""
    specs: dict = {}
    for phase in section.get("phases", []):
        name = str(phase["name"])
        if name in specs:
            raise ScorerError(f"{phase['where']}: the phase {name} is named twice")
        specs[name] = dict(phase)
    given = set()
    for value in repeated.get("phase", []):
        name, colon, gold = value.partition(":")
        name = name.strip()
        if name in given:
            raise ScorerError(f"-phase {value}: the phase {name} is named twice")
        given.add(name)
        spec = specs.setdefault(name, {"name": name, "where": f"-phase {value}"})
        spec["where"] = f"-phase {value}"
        if colon:
            files = [f for f in gold.split(",") if f]
            if not files:
                raise ScorerError(f"-phase {value}: expected {_FORMS['phase']}")
            spec["gold"] = files
    for switch, key in (("phase_start", "start"), ("phase_end", "end")):
        for value in repeated.get(switch, []):
            name, date = _split(value, switch)
            _named(specs, name, f"-{switch} {value}")[key] = read_moment(date, f"-{switch}")
    for value in repeated.get("max_submissions", []):
        name, count = _split(value, "max_submissions")
        per_day = count.endswith("/day")
        number = count[:-len("/day")] if per_day else count
        if not (number.isascii() and number.isdigit()) or len(number) > 9 or int(number) < 1:
            raise ScorerError(f"-max_submissions {value}: expected {_FORMS['max_submissions']} "
                              f"(N a whole number of at least 1)")
        spec = _named(specs, name, f"-max_submissions {value}")
        spec["max_submissions_per_day" if per_day else "max_submissions"] = int(number)
    if not specs:
        return []
    return _complete(list(specs.values()), first_start)


def _named(specs: dict, name: str, where: str) -> dict:
    if name not in specs:
        known = ", ".join(specs) or "none"
        raise ScorerError(f"{where}: no phase {name} (the phases: {known}); name it with "
                          f"-phase first")
    return specs[name]


def _complete(specs: list, first_start: Optional[str]) -> list:
    for spec in specs:
        if not NAME.fullmatch(spec["name"]):
            raise ScorerError(f"{spec['where']}: a phase's name is letters, digits, '-' and "
                              f"'_' (at most 40, a letter or digit first), not "
                              f"'{spec['name']}'")
    if specs[0].get("gold") is None:
        raise ScorerError(f"{specs[0]['where']}: the first phase needs its gold "
                          f"(-phase {specs[0]['name']}:GOLD)")
    golds = []
    for spec in specs:
        golds.append(tuple(spec["gold"]) if spec.get("gold") is not None else golds[-1])
    starts = []
    for i, spec in enumerate(specs):
        start = spec.get("start")
        if start is not None:
            start = read_moment(start, f"{spec['where']}, start")
        elif i == 0:
            start = read_moment(first_start, "-start") if first_start else \
                datetime.datetime.combine(datetime.datetime.now(datetime.timezone.utc).date(),
                                          datetime.time())
        elif specs[i - 1].get("end") is not None:
            start = read_moment(specs[i - 1]["end"], f"{specs[i - 1]['where']}, end")
        else:
            raise ScorerError(f"{spec['where']}: the phase {spec['name']} needs a start "
                              f"(-phase_start {spec['name']}:DATE), or the phase before it an "
                              f"end")
        starts.append(start)
    hidden_golds = {_digest(gold) for gold, spec in zip(golds, specs)
                    if _scores(spec) == HIDDEN}
    phases = []
    for i, spec in enumerate(specs):
        end = spec.get("end")
        if end is not None:
            end = read_moment(end, f"{spec['where']}, end")
        elif i + 1 < len(specs):
            end = starts[i + 1]
        if end is not None and end <= starts[i]:
            raise ScorerError(f"the phase {spec['name']} ends ({written(end)}) before it starts "
                              f"({written(starts[i])})")
        if i + 1 < len(specs) and starts[i + 1] < end:
            raise ScorerError(f"the phase {specs[i + 1]['name']} starts "
                              f"({written(starts[i + 1])}) before the phase {spec['name']} "
                              f"ends ({written(end)}); phases follow one another")
        scores = _scores(spec)
        if scores == HIDDEN:
            shows = RECEIPT
        elif _digest(golds[i]) in hidden_golds:
            shows = SCORES
        else:
            shows = DETAILS
        default_max = SEMEVAL.get(spec["name"], (None, None))[1]
        phases.append(Phase(name=spec["name"], references=golds[i], start=starts[i], end=end,
                            max_submissions=spec.get("max_submissions", default_max),
                            max_per_day=spec.get("max_submissions_per_day"), scores=scores,
                            shows=shows, description=str(spec.get("description") or "")))
    names = [phase.name for phase in phases]
    if len(set(names)) != len(names):
        raise ScorerError(f"a phase is named twice: {', '.join(names)}")
    return phases


def _scores(spec: dict) -> str:
    return spec.get("scores") or SEMEVAL.get(spec["name"], (SHOWN, None))[0]


def _digest(paths) -> tuple:
    """The reference files' contents (a copy of the test gold is the test gold)."""
    found = []
    for path in paths:
        digest = hashlib.sha256()
        try:
            with open(path, "rb") as f:
                for block in iter(lambda: f.read(1 << 20), b""):
                    digest.update(block)
        except OSError as error:
            raise ScorerError(f"Could not open {path}: {error.strerror}")
        found.append(digest.hexdigest())
    return tuple(found)


def default_description(phase: Phase) -> str:
    """What the phase's page says of it."""
    if phase.description:
        return phase.description
    limit = ""
    if phase.max_submissions:
        limit = f" At most {phase.max_submissions} submission(s) in all"
        limit += f", {phase.max_per_day} a day." if phase.max_per_day else "."
    elif phase.max_per_day:
        limit = f" At most {phase.max_per_day} submission(s) a day."
    what = {DETAILS: "Scores are shown on the leaderboard, with the detailed results of each "
                     "submission.",
            SCORES: "Scores are shown on the leaderboard (the detailed results show the scores "
                    "alone: this phase's gold is the test gold).",
            RECEIPT: "Scores are hidden until the phase ends: a submission is scored, and you "
                     "are told only that it was scored and valid."}[phase.shows]
    return f"Submit one file (or one .zip holding it). {what}{limit}"
