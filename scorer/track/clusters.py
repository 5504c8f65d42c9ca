"""``-clusters FILE``: units that are not independent (several claims from one
Wikipedia page, several queries about one entity) drawn and swapped together.

The file has two columns per line, separated by a tab (or, on a line
without one, by white space): a unit id (a claim, an item, an LDC query
with ``-expand``, an SF query without) and its cluster id.  Empty lines and lines
starting with ``#`` are skipped; a UTF-8 byte-order mark at the start is
not part of the first id.
"""
from __future__ import annotations

import dataclasses
import hashlib

import numpy as np

from scorer.limits import shorten
from scorer.problems import ScorerError
from scorer.textfile import read_text


@dataclasses.dataclass(frozen=True)
class Clusters:
    path: str
    cluster_of: dict      # unit id -> cluster id
    line_of: dict         # unit id -> line number

    def check_units(self, units) -> None:
        """Every unit of the test set in the file, and no other."""
        known = set(units)
        for unit, cluster in self.cluster_of.items():
            if unit not in known:
                raise ScorerError(f"-clusters {self.path} line {self.line_of[unit]}: unit "
                                  f"{_shown(unit)} is not in the gold (its units are the ones "
                                  f"resampled: claims, or queries)")
        missing = [unit for unit in units if unit not in self.cluster_of]
        if missing:
            shown = ", ".join(map(shorten, missing[:5])) + (", ..." if len(missing) > 5 else "")
            raise ScorerError(f"-clusters {self.path}: {len(missing)} unit(s) of the gold have "
                              f"no cluster ({shown}); every unit needs a line")

    def numbers(self, units: list) -> np.ndarray:
        """Each unit's cluster as a number, 0 to C - 1, clusters in string order."""
        names = sorted({self.cluster_of[unit] for unit in units})
        position = {name: i for i, name in enumerate(names)}
        return np.array([position[self.cluster_of[unit]] for unit in units], dtype=np.intp)

    def groups(self, units) -> list:
        """``(cluster id, its units sorted)`` for ``units``, clusters in string order."""
        members: dict = {}
        for unit in sorted(units):
            members.setdefault(self.cluster_of[unit], []).append(unit)
        return sorted((cluster, tuple(found)) for cluster, found in members.items())

    def digest(self) -> str:
        text = "".join(f"{unit}\t{cluster}\n" for unit, cluster in sorted(self.cluster_of.items()))
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def read_clusters(path: str) -> Clusters:
    """Read and check a clusters file (errors name the file and line)."""
    try:
        text = read_text(path)
    except ScorerError as error:
        raise ScorerError(f"-clusters: {error}")
    if text.startswith("\ufeff"):
        text = text[1:]
    cluster_of, line_of = {}, {}
    for number, line in enumerate(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"),
                                  1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        cells = [cell.strip() for cell in stripped.split("\t")] if "\t" in stripped \
            else stripped.split()
        if len(cells) != 2:
            raise ScorerError(f"-clusters {path} line {number}: expected two columns (unit id, "
                              f"cluster id), found {len(cells)}")
        unit, cluster = cells
        if unit in cluster_of:
            if cluster_of[unit] != cluster:
                raise ScorerError(f"-clusters {path} line {number}: unit {_shown(unit)} is in "
                                  f"two clusters ({_shown(cluster_of[unit])} on line "
                                  f"{line_of[unit]}, {_shown(cluster)} here)")
            raise ScorerError(f"-clusters {path} line {number}: unit {_shown(unit)} is listed "
                              f"twice (first on line {line_of[unit]})")
        cluster_of[unit] = cluster
        line_of[unit] = number
    if not cluster_of:
        raise ScorerError(f"-clusters {path}: no line 'UNIT_ID CLUSTER_ID'")
    return Clusters(path, cluster_of, line_of)


def _shown(text: str) -> str:
    return repr(shorten(text))
