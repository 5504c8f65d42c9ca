"""scorer/runpicture.py: the picture of -plot drawn from a scored outcome:
a PNG, the same bytes for the same outcome, its intervals drawn only when the
run was bootstrapped, for a claim task as for Cold Start."""
from __future__ import annotations

import struct

from scorer.request import build
from scorer import runpicture, scoring
from scorer.problems import Problems

from places import DEMO, FIXTURES, ROOT

COLDSTART = [str(DEMO / "ldc-query.xml"), str(DEMO / "qrel.txt"), str(DEMO / "DEMORUN.tab.txt")]
BLIND = FIXTURES / "fever" / "blind"


def _size(png: bytes) -> tuple:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", png[16:24])


def test_a_run_is_drawn_with_its_intervals_when_bootstrapped():
    plain = scoring.score(build(COLDSTART, expand="CSSF17"), Problems())
    sampled = scoring.score(build(COLDSTART, expand="CSSF17", bootstrap=30, seed=1),
                            Problems())
    picture = runpicture.draw("coldstart", plain)
    width, height = _size(picture)
    assert width > 300 and height > 300
    assert runpicture.draw("coldstart", plain) == picture
    with_intervals = runpicture.draw("coldstart", sampled)
    assert _size(with_intervals) == (width, height) and with_intervals != picture


def test_a_claim_run_is_drawn():
    outcome = scoring.score(build([str(BLIND / "actual.jsonl"),
                                            str(BLIND / "predictions.jsonl")],
                                           str(ROOT / "configs" / "fever.yaml")), Problems())
    assert _size(runpicture.draw("fever", outcome))[0] > 300
