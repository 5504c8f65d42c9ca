"""Run a case folder (``input/args`` + input files) through the scorer and
compare or rewrite its ``expected/`` reports.

    python tests/helpers/golden.py --regen   # rewrite fixtures/*/*/expected (review the diff!)

A case's ``input/args`` lists the scorer's arguments, one per line, paths
relative to ``input/``; ``-output_file`` and ``-error_file`` are added here.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import os
import shutil
import sys
import tempfile

from places import FIXTURES, ROOT

sys.path.insert(0, str(ROOT))

from scorer.cli import main  # noqa: E402

#: Reports that hold times and paths (spec §5.6): never compared.
VOLATILE = ("params",)


def find_cases(root: str) -> list:
    cases = []
    for directory, subdirectories, files in os.walk(root):
        subdirectories.sort()
        if os.path.isfile(os.path.join(directory, "input", "args")):
            cases.append(directory)
            subdirectories[:] = []
    return sorted(cases)


def read_args(case: str) -> list:
    with open(os.path.join(case, "input", "args"), encoding="utf-8") as f:
        return [line.rstrip("\n") for line in f if line.strip()]


def run_case(case: str, out_dir: str, extra=()) -> tuple:
    """Run the scorer on a case; return (exit status, {extension: bytes})."""
    for name in os.listdir(out_dir):
        os.remove(os.path.join(out_dir, name))
    prefix = os.path.join(out_dir, "run")
    argv = ["-error_file", prefix + ".errlog", "-output_file", prefix, *extra, *read_args(case)]
    previous = os.getcwd()
    os.chdir(os.path.join(case, "input"))
    try:
        with contextlib.redirect_stderr(io.StringIO()):
            status = main(argv)
    finally:
        os.chdir(previous)
    outputs = {}
    for name in sorted(os.listdir(out_dir)):
        extension = name.split(".", 1)[1] if "." in name else name
        with open(os.path.join(out_dir, name), "rb") as f:
            outputs[extension] = f.read()
    return status, outputs


def write_expected(case: str, status: int, files: dict) -> None:
    """A case's ``expected/`` anew: ``files`` (name -> bytes) and the exit status."""
    expected = os.path.join(case, "expected")
    shutil.rmtree(expected, ignore_errors=True)
    os.makedirs(expected)
    for name, data in files.items():
        with open(os.path.join(expected, name), "wb") as f:
            f.write(data)
    with open(os.path.join(expected, "status"), "w") as f:
        f.write(f"{status}\n")


def regenerate(root: str = FIXTURES) -> None:
    for case in find_cases(root):
        with tempfile.TemporaryDirectory() as out_dir:
            status, outputs = run_case(case, out_dir)
        write_expected(case, status, {"run." + extension: data
                                      for extension, data in outputs.items()
                                      if extension not in VOLATILE})
        print(f"{os.path.relpath(case, ROOT)}: exit {status}, {len(outputs)} files")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--regen", action="store_true", help="rewrite the expected files")
    if parser.parse_args().regen:
        regenerate()
    else:
        parser.print_help()
