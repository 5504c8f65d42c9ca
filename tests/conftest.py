"""Shared test fixtures and the end of the run: the Perl scorer where it is
checked out, the bundled Cold Start demo in a test's folder, and one line per
optional suite that did not run.  Where things
are: ``helpers/places.py``; what each optional suite needs: ``helpers/suites.py``
(``setup.cfg`` puts ``helpers/`` and the Cold Start world builder,
``fixtures/coldstart/world.py``, on the import path)."""
from __future__ import annotations

import signal

import pytest
from hypothesis import settings

from coldstart_cases import Demo
from places import perl_dir
from suites import optional_suites

# Speed is the benchmark's to measure (make bench), never a test's: hypothesis's
# per-example deadline fails a property on a loaded machine, so no test has one.
settings.register_profile("scorer", deadline=None)
settings.load_profile("scorer")


def pytest_configure(config):
    """A shell starts a background job (``make test &``, ``nohup make test``) with
    SIGINT (and under nohup SIGHUP) ignored, and the scorer, like any command,
    leaves an ignored signal ignored; the tests of what a signal does would then
    see nothing happen.  They test the signals as a terminal delivers them: each
    ignored one gets its default back, in this process and the commands it starts."""
    defaults = {signal.SIGINT: signal.default_int_handler, signal.SIGTERM: signal.SIG_DFL,
                signal.SIGHUP: signal.SIG_DFL}
    for signum, handler in defaults.items():
        if signal.getsignal(signum) is signal.SIG_IGN:
            signal.signal(signum, handler)


@pytest.fixture(scope="session")
def perl_scorer():
    directory = perl_dir()
    if directory is None:
        pytest.skip("the official Perl scorer is not available (set SCORER_PERL_DIR to a "
                    "checkout of jamesmayfield/ColdStart, or put it in ../ColdStart)")
    return directory


@pytest.fixture
def demo(tmp_path, capsys, monkeypatch):
    """The bundled Cold Start demo copied to the test's folder, which is the
    working directory; reports go to ``out/run`` (``coldstart_cases.Demo``)."""
    case = Demo(tmp_path, capsys)
    monkeypatch.chdir(case.inputs)
    return case


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
