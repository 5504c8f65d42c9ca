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


# ------------------------------------------------ what did not run, and why

#: The reference evaluators the leaderboard's numbers are checked against
#: (tests/test_track_tables.py), where they are checked out.
FEVER_SCORER = Path(os.environ.get("FEVER_SCORER_DIR") or ROOT.parent / "fever-scorer")
SCIFACT_EVALUATOR = Path(os.environ.get("SCIFACT_EVALUATOR_DIR")
                         or ROOT.parent / "scifact-evaluator")

#: The optional suites: (name, words of their skip reasons, how to run them).
OPTIONAL_SUITES = (
    ("Perl comparisons", ("Perl scorer",),
     "put a checkout of the official scorer (jamesmayfield/ColdStart) in ../ColdStart or "
     "name it in SCORER_PERL_DIR, with perl on the PATH"),
    ("reference cases", ("reference cases", "../shared", "case generator"),
     "put the shared folder beside the project: ../shared/parity (parity cases) and "
     "../shared/tools (the case generator)"),
    ("browser", ("chromium", "chromedriver", "selenium"),
     "apt-get install chromium chromium-driver (.ci/run does), and pip install -e '.[test]'"),
    ("LaTeX tables", ("pdflatex", "booktabs"),
     "apt-get install texlive-latex-base texlive-latex-recommended (.ci/run does)"),
    ("platform", ("glibc", "mallinfo2", "/proc"), "they need Linux with glibc 2.33 or later"),
)


def _suite_of(reason: str) -> str:
    for name, words, _how in OPTIONAL_SUITES:
        if any(word.lower() in reason.lower() for word in words):
            return name
    return ""


def _skip_reason(report) -> str:
    longrepr = report.longrepr
    reason = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
    return reason[len("Skipped: "):] if reason.startswith("Skipped: ") else reason


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """The last lines of a run, after the short summary of skips and failures:
    each optional suite that did not run (or ran with less), with how to run
    it; one line each."""
    yield
    lines = optional_suites(terminalreporter.stats)
    if lines:
        terminalreporter.section("optional suites")
        for line in lines:
            terminalreporter.write_line(line)


def optional_suites(stats: dict) -> list:
    """The lines of :func:`pytest_terminal_summary` for a run's reports (by
    outcome); none when nothing ran (--collect-only)."""
    ran = {report.nodeid.split("::")[0].rsplit("/", 1)[-1]
           for outcome in ("passed", "failed", "skipped", "error", "xfailed", "xpassed")
           for report in stats.get(outcome, []) if getattr(report, "nodeid", "")}
    if not ran:
        return []
    skipped: dict = {}
    for report in stats.get("skipped", []):
        reason = _skip_reason(report)
        skipped.setdefault(_suite_of(reason) or reason, []).append(report)
    lines = [f"{name}: {len(skipped.pop(name))} skipped; to run them, {how}"
             for name, _words, how in OPTIONAL_SUITES if name in skipped]
    missing = [name for name, path in (
        ("fever-scorer", FEVER_SCORER / "src" / "fever" / "scorer.py"),
        ("scifact-evaluator", SCIFACT_EVALUATOR / "evaluator" / "eval.py")) if not path.is_file()]
    if missing and "test_track_tables.py" in ran:
        them = "them" if len(missing) > 1 else "it"
        lines.append(f"reference evaluators: the leaderboard's numbers were not compared with "
                     f"{' and '.join(missing)}; to compare them, check {them} out beside the "
                     f"project (../fever-scorer, ../scifact-evaluator) or name {them} in "
                     f"FEVER_SCORER_DIR, SCIFACT_EVALUATOR_DIR")
    lines += [f"other: {len(reports)} skipped: {reason}" for reason, reports in skipped.items()]
    return lines or ["none skipped (Perl comparisons, reference cases, browser, LaTeX tables, "
                     "reference evaluators: those this run holds)"]
