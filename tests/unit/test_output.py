"""scorer/output.py: report sets written all or not at all (FileSet), and
stopped cleanly by a signal while written or committed, in-process with real
files and real signals sent to this process (the signals alone:
test_stopping.py)."""
from __future__ import annotations

import os
import signal

import pytest

from scorer import output, stopping
from scorer.problems import ScorerError

TEXTS = {"run.sf": "sf\n", "run.debug": "debug\n", "run.errlog": "No warnings encountered\n"}


def listing(folder) -> list:
    return sorted(os.listdir(folder))


def add_all(files, folder, texts=TEXTS):
    for name, text in texts.items():
        files.add(str(folder / name), text)


def test_files_appear_only_at_commit_and_in_the_order_added(tmp_path, monkeypatch):
    renamed = []
    real_replace = os.replace

    def replace(source, target):
        renamed.append(os.path.basename(target))
        real_replace(source, target)

    monkeypatch.setattr(os, "replace", replace)
    with output.FileSet() as files:
        add_all(files, tmp_path)
        # written, under temporary names only
        assert all(name.startswith(".") and name.endswith(".tmp") for name in listing(tmp_path))
        assert len(listing(tmp_path)) == 3
        files.commit()
    assert renamed == list(TEXTS)
    assert listing(tmp_path) == sorted(TEXTS)
    assert {name: (tmp_path / name).read_text() for name in TEXTS} == TEXTS
    assert files.committed


def test_write_files_writes_all_or_nothing(tmp_path):
    (tmp_path / "PREFIX.diff.csv").mkdir()
    with pytest.raises(ScorerError, match=r"PREFIX\.diff\.csv: Is a directory"):
        output.write_files({str(tmp_path / "PREFIX.diff"): "diff\n",
                            str(tmp_path / "PREFIX.diff.csv"): "a,b\n"})
    assert listing(tmp_path) == ["PREFIX.diff.csv"]
    (tmp_path / "PREFIX.diff.csv").rmdir()
    (tmp_path / "PREFIX.old").write_text("earlier\n")
    output.write_files({str(tmp_path / "PREFIX.diff"): "diff\n",
                        str(tmp_path / "PREFIX.diff.csv"): iter(["a,b\n", "1,2\n"])},
                       obsolete=[str(tmp_path / "PREFIX.old")])
    assert listing(tmp_path) == ["PREFIX.diff", "PREFIX.diff.csv"]
    assert (tmp_path / "PREFIX.diff.csv").read_text() == "a,b\n1,2\n"


def test_pieces_are_written_in_order_and_the_mode_follows_the_umask(tmp_path):
    previous = os.umask(0o027)
    try:
        with output.FileSet() as files:
            files.add(str(tmp_path / "run.sample"), iter(["a\n", "b\n", "ç\n"]))
            files.commit()
    finally:
        os.umask(previous)
    path = tmp_path / "run.sample"
    assert path.read_bytes() == "a\nb\nç\n".encode("utf-8")
    assert path.stat().st_mode & 0o777 == 0o640


def test_an_error_before_commit_leaves_nothing(tmp_path):
    (tmp_path / "run.sf").write_text("earlier\n")
    with pytest.raises(ScorerError, match="not now"):
        with output.FileSet() as files:
            add_all(files, tmp_path)
            raise ScorerError("not now")
    assert listing(tmp_path) == ["run.sf"]
    assert (tmp_path / "run.sf").read_text() == "earlier\n"


def test_a_failed_write_names_the_file_and_leaves_nothing(tmp_path):
    def pieces():
        yield "start\n"
        raise OSError(27, "File too large")

    with pytest.raises(ScorerError) as caught:
        with output.FileSet() as files:
            files.add(str(tmp_path / "run.sf"), "sf\n")
            files.add(str(tmp_path / "run.debug"), pieces())
    assert str(caught.value) == f"Could not write {tmp_path / 'run.debug'}: File too large"
    assert listing(tmp_path) == []


def test_text_utf8_cannot_encode_is_a_write_error(tmp_path):
    with pytest.raises(ScorerError, match=r"Could not write .*run\.json: the text holds "
                                          r"'\\ud800', which UTF-8 cannot encode"):
        with output.FileSet() as files:
            files.add(str(tmp_path / "run.json"), "id \ud800\n")
    assert listing(tmp_path) == []


def test_a_rename_that_fails_half_way_takes_back_the_files_moved(tmp_path):
    with pytest.raises(ScorerError, match="run.debug: Is a directory"):
        with output.FileSet() as files:
            add_all(files, tmp_path)
            (tmp_path / "run.debug").mkdir()     # in the way after the write
            files.commit()
    assert listing(tmp_path) == ["run.debug"]
    assert listing(tmp_path / "run.debug") == []


def test_obsolete_files_go_at_commit_only(tmp_path):
    (tmp_path / "run.confidence").write_text("earlier\n")
    with output.FileSet() as files:
        add_all(files, tmp_path)
        files.remove_on_commit([str(tmp_path / "run.confidence")])
        assert "run.confidence" in listing(tmp_path)
        files.commit()
    assert listing(tmp_path) == sorted(TEXTS)


def test_names_are_checked_before_anything_is_written(tmp_path):
    (tmp_path / "run.sf").mkdir()
    with pytest.raises(ScorerError, match="run.sf: Is a directory"):
        output.check_names([str(tmp_path / "run.debug"), str(tmp_path / "run.sf")])
    too_long = "r" * 250
    with pytest.raises(ScorerError, match="File name too long"):
        output.check_names([str(tmp_path / (too_long + ".ap")),
                            str(tmp_path / (too_long + ".debug"))])


def test_temporary_names_fit_wherever_the_final_name_fits(tmp_path):
    name = "r" * 255                             # the longest name the file system takes
    with output.FileSet() as files:
        files.add(str(tmp_path / name), "text\n")
        (temporary,) = listing(tmp_path)
        assert temporary.startswith(".rrr") and temporary.endswith(".tmp")
        assert len(temporary) <= 255
        files.commit()
    assert listing(tmp_path) == [name]


def test_a_temporary_name_in_use_is_never_opened(tmp_path, monkeypatch):
    import itertools
    monkeypatch.setattr(output, "_temporary_count", itertools.count(5))
    monkeypatch.setattr(output.os, "urandom", lambda n: bytes(n))
    taken = tmp_path / f".run.sf.{os.getpid():x}-5-00000000.tmp"
    taken.write_text("someone else's\n")
    (tmp_path / f".run.sf.{os.getpid():x}-6-00000000.tmp").symlink_to(tmp_path / "elsewhere")
    with output.FileSet() as files:
        files.add(str(tmp_path / "run.sf"), "sf\n")
        assert listing(tmp_path) == sorted([taken.name, f".run.sf.{os.getpid():x}-6-00000000.tmp",
                                            f".run.sf.{os.getpid():x}-7-00000000.tmp"])
        files.commit()
    assert taken.read_text() == "someone else's\n"
    assert not (tmp_path / "elsewhere").exists()
    assert (tmp_path / "run.sf").read_text() == "sf\n"


# ------------------------------------------------------------- signals

def test_a_signal_while_writing_stops_the_run_and_leaves_nothing(tmp_path):
    def pieces():
        yield "first\n"
        os.kill(os.getpid(), signal.SIGTERM)
        yield "never\n"

    with pytest.raises(stopping.Stopped) as caught:
        with stopping.stop_on_signals():
            with output.FileSet() as files:
                files.add(str(tmp_path / "run.sf"), "sf\n")
                files.add(str(tmp_path / "run.debug"), pieces())
                files.commit()
    assert (caught.value.name, caught.value.exit_status) == ("SIGTERM", 143)
    assert listing(tmp_path) == []


def test_a_signal_during_commit_takes_effect_after_the_last_rename(tmp_path, monkeypatch):
    real_replace = os.replace

    def replace(source, target):
        real_replace(source, target)
        os.kill(os.getpid(), signal.SIGINT)

    with pytest.raises(stopping.Stopped) as caught:
        with stopping.stop_on_signals():
            with output.FileSet() as files:
                add_all(files, tmp_path)
                monkeypatch.setattr(os, "replace", replace)
                files.commit()
    assert (caught.value.name, caught.value.exit_status) == ("SIGINT", 130)
    assert files.committed
    assert listing(tmp_path) == sorted(TEXTS)
