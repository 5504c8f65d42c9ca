"""Golden files: every report of every hand-made fixture under fixtures/,
compared whole (``make regen-golden`` rewrites them on purpose)."""
from __future__ import annotations

import os

import pytest

from golden import FIXTURES, VOLATILE, find_cases, run_case

CASES = find_cases(FIXTURES)


def test_fixtures_exist():
    assert any("coldstart" in case for case in CASES)


@pytest.mark.parametrize("case", CASES, ids=[os.path.relpath(c, FIXTURES) for c in CASES])
def test_reports_equal_golden_files(case, tmp_path):
    status, outputs = run_case(case, str(tmp_path))
    expected_dir = os.path.join(case, "expected")
    with open(os.path.join(expected_dir, "status")) as f:
        assert status == int(f.read())
    expected = {name[len("run."):]: name for name in os.listdir(expected_dir)
                if name.startswith("run.")}
    produced = {ext for ext in outputs if ext not in VOLATILE}
    assert produced == set(expected)
    for extension, name in expected.items():
        with open(os.path.join(expected_dir, name), "rb") as f:
            assert outputs[extension] == f.read(), f"{name} differs from the golden file"
