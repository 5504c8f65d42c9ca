"""A run imports what it uses: numpy, pandas and scipy serve the bootstrap,
the track and the pictures, not a plain scoring run (their import
is most of a small run's time); nor does a claims run or ``-version`` pay for
modules that only save typing (dataclasses, typing), PyYAML for a policy that
keeps to the common subset (scorer/policyfile.py), tempfile, or OpenSSL's
hashlib for fingerprints of small files.  The claim modules (scorer/claims,
scorer/countstable) import neither ``dataclasses`` (which pulls in ``inspect``) nor ``typing``
on a plain run, whatever the generic modules import."""
from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from places import ROOT
from scorer.countstable.jsonl import FAST_MIN_BYTES
from startup import not_at_start_up

FIXTURES = ROOT / "fixtures"
DEMO = FIXTURES / "coldstart" / "demo" / "input"
HEAVY = ("numpy", "pandas", "scipy", "matplotlib")

#: Standard modules (and PyYAML) that cost a small run's start-up a tenth or
#: more together, and that the command line, the policy, the problems, the
#: reports and their writing do without.
START_UP = ("yaml", "dataclasses", "inspect", "typing", "tempfile", "random", "shutil",
            "hashlib", "traceback", "textwrap", "signal", "threading")
#: The modules of every run (scorer/cli.py and what it imports), and the others
#: of a claims run that are not task code.
GENERIC = ("scorer.cli", "scorer.textfile", "scorer.policyfile", "scorer.progress")


def has_builtin_sha256() -> bool:
    try:
        import _sha256  # noqa: F401
    except ImportError:
        try:
            import _sha2  # noqa: F401
        except ImportError:
            return False
    return True


def unwanted_for_runs() -> tuple:
    """START_UP, but OpenSSL's hashlib where Python has no SHA-256 of its own."""
    return tuple(module for module in START_UP
                 if module != "hashlib" or has_builtin_sha256())


def modules_after(arguments: list, cwd: Path, watched=HEAVY) -> tuple:
    """(exit status, the ``watched`` modules imported) of ``python -m scorer ARGUMENTS``
    (but those the interpreter imports before it runs anything)."""
    watched = not_at_start_up(watched)
    script = (f"import sys; from scorer.cli import main; status = main({arguments!r}); "
              f"print(status, *sorted(m for m in {tuple(watched)!r} if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=cwd)
    assert done.returncode == 0, done.stderr
    status, *modules = done.stdout.splitlines()[-1].split()
    return int(status), modules


def heavy_modules_after(arguments: list, cwd: Path) -> tuple:
    return modules_after(arguments, cwd)


@pytest.mark.parametrize("task, files", [
    ("scifact", [str(FIXTURES / "scifact" / "basic" / name)
                 for name in ("gold.jsonl", "predictions.jsonl")]),
    ("fever", [str(FIXTURES / "fever" / "inline" / "predictions.jsonl")]),
])
def test_plain_claim_runs_import_none(tmp_path, task, files):
    """Neither the heavy modules nor the start-up extras, in one run."""
    arguments = ["-policy", str(ROOT / "configs" / f"{task}.yaml"),
                 "-output_file", str(tmp_path / "run"), *files]
    assert modules_after(arguments, tmp_path, HEAVY + unwanted_for_runs()) == (0, [])
    assert (tmp_path / "run.debug").stat().st_size > 0
    assert "sha256:" in (tmp_path / "run.params").read_text(encoding="utf-8")


TASK_MODULES = tuple(f"scorer.tasks.{name}" for name in
                     ("classification", "coldstart", "fever", "scifact"))


@pytest.mark.parametrize("task, arguments, cwd", [
    ("scifact", ["-policy", "scifact", *(str(FIXTURES / "scifact" / "basic" / name)
                                         for name in ("gold.jsonl", "predictions.jsonl"))],
     None),
    ("fever", ["-policy", "fever", str(FIXTURES / "fever" / "inline" / "predictions.jsonl")],
     None),
    ("coldstart", ["-expand", "CSSF17", "ldc-query.xml", "qrel.txt", "DEMORUN.tab.txt"], DEMO),
])
def test_a_run_imports_its_own_tasks_record_alone(tmp_path, task, arguments, cwd):
    """A run reads its command line by its own task's switches and policy
    keys (scorer.switches.RunSwitches, scorer.policy.load_policy_file), so
    no other task's record is loaded, even where an earlier run's reports lie
    at the prefix; another task's switch loads them all, to be refused by name."""
    run = ["-output_file", str(tmp_path / "run"), "-error_file", str(tmp_path / "run.errlog")]
    (tmp_path / "run.sf").write_text("an earlier run's report\n", encoding="utf-8")
    assert modules_after(run + arguments, cwd or tmp_path, TASK_MODULES) == \
        (0, [f"scorer.tasks.{task}"])
    assert not (tmp_path / "run.sf").exists() or task == "coldstart"
    foreign = ["-max_evidence", "3"] if task == "coldstart" else ["-runids", "X"]
    assert modules_after(foreign + ["-output_file", str(tmp_path / "other")] + arguments,
                         cwd or tmp_path, TASK_MODULES) == (255, list(TASK_MODULES))


def test_plain_coldstart_run_imports_numpy_only(tmp_path):
    arguments = ["-expand", "CSSF17", "-output_file", str(tmp_path / "run"),
                 "-error_file", str(tmp_path / "run.errlog"),
                 "ldc-query.xml", "qrel.txt", "DEMORUN.tab.txt"]
    assert heavy_modules_after(arguments, DEMO) == (0, ["numpy"])


def test_plain_coldstart_run_imports_no_samples_module(tmp_path):
    """The bootstrap's modules (samples files, resampling, confidence
    reports, the statistics of scoring units) serve -samples and -bootstrap only."""
    samples_only = ("scorer.bootstrap", "scorer.coldstart.resample", "scorer.coldstart.units",
                    "scorer.coldstart.reports.confidence", "scorer.unitstatistic",
                    "scorer.percentile")
    arguments = ["-expand", "CSSF17", "-output_file", str(tmp_path / "run"),
                 "-error_file", str(tmp_path / "run.errlog"),
                 "ldc-query.xml", "qrel.txt", "DEMORUN.tab.txt"]
    assert modules_after(arguments, DEMO, samples_only) == (0, [])
    with_samples = ["-bootstrap", "20", "-seed", "1", "-expand", "CSSF17",
                    "-output_file", str(tmp_path / "boot"), "-error_file", str(tmp_path / "boot.errlog"),
                    "ldc-query.xml", "qrel.txt", "DEMORUN.tab.txt"]
    status, imported = modules_after(with_samples, DEMO, samples_only)
    assert status == 0 and "scorer.bootstrap" in imported and "scorer.coldstart.resample" in imported
    assert (tmp_path / "run.summary").stat().st_size > 0


def test_coldstart_run_imports_only_the_toolkit_modules_it_runs(tmp_path):
    """The toolkit's tools (scorer/coldstart/toolkit) are exported by
    scorer.coldstart as they are asked for.  A scoring run checks what
    validatesf would drop of its runs, counted from its own reading of them
    where that tells (scorer/coldstart/validation.py): with -expand it loads
    validatequeries for the SF query file the validator would read, and no
    other tool; with the policy's validate: false it checks nothing and loads
    none of the toolkit."""
    from scorer.coldstart import toolkit
    tools = tuple(t.module for t in toolkit.TOOLS)
    watched = ("scorer.coldstart.toolkit", "scorer.coldstart.toolkit.problemlog",
               "scorer.coldstart.toolkit.catalogue") + tools
    arguments = ["-expand", "CSSF17", "-output_file", str(tmp_path / "run"),
                 "-error_file", str(tmp_path / "run.errlog"),
                 "ldc-query.xml", "qrel.txt", "DEMORUN.tab.txt"]
    status, imported = modules_after(arguments, DEMO, watched)
    assert status == 0
    assert [m for m in imported if m in tools] == ["scorer.coldstart.toolkit.validatequeries"]
    unchecked = tmp_path / "unchecked.yaml"
    unchecked.write_text("task: coldstart\nvalidate: false\n", encoding="utf-8")
    arguments = ["-policy", str(unchecked), "-expand", "CSSF17",
                 "-output_file", str(tmp_path / "unchecked"),
                 "-error_file", str(tmp_path / "unchecked.errlog"),
                 "ldc-query.xml", "qrel.txt", "DEMORUN.tab.txt"]
    assert modules_after(arguments, DEMO, watched) == (0, [])
    script = ("import sys, scorer.coldstart as c; before = 'scorer.coldstart.toolkit' in "
              "sys.modules; f = c.validate_queries; print(before, f.__module__, hasattr(c, 'nope'))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.stdout.split() == ["False", "scorer.coldstart.toolkit.validatequeries", "False"]


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="threads counted in /proc")
def test_plain_coldstart_run_starts_no_blas_threads(tmp_path):
    """numpy's OpenBLAS would start a spinning thread per core; a command-line
    run keeps to one thread unless the user sets a number (OPENBLAS_NUM_THREADS,
    ...), and a program importing scorer keeps its environment."""
    def threads_after_run(name, command_line=True, **settings):
        arguments = ["-expand", "CSSF17", "-output_file", str(tmp_path / name),
                     "-error_file", str(tmp_path / f"{name}.errlog"),
                     "ldc-query.xml", "qrel.txt", "DEMORUN.tab.txt"]
        # As scorer/__main__.py does, but printing the threads before the exit.
        prepare = ("from scorer.processenv import prepare_command_line_process; "
                   "prepare_command_line_process(); " if command_line else "")
        script = (f"import os; {prepare}from scorer.cli import main; "
                  f"status = main({arguments!r}); "
                  f"print(status, len(os.listdir('/proc/self/task')), "
                  f"os.environ.get('OPENBLAS_NUM_THREADS', '-'))")
        env = {name: value for name, value in os.environ.items() if name not in
               ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS")}
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                              cwd=DEMO, env=dict(env, **settings))
        assert done.returncode == 0, done.stderr
        return done.stdout.split()

    assert threads_after_run("run") == ["0", "1", "1"]
    assert threads_after_run("library", command_line=False)[::2] == ["0", "-"]
    if len(os.sched_getaffinity(0)) >= 2:    # (OpenBLAS starts no more threads than CPUs)
        assert threads_after_run("chosen", OPENBLAS_NUM_THREADS="2") == ["0", "2", "2"]
        status, threads, _setting = threads_after_run("library2", command_line=False)
        assert status == "0" and int(threads) >= 2


@pytest.mark.parametrize("entry, first_import", [("__main__.py", "scorer.cli"),
                                                  ("track/__main__.py", "from scorer import")])
def test_the_command_line_prepares_its_process_first(entry, first_import):
    """python -m scorer and python -m scorer.track make their settings before
    importing anything that loads numpy."""
    source = (ROOT / "scorer" / entry).read_text(encoding="utf-8")
    assert source.index("prepare_command_line_process()") < source.index(first_import)


def test_version_imports_none(tmp_path):
    assert heavy_modules_after(["-version"], tmp_path) == (0, [])


def test_version_pays_no_start_up_extras(tmp_path):
    assert modules_after(["-version"], tmp_path, START_UP) == (0, [])


@pytest.mark.parametrize("module", GENERIC)
def test_generic_modules_import_no_start_up_extras(module):
    script = (f"import sys, {module}; "
              f"print(*sorted(m for m in {not_at_start_up(START_UP)!r} if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == []


def test_a_policy_outside_the_subset_still_reads_with_pyyaml(tmp_path):
    policy = tmp_path / "anchored.yaml"
    policy.write_text("task: scifact\nlabels: &labels [SUPPORT, CONTRADICT]\n", encoding="utf-8")
    files = [str(FIXTURES / "scifact" / "basic" / name)
             for name in ("gold.jsonl", "predictions.jsonl")]
    arguments = ["-policy", str(policy), "-output_file", str(tmp_path / "run"), *files]
    assert modules_after(arguments, tmp_path, ("yaml",)) == (0, ["yaml"])


#: What the claim modules must not import on a plain run (start-up time).
SLOW_TO_IMPORT = ("dataclasses", "typing", "inspect")


def imports_by_claim_modules(arguments: list, cwd: Path) -> tuple:
    """(exit status, [(importer, module)]) of every import statement a module
    of scorer.claims or scorer.countstable executes during ``python -m scorer ARGUMENTS``: the
    statements themselves are recorded (through ``builtins.__import__``), so a
    module another one has imported already still counts."""
    script = f"""
import builtins, json, sys
seen, real = [], builtins.__import__
def record(name, globals=None, locals=None, fromlist=(), level=0):
    importer = (globals or {{}}).get("__name__") or ""
    if importer.startswith(("scorer.claims", "scorer.countstable")) and level == 0:
        seen.append((importer, name))
    return real(name, globals, locals, fromlist, level)
builtins.__import__ = record
from scorer.cli import main
status = main({arguments!r})
print(json.dumps([status, seen]))
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=cwd)
    assert done.returncode == 0, done.stderr
    status, seen = json.loads(done.stdout.splitlines()[-1])
    return status, [tuple(pair) for pair in seen]


@pytest.mark.parametrize("task, files", [
    ("scifact", [str(FIXTURES / "scifact" / "basic" / name)
                 for name in ("gold.jsonl", "predictions.jsonl")]),
    ("fever", [str(FIXTURES / "fever" / "blind" / name)
               for name in ("actual.jsonl", "predictions.jsonl")]),
])
def test_plain_claim_runs_import_no_slow_module_from_claim_modules(tmp_path, task, files):
    arguments = ["-policy", str(ROOT / "configs" / f"{task}.yaml"),
                 "-output_file", str(tmp_path / "run"), *files]
    status, seen = imports_by_claim_modules(arguments, tmp_path)
    assert status == 0
    # The record is real: the claim modules' own imports are in it.
    assert ("scorer.countstable.driver", "scorer.countstable") in seen
    slow = [(importer, name) for importer, name in seen
            if name.split(".")[0] in SLOW_TO_IMPORT + HEAVY]
    assert slow == []


def large_fever_predictions(path: Path) -> Path:
    """Predictions carrying their own gold, over FAST_MIN_BYTES: read through msgspec."""
    line = ('{"id": %d, "label": "SUPPORTS", "evidence": [[[1, 1, "Paris", 0]]], '
            '"predicted_label": "SUPPORTS", "predicted_evidence": [["Paris", 0], ["Rome", 2]]}\n')
    claims = FAST_MIN_BYTES // len(line % 0) + 1
    path.write_text("".join(line % number for number in range(claims)), encoding="utf-8")
    return path


@pytest.mark.parametrize("command_line", [True, False])
def test_msgspec_comes_without_typing_extensions_on_the_command_line_alone(tmp_path,
                                                                           command_line):
    """A command-line run reads a large file through msgspec as a plain install
    has it, without typing_extensions (a test dependency's, 9 ms to import:
    scorer/countstable/jsonl.py); a program importing scorer gets msgspec as
    it comes, and can import typing_extensions after the run either way."""
    if importlib.util.find_spec("typing_extensions") is None:
        pytest.skip("typing_extensions is not installed: there is nothing to leave out")
    predictions = large_fever_predictions(tmp_path / "predictions.jsonl")
    arguments = ["-policy", "fever", "-output_file", str(tmp_path / "run"), str(predictions)]
    prepare = ("from scorer.processenv import prepare_command_line_process; "
               "prepare_command_line_process(); " if command_line else "")
    script = (f"import sys; {prepare}from scorer.cli import main; status = main({arguments!r}); "
              f"loaded = 'typing_extensions' in sys.modules; import typing_extensions; "
              f"print(status, 'msgspec' in sys.modules, loaded)")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["0", "True", str(not command_line)]
    assert "CLAIM 0\t" in (tmp_path / "run.debug").read_text(encoding="utf-8")
