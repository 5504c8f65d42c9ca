"""Cases of the Cold Start toolkit's tools: steps run on inputs, checked
against what the official Perl tools wrote for the same steps.

A case is a folder laid out as the shared pipeline cases are
(``../shared/parity/pipeline``, its README): ``steps.json`` (``{"steps":
[[TOOL, [ARGS...]], ...], "logs": [ERROR FILES...]}``, paths relative to
``input/``), ``input/``, and what the Perl did under ``expected/`` (and
``variants/hSEED/`` where another hash seed changed it): ``files/`` (what the
steps wrote), ``status`` (each step's exit status; the steps stop at the
first that fails) and ``messages`` (every ERROR/WARNING line of the error
logs and standard error, normalised, sorted).  ``steps.json`` may name
``unordered`` files, whose lines the Perl writes in its hash order: they
are compared as sorted lines.  Only what the steps that
succeeded wrote is kept: a port writes nothing for a failing step (the Perl
leaves what it had opened, empty or half-written).

The project's own cases are under ``fixtures/coldstart/toolkit/``; made (or
made again) by running the Perl:

    python tests/helpers/toolkit_cases.py --perl-dir ../ColdStart fixtures/coldstart/toolkit/*
"""
from __future__ import annotations

import argparse
import collections
import difflib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

#: The hash seeds the Perl is run under (its hash order varies with them).
HASH_SEEDS = (0, 1, 2, 3, 5, 8, 13, 21)
_MESSAGE = re.compile(r"^(FATAL_ERROR|ERROR|WARNING|WARN)\b")
_PERL_PLACE = re.compile(r"\s+at \((?:main|Logger|[A-Za-z_:]+):[^()]*\)\s*$")
_COUNT = re.compile(r"^(\d+ (error|warning)s? encountered|No warnings encountered)")
_NIL = re.compile(rb":NIL_[A-Za-z]{4}(\d{9})")


def messages(text: str) -> list:
    """The ERROR/WARNING messages of an error log, normalised as the shared
    pipeline cases' are: one string each with the input place it names,
    without the Perl's stack frames and source places, white space runs as
    one space; sorted."""
    found, current = [], None
    for raw in text.splitlines():
        line = raw.rstrip()
        if not line.strip() or line.startswith("=====") or raw.startswith("\t") \
                or re.match(r"^ at \S+\.(pl|pm) line \d+", line):
            if current is not None:
                found.append(current)
                current = None
            continue
        if _MESSAGE.match(line):
            if current is not None:
                found.append(current)
            current = _PERL_PLACE.sub("", line)
        elif re.match(r"^\d+ (error|warning)s? encountered", line) or \
                line.startswith("No warnings"):
            if current is not None:
                found.append(current)
                current = None
            found.append(re.sub(r" at \(.*$", "", line))
        elif current is not None:
            current += " " + _PERL_PLACE.sub("", line.strip())
    if current is not None:
        found.append(current)
    return sorted(re.sub(r"\s+", " ", message).strip() for message in found)


def _snapshot(root: str) -> dict:
    files = {}
    for folder, _, names in os.walk(root):
        for name in names:
            path = os.path.join(folder, name)
            with open(path, "rb") as f:
                files[os.path.relpath(path, root)] = f.read()
    return files


def _split_rounds(root: str, args) -> None:
    """The toolkit Makefile's split of a run into its rounds (``awk
    'length($1)<25'`` and ``'length($1)>25'``): hop-0 lines (a query id
    shorter than 25 characters) and hop-1 lines."""
    source, round1, round2 = (os.path.join(root, arg) for arg in args)
    with open(source, "rb") as f:
        lines = f.read().splitlines(True) if os.path.exists(source) else []

    def query_id(line):
        # awk's $1: the first field split at white space (a line starting with a tab
        # gives its second column)
        fields = line.split()
        return fields[0] if fields else b""

    with open(round1, "wb") as f:
        f.write(b"".join(line for line in lines if len(query_id(line)) < 25))
    with open(round2, "wb") as f:
        f.write(b"".join(line for line in lines if len(query_id(line)) > 25))


def run_steps(run_tool, steps, root: str, logs) -> tuple:
    """Run the steps in ``root`` (``run_tool(tool, args, root)`` -> (status,
    standard error)), stopping at the first that fails: (statuses, messages,
    the files each step that succeeded wrote)."""
    statuses, found = [], []
    written: dict = {}
    for tool, args in steps:
        before = _snapshot(root)
        if tool == "split-rounds":
            _split_rounds(root, args)
            status, err = 0, ""
        else:
            status, err = run_tool(tool, args, root)
            statuses.append(status)
            found += messages(err)
        if status != 0:
            break
        for name, data in _snapshot(root).items():
            if (name not in before or before[name] != data) and name not in logs:
                written[name] = data
    for log in logs:
        path = os.path.join(root, log)
        if os.path.exists(path):
            with open(path, encoding="utf-8", errors="replace") as f:
                found += messages(f.read())
    return statuses, sorted(found), written


#: The one expression of CS-ValidateQREL-MASTER.pl (line 82) that perl 5.28 and
#: later refuse to compile ("Experimental keys on scalar is now forbidden"),
#: and the same written so that they read it as perl 5.26 did.
QREL_EXPRESSION = ("keys {map {$language_options{$_}{NAME}=>1} grep {$provenance_triples=~/$_\\_/} "
                   "@language_identifiers};")
QREL_FIXED = ("keys %{{map {$language_options{$_}{NAME}=>1} grep {$provenance_triples=~/$_\\_/} "
              "@language_identifiers}};")
_SCRIPTS: dict = {}


def perl_script(perl_dir: str, script: str) -> str:
    """The Perl tool to run: the checkout's, but CS-ValidateQREL from a copy
    with :data:`QREL_EXPRESSION` fixed (the shared qrel cases recorded its
    compile failure under perl 5.36; docs/parity.md)."""
    if script != "CS-ValidateQREL-MASTER.pl":
        return os.path.join(perl_dir, script)
    if (perl_dir, script) not in _SCRIPTS:
        with open(os.path.join(perl_dir, script), encoding="utf-8") as f:
            text = f.read()
        path = os.path.join(tempfile.mkdtemp(prefix="perl-qrel-"), script)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text.replace(QREL_EXPRESSION, QREL_FIXED))
        _SCRIPTS[perl_dir, script] = path
    return _SCRIPTS[perl_dir, script]


def perl_runner(perl_dir: str, hash_seed: int):
    """``run_tool`` for :func:`run_steps`: the Perl tool under a hash seed."""
    from scorer.coldstart import toolkit
    scripts = {tool.name: tool.perl for tool in toolkit.TOOLS}
    # A fixed environment: with deterministic key order (PERL_PERTURB_KEYS=2) a
    # hash's order still follows every key the process inserted before, %ENV's
    # among them, so the order a seed gives would change with the caller's.
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C",
           "PERL_HASH_SEED": str(hash_seed), "PERL_PERTURB_KEYS": "2"}

    def run(tool, args, root):
        process = subprocess.run(["perl", "-I" + perl_dir, perl_script(perl_dir, scripts[tool]),
                                  *args], cwd=root, env=env, capture_output=True, timeout=600)
        return process.returncode, process.stderr.decode("utf-8", "replace")
    return run


def our_runner(run_tool, args, root):
    """``run_tool`` for :func:`run_steps`: ours, in-process."""
    from commands import call_main
    from scorer.coldstart.toolkit.command import main
    out, err = io.StringIO(), io.StringIO()
    status = call_main(main, [run_tool, *args], root, out, err)
    return status, err.getvalue()


def _normal(data: bytes, unordered: bool = False) -> bytes:
    """The Perl's ``:NIL_`` node ids draw four random letters: not compared;
    nor is the order of an unordered file's lines."""
    data = _NIL.sub(rb":NIL_????\1", data)
    return b"".join(sorted(data.splitlines(True))) if unordered else data


def expected_sets(case: str) -> list:
    sets = [os.path.join(case, "expected")]
    variants = os.path.join(case, "variants")
    if os.path.isdir(variants):
        sets += [os.path.join(variants, name) for name in sorted(os.listdir(variants))]
    return sets


def _read_set(folder: str, unordered=()) -> tuple:
    files_folder = os.path.join(folder, "files")
    files = {name: _normal(data, name in unordered)
             for name, data in _snapshot(files_folder).items()} \
        if os.path.isdir(files_folder) else {}
    with open(os.path.join(folder, "status")) as f:
        statuses = [int(x) for x in f.read().split()]
    with open(os.path.join(folder, "messages"), encoding="utf-8") as f:
        found = sorted(line for line in f.read().split("\n") if line)
    return files, statuses, found


def undo_double_encoding(message: str) -> str:
    """The Perl's Logger encodes a message as UTF-8 before printing it to a
    UTF-8 handle, so that ``Zürich`` reads ``ZÃ¼rich``; the tools write the
    text as meant (docs/parity.md)."""
    try:
        return message.encode("latin-1").decode("utf-8")
    except (UnicodeEncodeError, UnicodeDecodeError):
        return message


def nist_status(status: int) -> int:
    """A Perl ``die`` that is not the library's exits with errno's value (25
    here); the tools exit 255 for every fatal problem (spec §7.50)."""
    return status if status in (0, 255) else 255


def message_problems(want, got) -> tuple:
    """(missing, extra) messages: each distinct message of the Perl's must be
    there, nothing else; the count lines must agree where the Perl recorded
    no message twice."""
    want = [undo_double_encoding(message) for message in want]
    wanted = collections.Counter(m for m in want if not _COUNT.match(m))
    gotten = collections.Counter(m for m in got if not _COUNT.match(m))
    missing, extra = sorted(set(wanted) - set(gotten)), sorted(set(gotten) - set(wanted))
    if all(n == 1 for n in wanted.values()):
        want_counts = sorted(m for m in want if _COUNT.match(m))
        got_counts = sorted(m for m in got if _COUNT.match(m))
        missing += [m for m in want_counts if m not in got_counts]
        extra += [m for m in got_counts if m not in want_counts]
    return missing, extra


def compare(case: str, result, lines: int = 5) -> list:
    """What differs between a run's result (statuses, messages, files) and
    the nearest of the case's expected sets; [] when one equals it."""
    statuses, found, written = result
    unordered = set(load_steps(case).get("unordered", ()))
    written = {name: _normal(data, name in unordered) for name, data in written.items()}
    best = None
    for folder in expected_sets(case):
        files, want_statuses, want_messages = _read_set(folder, unordered)
        if want_statuses and want_statuses[-1] != 0:
            # The shared cases keep the empty files the Perl opened before it
            # failed; the tools write nothing then (as ../shared/tools/pipeline-parity).
            files = {name: data for name, data in files.items() if data}
        problems = []
        if [nist_status(status) for status in statuses] != \
                [nist_status(status) for status in want_statuses]:
            problems.append(f"exit statuses {statuses}, expected {want_statuses}")
        for name in sorted(set(files) | set(written)):
            if name not in written:
                problems.append(f"{name}: not written")
            elif name not in files:
                problems.append(f"{name}: written, the Perl writes no such file")
            elif files[name] != written[name]:
                diff = list(difflib.unified_diff(
                    files[name].decode("utf-8", "replace").splitlines(),
                    written[name].decode("utf-8", "replace").splitlines(),
                    "expected", "ours", lineterm="", n=0))
                problems.append(f"{name}: differs\n    " + "\n    ".join(diff[2:2 + lines]))
        missing, extra = message_problems(want_messages, found)
        if missing or extra:
            problems.append(f"messages differ: {len(missing)} missing, {len(extra)} extra"
                            + "".join(f"\n    - {m}" for m in missing[:lines])
                            + "".join(f"\n    + {m}" for m in extra[:lines]))
        if not problems:
            return []
        if best is None or len(problems) < len(best):
            best = problems
    return best


def load_steps(case: str) -> dict:
    with open(os.path.join(case, "steps.json"), encoding="utf-8") as f:
        return json.load(f)


def run_case(case: str, run_tool) -> tuple:
    """Run a case's steps on a copy of its input: (statuses, messages, files)."""
    spec = load_steps(case)
    work = tempfile.mkdtemp(prefix="toolkit-case-")
    try:
        root = os.path.join(work, "w")
        shutil.copytree(os.path.join(case, "input"), root, symlinks=True)
        return run_steps(run_tool, spec["steps"], root, spec.get("logs", []))
    finally:
        shutil.rmtree(work, ignore_errors=True)


def tools_of(case: str) -> set:
    return {tool for tool, _ in load_steps(case)["steps"] if tool != "split-rounds"}


def _write_set(folder: str, result) -> None:
    statuses, found, written = result
    shutil.rmtree(folder, ignore_errors=True)
    for name, data in written.items():
        path = os.path.join(folder, "files", name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "status"), "w") as f:
        f.write("".join(f"{status}\n" for status in statuses))
    with open(os.path.join(folder, "messages"), "w", encoding="utf-8") as f:
        f.write("".join(f"{message}\n" for message in found))


def _key(result, unordered) -> tuple:
    statuses, found, written = result
    return (tuple(statuses), tuple(found),
            tuple(sorted((name, _normal(data, name in unordered))
                         for name, data in written.items())))


def perl_results(case: str, perl_dir: str, hash_seeds=HASH_SEEDS) -> dict:
    """The Perl's distinct results of a case: hash seed -> result, the first
    seed of each distinct result."""
    distinct: dict = {}
    unordered = set(load_steps(case).get("unordered", ()))
    for seed in hash_seeds:
        result = run_case(case, perl_runner(perl_dir, seed))
        distinct.setdefault(_key(result, unordered), (seed, result))
    return {seed: result for seed, result in distinct.values()}


def make(case: str, perl_dir: str, hash_seeds=HASH_SEEDS) -> int:
    """(Re)write a case's expected/ and variants/ from the Perl; the number
    of distinct results."""
    results = perl_results(case, perl_dir, hash_seeds)
    shutil.rmtree(os.path.join(case, "variants"), ignore_errors=True)
    seeds = list(results)
    _write_set(os.path.join(case, "expected"), results[seeds[0]])
    for seed in seeds[1:]:
        _write_set(os.path.join(case, "variants", f"h{seed}"), results[seed])
    return len(results)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--perl-dir", required=True, help="a checkout of jamesmayfield/ColdStart")
    parser.add_argument("cases", nargs="+", help="case folders (steps.json and input/)")
    args = parser.parse_args(argv)
    for case in args.cases:
        count = make(case, os.path.abspath(args.perl_dir))
        print(f"{case}: {count} distinct result{'s' if count > 1 else ''}")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    sys.exit(main())
