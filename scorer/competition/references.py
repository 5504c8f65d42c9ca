"""The organizer's reference files, checked before a bundle is made (and
before a participant's check scores anything): the right files for the task,
read by the task's own readers, so that a bundle no submission could be
scored against is never written, and a mistake in the references is not
reported as one in the submission.

Which files are right, and how they are read, is the task's to say
(``task.leaderboard.check_references``): Cold Start's are the query XML file(s) and the
assessment file(s) (a run among them would be scored with every submission);
a claim task's, the gold file alone (the participant's predictions are the
other file).
"""
from __future__ import annotations

import os
import stat

from scorer import tasks
from scorer.problems import ScorerError


def check_files(paths) -> None:
    """Each path an existing regular file: the bundle copies it, and the
    scoring run reads it again (a pipe or a device would be read empty)."""
    for path in paths:
        try:
            mode = os.stat(path).st_mode
        except OSError as error:
            raise ScorerError(f"Could not open {path}: {error.strerror}")
        if stat.S_ISDIR(mode):
            raise ScorerError(f"{path}: a reference must be a file (give the files of a "
                              f"folder one by one)")
        if not stat.S_ISREG(mode):
            raise ScorerError(f"{path}: not a regular file (a device, a pipe or a socket); "
                              f"a reference must be a file, which the bundle copies")
        if os.path.getsize(path) == 0:
            raise ScorerError(f"{path}: an empty file; a reference file holds what every "
                              f"submission is scored against")


def check(request, files: list) -> None:
    """Read the reference ``files`` (and -queries / -samples) as a scoring run
    of ``request``'s task reads them; any problem that would fail every
    submission is a ScorerError naming the file."""
    check_files(files)
    check_files(path for path in (request.samples,) if path)
    tasks.get(request.policy.task).leaderboard.check_references(request, files)
