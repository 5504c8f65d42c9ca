"""``python -m scorer.competition -collect EXPORT``: the official ranking from
the submissions an organizer downloads from the platform.

The export is a folder or a zip.  Each submission is a file (a ``.zip`` as
the participant uploaded it, or the file itself) at the export's top or
inside one folder, the folder naming the team; ``submissions.csv`` at the
top, where the export has one, names each file's team (columns ``file`` and
``team``, or ``participant``, ``username``, ``user``, ``owner``; optional
``team_id``, ``submitted`` and ``id``, which order a team's submissions).

Everything about the export's shape is checked before anything is scored,
and a hostile export stops the collection with a message and nothing
written: archives nested deeper than a submission's own zip, a member larger
than ``-max_size`` or expanding too far (the checks of
scorer/competition/archive.py, at every level), two teams with one name
(by the manifest's ``team_id``, or names equal but for case and spaces), a
team name holding markup or a path, an export holding no submission.

Each submission is then checked and scored as the leaderboard scored it
(scorer/competition/submissions.py): one that fails is listed with its
messages and left out.  Each team's ranked submission is chosen by
``ranked_submission`` (the policy's ``competition:`` section, or the
switch): ``last`` (the latest valid), ``best`` (the highest headline
score; the later on a tie) or ``all`` (every valid one, as ``TEAM-1``,
``TEAM-2``, ... in order).  The ranked ones are scored together by
``scorer.track`` into ``-output_dir``, which also gets ``submissions.md`` and
``submissions.csv`` (every submission, its team, what became of it and why)
and ``submissions/``, the ranked files as they were scored, each named after
its run (what ``scorer.track -errata`` and ``-verify`` take again).
"""
from __future__ import annotations

import csv
import dataclasses
import io
import os
import re
import shutil
import stat
import sys
import tempfile
import unicodedata
import zipfile
from typing import Optional

from scorer import output
from scorer.competition import archive, layout, submissions
from scorer.problems import ScorerError
from scorer.switches import Switch

#: -collect's own switches (besides scorer.track's and scorer's).
COLLECT_SWITCHES = (
    Switch("collect", help="-collect EXPORT: the platform's export of the submissions, a "
                           "folder or a zip; writes -output_dir's track (with every switch "
                           "of scorer.track) and submissions.md/.csv"),
    Switch("ranked_submission", help="with -collect, each team's ranked submission: last, "
                                     "best or all (default: the policy's competition: "
                                     "ranked_submission, else last)"),
    Switch("max_size", help="the most bytes a submission file may hold, zipped or not "
                            "(default: 1 GiB)"),
    Switch("phase_id", help="with -collect, the platform's phase whose submissions are "
                            "ranked, where the export holds several (Codabench's PhaseIdN "
                            "in each file's name, or the manifest's phase column)"),
)

MANIFEST = "submissions.csv"
TEAM_COLUMNS = ("team", "team_name", "participant", "username", "user", "owner")
FILE_COLUMNS = ("file", "filename", "file_name", "file name", "submission", "submission_file")
#: The other columns, by their names (Codabench's list of submissions: Submission ID,
#: File Name, Owner, Created When, Status, Phase).
ID_COLUMNS = ("id", "submission_id", "submission id")
TIME_COLUMNS = ("submitted", "submitted_at", "created when", "created_when", "date")
PHASE_COLUMNS = ("phase", "phase_id", "phase id")
#: How Codabench names each file it downloads for an organizer: the submission's
#: id, its owner, the phase's id, the time of the upload, the file's name.
CODABENCH_NAME = re.compile(r"(\d+)_(.+?)_PhaseId(\d+)_(\d{4}-\d\d-\d\d:\d\d-\d\d)_(.+)")
#: Characters a team name may not hold: markup, and what would make it a path
#: (quotes are a name's own: O'Brien).
MARKUP = re.compile(r"[<>&/\\\x00-\x1f\x7f]")
LISTING = ("submissions.md", "submissions.csv")
MOST_SUBMISSIONS = 10_000


@dataclasses.dataclass
class Entry:
    """One submission of the export."""
    label: str                  # where it is in the export, as the organizer sees it
    team: str
    team_id: str
    order: tuple                # sorts a team's submissions, oldest first
    submitted: str = ""
    path: str = ""              # the file, on disk (unpacked from the export if need be)
    status: str = ""            # ranked / not ranked / failed
    run: str = ""
    score: Optional[float] = None
    message: str = ""
    phase: str = ""             # the platform's phase, where the export names it


# -- reading the export ---------------------------------------------------------------

def read_export(export: str, scratch: str, max_size: int, phase: Optional[str] = None) -> list:
    """The export's submissions (of ``phase`` alone, where the export names
    phases), every one on disk under ``scratch`` or in the export folder; a
    hostile export is a ScorerError before anything is scored."""
    if os.path.isdir(export):
        root = export
    elif os.path.isfile(export) and export.lower().endswith(".zip"):
        root = os.path.join(scratch, "export")
        os.mkdir(root)
        _unpack_all(export, os.path.basename(export), root, max_size)
    elif os.path.exists(export):
        raise ScorerError(f"-collect {export}: the export is a folder or a .zip, as the "
                          f"platform gives it")
    else:
        raise ScorerError(f"Could not open {export}: No such file or directory")
    manifest = _read_manifest(root, export)
    found = []
    for relative in _files(root, export):
        if relative == MANIFEST:
            continue
        path = os.path.join(root, *relative.split("/"))
        row = manifest.pop(relative, None) or {}
        folder = relative.split("/")[0] if "/" in relative else ""
        named = CODABENCH_NAME.fullmatch(relative.rsplit("/", 1)[-1])
        if named:
            # Codabench's download: ID_OWNER_PhaseIdN_DATE_FILE (its date lacks the hour:
            # the submission's id orders them)
            row = {"team": named.group(2), "id": named.group(1), "phase": named.group(3),
                   "shown": named.group(4), **{k: v for k, v in row.items() if v}}
        team = row.get("team") or folder or _stem(relative)
        submitted = row.get("submitted") or ""
        number = row.get("id") or ""
        order = (submitted, int(number) if number.isdigit() else 0, number, relative)
        found.append(Entry(label=relative, team=team, team_id=row.get("team_id") or "",
                           order=order, submitted=submitted or row.get("shown", ""),
                           path=path, phase=row.get("phase") or ""))
    if manifest:
        listed = ", ".join(sorted(manifest)[:5])
        raise ScorerError(f"{export}: {MANIFEST} names file(s) the export does not hold: "
                          f"{listed}")
    phases = sorted({entry.phase for entry in found if entry.phase})
    if phase is not None:
        found = [entry for entry in found if not entry.phase or entry.phase == phase]
    elif len(phases) > 1:
        raise ScorerError(f"{export}: the export holds the submissions of phases "
                          f"{', '.join(phases)}; give -phase_id with the one to rank")
    if not found:
        raise ScorerError(f"{export}: the export holds no submission (a file, or a .zip of "
                          f"one, at its top or inside one folder per team)"
                          + (f" of phase {phase} (it holds phases {', '.join(phases)})"
                             if phase is not None else ""))
    if len(found) > MOST_SUBMISSIONS:
        raise ScorerError(f"{export}: {len(found)} submissions; at most {MOST_SUBMISSIONS}")
    _check_teams(found, export)
    for entry in found:
        if entry.path.lower().endswith(".zip"):
            _check_submission_zip(entry, export, max_size)
    return found


def _unpack_all(path: str, label: str, root: str, max_size: int) -> None:
    zipped = archive.open_archive(path, label)
    with zipped:
        for member in archive.check_members(zipped, label, max_size):
            if archive.is_clutter(member.name):
                continue
            archive.unpack_member(zipped, member, label, root, max_size)


def _files(root: str, export: str) -> list:
    """Files at the top of ``root`` and one folder down; deeper, a link or
    anything not a regular file is refused."""
    found = []
    for entry in sorted(os.listdir(root)):
        if archive.is_clutter(entry):
            continue
        full = os.path.join(root, entry)
        mode = os.lstat(full).st_mode
        if stat.S_ISLNK(mode):
            raise ScorerError(f"{export}: {entry} is a symbolic link; an export holds files")
        if stat.S_ISDIR(mode):
            for inner in sorted(os.listdir(full)):
                if archive.is_clutter(inner):
                    continue
                mode = os.lstat(os.path.join(full, inner)).st_mode
                if not stat.S_ISREG(mode):
                    raise ScorerError(f"{export}: {entry}/{inner} is not a file: an export holds "
                                      f"the submissions at its top or one folder (a team) down")
                found.append(f"{entry}/{inner}")
        elif stat.S_ISREG(mode):
            found.append(entry)
        else:
            raise ScorerError(f"{export}: {entry} is not a regular file")
    return found


def _stem(relative: str) -> str:
    name = relative.rsplit("/", 1)[-1]
    for ending in (".zip", ".jsonl", ".json", ".txt", ".tsv", ".csv", ".tab"):
        if name.lower().endswith(ending):
            name = name[:-len(ending)]
            break
    return name


def _read_manifest(root: str, export: str) -> dict:
    """``{file: {team, team_id, submitted, id}}`` of submissions.csv ({} without one)."""
    path = os.path.join(root, MANIFEST)
    if not os.path.isfile(path):
        return {}
    where = f"{export}: {MANIFEST}"
    try:
        with open(path, encoding="utf-8-sig", newline="") as f:
            reader = csv.DictReader(f)
            header = [str(name).strip().lower() for name in reader.fieldnames or []]
            rows = list(reader)
    except (UnicodeDecodeError, csv.Error) as error:
        raise ScorerError(f"{where}: not a UTF-8 CSV file ({error})")
    file_column = next((c for c in FILE_COLUMNS if c in header), None)
    team_column = next((c for c in TEAM_COLUMNS if c in header), None)
    if file_column is None or team_column is None:
        raise ScorerError(f"{where}: needs a column naming the file ({', '.join(FILE_COLUMNS)}) "
                          f"and one naming the team ({', '.join(TEAM_COLUMNS)})")
    found = {}
    for number, row in enumerate(rows, 2):
        row = {str(k).strip().lower(): (v or "").strip() for k, v in row.items() if k}
        name = row.get(file_column, "").replace("\\", "/")
        if not name:
            raise ScorerError(f"{where} line {number}: no file named")
        if name in found:
            raise ScorerError(f"{where} line {number}: the file {name} is listed twice")
        def first(columns) -> str:
            return next((row[c] for c in columns if row.get(c)), "")
        found[name] = {"team": row.get(team_column, ""), "team_id": row.get("team_id", ""),
                       "submitted": first(TIME_COLUMNS), "id": first(ID_COLUMNS),
                       "phase": first(PHASE_COLUMNS)}
    return found


def _normal(name: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def _check_teams(found: list, export: str) -> None:
    by_name: dict = {}
    for entry in found:
        if not entry.team.strip():
            raise ScorerError(f"{export}: {entry.label} has no team name")
        if MARKUP.search(entry.team) or entry.team.strip() in (".", ".."):
            raise ScorerError(f"{export}: the team name {entry.team!r} ({entry.label}) holds "
                              f"markup or a path (< > & / \\ or a control character); "
                              f"rename the team in {MANIFEST}")
        if len(entry.team.encode("utf-8")) > 100:
            raise ScorerError(f"{export}: the team name of {entry.label} is longer than 100 "
                              f"bytes; shorten it in {MANIFEST}")
        key = _normal(entry.team)
        other = by_name.setdefault(key, entry)
        if other.team != entry.team or other.team_id != entry.team_id:
            raise ScorerError(f"{export}: two teams with one name: {other.team!r} "
                              f"({other.label}{', team ' + other.team_id if other.team_id else ''})"
                              f" and {entry.team!r} ({entry.label}"
                              f"{', team ' + entry.team_id if entry.team_id else ''}); the "
                              f"ranking would merge them: rename one in {MANIFEST}")


def _check_submission_zip(entry: Entry, export: str, max_size: int) -> None:
    """A submission's zip, as the scoring program checks it, and no archive inside."""
    label = f"{entry.label} (in {os.path.basename(export.rstrip(os.sep))})"
    zipped = archive.open_archive(entry.path, label)
    with zipped:
        for member in archive.check_members(zipped, label, max_size):
            if member.name.lower().endswith(".zip") and not archive.is_clutter(member.name):
                raise ScorerError(f"{label}: holds another archive, {member.name}: an archive "
                                  f"inside a submission inside the export; nothing was "
                                  f"collected")


# -- scoring and choosing ---------------------------------------------------------------

def score_each(found: list, setup, metric: str, scratch: str) -> None:
    """Every submission checked and scored as the leaderboard would (each
    entry's score, or its status 'failed' and the message); progress on a
    terminal."""
    from scorer.progress import Progress
    progress = Progress("collect: submissions checked", len(found), enabled=len(found) > 1)
    try:
        for number, entry in enumerate(found):
            _score_one(entry, number, setup, metric, scratch)
            progress.advance()
    finally:
        progress.done()


def _score_one(entry, number: int, setup, metric: str, scratch: str) -> None:
    """One submission checked and scored (its score, or 'failed' and why)."""
    place = os.path.join(scratch, f"s{number}")
    os.mkdir(place)
    try:
        submission = layout.submission_at(entry.path, place, setup.task, setup.max_size)
        scored = submissions.score(setup, submission)
    except ScorerError as error:
        lines = str(error).strip().splitlines()
        if len(lines) > 1 and lines[0].startswith("the submission "):
            lines = lines[1:]         # (the leaderboard's heading: not scored)
        entry.status, entry.message = "failed", "\n".join(lines)
        return
    entry.path = submission.path
    entry.score = float(scored.result.values[metric]) \
        if metric in scored.result.values else None


def choose(found: list, ranked: str) -> list:
    """The ranked entries (their ``run`` set), the others' status set."""
    teams: dict = {}
    for entry in found:
        teams.setdefault(_normal(entry.team), []).append(entry)
    chosen = []
    for members in teams.values():
        valid = sorted((e for e in members if e.status != "failed"), key=lambda e: e.order)
        if ranked == "last":
            picked = valid[-1:]
        elif ranked == "best":
            picked = sorted(valid, key=lambda e: (e.score if e.score is not None
                                                  else float("-inf"), e.order))[-1:]
        else:
            picked = valid
        for entry in valid:
            entry.status = "not ranked"
            entry.message = f"the team's {ranked} valid submission is ranked"
        for i, entry in enumerate(picked, 1):
            entry.status, entry.message = "ranked", ""
            entry.run = entry.team if ranked != "all" else f"{entry.team}-{i}"
            chosen.append(entry)
    return chosen


def place_runs(chosen: list, folder: str, task) -> list:
    """Each ranked submission's file copied as its run: named after the run
    (a claim task's run is its file's name), its own ending kept."""
    os.makedirs(folder)
    paths = []
    for entry in chosen:
        name = os.path.basename(entry.path)
        ending = name[len(_stem(name)):] if _stem(name) != name else ""
        target = os.path.join(folder, entry.run + ending)
        shutil.copyfile(entry.path, target)
        paths.append(target)
    return paths


#: The ranked submissions' files, kept in the track folder as they were scored
#: (``scorer.track -errata`` and ``-verify`` take them again).
RUNS_KEPT = "submissions"


def keep_runs(paths: list, folder: str) -> None:
    os.makedirs(folder, exist_ok=True)
    for path in paths:
        target = os.path.join(folder, os.path.basename(path))
        temporary = f"{target}.{os.getpid()}.tmp"
        shutil.copyfile(path, temporary)
        os.replace(temporary, target)


def _name_runs(chosen: list, paths: list, task, gold: list) -> None:
    """Each ranked entry's run as the track names it: its file's name for a
    claim task, the run id(s) its file holds for Cold Start."""
    try:
        _shared, runs = task.track.find_runs(gold + paths)
    except ScorerError:
        return              # (the track says what is wrong)
    names: dict = {}
    for run in runs:
        for path in run.files:
            names.setdefault(os.path.abspath(path), []).append(run.name)
    for entry, path in zip(chosen, paths):
        found = names.get(os.path.abspath(path))
        if found:
            entry.run = ", ".join(found)


# -- the listing ------------------------------------------------------------------------

LISTING_COLUMNS = ("team", "team_id", "submission", "submitted", "status", "run", "score",
                   "message")


def listing_rows(found: list) -> list:
    return [{"team": e.team, "team_id": e.team_id, "submission": e.label,
             "submitted": e.submitted, "status": e.status, "run": e.run,
             "score": "" if e.score is None else repr(e.score), "message": e.message}
            for e in sorted(found, key=lambda e: (_normal(e.team), e.order))]


def listing_csv(rows: list) -> str:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, LISTING_COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return buffer.getvalue()


def listing_md(rows: list, metric: str, ranked: str, export: str) -> str:
    def cell(text: str) -> str:
        return text.replace("|", "\\|").replace("\n", "<br>")
    failed = sum(row["status"] == "failed" for row in rows)
    lines = [f"# Submissions collected from {os.path.basename(export.rstrip(os.sep))}\n\n",
             f"{len(rows)} submission(s) of {len({_normal(r['team']) for r in rows})} team(s); "
             f"ranked: each team's {ranked} valid submission; {failed} failed the checks "
             f"(left out, their messages below). Score: {metric}.\n\n",
             "| team | submission | submitted | status | run | score | message |\n",
             "|---|---|---|---|---|---|---|\n"]
    for row in rows:
        score = "" if not row["score"] else f"{float(row['score']):.4f}"
        lines.append(f"| {cell(row['team'])} | {cell(row['submission'])} | "
                     f"{cell(row['submitted'])} | {row['status']} | {cell(row['run'])} | "
                     f"{score} | {cell(row['message'])} |\n")
    return "".join(lines)


# -- the command ------------------------------------------------------------------------

def collect(export: str, request, gold: list, options, ranked: str, max_size: int,
            argv: list, phase: Optional[str] = None) -> int:
    """Read, check, score, choose, then the track; the listing written beside
    it.  ``request``: the gold's request (switches as scorer.track takes them)."""
    from scorer import tasks
    from scorer.track.build import build, track_request
    from scorer.track import folder as track_folder
    task = tasks.get(request.policy.task)
    metric = options.metric or task.scoring.catalogue(request)[0][0]
    if options.output_dir is not None:
        track_folder.check_output_dir(options.output_dir)
    scratch = tempfile.mkdtemp(prefix="scorer-collect-")
    try:
        found = read_export(export, scratch, max_size, phase)
        setup = _setup(request, gold, max_size, scratch)
        score_each(found, setup, metric, scratch)
        chosen = choose(found, ranked)
        if not chosen:
            raise ScorerError(f"{export}: no submission passed the checks; nothing to rank:\n"
                              + "".join(f"  {e.label}: {e.message}\n" for e in found))
        runs = place_runs(chosen, os.path.join(scratch, "runs"), task)
        _name_runs(chosen, runs, task, list(gold))
        track = track_request(list(gold) + runs, request.policy_file, samples=request.samples,
                              bootstrap=request.bootstrap, seed=request.seed, argv=argv,
                              program="python -m scorer.competition",
                              **dict(request.switches))
        result = build(track, options)
        rows = listing_rows(found)
        if options.output_dir is not None:
            keep_runs(runs, os.path.join(options.output_dir, RUNS_KEPT))
            output.write_files({
                os.path.join(options.output_dir, "submissions.csv"): listing_csv(rows),
                os.path.join(options.output_dir, "submissions.md"):
                    listing_md(rows, metric, ranked, export)})
        failed = [e for e in found if e.status == "failed"]
        for entry in failed:
            sys.stderr.write(f"WARNING: {entry.label} ({entry.team}) left out: "
                             f"{entry.message.splitlines()[-1]}\n")
        sys.stdout.write(f"Collected {len(found)} submission(s) of "
                         f"{len({_normal(e.team) for e in found})} team(s): {len(chosen)} "
                         f"ranked, {len(failed)} failed the checks; wrote "
                         f"{options.output_dir}\n")
        return result.exit_status
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _setup(request, gold: list, max_size: int, scratch: str):
    """How the leaderboard scored each submission (as -validate does)."""
    from scorer.competition import references
    keys = submissions.leaderboard_keys(request)
    references.check(request, gold)
    return layout.leaderboard_setup(request, keys, gold, scratch, max_size)


def zip_of(members: dict) -> bytes:
    """A zip of ``{name: bytes or text}`` (for tests and the walk-through)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members.items():
            z.writestr(name, data)
    return buffer.getvalue()


def main(argv: list) -> int:
    """``-collect EXPORT`` and its switches: scorer.track's and scorer's, and
    ``-ranked_submission``, ``-max_size``."""
    from scorer import stopping, switches
    from scorer.switches import UsageError
    from scorer.track.__main__ import TRACK_SWITCHES, options_from
    own = COLLECT_SWITCHES
    usage = ("Usage: python -m scorer.competition -collect EXPORT -policy P -output_dir DIR "
             "[-ranked_submission last|best|all] [track and scorer switches] GOLD_FILES...\n")
    try:
        given, files = switches.parse(argv, switches.table(switches.scorer_table(),
                                                           TRACK_SWITCHES, own))
        if switches.answered(given, usage):
            return 0
        options = options_from(given)
    except UsageError as error:
        sys.stderr.write(switches.usage_error_text(error, usage))
        return 255
    names = {s.name for s in TRACK_SWITCHES} | {s.name for s in own}
    scorer_given = {k: v for k, v in given.items() if k not in names}
    try:
        with stopping.stop_on_signals():
            from scorer.competition import phases
            from scorer.policy import policy_path
            from scorer.request import build
            from scorer.track.build import track_request
            policy = scorer_given.pop("policy", None)
            section = phases.read_section(policy_path(policy)) if policy else {}
            ranked = given.get("ranked_submission") or section.get("ranked_submission", "last")
            if ranked not in phases.RANKED:
                raise ScorerError(f"-ranked_submission must be one of "
                                  f"{', '.join(phases.RANKED)}, not '{ranked}'")
            max_size = archive.DEFAULT_MAX_SIZE
            if given.get("max_size"):
                from scorer.limits import whole_number
                max_size = whole_number(given["max_size"], "-max_size (bytes)")
            # (the track's checks of its switches, on the gold alone)
            track_request(list(files), policy, samples=scorer_given.get("samples"),
                          bootstrap=scorer_given.get("bootstrap"),
                          seed=scorer_given.get("seed"), **{
                              k: v for k, v in scorer_given.items()
                              if k not in ("samples", "bootstrap", "seed")})
            request = build(list(files), policy, samples=scorer_given.pop("samples", None),
                            bootstrap=scorer_given.pop("bootstrap", None),
                            seed=scorer_given.pop("seed", None), **scorer_given)
            return collect(given["collect"], request, list(files), options, ranked, max_size,
                           argv, given.get("phase_id"))
    except ScorerError as error:
        sys.stderr.write(f"FATAL_ERROR: {error}\n")
        return error.exit_status
    except stopping.Stopped as stop:
        sys.stderr.write(f"FATAL_ERROR: Stopped by {stop.name}; nothing was written\n")
        return stop.exit_status
