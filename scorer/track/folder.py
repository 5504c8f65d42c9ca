"""The track folder: its name checked, the folder built aside and moved into
place whole (an earlier track's folder is replaced only when the new one is
finished), and the track's own files written into it: the tables (CSV, JSON,
Markdown, LaTeX), per_query.csv.gz joined from the runs' parts,
track.bootsamples, track.params, the pictures and the page."""
from __future__ import annotations

import errno
import gzip
import os
import re
import shutil
import tempfile
from typing import Optional

import pandas as pd

from scorer import output, stopping, tasks
from scorer.display.files import PART_NAME, write_track_files
from scorer.display.view import TrackView
from scorer.problems import ScorerError
from scorer.results import PER_QUERY_HEADER, per_query
from scorer.textfile import fingerprints
from scorer.track import papertables, power, runner, slicefiles, tables
from scorer.track.slices import signature_part

#: Names a track folder holds (an existing folder holding only these may be replaced).
TRACK_NAMES = {"runs", "leaderboard.csv", "leaderboard.json", "leaderboard.md", "leaderboard.tex",
               "leaderboard.png", "leaderboard.svg", "leaderboard.pdf", "significance.csv",
               "significance.md", "significance.tex", "per_query.csv", "per_query.csv.gz",
               "track.params",
               "track.bootsamples", "index.html",
               # written beside the track by scorer.competition -collect and -errata
               "submissions", "submissions.csv", "submissions.md", "errata.md", "errata.csv",
               "errata.tex"} | set(slicefiles.NAMES) | set(power.NAMES)  # (-slices, -power)


def exact_floats() -> dict:
    """The ``pandas.read_csv`` options that read every number back as the
    double it was written from: before pandas 3 the default parser is off in
    the last bit now and then (pandas 2.0: 814 of 21,294 per-query values of a
    Cold Start track) and the round-trip one is exact; pandas 3's default is
    exact and deprecates the option."""
    major = int(pd.__version__.split(".", 1)[0])
    return {"float_precision": "round_trip"} if major < 3 else {}


def read_per_query(path: str):
    """per_query.csv.gz as the DataFrame it was written from (ids, hops and
    metric names as text, values as doubles, exactly; an empty value as NaN)."""
    return pd.read_csv(path, dtype={"run": str, "query": str, "hop": str, "metric": str},
                       keep_default_na=False, na_values={"value": [""]}, **exact_floats())


def check_output_dir(path: str) -> None:
    """Refuse a folder that holds anything but an earlier track's files, and a
    name that cannot take the finished folder's place (it is renamed there)."""
    if not path.strip():
        raise ScorerError(f"-output_dir needs a folder name, not '{path}'")
    if os.path.basename(os.path.normpath(path)) in ("", ".", ".."):
        raise ScorerError(f"-output_dir {path} cannot be replaced by the track folder (it is "
                          f"the current folder, a parent or the root); name a folder inside "
                          f"it, such as {os.path.join(path, 'track')}")
    if os.path.exists(path) and not os.path.isdir(path):
        raise ScorerError(f"-output_dir {path} exists and is not a folder")
    if os.path.isdir(path):
        strangers = sorted(name for name in set(os.listdir(path)) - TRACK_NAMES
                           if not PART_NAME.match(name))
        if strangers:
            shown = ", ".join(strangers[:5]) + (", ..." if len(strangers) > 5 else "")
            raise ScorerError(f"-output_dir {path} is not empty and holds files that are not "
                              f"an earlier track's ({shown}); give a new or empty folder")
    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(parent):
        raise ScorerError(f"Could not create {path}: its parent folder does not exist")
    if output.name_too_long(path):
        raise ScorerError(f"Could not create {path}: {os.strerror(errno.ENAMETOOLONG)}")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise ScorerError(f"Could not create {path}: {os.strerror(13)}")


def staging_dir(output_dir: Optional[str]) -> str:
    """A new folder to build the track in: beside ``output_dir`` (so that it
    is renamed into place), or a temporary one when nothing is written."""
    if output_dir is None:
        return tempfile.mkdtemp(prefix="scorer-track-")
    parent = os.path.dirname(os.path.abspath(output_dir))
    return tempfile.mkdtemp(prefix=f".{_aside_name(output_dir)}.", suffix=".tmp", dir=parent)


def _aside_name(folder: str) -> str:
    """The part of ``.NAME.XXXXXXXX.tmp`` (``.old``), a name beside ``folder``
    (mkdtemp's), that comes from NAME: cut short to fit where NAME fits."""
    path = os.path.abspath(folder)
    return output.fitting(os.path.basename(path), os.path.dirname(path),
                          len("..") + 8 + len(".tmp"))


def move_into_place(staging: str, target: str) -> None:
    """Replace ``target`` by the finished ``staging`` folder; an earlier track's
    folder is renamed aside first and removed after."""
    old = None
    # A signal waits until the folders are swapped (a few renames).
    with stopping.deferred():
        try:
            if os.path.isdir(target):
                old = tempfile.mkdtemp(prefix=f".{_aside_name(target)}.", suffix=".old",
                                       dir=os.path.dirname(os.path.abspath(target)))
                os.rmdir(old)
                os.rename(target, old)
            os.chmod(staging, 0o777 & ~_umask())
            os.rename(staging, target)
        except OSError as error:
            if old is not None and os.path.isdir(old) and not os.path.exists(target):
                os.rename(old, target)      # the earlier track stays as it was
            raise ScorerError(f"Could not write {target}: {error.strerror}")
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current


def write(staging, result, request, samples, runs, shared, figure_width,
          write_samples: bool) -> None:
    """Every file of the track (``result``, a ``build.TrackResult``) into the
    folder being built: the tables, per_query.csv.gz, track.bootsamples,
    track.params, the pictures and the page (the runs wrote their own)."""
    def write(name: str, text: str) -> None:
        with open(os.path.join(staging, name), "w", encoding="utf-8", newline="") as f:
            f.write(text)

    notes = tables.statistics_notes(result.has_samples, result.correction, result.warnings,
                                    result.randomization)
    board = result.leaderboard
    write("leaderboard.csv", tables.csv_text(board))
    write("leaderboard.json", tables.json_text(board))
    write("leaderboard.md", tables.markdown_text(board, notes))
    write("leaderboard.tex", papertables.leaderboard_tex(
        board, result.metric, result.metric_title, result.main_metrics,
        result.signature, papertables.label_for("leaderboard", result.task, result.metric)))
    write("significance.csv", tables.csv_text(result.significance))
    write("significance.md", tables.markdown_text(result.significance, notes))
    tested = result.significance[result.significance["metric"] == result.metric] \
        if result.has_samples else None
    write("significance.tex", papertables.significance_tex(
        tested, [str(run) for run in board["run"]], result.metric, result.metric_title,
        result.signature, papertables.label_for("significance", result.task, result.metric),
        result.correction))
    sections = ()
    if result.slices is not None:
        slicefiles.write(write, result)
        sections = (slicefiles.page_section(staging, result, figure_width),)
    if result.power is not None:
        power.write(write, staging, result.power, result.metric, figure_width)
        sections += (power.page_section(staging, result.power, result.metric),)
    _join_per_query(staging, [run.name for run in runs])
    if samples is not None and write_samples:
        # The runs' run.bootsamples, when they have one, is the same file (one copy).
        runner.link_or_write(os.path.join(staging, "track.bootsamples"), samples.lines,
                             runner.linked_store(staging, "bootsamples"))
    runner.drop_linked_store(staging)
    write("track.params", params_text(result, request, runs, shared))
    write_track_files(track_view(result), staging, figure_width_in=figure_width,
                      extra_sections=sections)


#: Every run's per-query rows: per_query.csv, compressed, written run by run.
PER_QUERY_FILE = "per_query.csv.gz"
#: Where the runs write their parts of it, in the track folder being built.
PER_QUERY_PARTS = ".per_query"


def _join_per_query(staging: str, runs: list) -> None:
    """per_query.csv.gz: the header, then each run's part (a gzip member its
    process wrote: ``runner.write_per_query``) in run order."""
    parts = os.path.join(staging, PER_QUERY_PARTS)
    header = gzip.compress(PER_QUERY_HEADER.encode("utf-8"),
                           compresslevel=runner.PER_QUERY_LEVEL, mtime=0)
    # The header's OS byte as Python 3.11 and 3.12 write it (zlib's: Unix);
    # 3.13 writes 255, and a track's bytes are the same under every Python.
    header = header[:9] + b"\x03" + header[10:]
    with open(os.path.join(staging, PER_QUERY_FILE), "wb") as out:
        out.write(header)
        for run in runs:
            path = runner.per_query_part(parts, run)
            if os.path.exists(path):            # (a run with a fatal error has none)
                with open(path, "rb") as part:
                    shutil.copyfileobj(part, out, 1 << 20)
    shutil.rmtree(parts, ignore_errors=True)


def track_view(result):
    """What the pictures and the page show (scorer.display): the per-query scores
    over all hops, not the counts, to keep the page small (per_query.csv has
    everything)."""
    task = tasks.get(result.task)
    # The rows the runs sent back: every row, or (a track written to a
    # folder) those of the units the page shows first.
    scores = task.track.shown_per_query(per_query(result.results))
    totals = {r.name: r.units for r in result.results if r.units is not None}
    # -jobs changes no number: the page leaves it out, so it is the same for every N.
    invocation = re.sub(r" -jobs \S+", "", result.invocation)
    return TrackView(metric=result.metric, metric_title=result.metric_title,
                     leaderboard=result.leaderboard,
                     significance=result.significance if result.has_samples else None,
                     per_query=scores, per_hop=result.per_hop, run_files=result.run_files,
                     signature=result.signature, invocation=invocation,
                     correction=result.correction, warnings=tuple(result.warnings),
                     randomization=result.randomization,
                     main_metrics=tuple(result.main_metrics),
                     unit=task.unit, units=task.units, per_query_totals=totals)


def params_text(result, request, runs, shared) -> str:
    """track.params: how the track was made, from what files, and its signature."""
    lines = ["#Invoked as:", result.invocation, ""]
    if request.policy_file:
        lines += ["#Policy file:", f"  {request.policy_file}", ""]
    lines.append("#Policy:")
    for name, value in request.policy.items():
        lines.append(f"  {name} => {':'.join(value) if isinstance(value, tuple) else value}")
    lines += ["", f"#Headline metric: {result.metric} ({result.metric_title})", "",
              "#Shared files (size, SHA-256):"]
    lines += [f"  {path} {size} {digest}" for path, size, digest in fingerprints(shared)]
    lines += ["", "#Runs (status, files with size and SHA-256):"]
    status = {r.name: r.status for r in result.results}
    for run in runs:
        lines.append(f"  {run.name} {status.get(run.name, '')}")
        lines += [f"    {path} {size} {digest}"
                  for path, size, digest in fingerprints(run.files)]
    if result.randomization:
        lines += ["", "#Statistics:", f"  {result.randomization}"]
    if result.warnings:
        lines += ["", "#Warnings:"] + [f"  WARNING: {warning}" for warning in result.warnings]
    if result.slices is not None:
        lines += ["", "#Slices (spec@digest of the slices and their units):",
                  f"  {signature_part(result.slices)}"]
    lines += ["", "#Signature:", result.signature]
    return "\n".join(lines) + "\n"
