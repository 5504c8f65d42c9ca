"""The end of ``make test``: each optional suite that did not run (or ran with
less), with how to run it, one line each (``conftest.py`` prints them)."""
from __future__ import annotations

import places

#: The tests that compare the leaderboard's numbers with the reference evaluators.
REFERENCE_EVALUATOR_TESTS = "track/test_tables.py"
#: The optional suites: (name, words of their skip reasons, how to run them).
OPTIONAL_SUITES = (
    ("Perl comparisons", ("Perl scorer", "Perl toolkit"),
     "put a checkout of the official scorer (jamesmayfield/ColdStart) in ../ColdStart or "
     "name it in SCORER_PERL_DIR, with perl on the PATH"),
    ("reference cases", ("reference cases", "../shared", "case generator", "parity data"),
     "put the shared folder beside the project: ../shared/parity (parity cases) and "
     "../shared/tools (the case generator)"),
    ("browser", ("chromium", "chromedriver", "selenium"),
     "apt-get install chromium chromium-driver (.ci/run does), and pip install -e '.[test]'"),
    ("LaTeX tables", ("pdflatex", "booktabs", "pdftotext"),
     "apt-get install texlive-latex-base texlive-latex-recommended poppler-utils "
     "(.ci/run does)"),
    ("platform", ("glibc", "mallinfo2", "/proc"), "they need Linux with glibc 2.33 or later"),
)
#: The tests that run the reference evaluators themselves (skipped without them):
#: told on the reference evaluators' line.
EVALUATOR_WORDS = ("fever-scorer", "scifact-evaluator")


def _suite_of(reason: str) -> str:
    for name, words, _how in OPTIONAL_SUITES:
        if any(word.lower() in reason.lower() for word in words):
            return name
    return ""


def _skip_reason(report) -> str:
    longrepr = report.longrepr
    reason = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
    return reason[len("Skipped: "):] if reason.startswith("Skipped: ") else reason


def optional_suites(stats: dict) -> list:
    """The lines ``conftest.py`` prints at the end of a run, from its reports
    (by outcome); none when nothing ran (--collect-only)."""
    ran = {report.nodeid.split("::")[0]
           for outcome in ("passed", "failed", "skipped", "error", "xfailed", "xpassed")
           for report in stats.get(outcome, []) if getattr(report, "nodeid", "")}
    if not ran:
        return []
    skipped: dict = {}
    evaluator_skips = 0
    for report in stats.get("skipped", []):
        reason = _skip_reason(report)
        suite = _suite_of(reason)
        if not suite and any(word in reason for word in EVALUATOR_WORDS):
            evaluator_skips += 1
            continue
        skipped.setdefault(suite or reason, []).append(report)
    lines = [f"{name}: {len(skipped.pop(name))} skipped; to run them, {how}"
             for name, _words, how in OPTIONAL_SUITES if name in skipped]
    missing = [name for name, path in (
        ("fever-scorer", places.FEVER_SCORER / "src" / "fever" / "scorer.py"),
        ("scifact-evaluator", places.SCIFACT_EVALUATOR / "evaluator" / "eval.py"))
        if not path.is_file()]
    compared = any(path.endswith(REFERENCE_EVALUATOR_TESTS) for path in ran)
    if missing and (compared or evaluator_skips):
        them = "them" if len(missing) > 1 else "it"
        told = [f"{evaluator_skips} skipped"] if evaluator_skips else []
        if compared:
            told.append(f"the leaderboard's numbers were not compared with "
                        f"{' and '.join(missing)}")
        lines.append(f"reference evaluators: {', and '.join(told)}; to compare them, check "
                     f"{them} out beside the project (../fever-scorer, ../scifact-evaluator) "
                     f"or name {them} in FEVER_SCORER_DIR, SCIFACT_EVALUATOR_DIR")
    lines += [f"other: {len(reports)} skipped: {reason}" for reason, reports in skipped.items()]
    return lines or ["none skipped (Perl comparisons, reference cases, browser, LaTeX tables, "
                     "reference evaluators: those this run holds)"]
