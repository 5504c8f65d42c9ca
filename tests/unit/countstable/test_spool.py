"""scorer/countstable/spool.py: a .debug spooled to a file past its bound is
written byte for byte as one kept in memory (copied by the kernel, or read
and written where it cannot copy), read back whole by every other reader
(standard output, the API), and a failed copy is a write error naming the
file, with nothing left behind."""
from __future__ import annotations

import errno
import json
import os
import random
from pathlib import Path

import pytest

from scorer import cli, output
from scorer.countstable import driver
from scorer.countstable.spool import Spool
from scorer.policy import build_policy
from scorer.problems import Problems
from scorer.request import Request

from places import FIXTURES

LABELS = ("SUPPORTS", "REFUTES", "NOT ENOUGH INFO")
EXTENSIONS = ("summary", "debug", "json", "params", "errlog")


def _fever_files(folder: Path, n: int = 400) -> list:
    """A FEVER gold and predictions whose pages hold characters of two, three
    and four bytes in UTF-8 (the spool's reads cut through some of them)."""
    rng = random.Random(3)
    pages = ["Bōrk_Ñ", "Zürich", "東京", "𝄞_music", "plain"]
    gold, predictions = [], []
    for i in range(n):
        label = rng.choice(LABELS)
        lines = [[rng.choice(pages), rng.randrange(9)] for _ in range(rng.randint(1, 3))]
        evidence = [[[i, None, None, None]]] if label == "NOT ENOUGH INFO" else \
            [[[i, j, page, line] for j, (page, line) in enumerate(lines)]]
        gold.append({"id": i, "label": label, "claim": f"claim {i}", "evidence": evidence})
        predictions.append({"predicted_label": rng.choice(LABELS),
                            "predicted_evidence": rng.sample(lines, len(lines))})
    paths = [folder / "actual.jsonl", folder / "predictions.jsonl"]
    for path, rows in zip(paths, (gold, predictions)):
        path.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows),
                        encoding="utf-8")
    return [str(path) for path in paths]


def _files(task: str, folder: Path) -> list:
    if task == "fever":
        return _fever_files(folder)
    case = FIXTURES / "scifact" / "basic"
    return [str(case / "gold.jsonl"), str(case / "predictions.jsonl")]


def _written(task: str, files: list, out: Path) -> dict:
    out.mkdir()
    assert _run(task, files, out) == 0
    return {extension: (out / f"run.{extension}").read_bytes() for extension in EXTENSIONS}


def _run(task: str, files: list, out: Path) -> int:
    policy = out.parent / f"{task}.yaml"
    policy.write_text(f"task: {task}\n", encoding="utf-8")
    return cli.main(["-policy", str(policy), "-output_file", str(out / "run"),
                     "-error_file", str(out / "run.errlog"), *files])


@pytest.mark.parametrize("task", ["fever", "scifact"])
@pytest.mark.parametrize("kernel_copy", [True, False])
def test_a_spooled_debug_is_written_as_one_kept_in_memory(tmp_path, monkeypatch, task,
                                                          kernel_copy):
    files = _files(task, tmp_path)
    kept = _written(task, files, tmp_path / "kept")
    monkeypatch.setattr(Spool, "MEMORY_CHARS", 100)
    if not kernel_copy:
        def refused(*_args):
            raise OSError(errno.EXDEV, "Invalid cross-device link")
        monkeypatch.setattr(os, "copy_file_range", refused, raising=False)
    spooled = _written(task, files, tmp_path / "spooled")
    assert spooled.keys() == kept.keys()
    for extension in EXTENSIONS:
        if extension == "params":    # (names the output files)
            continue
        assert spooled[extension] == kept[extension], extension
    assert len(kept["debug"]) > 1000


@pytest.mark.parametrize("task", ["fever", "scifact"])
def test_a_spooled_debug_reads_back_whole_for_the_api_and_standard_output(tmp_path,
                                                                          monkeypatch, capfd,
                                                                          task):
    files = _files(task, tmp_path)
    request = Request(policy=build_policy({"task": task}, {}), files=tuple(files))
    policy = tmp_path / f"{task}.yaml"
    policy.write_text(f"task: {task}\n", encoding="utf-8")
    command = ["-policy", str(policy), "-output_file", "stdout", *files]
    kept = driver.run(request, Problems())
    capfd.readouterr()
    assert cli.main(["-error_file", "stderr", *command]) == 0
    kept_out = capfd.readouterr().out
    monkeypatch.setattr(Spool, "MEMORY_CHARS", 100)
    spooled = driver.run(request, Problems())
    assert spooled.text("debug") == kept.text("debug")
    assert "".join(spooled.stream()) == "".join(kept.stream())
    assert all(isinstance(piece, str) for piece in spooled.pieces("debug"))
    assert any(isinstance(piece, output.SpooledText)
               for piece in spooled.pieces("debug", spooled=True))
    assert cli.main(["-error_file", "stderr", *command]) == 0
    assert capfd.readouterr().out == kept_out and kept.text("debug") in kept_out


def test_spooled_text_reads_characters_across_its_reads(tmp_path):
    """The text comes back a megabyte of bytes at a time: characters whose
    bytes straddle two reads come back whole."""
    text = "a" + "é" * 600_000 + "€" * 400_000 + "𝄞" * 300_000 + "z"
    with open(tmp_path / "spool", "w+", encoding="utf-8", newline="") as f:
        f.write(text)
        piece = output.SpooledText(f, os.fstat(f.fileno()).st_size)
        pieces = list(piece.texts())
        assert len(pieces) > 3 and "".join(pieces) == text
        with open(tmp_path / "copy", "wb") as copy:
            piece.copy_into(copy.fileno())
    assert (tmp_path / "copy").read_bytes() == text.encode("utf-8")


def test_a_failed_copy_names_the_file_and_leaves_nothing(tmp_path, monkeypatch):
    files = _fever_files(tmp_path)
    monkeypatch.setattr(Spool, "MEMORY_CHARS", 100)

    def full(*_args):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(os, "copy_file_range", full, raising=False)
    out = tmp_path / "out"
    out.mkdir()
    status = _run("fever", files, out)
    assert status == 255
    assert sorted(os.listdir(out)) == ["run.errlog"]
    assert (f"Could not write {out / 'run.debug'}: No space left on device"
            in (out / "run.errlog").read_text())
