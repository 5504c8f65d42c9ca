"""python -m scorer -plot: the single run's picture joins its report set."""
from __future__ import annotations

import struct
from pathlib import Path

from scorer import cli
from scorer import tasks
from scorer.reportframes import interval_frame

from places import ROOT

DEMO = ROOT / "fixtures" / "coldstart" / "demo" / "input"
FEVER = ROOT / "fixtures" / "fever" / "blind"


def _png_size(path: Path) -> tuple:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_plot_draws_the_run_with_its_intervals(tmp_path):
    argv = ["-expand", "CSSF17", "-bootstrap", "30", "-seed", "1", "-plot",
            "-output_file", str(tmp_path / "run"), "-error_file", str(tmp_path / "run.errlog"),
            str(DEMO / "ldc-query.xml"), str(DEMO / "qrel.txt"), str(DEMO / "DEMORUN.tab.txt")]
    assert cli.main(argv) == 0
    width, height = _png_size(tmp_path / "run.png")
    assert width > 300 and height > 300
    # Every interval drawn is one the bootstrap reports hold.
    intervals = interval_frame(tasks.get("coldstart"), [(tmp_path / "run.confidence").read_text(),
                                             (tmp_path / "run.apconfidence").read_text()])
    keys = set(zip(intervals["variant"], intervals["aggregate"], intervals["hop"],
                   intervals["metric"]))
    assert ("LDCMEAN", "macro", "ALL", "F1") in keys and ("SF", "micro", "0", "P") in keys
    assert ("LDCMEAN", "macro", "ALL", "AP") in keys
    line = [l for l in (tmp_path / "run.confidence").read_text().splitlines()
            if l.startswith("ALLEP_SLOTFLG_Mi_A_R ")][0].split()
    row = intervals[(intervals["variant"] == "SF") & (intervals["aggregate"] == "micro")
                    & (intervals["hop"] == "ALL") & (intervals["metric"] == "R")].iloc[0]
    assert (f"{row.low:.4f}", f"{row.high:.4f}") == (line[2], line[7])


def test_plot_for_claims_and_refused_on_a_stream(tmp_path, capsys):
    argv = ["-policy", str(ROOT / "configs" / "fever.yaml"), "-plot", "-output_file",
            str(tmp_path / "fever"), str(FEVER / "actual.jsonl"), str(FEVER / "predictions.jsonl")]
    assert cli.main(argv) == 0
    assert _png_size(tmp_path / "fever.png")[0] > 300
    argv[argv.index("-output_file") + 1] = "stdout"
    assert cli.main(argv) == 255
    assert "-plot draws <prefix>.png" in capsys.readouterr().err
