"""A track as it was published: its folder's ``leaderboard.json`` and
``track.params`` read back (the rows, exactly; the signature, cut into its
parts; the shared files with their SHA-256; where the track was run from),
for ``-errata`` (scorer/track/errata.py) and ``-verify``
(scorer/track/verify.py).
"""
from __future__ import annotations

import dataclasses
import json
import math
import os
from typing import Optional

from scorer.problems import ScorerError
from scorer.track import tables


@dataclasses.dataclass
class Published:
    folder: str
    rows: list                       # leaderboard.json's objects, best first
    signature: str = ""
    shared: list = dataclasses.field(default_factory=list)   # (path, size, SHA-256)
    cwd: str = ""                    # the folder the track was run from
    per_query: Optional[str] = None  # per_query.csv.gz, where the folder has it

    def signature_parts(self) -> dict:
        return signature_parts(self.signature)


def signature_parts(signature: str) -> dict:
    """``{part's name: value}`` of a signature ``name:value|name:value...``."""
    parts = {}
    for part in signature.split("|") if signature else ():
        name, _, value = part.partition(":")
        parts[name] = value
    return parts


def read_leaderboard(path: str) -> list:
    try:
        with open(path, encoding="utf-8") as f:
            rows = json.load(f)
    except OSError as error:
        raise ScorerError(f"Could not open {path}: {error.strerror}")
    except ValueError as error:
        raise ScorerError(f"{path}: not a track's leaderboard.json ({error})")
    if not isinstance(rows, list) or not all(isinstance(r, dict) and "run" in r for r in rows):
        raise ScorerError(f"{path}: not a track's leaderboard.json (a list of rows, each with "
                          f"its run)")
    return rows


def read_params(path: str) -> tuple:
    """(signature, shared files, the folder it was run from) of track.params."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as error:
        raise ScorerError(f"Could not open {path}: {error.strerror}")
    signature, shared, cwd, section = "", [], "", None
    for line in lines:
        if line.startswith("#"):
            section = line
            continue
        if section == "#Invoked as:" and "$ " in line and not cwd:
            cwd = line.split("$ ", 1)[0]
        elif section == "#Shared files (size, SHA-256):" and line.startswith("  "):
            pieces = line.strip().rsplit(" ", 2)
            if len(pieces) == 3:
                shared.append((pieces[0], int(pieces[1]) if pieces[1].isdigit() else 0,
                               pieces[2]))
        elif section == "#Signature:" and line.strip():
            signature = line.strip()
    return signature, shared, cwd


def read(folder_or_leaderboard: str) -> Published:
    """A published track: its folder, or the leaderboard.json inside it
    (track.params beside it, where present)."""
    if os.path.isdir(folder_or_leaderboard):
        folder = folder_or_leaderboard
        leaderboard = os.path.join(folder, "leaderboard.json")
    else:
        leaderboard = folder_or_leaderboard
        folder = os.path.dirname(os.path.abspath(leaderboard))
    rows = read_leaderboard(leaderboard)
    published = Published(folder=folder, rows=rows)
    params = os.path.join(folder, "track.params")
    if os.path.isfile(params):
        published.signature, published.shared, published.cwd = read_params(params)
    per_query = os.path.join(folder, "per_query.csv.gz")
    if os.path.isfile(per_query):
        published.per_query = per_query
    return published


def new_rows(result) -> list:
    """A TrackResult's leaderboard as leaderboard.json holds it."""
    return json.loads(tables.json_text(result.leaderboard))


def same_number(a, b) -> bool:
    """Equal exactly (a missing value equals a missing value; 1 equals 1.0)."""
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, bool) or isinstance(b, bool):
        return a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return float(a) == float(b) or (math.isnan(float(a)) and math.isnan(float(b)))
    return a == b
