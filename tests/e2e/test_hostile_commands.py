"""Hostile input to the commands around the scorer: the track (run names,
-jobs, -trials, -figure_width, -clusters), the diff, the leaderboard
program's -validate, and the Python API's typed arguments.  Each case gets a
clear message and exit status 255 (the API: a ScorerError), or a result;
never a traceback, and nothing half-written.  (``tests/e2e/test_hostile.py`` runs
the catalogue of damaged input files.)"""
from __future__ import annotations

import json
import os
import pathlib
import random

import pytest

import scorer
from scorer.problems import ScorerError

from commands import run_in_process
from places import ROOT

POLICY = str(ROOT / "configs" / "classification.yaml")
LABELS = ("positive", "negative", "neutral")


def _gold(ids) -> bytes:
    return "".join(json.dumps({"id": item, "label": LABELS[k % 3]}) + "\n"
                   for k, item in enumerate(ids)).encode("utf-8")


def _predictions(ids, seed: int) -> bytes:
    draw = random.Random(seed)
    return "".join(f"{item}\t{draw.choice(LABELS)}\n" for item in ids).encode("utf-8")


IDS = [f"t{i:02d}" for i in range(1, 13)]


def _run(module: str, argv: list, folder) -> tuple:
    """(exit status, stdout and stderr) of ``python -m module argv``, in-process;
    never a traceback."""
    status, text = run_in_process(module, argv, folder)
    assert "Traceback" not in text, text
    return status, text


def _track(folder, names, extra=(), ids=IDS) -> tuple:
    (folder / "gold.jsonl").write_bytes(_gold(ids))
    runs = folder / "runs"
    runs.mkdir(exist_ok=True)
    paths = []
    for k, name in enumerate(names):
        path = runs / f"{name}.tsv"
        path.write_bytes(_predictions(ids, k))
        paths.append(str(path.relative_to(folder)))
    return _run("scorer.track", ["-policy", POLICY, "-jobs", "1", "-output_dir", "T", *extra,
                                 "gold.jsonl", *paths], folder)


# -------------------------------------------------------------- run names

def _cells(row: str) -> int:
    """The cells of a Markdown table row, '\\|' being text."""
    return len(row.replace("\\\\", "").replace("\\|", "").strip().strip("|").split("|"))


@pytest.mark.slow
def test_run_names_of_every_kind_make_whole_tables(tmp_path):
    names = ["p|ipe", "a\\|b", "50%", "a&b", "x$y", "#1", "{x}", "~t", "^c", "back\\slash",
             "<b>", '"q"', "'s'", "a b", "é-ünï", "😀", "-help", "n" * 200]
    status, text = _track(tmp_path, names, ["-bootstrap", "20", "-seed", "1"])
    assert status == 0, text
    for table in ("leaderboard.md", "significance.md"):
        rows = [line for line in (tmp_path / "T" / table).read_text("utf-8").splitlines()
                if line.startswith("|")]
        assert len({_cells(row) for row in rows}) == 1, table   # no row split by a '|'
    board = (tmp_path / "T" / "leaderboard.md").read_text("utf-8")
    assert "| p\\|ipe " in board and "| a\\\\\\|b " in board
    page = (tmp_path / "T" / "index.html").read_text("utf-8")
    assert "&lt;b&gt;" in page
    ranked = json.loads((tmp_path / "T" / "leaderboard.json").read_text("utf-8"))
    assert sorted(row["run"] for row in ranked) == sorted(names)


@pytest.mark.parametrize("name", ["a\tb", "a\nb", "a\rb", "a\x1bb", "a\x7fb"])
def test_a_run_name_with_a_control_character_is_refused(tmp_path, name):
    status, text = _track(tmp_path, ["plain", name])
    assert status == 255
    assert "holds a tab, a line break or another control character; rename the file" in text
    assert not (tmp_path / "T").exists()
    assert [entry for entry in os.listdir(tmp_path) if entry.startswith(".")] == []


# -------------------------------------------------------- numbers as text

@pytest.mark.parametrize("switch, value", [
    ("-jobs", "²"), ("-jobs", "٣"), ("-trials", "٣"), ("-trials", "１０"),
    ("-figure_width", "٣"), ("-figure_width", "1_0"), ("-figure_width", "7e0"),
    ("-figure_width", "nan"), ("-figure_width", "infinity"), ("-figure_width", "0x7")])
def test_a_number_not_in_ascii_decimal_digits_is_refused_naming_its_switch(tmp_path, switch,
                                                                           value):
    """'²' passed str.isdigit() and then broke int() (a traceback); '٣' and
    '1_0' were read as 3 and 10."""
    status, text = _track(tmp_path, ["a", "b"], [switch, value])
    assert status == 255 and switch in text, text
    assert not (tmp_path / "T").exists()


@pytest.mark.parametrize("value", ["²", "٣", "1_0"])
def test_the_diffs_top_takes_ascii_digits(tmp_path, value):
    (tmp_path / "gold.jsonl").write_bytes(_gold(IDS))
    (tmp_path / "a.tsv").write_bytes(_predictions(IDS, 1))
    assert _run("scorer", ["-policy", POLICY, "-output_file", "a", "gold.jsonl", "a.tsv"],
                tmp_path)[0] == 0
    status, text = _run("scorer.diff", ["-top", value, "a", "a"], tmp_path)
    assert status == 255 and "-top needs a whole number" in text


def test_the_diff_and_the_page_order_ids_of_any_digits(tmp_path):
    """Ids of digits other than ASCII's ('²' is a digit to str.isdigit() but
    not to int()) broke the diff's and the page's ordering with a traceback."""
    ids = ["²", "¹²", "٣", "10", "9", "x²", "t 1"]
    status, text = _track(tmp_path, ["a", "b"], ["-bootstrap", "10", "-seed", "2"], ids=ids)
    assert status == 0, text
    runs = tmp_path / "T" / "runs"
    status, text = _run("scorer.diff", ["-output_file", str(tmp_path / "d"),
                                        str(runs / "a" / "run"), str(runs / "b" / "run")],
                        tmp_path)
    assert status == 1, text         # the runs score differently
    import csv
    with open(tmp_path / "d.diff.csv", encoding="utf-8", newline="") as f:
        order = [row["query"] for row in csv.DictReader(f)]
    assert order and "²" in (tmp_path / "d.diff").read_text("utf-8") + "".join(order)
    # whole numbers (of the digits int() reads: ٣ is 3) first, in number order
    numbers = [item for item in order if item.isdecimal()]
    assert order[:len(numbers)] == sorted(numbers, key=int)


# ---------------------------------------------------------------- -clusters

CLUSTERS = "".join(f"t{i:02d}\tc{i % 4}\n" for i in range(1, 13))


@pytest.mark.slow
@pytest.mark.parametrize("label, data", [
    ("bom", "\ufeff" + CLUSTERS), ("crlf", CLUSTERS.replace("\n", "\r\n")),
    ("cr", CLUSTERS.replace("\n", "\r")), ("spaces", CLUSTERS.replace("\t", "   ")),
    ("comments-and-blank-lines", "# unit cluster\n\n" + CLUSTERS.replace("\n", "\n\n"))])
def test_a_clusters_file_as_people_write_it_reads_as_the_plain_one(tmp_path, label, data):
    results = {}
    for name, text in (("plain", CLUSTERS), (label, data)):
        folder = tmp_path / name
        folder.mkdir()
        (folder / "clusters.txt").write_bytes(text.encode("utf-8"))
        status, output = _track(folder, ["a", "b", "c"],
                                ["-bootstrap", "30", "-seed", "4", "-clusters", "clusters.txt"])
        assert status == 0, output
        results[name] = [(folder / "T" / table).read_bytes()
                         for table in ("leaderboard.csv", "significance.csv")]
    assert results[label] == results["plain"]


def test_a_bom_inside_a_clusters_file_is_shown(tmp_path):
    (tmp_path / "clusters.txt").write_text("t01\tc1\n\ufefft02\tc1\n", encoding="utf-8")
    status, text = _track(tmp_path, ["a", "b"],
                          ["-bootstrap", "10", "-seed", "1", "-clusters", "clusters.txt"])
    assert status == 255 and "line 2: unit '\\ufefft02' is not in the gold" in text


# ------------------------------------------------------- the leaderboard

def test_validate_names_a_device_as_such(tmp_path):
    (tmp_path / "gold.jsonl").write_bytes(_gold(IDS))
    status, text = _run("scorer.competition", ["-validate", os.devnull, "-policy", POLICY,
                                               "gold.jsonl"], tmp_path)
    assert status == 255
    assert f"{os.devnull}: not a file, a folder or a .zip (a device" in text


# ------------------------------------------------------------------ the API

@pytest.fixture
def classified(tmp_path, monkeypatch):
    (tmp_path / "gold.jsonl").write_bytes(_gold(IDS))
    (tmp_path / "run.tsv").write_bytes(_predictions(IDS, 1))
    (tmp_path / "other.tsv").write_bytes(_predictions(IDS, 2))
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("files, message", [
    ([b"gold.jsonl", b"run.tsv"], "files must be paths (str or os.PathLike), not bytes "
                                  "(b'gold.jsonl'); decode it with os.fsdecode()"),
    (b"gold.jsonl", "files must be a path or a list of paths (str or os.PathLike), not bytes"),
    (None, "not NoneType"), (5, "not int"), ({"gold.jsonl": 1}, "not dict"),
    ([["gold.jsonl"], "run.tsv"], "files must be paths (str or os.PathLike), not list"),
    (["gold.jsonl", 3], "not int"),
    (["gold\0.jsonl", "run.tsv"], "a file name cannot hold a NUL character"),
])
def test_score_refuses_what_is_not_a_path(classified, files, message):
    """A bytes path became the text "b'gold.jsonl'" (or, alone, its letters'
    numbers: '111 is given twice'); None, a number: a TypeError traceback."""
    with pytest.raises(ScorerError) as error:
        scorer.score(files, POLICY)
    assert message in str(error.value)
    with pytest.raises(ScorerError) as error:
        scorer.score_track(files, POLICY)
    assert message in str(error.value)


def test_score_takes_path_objects_and_any_iterable(classified):
    by_text = scorer.score(["gold.jsonl", "run.tsv"], POLICY)
    by_path = scorer.score((pathlib.Path(name) for name in ("gold.jsonl", "run.tsv")),
                           pathlib.Path(POLICY), samples=None)
    assert by_path.values == by_text.values
    assert by_path.reports["summary"] == by_text.reports["summary"]


@pytest.mark.parametrize("switches, message", [
    ({"bootstrap": 10 ** 5000, "seed": 1}, "bootstrap: a number of 16,610 bits is too large"),
    ({"bootstrap": 5, "seed": -(10 ** 5000)}, "seed: a number of 16,610 bits is too large"),
    ({"bootstrap": 5, "seed": b"1"}, "seed must be a string, a whole number"),
    ({"bootstrap": 5.0, "seed": 1}, "bootstrap must be a string, a whole number"),
    ({"samples": b"boot.txt"}, "samples must be a string"),
    ({"plot": "yes"}, "plot is a switch without a value"),
    ({"labels": ["positive"]}, "Unknown switch: -labels"),
])
def test_score_refuses_switches_of_the_wrong_kind(classified, switches, message):
    with pytest.raises(ScorerError) as error:
        scorer.score(["gold.jsonl", "run.tsv"], POLICY, **switches)
    assert message in str(error.value)


@pytest.mark.parametrize("options, message", [
    ({"trials": 10 ** 30}, "trials must be at most 999,999,999"),
    ({"jobs": 10 ** 12}, "jobs must be at most 999,999,999"),
    ({"jobs": -(10 ** 5000)}, "jobs must be a whole number of at least 1, not a huge negative"),
    ({"jobs": "2"}, "jobs must be a whole number of at least 1, not '2'"),
    ({"figure_width": 10 ** 400}, "-figure_width must be a width in inches"),
    ({"figure_width": float("nan")}, "-figure_width must be between 2 and 40 inches"),
    ({"output_dir": b"T"}, "output_dir must be a string, not bytes"),
    ({"clusters": b"c.txt"}, "clusters must be a string, not bytes"),
    ({"baseline": 1}, "baseline must be a string, not int"),
])
def test_score_track_refuses_options_of_the_wrong_kind(classified, options, message):
    """trials=10**30 was taken (the command line stops at nine digits): the
    track would have run for ever; figure_width=10**400 was an OverflowError."""
    with pytest.raises(ScorerError) as error:
        scorer.score_track(["gold.jsonl", "run.tsv", "other.tsv"], POLICY, bootstrap=5, seed=1,
                           **options)
    assert message in str(error.value)
    assert sorted(os.listdir(classified)) == ["gold.jsonl", "other.tsv", "run.tsv"]


def test_a_folder_of_tsv_predictions_is_a_folder_of_runs(tmp_path):
    """A classification run may be id<TAB>label lines: a folder of them was
    'no run found among the files' (only *.jsonl files were looked for)."""
    (tmp_path / "gold.jsonl").write_bytes(_gold(IDS))
    (tmp_path / "runs").mkdir()
    (tmp_path / "empty").mkdir()
    for k, name in enumerate(("a.tsv", "b.jsonl", "notes.txt")):
        data = _predictions(IDS, k) if name != "b.jsonl" else "".join(
            json.dumps({"id": item, "label": "neutral"}) + "\n" for item in IDS).encode()
        (tmp_path / "runs" / name).write_bytes(data)
    status, text = _run("scorer.track", ["-policy", POLICY, "-jobs", "1", "-output_dir", "T",
                                         "gold.jsonl", "runs"], tmp_path)
    assert status == 0, text
    ranked = json.loads((tmp_path / "T" / "leaderboard.json").read_text("utf-8"))
    assert sorted(row["run"] for row in ranked) == ["a", "b"]
    status, text = _run("scorer.track", ["-policy", POLICY, "-jobs", "1", "-output_dir", "T2",
                                         "gold.jsonl", "empty"], tmp_path)
    assert status == 255
    assert "no run found among the files (for Classification: " in text
    assert "a folder stands for its *.jsonl and *.tsv files" in text


@pytest.mark.parametrize("labels", [["averaged", "other"], ["items", "correct", "2tp"],
                                    ["tp:x", "x", "gold+predicted"]])
def test_labels_named_as_the_counts_tables_other_columns_score_as_scikit_learn(tmp_path,
                                                                              labels):
    """A label named 'averaged' gave its per-label columns the names of the
    averaged ones (2tp:averaged): f1_averaged was the micro F1 of the other
    labels (0 where scikit-learn says 0.8)."""
    from sklearn.metrics import accuracy_score, precision_recall_fscore_support
    from scorer.itemlabels.labels import label_name
    gold = [labels[0], labels[0], labels[1], labels[-1], labels[1]]
    predicted = [labels[0], labels[0], labels[0], labels[1], labels[-1]]
    over = labels[1:]
    (tmp_path / "policy.yaml").write_text(
        "task: classification\nlabels: [" + ", ".join(f"'{label}'" for label in labels)
        + "]\naverage_labels: [" + ", ".join(f"'{label}'" for label in over) + "]\n",
        encoding="utf-8")
    (tmp_path / "gold.jsonl").write_bytes(_gold([]) + "".join(
        json.dumps({"id": i, "label": label}) + "\n" for i, label in enumerate(gold)).encode())
    (tmp_path / "run.jsonl").write_bytes("".join(
        json.dumps({"id": i, "label": label}) + "\n"
        for i, label in enumerate(predicted)).encode())
    values = scorer.score([tmp_path / "gold.jsonl", tmp_path / "run.jsonl"],
                          tmp_path / "policy.yaml").values
    p, r, f, _ = precision_recall_fscore_support(gold, predicted, labels=labels, average=None,
                                                 zero_division=0)
    for k, label in enumerate(labels):
        name = label_name(label)
        assert (values[f"precision_{name}"], values[f"recall_{name}"], values[f"f1_{name}"]) \
            == pytest.approx((p[k], r[k], f[k]), abs=1e-15)
    micro = precision_recall_fscore_support(gold, predicted, labels=over, average="micro",
                                            zero_division=0)[2]
    assert values["micro_f1"] == pytest.approx(micro, abs=1e-15)
    assert values["accuracy"] == accuracy_score(gold, predicted)


@pytest.mark.slow
def test_a_leaderboard_of_many_labels_keeps_its_details_page_small(tmp_path):
    """300 labels x 4,000 items: the 'What counted' table held every label's
    counts of every item (6 million cells, a page of 13 MB); the columns zero
    for most items are left out, and the page says so."""
    import zipfile
    labels = [f"l{i}" for i in range(300)]
    ids = [f"i{k}" for k in range(4000)]
    draw = random.Random(5)
    (tmp_path / "policy.yaml").write_text("task: classification\nlabels: [" + ", ".join(labels)
                                          + "]\n", encoding="utf-8")
    (tmp_path / "gold.jsonl").write_text("".join(
        json.dumps({"id": item, "label": draw.choice(labels)}) + "\n" for item in ids),
        encoding="utf-8")
    status, text = _run("scorer.competition", ["-bundle", "b.zip", "-policy", "policy.yaml",
                                               "gold.jsonl"], tmp_path)
    assert status == 0, text
    with zipfile.ZipFile(tmp_path / "b.zip") as bundle:
        for member in bundle.namelist():
            if member.startswith("reference_data/"):
                target = tmp_path / "in" / "ref" / member.split("/", 1)[1]
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(bundle.read(member))
    (tmp_path / "in" / "res").mkdir()
    (tmp_path / "in" / "res" / "run.tsv").write_text("".join(
        f"{item}\t{draw.choice(labels)}\n" for item in ids), encoding="utf-8")
    status, text = _run("scorer.competition", ["in", "out"], tmp_path)
    assert status == 0, text
    page = (tmp_path / "out" / "detailed_results.html").read_text("utf-8")
    assert len(page) < 3_000_000
    assert "The 1,500 columns that are zero for most items (such as each label's counts) are " \
           "left out: the table would have 6,016,000 cells" in page


def test_labels_in_any_script_keep_their_names(tmp_path):
    """Labels in Chinese (or Arabic, Greek: SemEval's multilingual tasks) all
    became '__' in their metrics' names, and the policy was refused ('give
    their metrics one name')."""
    labels = ["正面", "负面", "إيجابي", "αρνητικό"]
    (tmp_path / "policy.yaml").write_text("task: classification\nlabels: [" + ", ".join(labels)
                                          + "]\n", encoding="utf-8")
    gold = [labels[k % 4] for k in range(8)]
    predicted = [labels[(k * 3) % 4] for k in range(8)]
    (tmp_path / "gold.jsonl").write_text("".join(
        json.dumps({"id": k, "label": label}, ensure_ascii=False) + "\n"
        for k, label in enumerate(gold)), encoding="utf-8")
    (tmp_path / "run.tsv").write_text("".join(f"{k}\t{label}\n" for k, label in
                                              enumerate(predicted)), encoding="utf-8")
    values = scorer.score([tmp_path / "gold.jsonl", tmp_path / "run.tsv"],
                          tmp_path / "policy.yaml").values
    from sklearn.metrics import f1_score
    for label, f1 in zip(labels, f1_score(gold, predicted, labels=labels, average=None,
                                          zero_division=0)):
        assert values[f"f1_{label}"] == pytest.approx(f1, abs=1e-15)


@pytest.mark.slow
def test_a_run_named_by_the_longest_file_name_makes_a_track(tmp_path):
    """A run's per-query lines went to a file named after the run with
    '.csv.gz' after it: for a run file of 255 bytes ('n' * 251 + '.tsv') the
    name was too long, and the track ended in a traceback."""
    longest = os.pathconf(tmp_path, "PC_NAME_MAX") - len(".tsv")
    names = ["n" * longest, "é" * (longest // 2)]
    status, text = _track(tmp_path, names, ["-bootstrap", "10", "-seed", "1"])
    assert status == 0, text
    ranked = json.loads((tmp_path / "T" / "leaderboard.json").read_text("utf-8"))
    assert sorted(row["run"] for row in ranked) == sorted(names)
    assert all((tmp_path / "T" / "runs" / name / "run.summary").is_file() for name in names)
