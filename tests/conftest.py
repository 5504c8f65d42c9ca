"""Shared test locations: the reference cases in ../shared, the Perl scorer."""
from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
PARITY = SHARED / "parity"
SHARED_TOOLS = SHARED / "tools"
# The Cold Start world builder (fixtures/coldstart/world.py) makes small cases in tests.
sys.path.insert(0, str(ROOT / "fixtures" / "coldstart"))


def perl_dir():
    """The official scorer's checkout (CS-Score-MASTER.pl, ColdStartLib.pm), if any:
    $SCORER_PERL_DIR, else ../ColdStart beside the project."""
    candidates = [os.environ.get("SCORER_PERL_DIR"), str(ROOT.parent / "ColdStart")]
    for candidate in candidates:
        if candidate and os.path.isfile(os.path.join(candidate, "CS-Score-MASTER.pl")) \
                and shutil.which("perl"):
            return candidate
    return None


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: long-running")


@pytest.fixture(scope="session")
def perl_scorer():
    directory = perl_dir()
    if directory is None:
        pytest.skip("the official Perl scorer is not available (set SCORER_PERL_DIR to a "
                    "checkout of jamesmayfield/ColdStart, or put it in ../ColdStart)")
    return directory
