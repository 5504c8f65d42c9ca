"""The package as a user installs it: a wheel built from the checkout, installed
into a fresh virtual environment and run from a folder outside the checkout.

The editable install of ``make test`` finds every module in the working tree, so
a package left out of the wheel (a folder without ``__init__.py``, which
``packages = find:`` skips) goes unseen there; only an installed wheel shows it.
The fresh environment reaches the test environment's numpy, pandas and the rest
through a path file, so nothing is downloaded, while the checkout itself is not
on its path."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from places import DEMO, ROOT

pytestmark = pytest.mark.slow


def package_folders() -> set:
    """Every folder of scorer/ that holds Python modules, as a dotted name."""
    return {".".join(path.parent.relative_to(ROOT).parts)
            for path in (ROOT / "scorer").rglob("*.py")
            if "__pycache__" not in path.parts}


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps",
         "--disable-pip-version-check", "-q", "-w", str(out), str(ROOT)],
        capture_output=True, text=True)
    assert built.returncode == 0, built.stderr
    # setuptools leaves its build/ folder in the checkout; the tests leave it as found
    shutil.rmtree(ROOT / "build", ignore_errors=True)
    wheels = list(out.glob("*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> Path:
    """The python of a fresh venv holding the wheel alone (its dependencies seen
    through a path file pointing at the test environment's site-packages)."""
    venv = tmp_path_factory.mktemp("venv")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    purelib = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             capture_output=True, text=True, check=True).stdout.strip()
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(purelib)
    # the dependencies, not the project: a plain path entry runs no .pth file
    # of that folder, so the editable install's finder stays out
    Path(purelib, "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return python


def test_the_wheel_holds_every_package(wheel):
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    missing = sorted(package for package in package_folders()
                     if package.replace(".", "/") + "/__init__.py" not in names)
    assert not missing, f"left out of the wheel: {missing}"


def run_installed(python: Path, *arguments, cwd: Path):
    environment = {key: value for key, value in os.environ.items()
                   if key not in ("PYTHONPATH", "PYTHONHOME")}
    return subprocess.run([str(python), *arguments], capture_output=True, text=True,
                          cwd=cwd, env=environment)


def test_installed_scorer_runs_outside_the_checkout(installed, tmp_path):
    where = run_installed(installed, "-c", "import scorer; print(scorer.__file__)", cwd=tmp_path)
    assert where.returncode == 0, where.stderr
    assert not Path(where.stdout.strip()).is_relative_to(ROOT)
    version = run_installed(installed, "-m", "scorer", "-version", cwd=tmp_path)
    assert version.returncode == 0, version.stderr
    assert "scorer" in version.stdout
    console = installed.parent / "scorer"
    if console.exists():
        script = run_installed(installed, str(console), "-version", cwd=tmp_path)
        assert script.returncode == 0, script.stderr


def test_installed_scorer_scores_the_demo_as_the_checkout_does(installed, tmp_path):
    arguments = ["-expand", "CSSF17", "-queries", str(DEMO / "qids.txt"),
                 str(DEMO / "ldc-query.xml"), str(DEMO / "qrel.txt"), str(DEMO / "DEMORUN.tab.txt")]
    ours = run_installed(installed, "-m", "scorer", "-output_file", str(tmp_path / "wheel"),
                         *arguments, cwd=tmp_path)
    assert ours.returncode == 0, ours.stderr
    checkout = subprocess.run([sys.executable, "-m", "scorer", "-output_file",
                               str(tmp_path / "checkout"), *arguments],
                              capture_output=True, text=True, cwd=ROOT)
    assert checkout.returncode == 0, checkout.stderr
    for extension in ("sf", "ldcmax", "ldcmean", "summary", "ap", "debug"):
        assert (tmp_path / f"wheel.{extension}").read_bytes() == \
            (tmp_path / f"checkout.{extension}").read_bytes(), extension
