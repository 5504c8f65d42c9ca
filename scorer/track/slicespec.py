"""``-slices SPEC``: which units of a track make up each slice.

``file:PATH`` (two columns, unit id then slice name; a unit may sit in
several slices), ``field:KEY`` (a key of every gold line), or one of the
task's own slicings, which its track declares and makes (``track.slicings``,
``track.slicing``; ``-slices label`` of the tasks with gold labels, by
default).  The slicing itself is ``scorer/slicing.py``'s.  Read and checked
before any run is scored; the units are checked against the track's own
after (``Slicing.check_units``).  Every problem names the file, the line and
the unit, and stops the track with nothing written.
"""
from __future__ import annotations

from scorer.problems import ScorerError
from scorer.slicing import Slicing, gold_slicing, made
from scorer.textfile import read_text


def read(spec: str, task, shared: list) -> Slicing:
    """The slicing ``spec`` names, for ``task`` (a task record) whose shared
    files are ``shared`` (the gold first)."""
    if spec.startswith("file:"):
        return _read_file(spec, spec[len("file:"):])
    if spec.startswith("field:"):
        key = spec[len("field:"):]
        if not key:
            raise ScorerError("-slices field:KEY needs a key of the gold, such as field:domain")
        return gold_slicing(spec, task.track, shared, key)
    if spec in task.track.slicings:
        return task.track.slicing(spec, shared)
    known = ", ".join(tuple(task.track.slicings) + ("field:KEY", "file:PATH"))
    raise ScorerError(f"-slices {spec}: not a slicing of {task.title}; give {known}")


def _read_file(spec: str, path: str) -> Slicing:
    if not path:
        raise ScorerError("-slices file:PATH needs a file of two columns, unit id and slice")
    try:
        text = read_text(path)
    except OSError as error:
        raise ScorerError(f"Could not open {path}: {error.strerror or error}")
    slices: dict = {}
    lines: dict = {}
    placed: dict = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if number == 1:
            line = line.lstrip("\ufeff")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        columns = line.split("\t") if "\t" in line else line.split()
        columns = [column.strip() for column in columns]
        if len(columns) != 2 or not all(columns):
            raise ScorerError(f"{path} line {number}: expected two columns, a unit id and a "
                              f"slice name (tab or blank between), not '{_shown(line)}'")
        unit, name = columns
        earlier = placed.setdefault((unit, name), number)
        if earlier != number:
            raise ScorerError(f"{path} line {number}: unit '{unit}' is in slice '{name}' "
                              f"already (line {earlier})")
        slices.setdefault(name, []).append(unit)
        lines.setdefault(unit, number)
    if not slices:
        raise ScorerError(f"{path}: no slice; each line holds a unit id and a slice name")
    return made(spec, path, slices, lines)


def _shown(text: str, most: int = 60) -> str:
    return text if len(text) <= most else text[:most] + "..."
