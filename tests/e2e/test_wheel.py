"""The package as a user installs it: the sdist and the wheel as a release builds
them (helpers/distribution.py: PyPA's build, the wheel made from the sdist),
their metadata as a package index checks it, and the wheel installed by pip
into a fresh virtual environment, its console scripts and ``python -m`` run
from a folder outside the checkout: every command's script, the demo's job and a
track named by a shipped policy.

The editable install of ``make test`` finds every module and file in the
working tree, so a package or a policy left out of the wheel goes unseen there;
only an installed wheel shows it.  The fresh environment reaches the test
environment's numpy, pandas and the rest through a path file, so nothing is
downloaded, while the checkout itself is not on its path.  With
``SCORER_WHEEL_PYTHON`` naming another Python (``.ci/run`` names the newest it
has), the environment is that Python's and pip takes the dependencies from the
package index, as a user's install does."""
from __future__ import annotations

import configparser
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path

import pytest

import distribution
from places import CONFIGS, DEMO, FIXTURES, ROOT
from scorer import console
from scorer.policy import shipped_policies

pytestmark = pytest.mark.slow

#: Another Python to install the wheel for, its dependencies from the index.
WHEEL_PYTHON = os.environ.get("SCORER_WHEEL_PYTHON")


def package_folders() -> set:
    """Every folder of scorer/ that holds Python modules, as a dotted name."""
    return {".".join(path.parent.relative_to(ROOT).parts)
            for path in (ROOT / "scorer").rglob("*.py")
            if "__pycache__" not in path.parts}


def commands() -> set:
    """Every module ``python -m`` runs: the packages with a ``__main__``."""
    return {".".join(path.parent.relative_to(ROOT).parts)
            for path in (ROOT / "scorer").rglob("__main__.py")
            if "__pycache__" not in path.parts}


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple:
    """(the sdist, the wheel built from it)."""
    return distribution.build(tmp_path_factory.mktemp("dist"))


def run(command: list, cwd: Path, **options):
    environment = {key: value for key, value in os.environ.items()
                   if key not in ("PYTHONPATH", "PYTHONHOME")}
    return subprocess.run([str(part) for part in command], capture_output=True, text=True,
                          cwd=cwd, env=environment, **options)


@pytest.fixture(scope="module")
def installed(built, tmp_path_factory) -> Path:
    """The python of a fresh venv where pip installed the wheel alone; its
    dependencies are the test environment's, seen through a path file (or, with
    SCORER_WHEEL_PYTHON, installed from the package index)."""
    wheel = built[1]
    venv = tmp_path_factory.mktemp("venv")
    python = venv / "bin" / "python"
    outside = tmp_path_factory.mktemp("outside")
    quiet = ["--disable-pip-version-check", "--no-input", "-q"]
    if WHEEL_PYTHON:
        made = run([WHEEL_PYTHON, "-m", "venv", venv], cwd=outside)
        assert made.returncode == 0, made.stderr
        done = run([python, "-m", "pip", "install", *quiet, wheel], cwd=outside)
    else:
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
        done = run([sys.executable, "-m", "pip", "--python", python, "install", *quiet,
                    "--no-deps", wheel], cwd=outside)
        purelib = run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                      cwd=outside, check=True).stdout.strip()
        # the dependencies, not the project: a plain path entry runs no .pth file
        # of that folder, so the editable install's finder stays out
        Path(purelib, "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    assert done.returncode == 0, done.stdout + done.stderr
    return python


# -- what was built -----------------------------------------------------------------

def test_the_sdist_and_the_wheel_pass_the_package_index_s_checks(built):
    pytest.importorskip("markdown_it", reason="the docs extra is not installed "
                                              "(pip install -e '.[test,docs]')")
    for path in built:
        assert distribution.problems_of(path) == [], path.name


def test_the_wheel_holds_every_package_and_the_shipped_policies(built):
    with zipfile.ZipFile(built[1]) as archive:
        names = set(archive.namelist())
    missing = sorted(package for package in package_folders()
                     if package.replace(".", "/") + "/__init__.py" not in names)
    assert not missing, f"left out of the wheel: {missing}"
    assert shipped_policies()
    for name in shipped_policies():
        assert f"scorer/configs/{name}.yaml" in names


def test_every_command_has_its_console_script(built):
    with zipfile.ZipFile(built[1]) as archive:
        name = next(n for n in archive.namelist() if n.endswith(".dist-info/entry_points.txt"))
        entry_points = configparser.ConfigParser()
        entry_points.read_string(archive.read(name).decode("utf-8"))
    scripts = dict(entry_points["console_scripts"])
    assert set(scripts) == set(console.COMMANDS)
    assert set(console.COMMANDS.values()) == commands()
    for script, target in scripts.items():
        module, function = target.split(":")
        assert module == "scorer.console" and callable(getattr(console, function)), script


def test_the_sdist_holds_the_checkout_but_its_ci(built):
    listed = run(["git", "ls-files", "-s"], cwd=ROOT) if shutil.which("git") else None
    if listed is None or listed.returncode != 0:
        pytest.skip("the checkout is no git repository: its files are not known")
    with tarfile.open(built[0]) as archive:
        held = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    tracked = set()
    for line in listed.stdout.splitlines():
        mode, _object, _stage, path = line.split(maxsplit=3)
        if mode == "120000":    # a link (scorer/configs): the files it leads to
            tracked |= {f"{path}/{file.name}" for file in (ROOT / path).iterdir()
                        if file.is_file()}
        else:
            tracked.add(path)
    missing = sorted(path for path in tracked - held
                     if not path.startswith(".ci/") and path != ".gitignore")
    assert not missing, f"left out of the sdist: {missing}"


# -- installed -------------------------------------------------------------------------

def test_installed_scorer_runs_outside_the_checkout(installed, tmp_path):
    where = run([installed, "-c", "import scorer; print(scorer.__file__)"], cwd=tmp_path)
    assert where.returncode == 0, where.stderr
    assert not Path(where.stdout.strip()).is_relative_to(ROOT)
    for command in ([installed, "-m", "scorer", "-version"],
                    [installed.parent / "scorer", "-version"]):
        version = run(command, cwd=tmp_path)
        assert version.returncode == 0, version.stderr
        assert version.stdout.startswith(f"scorer version {distribution.version()} "), \
            version.stdout


#: What each console script is run with, and its python -m command.
SCRIPT_ARGUMENTS = ([], ["-help"], ["-version"], ["-no_such_switch"])


def test_each_console_script_is_its_python_m_command(installed, tmp_path):
    helps = set()
    for script, module in console.COMMANDS.items():
        for arguments in SCRIPT_ARGUMENTS:
            by_script = run([installed.parent / script, *arguments], cwd=tmp_path)
            by_module = run([installed, "-m", module, *arguments], cwd=tmp_path)
            assert (by_script.returncode, by_script.stdout, by_script.stderr) == \
                (by_module.returncode, by_module.stdout, by_module.stderr), (script, arguments)
            if arguments == ["-help"]:
                assert by_script.returncode == 0, (script, by_script.stderr)
                helps.add(by_script.stdout)
            if arguments == ["-no_such_switch"]:
                assert by_script.returncode == 255, (script, by_script.stdout)
    assert len(helps) == len(console.COMMANDS)     # each script its own command


def demo_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "demo"
    shutil.copytree(DEMO, folder)
    return folder


def test_the_installed_scorer_writes_the_demo_s_golden_reports(installed, tmp_path):
    folder = demo_folder(tmp_path)
    arguments = (folder / "args").read_text().split()
    done = run([installed.parent / "scorer", "-output_file", "run", "-error_file", "run.errlog",
                *arguments], cwd=folder)
    expected = DEMO.parent / "expected"
    assert f"{done.returncode}\n" == (expected / "status").read_text(), done.stderr
    for report in sorted(expected.glob("run.*")):
        assert (folder / report.name).read_bytes() == report.read_bytes(), report.name


def outputs(folder: Path, leave_out=()) -> dict:
    """Every file under ``folder`` but the .params (they name the policy's
    path) and those ending as in ``leave_out``: path -> bytes."""
    return {path.relative_to(folder).as_posix(): path.read_bytes()
            for path in sorted(folder.rglob("*")) if path.is_file()
            and not path.name.endswith((".params", *leave_out))}


def test_the_demo_s_job_installed_as_in_the_checkout(installed, tmp_path):
    """make demo's job, in the same folder by the same command, once by the
    installed package and once by the checkout's."""
    folder = demo_folder(tmp_path)
    job = ["-expand", "CSSF17", "-queries", "qids.txt", "-bootstrap", "200", "-seed", "1",
           "-output_file", "out/run", "-error_file", "out/run.errlog",
           "ldc-query.xml", "qrel.txt", "DEMORUN.tab.txt"]
    results = {}
    for who, python in (("installed", installed), ("checkout", Path(sys.executable))):
        (folder / "out").mkdir()
        done = run([python, "-m", "scorer", *job], cwd=folder)
        assert done.returncode == 0, (who, done.stderr)
        results[who] = (folder / "out").rename(tmp_path / who)
    installed_reports = outputs(results["installed"])
    assert {Path(name).suffix for name in installed_reports} >= {
        ".sf", ".summary", ".ap", ".debug", ".confidence", ".samplescores"}
    assert installed_reports == outputs(results["checkout"])


def test_a_track_named_by_a_shipped_policy_installed_as_in_the_checkout(installed, tmp_path):
    """A FEVER track of two runs: ``-policy fever`` finds the installed
    package's policy, and the track is the checkout's, file for file."""
    blind = FIXTURES / "fever" / "blind"
    folder = tmp_path / "track"
    folder.mkdir()
    shutil.copy(blind / "actual.jsonl", folder)
    rows = [json.loads(line) for line in (blind / "predictions.jsonl").read_text().splitlines()]
    shutil.copy(blind / "predictions.jsonl", folder / "teamA.jsonl")
    rows[0]["predicted_label"] = "SUPPORTS" if rows[0]["predicted_label"] != "SUPPORTS" \
        else "REFUTES"
    (folder / "teamB.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))
    job = ["-policy", "fever", "-bootstrap", "50", "-seed", "1", "-jobs", "2", "-output_dir", "T",
           "actual.jsonl", "teamA.jsonl", "teamB.jsonl"]
    results = {}
    for who, command in (("installed", [installed.parent / "scorer-track"]),
                         ("checkout", [sys.executable, "-m", "scorer.track"])):
        done = run([*command, *job], cwd=folder)
        assert done.returncode == 0, (who, done.stderr)
        results[who] = (folder / "T").rename(tmp_path / who)
    params = (results["installed"] / "track.params").read_text()
    assert str(ROOT) not in params and str(CONFIGS) not in params
    # Another Python's environment has the index's newest matplotlib: the same
    # numbers, perhaps not the same pixels (the page holds the pictures).
    pictures = (".png", ".svg", ".pdf", ".html") if WHEEL_PYTHON else ()
    installed_files = outputs(results["installed"], pictures)
    assert {"leaderboard.csv", "significance.csv", "leaderboard.tex",
            "runs/teamB/run.summary"} <= set(installed_files)
    assert installed_files == outputs(results["checkout"], pictures)
