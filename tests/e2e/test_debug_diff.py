"""A .debug file is for people: a changed policy must show up as a small,
readable diff of two debug files (the entries whose labels changed)."""
from __future__ import annotations

import difflib
import os
import shutil

from coldstart_cases import score
from golden import FIXTURES
from places import ROOT

DEMO = os.path.join(FIXTURES, "coldstart", "demo", "input")
FILES = ["ldc-query.xml", "qrel.txt", "DEMORUN.tab.txt"]


def test_policy_change_is_a_readable_debug_diff(tmp_path):
    shutil.copytree(DEMO, tmp_path / "case")
    case = str(tmp_path / "case")
    _, default, _ = score(case, FILES)
    _, sf_policy, _ = score(case, FILES, "-policy", os.path.join(ROOT, "configs",
                                                                  "coldstart-sf.yaml"))
    before = default["debug"].split("AP COMPUTATION DEBUG INFO BEGINS")[0].splitlines()
    after = sf_policy["debug"].split("AP COMPUTATION DEBUG INFO BEGINS")[0].splitlines()
    diff = [line for line in difflib.unified_diff(before, after, lineterm="", n=0)
            if not line.startswith(("---", "+++", "@@"))]
    # Under the SF policy redundant responses are WRONG instead of IGNORE:
    assert "-\tPOSTPOLICY ASSESSMENT:\tIGNORE,REDUNDANT" in diff
    assert "+\tPOSTPOLICY ASSESSMENT:\tREDUNDANT,WRONG" in diff
    # Only the label lines change; the rows and their responses stay put.
    changed = {line[1:].split(":")[0] for line in diff}
    assert changed == {"\tPOSTPOLICY ASSESSMENT"}
    assert len(diff) < len(before) // 4
