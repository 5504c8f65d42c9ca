"""Where the tests find things: the project, its fixtures and policies, and what
may stand beside it (the reference cases in ../shared, the Perl scorer, the
reference evaluators), each overridable where the docs say so."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"
CONFIGS = ROOT / "configs"
#: the bundled Cold Start example (make demo)
DEMO = FIXTURES / "coldstart" / "demo" / "input"
#: The files docs/adding-a-task.md has its reader make (tests/e2e/test_howto_pages.py
#: makes them in a copy; the docs' path check allows them)
MADE_BY_THE_READER = ("scorer/tasks/shortanswer.py", "configs/shortanswer.yaml")
SHARED = ROOT.parent / "shared"
PARITY = SHARED / "parity"
SHARED_TOOLS = SHARED / "tools"
#: The reference evaluators the claim tasks' numbers are checked against, where
#: they are checked out.
FEVER_SCORER = Path(os.environ.get("FEVER_SCORER_DIR") or ROOT.parent / "fever-scorer")
SCIFACT_EVALUATOR = Path(os.environ.get("SCIFACT_EVALUATOR_DIR")
                         or ROOT.parent / "scifact-evaluator")


def perl_dir():
    """The official scorer's checkout (CS-Score-MASTER.pl, ColdStartLib.pm), if any:
    $SCORER_PERL_DIR, else ../ColdStart beside the project."""
    candidates = [os.environ.get("SCORER_PERL_DIR"), str(ROOT.parent / "ColdStart")]
    for candidate in candidates:
        if candidate and os.path.isfile(os.path.join(candidate, "CS-Score-MASTER.pl")) \
                and shutil.which("perl"):
            return candidate
    return None
