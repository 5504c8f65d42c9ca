"""The track's tables as files: leaderboard.json holds every number exactly,
equal to the reference scorers' (fever-scorer's ``fever_score``, SciFact's
``eval.py``) run on the same files where they are checked out beside the
project, else to the numbers ../shared/parity stores for its predictions."""
from __future__ import annotations

import csv
import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from scorer.track import tables
from scorer.track.__main__ import main as track_main

from places import FEVER_SCORER, PARITY, ROOT, SCIFACT_EVALUATOR

FEVER_NAMES = ("strict_score", "label_accuracy", "precision", "recall", "f1")

needs_parity = pytest.mark.skipif(not PARITY.is_dir(),
                                  reason=f"reference cases not found at {PARITY}")

#: The FEVER reference as its own tests call it: both files read with
#: json.loads per line, fever_score at max_evidence 5, the five numbers printed.
FEVER_REFERENCE = """\
import json, sys
sys.path[:0] = sys.argv[1:3]
from fever.scorer import fever_score

actual = [json.loads(line) for line in open(sys.argv[3])]
predictions = [json.loads(line) for line in open(sys.argv[4])]
print(json.dumps(fever_score(predictions, actual, max_evidence=5)))
"""


def fever_reference(gold: Path, predictions: Path, shim: Path):
    """fever_score's five numbers, by name; None where fever-scorer is not checked out."""
    if not (FEVER_SCORER / "src" / "fever" / "scorer.py").is_file():
        return None
    shim.mkdir(exist_ok=True)
    (shim / "six.py").write_text("string_types = (str,)\n")  # all it uses of six
    done = subprocess.run([sys.executable, "-c", FEVER_REFERENCE, str(FEVER_SCORER / "src"),
                           str(shim), str(gold), str(predictions)],
                          capture_output=True, text=True, check=True)
    return dict(zip(FEVER_NAMES, json.loads(done.stdout)))


def scifact_reference(gold: Path, predictions: Path, output: Path):
    """eval.py's metrics file (--verbose: every metric, not the F1s alone); None
    where scifact-evaluator is not checked out."""
    script = SCIFACT_EVALUATOR / "evaluator" / "eval.py"
    if not script.is_file():
        return None
    subprocess.run([sys.executable, str(script), "--labels_file", str(gold), "--preds_file",
                    str(predictions), "--metrics_output_file", str(output), "--verbose"],
                   capture_output=True, check=True)
    return json.loads(output.read_text())


def csv_records(path: Path) -> list:
    """The CSV's rows with every number read back as the double it spells."""
    with open(path, newline="", encoding="utf-8") as f:
        return [{key: (None if text == "" else number(text)) for key, text in row.items()}
                for row in csv.DictReader(f)]


def number(text: str):
    try:
        return int(text)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            return {"True": True, "False": False}.get(text, text)


def assert_json_is_the_csv(directory: Path) -> list:
    """leaderboard.json holds the CSV's numbers to the last bit; returns its records."""
    records = json.loads((directory / "leaderboard.json").read_text())
    assert records == csv_records(directory / "leaderboard.csv")
    return records


def write_lines(path: Path, records) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def read_lines(path: Path) -> list:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.mark.slow
@needs_parity
def test_a_fever_tracks_json_holds_fever_scores_numbers(tmp_path):
    case = PARITY / "fever" / "real"
    expected = next(r for r in json.loads((case / "expected.json").read_text())["results"]
                    if r["max_evidence"] == 5)
    runs = tmp_path / "runs"
    runs.mkdir()
    given = write_lines(runs / "team_given.jsonl", read_lines(case / "predictions.jsonl"))
    # A second run: every seventh label turned, every fifth evidence list cut to one.
    changed = read_lines(case / "predictions.jsonl")
    labels = ["SUPPORTS", "REFUTES", "NOT ENOUGH INFO"]
    for i, prediction in enumerate(changed):
        if i % 7 == 0:
            prediction["predicted_label"] = labels[(labels.index(prediction["predicted_label"])
                                                    + 1) % 3]
        if i % 5 == 0:
            prediction["predicted_evidence"] = prediction["predicted_evidence"][:1]
    turned = write_lines(runs / "team_turned.jsonl", changed)
    out = tmp_path / "track"
    assert track_main(["-policy", str(ROOT / "configs" / "fever.yaml"), "-bootstrap", "20",
                       "-seed", "1", "-jobs", "1", "-output_dir", str(out),
                       str(case / "actual.jsonl"), str(given), str(turned)]) == 0

    records = {r["run"]: r for r in assert_json_is_the_csv(out)}
    assert set(records) == {"team_given", "team_turned"}
    assert {name: records["team_given"]["score" if name == "strict_score" else name]
            for name in FEVER_NAMES} == {name: expected[name] for name in FEVER_NAMES}
    for run, path in (("team_given", given), ("team_turned", turned)):
        reference = fever_reference(case / "actual.jsonl", path, tmp_path / "shim")
        if reference is None:
            continue
        assert {name: records[run]["score" if name == "strict_score" else name]
                for name in FEVER_NAMES} == reference, run
    assert records["team_given"]["score"] != records["team_turned"]["score"]


@pytest.mark.slow
@needs_parity
def test_a_scifact_tracks_json_holds_the_evaluators_numbers(tmp_path):
    case = PARITY / "scifact" / "synthetic"
    expected = json.loads((case / "expected_metrics.json").read_text())
    runs = tmp_path / "runs"
    runs.mkdir()
    given = write_lines(runs / "team_given.jsonl", read_lines(case / "predictions.jsonl"))
    changed = read_lines(case / "predictions.jsonl")
    for i, prediction in enumerate(changed):   # every fourth claim predicts nothing
        if i % 4 == 0:
            prediction["evidence"] = {}
    emptied = write_lines(runs / "team_emptied.jsonl", changed)
    out = tmp_path / "track"
    assert track_main(["-policy", str(ROOT / "configs" / "scifact.yaml"), "-bootstrap", "20",
                       "-seed", "1", "-jobs", "1", "-output_dir", str(out),
                       str(case / "gold.jsonl"), str(given), str(emptied)]) == 0

    records = {r["run"]: r for r in assert_json_is_the_csv(out)}

    def numbers(run: str) -> dict:
        record = records[run]
        return {name: record["score" if name == record["metric"] else name]
                for name in expected}

    assert numbers("team_given") == expected
    for run, path in (("team_given", given), ("team_emptied", emptied)):
        reference = scifact_reference(case / "gold.jsonl", path, tmp_path / f"{run}.json")
        if reference is not None:
            assert numbers(run) == reference, run
    assert numbers("team_given") != numbers("team_emptied")


def test_json_cells_are_exact_and_missing_values_are_null():
    frame = pd.DataFrame({"rank": pd.array([1, None], dtype="Int64"), "run": ["a", "b"],
                          "score": [0.1 + 0.2, math.nan], "count": np.array([3, 4]),
                          "small": [np.float64(5e-324), np.inf],
                          "significant": np.array([True, False])})
    assert json.loads(tables.json_text(frame)) == [
        {"rank": 1, "run": "a", "score": 0.30000000000000004, "count": 3, "small": 5e-324,
         "significant": True},
        {"rank": None, "run": "b", "score": None, "count": 4, "small": None,
         "significant": False}]
    assert "0.30000000000000004" in tables.json_text(frame)


def test_markdown_shows_p_values_too_small_for_4_decimals_as_below_them():
    """A p of 3e-19 is not 0.0000 to a reader; the CSV keeps the number itself."""
    frame = pd.DataFrame({"run_a": ["a", "a", "b"], "run_b": ["b", "c", "c"],
                          "delta": [0.25, 0.5, 0.125],
                          "p_holm": [3e-19, 0.04321, math.nan],
                          "p_bh": [0.0001, 0.00009999, 1.0]})
    rows = [line.split("|")[1:-1] for line in tables.markdown_text(frame).splitlines()[2:]]
    assert [[cell.strip() for cell in row[3:]] for row in rows] == [
        ["<0.0001", "0.0001"], ["0.0432", "<0.0001"], ["", "1.0000"]]
    assert [row[2].strip() for row in rows] == ["0.2500", "0.5000", "0.1250"]
    assert tables.csv_text(frame).splitlines()[1].split(",")[3] == "3e-19"


def test_markdown_leaves_missing_numbers_empty_as_the_csv_does(tmp_path):
    """A run whose file has an error has no numbers, and wins/ties/losses are
    empty for a metric that is not a mean of per-claim values (FEVER's f1): the
    Markdown a person reads first shows empty cells there, not 'nan' or '<NA>'."""
    gold, lines = [], []
    for i in range(30):
        gold.append({"id": i, "verifiable": "VERIFIABLE", "label": "SUPPORTS", "claim": "c",
                     "evidence": [[[i, i, f"P{i}", 0]]]})
    write_lines(tmp_path / "gold.jsonl", gold)
    for name, right in (("good", 25), ("fair", 12)):
        write_lines(tmp_path / f"{name}.jsonl", [
            {"id": i, "predicted_label": "SUPPORTS" if i < right else "REFUTES",
             "predicted_evidence": [[f"P{i}", 0]] if i < right + 3 else []} for i in range(30)])
    (tmp_path / "broken.jsonl").write_text('{"id": 0, "predicted_label":\n')
    out = tmp_path / "track"
    assert track_main(["-policy", str(ROOT / "configs" / "fever.yaml"), "-bootstrap", "20",
                       "-seed", "1", "-jobs", "1", "-metric", "f1", "-output_dir", str(out),
                       str(tmp_path / "gold.jsonl"), str(tmp_path / "good.jsonl"),
                       str(tmp_path / "fair.jsonl"), str(tmp_path / "broken.jsonl")]) == 255
    for name in ("leaderboard.md", "significance.md"):
        table = (out / name).read_text().split("\n\n")[0]
        assert "nan" not in table and "<NA>" not in table, name
    board = [[cell.strip() for cell in line.split("|")[1:-1]]
             for line in (out / "leaderboard.md").read_text().splitlines()[2:5]]
    assert board[2][:4] == ["", "broken", "f1", ""] and board[2][-1] == "errors"
    pair = [cell.strip() for cell in (out / "significance.md").read_text().splitlines()[2]
            .split("|")[1:-1]]
    assert pair[:2] == ["good", "fair"] and pair[6:9] == ["", "", ""]
    assert pd.read_csv(out / "significance.csv").wins.isna().all()


def png_width(path: Path) -> int:
    return int.from_bytes(path.read_bytes()[16:20], "big")


@pytest.mark.slow
def test_figure_width_sizes_the_pictures_and_a_bad_width_is_refused(tmp_path, capsys):
    from scorer.display import plot
    gold = ROOT / "fixtures" / "fever" / "blind" / "actual.jsonl"
    predictions = ROOT / "fixtures" / "fever" / "blind" / "predictions.jsonl"
    arguments = ["-policy", str(ROOT / "configs" / "fever.yaml"), "-jobs", "1", str(gold),
                 str(predictions)]
    for width, pixels in ((None, 1400), ("3.3", 660)):
        out = tmp_path / f"track-{width}"
        given = ["-figure_width", width] if width else []
        assert track_main(given + ["-output_dir", str(out)] + arguments) == 0
        assert png_width(out / "leaderboard.png") == pixels == round(
            float(width or plot.DEFAULT_WIDTH_IN) * plot.LEADERBOARD_DPI)
        assert (out / "leaderboard.pdf").read_bytes().startswith(b"%PDF-")
    capsys.readouterr()
    for bad in ("0.5", "seven", "nan"):
        out = tmp_path / f"bad-{bad}"
        assert track_main(["-figure_width", bad, "-output_dir", str(out)] + arguments) == 255
        said = capsys.readouterr().out
        assert "-figure_width must be" in said and f"'{bad}'" in said
        assert not out.exists()
