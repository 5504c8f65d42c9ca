"""scorer/track/clusters.py: the ``-clusters`` file.  Its units and clusters
(tabs or blanks, comments, blank lines, a byte-order mark, any line end),
each refusal naming the file and line, the check against the gold's units,
and the clusters as numbers and groups."""
from __future__ import annotations

import hashlib

import numpy as np
import pytest

from scorer.problems import ScorerError
from scorer.track.clusters import read_clusters


def _file(tmp_path, data: bytes) -> str:
    path = tmp_path / "clusters.txt"
    path.write_bytes(data)
    return str(path)


def test_units_and_clusters_as_people_write_them(tmp_path):
    path = _file(tmp_path, "\ufeff# unit\tcluster\r\nc1\tParis page\r\n\r\n  c2   Rome \r"
                           "c3\t Paris page \n".encode("utf-8"))
    clusters = read_clusters(path)
    assert clusters.cluster_of == {"c1": "Paris page", "c2": "Rome", "c3": "Paris page"}
    assert clusters.line_of == {"c1": 2, "c2": 4, "c3": 5}


@pytest.mark.parametrize("text, message", [
    ("a 1\nb\n", "line 2: expected two columns (unit id, cluster id), found 1"),
    ("a 1\nb 1 2\n", "line 2: expected two columns (unit id, cluster id), found 3"),
    ("a\t1\tx\n", "line 1: expected two columns (unit id, cluster id), found 3"),
    ("a 1\nb 1\na 1\n", "line 3: unit 'a' is listed twice (first on line 1)"),
    ("a 1\nb 1\na 2\n", "line 3: unit 'a' is in two clusters ('1' on line 1, '2' here)"),
    ("# only a comment\n\n", ": no line 'UNIT_ID CLUSTER_ID'"),
])
def test_refusals_name_the_file_and_line(tmp_path, text, message):
    path = _file(tmp_path, text.encode("utf-8"))
    with pytest.raises(ScorerError) as error:
        read_clusters(path)
    assert str(error.value) == f"-clusters {path}{'' if message[0] == ':' else ' '}{message}"


def test_the_units_must_be_the_golds(tmp_path):
    clusters = read_clusters(_file(tmp_path, b"a x\nb x\nc y\n"))
    clusters.check_units(["c", "b", "a"])
    with pytest.raises(ScorerError, match=r"clusters.txt line 3: unit 'c' is not in the gold"):
        clusters.check_units(["a", "b"])
    with pytest.raises(ScorerError, match=r"clusters.txt: 2 unit\(s\) of the gold have no "
                                          r"cluster \(d, e\); every unit needs a line"):
        clusters.check_units(["a", "b", "c", "d", "e"])


def test_numbers_groups_and_digest(tmp_path):
    clusters = read_clusters(_file(tmp_path, b"u3 z\nu1 b\nu2 z\nu4 b\n"))
    assert clusters.numbers(["u1", "u2", "u3", "u4"]).tolist() == [0, 1, 1, 0]
    assert clusters.numbers(["u2", "u3"]).tolist() == [0, 0]       # only the clusters of these
    assert clusters.numbers(["u1"]).dtype == np.intp
    assert clusters.groups(["u4", "u3", "u2", "u1"]) == [("b", ("u1", "u4")), ("z", ("u2", "u3"))]
    text = "u1\tb\nu2\tz\nu3\tz\nu4\tb\n"
    assert clusters.digest() == hashlib.sha256(text.encode()).hexdigest()[:16]
    same = read_clusters(_file(tmp_path, b"u1\tb\nu4\tb\nu2\tz\nu3\tz\n"))
    assert same.digest() == clusters.digest()
