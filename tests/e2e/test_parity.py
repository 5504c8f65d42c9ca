"""Parity with the official Perl scorer on the reference cases in
../shared/parity/coldstart: every report byte for byte (a line may also equal
that line of a recorded hash-order variant, as ../shared/tools/parity allows).
"""
from __future__ import annotations

import os

import pytest

from golden import find_cases, run_case
from places import PARITY

CASES_ROOT = PARITY / "coldstart"
CASES = find_cases(str(CASES_ROOT)) if CASES_ROOT.is_dir() else []

pytestmark = pytest.mark.parity


def matches_variants(case: str, name: str, got: bytes) -> bool:
    """Each line equals the same line of expected/ or of some variants/*/ file."""
    variants = os.path.join(case, "variants")
    if not os.path.isdir(variants):
        return False
    options = [os.path.join(case, "expected", name)]
    options += [os.path.join(variants, v, name) for v in sorted(os.listdir(variants))
                if os.path.exists(os.path.join(variants, v, name))]
    texts = []
    for path in options:
        with open(path, "rb") as f:
            texts.append(f.read().split(b"\n"))
    lines = got.split(b"\n")
    if any(len(t) != len(lines) for t in texts):
        return any(b"\n".join(t) == got for t in texts)
    return all(any(t[i] == line for t in texts) for i, line in enumerate(lines))


@pytest.mark.skipif(not CASES, reason=f"no reference cases: {CASES_ROOT} does not exist "
                                      f"(the parity cases live beside the project)")
@pytest.mark.parametrize("case", CASES, ids=[os.path.relpath(c, CASES_ROOT) for c in CASES])
def test_reports_equal_the_perl_scorer(case, tmp_path):
    status, outputs = run_case(case, str(tmp_path))
    assert status == 0
    expected_dir = os.path.join(case, "expected")
    for name in sorted(os.listdir(expected_dir)):
        with open(os.path.join(expected_dir, name), "rb") as f:
            want = f.read()
        got = outputs.get(name.split(".", 1)[1])
        assert got is not None, f"{name} was not written"
        if got != want:
            assert matches_variants(case, name, got), f"{name} differs from the Perl's"
