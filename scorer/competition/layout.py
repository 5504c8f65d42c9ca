"""What a competition's reference data and a submission folder hold.

One place knows the layout both ways: the bundle writes ``reference_data/``
with :func:`reference_files`, and the scoring program reads it back with
:func:`read_reference` into the arguments of ``scorer.api.score``.

``reference_data/`` (the platform's ``INPUT/ref``)::

    scoring.yaml    format, task, the reference files in command-line order, the
                    scorer switches that are not policy (expand, queries, samples,
                    bootstrap, seed, tabs), the leaderboard keys, max_size; written
                    as JSON (which YAML reads too), so that the scoring program
                    reads it without importing PyYAML (a twentieth of its time)
    policy.yaml     the effective policy: every key, switches folded in
    <files>         the reference files (and -queries / -samples files) by name

``INPUT/res`` holds the submission: one file, possibly inside one folder, or
one ``.zip`` holding it (see :func:`find_submission`).
"""
from __future__ import annotations

import json
import os
import stat
from collections import namedtuple

from scorer.competition import archive
from scorer.competition.references import check_files
from scorer.problems import ScorerError

FORMAT = 1
SCORING_FILE = "scoring.yaml"
POLICY_FILE = "policy.yaml"
RESERVED = (SCORING_FILE, POLICY_FILE)
SCORING_HEADER = ("# How scorer.competition scores each submission (see README, 'Running a "
                  "leaderboard');\n# JSON, which is YAML too: the scoring program reads "
                  "it without PyYAML.\n")

#: The samples switches a leaderboard may fix (besides the task's own: run_switches).
SAMPLE_SWITCHES = ("samples", "bootstrap", "seed")


class Setup(namedtuple("Setup", "task references policy_path switches leaderboard max_size phase",
                       defaults=(archive.DEFAULT_MAX_SIZE, None))):
    """How every submission of a leaderboard is scored (paths absolute): the
    task, the reference files in command-line order, the effective policy's
    path, the run switches (-queries / -samples: their files), the scores' keys
    in column order, the largest submission file, and the phase (a dict of
    ``name``, ``scores``, ``shows``, ``end``: what the participant sees,
    scorer/competition/phases.py; None: a bundle of one phase, which shows
    everything)."""

    __slots__ = ()

    def request(self, submission: str):
        """The request that scores the submission file ``submission`` (a
        name relative to the current folder)."""
        from scorer.request import build
        switches = dict(self.switches)
        settings = {name: switches.pop(name, None) for name in SAMPLE_SWITCHES}
        return build(list(self.references) + [submission], self.policy_path,
                              **settings, **switches)


def run_switches(request) -> dict:
    """The switches besides the policy a leaderboard fixes, as scoring.yaml
    holds them: the task's own (but those that pick runs: a submission is
    the run), then the samples'."""
    from scorer import switches as switch_table
    from scorer import tasks
    table = switch_table.scorer_table()
    task = tasks.get(request.policy.task)
    found = {name: value for name, value in request.switches
             if not table[name].sets_policy and name not in task.run_switches}
    for name, value in (("samples", request.samples), ("bootstrap", request.bootstrap),
                        ("seed", request.seed)):
        if value is not None:
            found[name] = str(value)
    return found


def leaderboard_setup(request, keys, references, folder: str, max_size: int) -> "Setup":
    """How the leaderboard scores a submission, for scoring here as it does
    (``-validate``, ``-collect``): its policy written into ``folder``, its
    fixed switches with the files they name made absolute."""
    policy = request.policy.replace(leaderboard=keys)
    policy_path = os.path.join(folder, POLICY_FILE)
    with open(policy_path, "w", encoding="utf-8") as f:
        f.write(policy_text(policy))
    fixed = run_switches(request)
    for name in fixed:
        if _names_file(name) and os.path.isfile(fixed[name]):
            fixed[name] = os.path.abspath(fixed[name])
    return Setup(task=policy.task, references=tuple(os.path.abspath(f) for f in references),
                 policy_path=policy_path, switches=fixed, leaderboard=keys, max_size=max_size)


def _names_file(name: str) -> bool:
    from scorer import switches as switch_table
    switch = switch_table.scorer_table().get(name)
    return switch is not None and switch.names_file


# -- the policy as a file ----------------------------------------------------------

def policy_settings(policy) -> dict:
    """Every key of the effective policy, as a policy file holds it."""
    from scorer import tasks
    task = tasks.get(policy.task)
    settings = {"task": policy.task}
    for key in task.policy_keys:
        value = key.written(getattr(policy, key.name))
        if value is not None:       # (None: left out, the key's default; Cold Start's validate)
            settings[key.name] = value
    settings["leaderboard"] = list(policy.leaderboard)
    return settings


def policy_text(policy) -> str:
    import yaml
    return ("# The effective policy of this leaderboard (python -m scorer -policy policy.yaml)\n"
            + yaml.safe_dump(policy_settings(policy), sort_keys=False, allow_unicode=True))


# -- writing (the bundle) ----------------------------------------------------------

def reference_files(policy, references: list, run_switches: dict, max_size: int,
                    phase: dict | None = None) -> dict:
    """``{name in reference_data/: source path or text}``: the files the
    scoring program reads back with :func:`read_reference`."""
    names: dict = {}

    def place(path: str) -> str:
        check_files([path])
        name = os.path.basename(path)
        if name in RESERVED:
            raise ScorerError(f"{path}: the bundle keeps the name {name} for itself; rename "
                              f"the file")
        if name in names and os.path.realpath(names[name]) != os.path.realpath(path):
            raise ScorerError(f"two reference files are named {name} ({names[name]} and "
                              f"{path}); rename one")
        names[name] = path
        return name

    placed = [place(path) for path in references]
    switches = {}
    for name, value in run_switches.items():
        if _names_file(name) and os.path.exists(str(value)):
            value = place(str(value))
        switches[name] = value
    scoring = {"format": FORMAT, "task": policy.task, "references": placed,
               "switches": switches, "leaderboard": list(policy.leaderboard),
               "max_size": int(max_size)}
    if phase is not None:
        scoring["phase"] = dict(phase)
    texts = {SCORING_FILE: SCORING_HEADER
                           + json.dumps(scoring, indent=1, ensure_ascii=False) + "\n",
             POLICY_FILE: policy_text(policy)}
    return {**texts, **names}


# -- reading (the scoring program) -------------------------------------------------

def _folder_problem(path: str) -> str | None:
    """Why ``path`` is not a folder one can read (None: it is one)."""
    if os.path.isdir(path):
        return None
    if os.path.isfile(path):
        return "is a file, not a folder"
    return "is not a folder" if os.path.lexists(path) else "does not exist"


def check_folders(input_dir: str, output_dir: str) -> None:
    """INPUT must be a folder; OUTPUT a folder, or a name the program can make
    in an existing folder (the platform makes OUTPUT's parent; a missing
    tree is a mistake in the command), and outside INPUT: the scores and
    reports must not land among the reference data or the submission."""
    problem = _folder_problem(input_dir)
    if problem:
        raise ScorerError(f"INPUT {input_dir} {problem}")
    if not output_dir.strip():
        raise ScorerError(f"OUTPUT must name a folder, not '{output_dir}'")
    if os.path.lexists(output_dir) and not os.path.isdir(output_dir):
        raise ScorerError(f"OUTPUT {output_dir} is not a folder; the scores are written "
                          f"into a folder")
    parent = os.path.dirname(os.path.abspath(output_dir))
    if not os.path.isdir(parent):
        raise ScorerError(f"OUTPUT {output_dir}: the folder {parent} that would hold it "
                          f"does not exist")
    inside = os.path.realpath(input_dir)
    where = os.path.realpath(output_dir)
    if where == inside or where.startswith(inside.rstrip(os.sep) + os.sep):
        raise ScorerError(f"OUTPUT {output_dir} is inside INPUT {input_dir}; the scores would "
                          f"be written among the reference data or the submission")


def make_output(output_dir: str) -> None:
    """OUTPUT itself, if the platform has not made it (its parent exists:
    :func:`check_folders`)."""
    if os.path.isdir(output_dir):
        return
    try:
        os.mkdir(output_dir)
    except OSError as error:
        raise ScorerError(f"Could not make OUTPUT {output_dir}: {error.strerror}")


def read_reference(directory: str) -> Setup:
    """The Setup in ``directory`` (INPUT/ref); an organizer's mistake is a ScorerError."""
    problem = _folder_problem(directory)
    if problem:
        raise ScorerError(f"the reference data folder {directory} {problem}; INPUT/ref holds "
                          f"the bundle's reference_data")
    path = os.path.join(directory, SCORING_FILE)
    try:
        with open(path, encoding="utf-8") as f:
            data = _scoring_data(f.read(), path)
    except OSError as error:
        raise ScorerError(f"the reference data has no readable {SCORING_FILE} ({path}: "
                          f"{error.strerror}); was the bundle made by python -m "
                          f"scorer.competition -bundle?")
    except UnicodeDecodeError as error:
        raise ScorerError(f"{path}: not UTF-8 text ({error})")
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ScorerError(f"{path}: not a scoring file of format {FORMAT}")
    directory = os.path.abspath(directory)
    names = tuple(str(name) for name in data.get("references") or ())
    for name in names + (POLICY_FILE,):
        if not os.path.isfile(os.path.join(directory, name)):
            raise ScorerError(f"the reference data lacks {name}")
    switches = dict(data.get("switches") or {})
    for name in switches:
        # A file the bundle placed here (-queries may also be a list of ids).
        if _names_file(name) and os.path.isfile(os.path.join(directory, str(switches[name]))):
            switches[name] = os.path.join(directory, str(switches[name]))
    return Setup(task=str(data.get("task")),
                 references=tuple(os.path.join(directory, name) for name in names),
                 policy_path=os.path.join(directory, POLICY_FILE), switches=switches,
                 leaderboard=tuple(str(k) for k in data.get("leaderboard") or ()),
                 max_size=int(data.get("max_size") or archive.DEFAULT_MAX_SIZE),
                 phase=_phase(data.get("phase"), path))


def _phase(value, path: str):
    """scoring.yaml's phase: what the participant is shown (None: everything)."""
    if value is None:
        return None
    if not isinstance(value, dict) or value.get("shows") not in SHOWS:
        raise ScorerError(f"{path}: the phase must say what it shows ({', '.join(SHOWS)})")
    return dict(value)


#: What a phase shows of a scored submission (scorer/competition/phases.py).
SHOWS = ("details", "scores", "receipt")


def _scoring_data(text: str, path: str):
    """The value of scoring.yaml: JSON as the bundle writes it (after its
    comment lines), else YAML (a file written by hand, or by an older bundle)."""
    body = "".join(line for line in text.splitlines(keepends=True) if not line.startswith("#"))
    if body.lstrip().startswith("{"):
        try:
            return json.loads(body)
        except ValueError:
            pass
    import yaml
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise ScorerError(f"{path}: not valid YAML ({error})")


# -- the submission ----------------------------------------------------------------

class Submission(namedtuple("Submission", "base name archive", defaults=(None,))):
    """The submission file: the folder its name is relative to (res/ or the
    scratch folder), its name as the participant gave it (inside res/, or
    inside the archive), and the archive's name inside res/ if any."""

    __slots__ = ()

    @property
    def path(self) -> str:
        return os.path.join(self.base, *self.name.replace("\\", "/").split("/"))

    def label(self) -> str:
        return f"{self.name} (in {self.archive})" if self.archive else self.name


def _candidates(root: str) -> list:
    """Files at the top of ``root`` and one folder down (clutter left out); a
    link or any other non-regular entry is refused."""
    found = []

    def entries(folder: str, prefix: str, depth: int):
        for entry in sorted(os.listdir(folder)):
            shown = prefix + entry
            if archive.is_clutter(entry):
                continue
            full = os.path.join(folder, entry)
            mode = os.lstat(full).st_mode
            if stat.S_ISLNK(mode):
                raise ScorerError(f"{shown}: a symbolic link is not accepted in a submission")
            if stat.S_ISDIR(mode):
                if depth == 0:
                    entries(full, shown + "/", 1)
                else:
                    found.append(shown + "/")      # too deep: reported as found
                continue
            if not stat.S_ISREG(mode):
                raise ScorerError(f"{shown}: not a regular file")
            found.append(shown)

    entries(root, "", 0)
    return found


def _one(found: list, where: str, expected: str) -> str:
    files = [name for name in found if not name.endswith("/")]
    if len(files) == 1 and len(found) == 1:
        return files[0]
    listed = ", ".join(found) if found else "nothing"
    raise ScorerError(f"{where} holds {listed}; expected {expected}")


def _expected(task: str) -> str:
    from scorer import tasks
    try:
        what = tasks.get(task).leaderboard.submission
    except ScorerError:
        what = "one submission file"
    return f"{what}, at the top or inside one folder, or one .zip holding it"


def find_submission(res: str, scratch: str, task: str,
                    max_size: int = archive.DEFAULT_MAX_SIZE) -> Submission:
    """The one submission file in ``res``; a .zip is checked member by member,
    and only the file it holds is unpacked, into ``scratch``."""
    problem = _folder_problem(res)
    if problem:
        raise ScorerError(f"the submission folder {res} {problem}")
    name = _one(_candidates(res), "the submission", _expected(task))
    _check_size(os.path.join(res, name), name, max_size)
    if not name.lower().endswith(".zip"):
        return Submission(res, name)
    return _from_archive(res, name, scratch, task, max_size)


#: Archives the scoring program does not open (they would read as a bad submission file).
OTHER_ARCHIVES = (".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tar.xz", ".gz", ".bz2", ".xz",
                  ".7z", ".rar")


def _check_size(path: str, name: str, max_size: int) -> None:
    if name.lower().endswith(OTHER_ARCHIVES):
        raise ScorerError(f"{name}: only .zip archives are unpacked; zip the file, or "
                          f"submit it as it is")
    size = os.path.getsize(path)
    if size > max_size:
        raise ScorerError(f"{name}: {size} bytes, more than the limit of {max_size}")


def submission_at(path: str, scratch: str, task: str,
                  max_size: int = archive.DEFAULT_MAX_SIZE) -> Submission:
    """A participant's own copy: a folder (as res/), a .zip, or the file itself."""
    if os.path.isdir(path):
        return find_submission(path, scratch, task, max_size)
    if not os.path.isfile(path):
        if os.path.exists(path):
            # (/dev/null, a device, a pipe: the leaderboard takes a file)
            raise ScorerError(f"{path}: not a file, a folder or a .zip (a device, a pipe or "
                              f"a socket); give the submission's file")
        raise ScorerError(f"Could not open {path}: No such file or directory")
    base, name = os.path.split(os.path.abspath(path))
    _check_size(path, name, max_size)
    if name.lower().endswith(".zip"):
        return _from_archive(base, name, scratch, task, max_size)
    return Submission(base, name)


def _from_archive(res: str, name: str, scratch: str, task: str, max_size: int) -> Submission:
    zipped = archive.open_archive(os.path.join(res, name), name)
    with zipped:
        members = archive.check_members(zipped, name, max_size)
        inside = [m for m in members if not archive.is_clutter(m.name)]
        depth_ok = [m for m in inside if m.name.replace("\\", "/").count("/") <= 1]
        shown = [m.name for m in inside]
        if len(inside) != 1 or len(depth_ok) != 1:
            listed = ", ".join(shown) if shown else "nothing"
            expected = _expected(task).replace(", or one .zip holding it", "")
            raise ScorerError(f"{name} holds {listed}; expected {expected}")
        member = inside[0]
        if member.name.lower().endswith(".zip"):
            raise ScorerError(f"{name}: holds another archive, {member.name}; zip the file itself")
        archive.unpack_member(zipped, member, name, scratch, max_size)
    return Submission(scratch, member.name.replace("\\", "/"), archive=name)
