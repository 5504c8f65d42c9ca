"""python -m scorer.competition -bundle with phases: SemEval's three
(practice on the development gold, evaluation and post-evaluation on the test
gold), written for Codabench (competition.yaml version 2) and CodaLab
Competitions (version 1), unzipped, and every field checked against the
platform's documented schema: its name and its type.  Each phase's scoring
program is then run on a submission: the practice shows everything, the
evaluation only that the submission was scored and valid, the
post-evaluation the scores alone; the test gold never reaches the page.

The schemas are those of the platforms' documentation: Codabench's "Yaml
Structure" page (docs.codabench.org, Organizers / Benchmark creation; the
leaderboard's ``index`` is in its Iris example), CodaLab's "Competition YAML
definition language" and "Organizer Leaderboard" wiki pages (the phase fields
its bundle reader takes: phasenumber, label, start_date, max_submissions,
max_submissions_per_day, is_scoring_only, scoring_program, reference_data,
leaderboard_management_mode, auto_migration, force_best_submission_to_leaderboard,
color, execution_time_limit, phase_never_ends, datasets, input_data, ...).
"""
from __future__ import annotations

import datetime
import io
import json
import os
import zipfile

import pytest
import yaml

from scorer.competition.__main__ import main

from places import CONFIGS, FIXTURES

DEV = FIXTURES / "scifact" / "basic" / "gold.jsonl"
PREDICTIONS = FIXTURES / "scifact" / "basic" / "predictions.jsonl"

# -- the documented schemas: field -> type (a tuple: any of them) -------------------------

when = (datetime.datetime, datetime.date)
CODABENCH = {
    "competition": {
        "required": {"title": str, "image": str, "terms": str},
        "optional": {"version": int, "description": str, "registration_auto_approve": bool,
                     "docker_image": str, "make_programs_available": bool,
                     "make_input_data_available": bool, "queue": str,
                     "enable_detailed_results": bool,
                     "show_detailed_results_in_submission_panel": bool,
                     "show_detailed_results_in_leaderboard": bool, "contact_email": str,
                     "reward": str, "auto_run_submissions": bool,
                     "can_participants_make_submissions_public": bool, "forum_enabled": bool,
                     "pages": list, "phases": list, "tasks": list, "solutions": list,
                     "fact_sheet": dict, "leaderboards": list},
    },
    "page": {"required": {"title": str, "file": str}, "optional": {}},
    "phase": {
        "required": {"name": str, "start": when, "tasks": list},
        "optional": {"end": when, "index": int, "description": str, "max_submissions": int,
                     "max_submissions_per_day": int, "auto_migrate_to_this_phase": bool,
                     "execution_time_limit": int, "hide_output": bool,
                     "hide_prediction_output": bool, "hide_score_output": bool,
                     "starting_kit": str, "public_data": str,
                     "accepts_only_result_submissions": bool},
    },
    "task": {
        "required": {"index": int, "name": str, "scoring_program": str},
        "optional": {"description": str, "input_data": str, "reference_data": str,
                     "ingestion_program": str, "ingestion_only_during_scoring": bool},
    },
    "leaderboard": {
        "required": {"title": str, "key": str, "columns": list},
        "optional": {"index": int, "submission_rule": str, "hidden": bool},
    },
    "column": {
        "required": {"title": str, "key": str, "index": int},
        "optional": {"sorting": str, "computation": str, "computation_indexes": list,
                     "precision": int, "hidden": bool},
    },
}
SUBMISSION_RULES = {"Add", "Add_And_Delete", "Add_And_Delete_Multiple", "Force_Last",
                    "Force_Latest_Multiple", "Force_Best"}

CODALAB = {
    "competition": {
        "required": {"title": str, "html": dict, "phases": dict},
        "optional": {"description": str, "image": str, "has_registration": bool,
                     "force_submission_to_leaderboard": bool,
                     "disallow_leaderboard_modifying": bool, "enable_detailed_results": bool,
                     "end_date": when + (type(None),), "admin_names": str,
                     "competition_docker_image": str, "leaderboard": dict,
                     "allow_teams": bool, "anonymous_leaderboard": bool,
                     "enable_per_submission_metadata": bool, "allow_public_submissions": bool,
                     "enable_forum": bool},
    },
    "html": {"required": {"overview": str, "evaluation": str, "terms": str, "data": str},
             "optional": {}},
    "phase": {
        "required": {"phasenumber": int, "label": str, "start_date": when,
                     "scoring_program": str, "reference_data": str},
        "optional": {"description": str, "max_submissions": int, "max_submissions_per_day": int,
                     "is_scoring_only": bool, "leaderboard_management_mode": str,
                     "auto_migration": bool, "force_best_submission_to_leaderboard": bool,
                     "color": str, "execution_time_limit": int, "phase_never_ends": bool,
                     "datasets": dict, "input_data": str, "ingestion_program": str,
                     "starting_kit": str, "public_data": str},
    },
    "leaderboard": {"required": {"leaderboards": dict, "columns": dict}, "optional": {}},
    "board": {"required": {"label": str, "rank": int}, "optional": {}},
    "column": {"required": {"leaderboard": dict, "label": str},
               "optional": {"numeric_format": int, "rank": int, "sort": str,
                            "selection_default": int, "computed": dict,
                            "column_group": dict}},
}


def check_fields(value: dict, schema: dict, where: str) -> None:
    assert isinstance(value, dict), where
    fields = {**schema["required"], **schema["optional"]}
    missing = set(schema["required"]) - set(value)
    assert not missing, f"{where}: lacks {missing}"
    for name, item in value.items():
        assert name in fields, f"{where}: '{name}' is not a documented field"
        types = fields[name] if isinstance(fields[name], tuple) else (fields[name],)
        # (a bool is an int to Python, never to the schema)
        assert isinstance(item, types) and not (isinstance(item, bool) and bool not in types), \
            f"{where}: '{name}' is {type(item).__name__}, not {types}"


# -- the three phases -----------------------------------------------------------------------

@pytest.fixture
def golds(tmp_path):
    """The development gold (the fixture's) and a test gold that differs from it."""
    dev = tmp_path / "dev.jsonl"
    dev.write_text(DEV.read_text())
    lines = DEV.read_text().splitlines()
    record = json.loads(lines[1])
    record["evidence"]["20"][0]["sentences"] = [2, 3]
    test = tmp_path / "test.jsonl"
    test.write_text("\n".join([lines[0], json.dumps(record), *lines[2:]]) + "\n")
    return dev, test


def bundle(tmp_path, golds, *more) -> str:
    dev, test = golds
    target = str(tmp_path / f"bundle{len(os.listdir(tmp_path))}.zip")
    assert main(["-bundle", target, "-policy", str(CONFIGS / "scifact.yaml"),
                 "-phase", f"practice:{dev}", "-phase", f"evaluation:{test}",
                 "-phase", "post-evaluation",
                 "-phase_start", "practice:2026-09-01", "-phase_start", "evaluation:2027-01-10",
                 "-phase_start", "post-evaluation:2027-01-31 12:00",
                 "-max_submissions", "evaluation:2/day", *more]) == 0
    return target


def test_codabench_bundle_of_three_phases_keeps_to_the_schema(tmp_path, golds):
    path = bundle(tmp_path, golds)
    with zipfile.ZipFile(path) as z:
        names = set(z.namelist())
        data = yaml.safe_load(z.read("competition.yaml"))
        check_fields(data, CODABENCH["competition"], "competition")
        assert data["version"] == 2
        for page in data["pages"]:
            check_fields(page, CODABENCH["page"], "page")
            assert z.read(page["file"]).strip()
        for task in data["tasks"]:
            check_fields(task, CODABENCH["task"], "task")
            assert f"{task['scoring_program']}/metadata.yaml" in names
            assert f"{task['reference_data']}/scoring.yaml" in names
        for phase in data["phases"]:
            check_fields(phase, CODABENCH["phase"], f"phase {phase['name']}")
        [board] = data["leaderboards"]
        check_fields(board, CODABENCH["leaderboard"], "leaderboard")
        assert board["submission_rule"] in SUBMISSION_RULES
        for column in board["columns"]:
            check_fields(column, CODABENCH["column"], "column")
            assert column["sorting"] in ("asc", "desc") and len(column["title"]) <= 36
        assert {data["image"], data["terms"]} <= names
        dev_in = z.read("reference_data_practice/dev.jsonl")
        test_in = z.read("reference_data_evaluation/test.jsonl")
        assert z.read("reference_data_post-evaluation/test.jsonl") == test_in != dev_in
    practice, evaluation, post = data["phases"]
    assert [p["name"] for p in data["phases"]] == ["practice", "evaluation", "post-evaluation"]
    assert [p["tasks"] for p in data["phases"]] == [[0], [1], [2]]
    # Phases follow one another; the last stays open.
    assert practice["start"] == datetime.datetime(2026, 9, 1)
    assert practice["end"] == evaluation["start"] == datetime.datetime(2027, 1, 10)
    assert evaluation["end"] == post["start"] == datetime.datetime(2027, 1, 31, 12)
    assert "end" not in post
    # SemEval's evaluation: 3 in all (the default), 2 a day (given), nothing shown.
    assert (evaluation["max_submissions"], evaluation["max_submissions_per_day"]) == (3, 2)
    assert evaluation["hide_output"] and evaluation["hide_score_output"] \
        and evaluation["hide_prediction_output"]
    assert not any(practice[k] or post[k] for k in ("hide_output", "hide_score_output"))


def test_codalab_bundle_of_three_phases_keeps_to_the_schema(tmp_path, golds):
    path = bundle(tmp_path, golds, "-format", "codalab")
    with zipfile.ZipFile(path) as z:
        names = set(z.namelist())
        data = yaml.safe_load(z.read("competition.yaml"))
        check_fields(data, CODALAB["competition"], "competition")
        assert "version" not in data
        check_fields(data["html"], CODALAB["html"], "html")
        for page in data["html"].values():
            assert page in names and b"<" in z.read(page)
        assert sorted(data["phases"]) == [1, 2, 3]
        for number, phase in data["phases"].items():
            check_fields(phase, CODALAB["phase"], f"phase {number}")
            assert phase["phasenumber"] == number
            # CodaLab reads zips, and a program's command from 'metadata'.
            for key in ("scoring_program", "reference_data"):
                assert phase[key].endswith(".zip") and phase[key] in names
            program = zipfile.ZipFile(io.BytesIO(z.read(phase["scoring_program"])))
            assert {"metadata", "score.py", "scorer/competition/archive.py"} <= \
                set(program.namelist())
            assert "$program/score.py" in yaml.safe_load(program.read("metadata"))["command"]
            assert "scoring.yaml" in zipfile.ZipFile(
                io.BytesIO(z.read(phase["reference_data"]))).namelist()
        check_fields(data["leaderboard"], CODALAB["leaderboard"], "leaderboard")
        for board in data["leaderboard"]["leaderboards"].values():
            check_fields(board, CODALAB["board"], "board")
        for key, column in data["leaderboard"]["columns"].items():
            check_fields(column, CODALAB["column"], f"column {key}")
            assert column["leaderboard"]["label"] in {
                b["label"] for b in data["leaderboard"]["leaderboards"].values()}
            assert column["sort"] in ("asc", "desc")
    practice, evaluation, post = (data["phases"][n] for n in (1, 2, 3))
    assert [p["label"] for p in (practice, evaluation, post)] == \
        ["practice", "evaluation", "post-evaluation"]
    assert [p["leaderboard_management_mode"] for p in (practice, evaluation, post)] == \
        ["default", "hide_results", "default"]
    assert post["start_date"] == datetime.datetime(2027, 1, 31, 12)
    assert (evaluation["max_submissions"], evaluation["max_submissions_per_day"]) == (3, 2)
    assert data["end_date"] is None


def _run_phase(tmp_path, path: str, phase: str, codalab: bool = False) -> dict:
    """The scoring program of one phase on the fixture's predictions (in
    process): {file in OUTPUT: text}."""
    folder = tmp_path / f"run-{phase}-{int(codalab)}"
    ref = folder / "input" / "ref"
    ref.mkdir(parents=True)
    with zipfile.ZipFile(path) as z:
        if codalab:
            zipfile.ZipFile(io.BytesIO(z.read(f"reference_data_{phase}.zip"))).extractall(ref)
        else:
            prefix = f"reference_data_{phase}/"
            for name in z.namelist():
                if name.startswith(prefix):
                    (ref / name[len(prefix):]).write_bytes(z.read(name))
    (folder / "input" / "res").mkdir()
    (folder / "input" / "res" / "predictions.jsonl").write_text(PREDICTIONS.read_text())
    assert main([str(folder / "input"), str(folder / "output")]) == 0
    return {name: (folder / "output" / name).read_text()
            for name in sorted(os.listdir(folder / "output"))}


@pytest.mark.parametrize("codalab", [False, True])
def test_each_phase_shows_what_it_should_and_never_the_test_gold(tmp_path, golds, codalab):
    path = bundle(tmp_path, golds, *(["-format", "codalab"] if codalab else []))
    practice = _run_phase(tmp_path, path, "practice", codalab)
    evaluation = _run_phase(tmp_path, path, "evaluation", codalab)
    post = _run_phase(tmp_path, path, "post-evaluation", codalab)
    page_files = ["detailed_results.html", "scores.json", "scores.txt"]
    # The practice (development gold): the report set and the whole page.
    assert "submission.debug" in practice and set(page_files) < set(practice)
    assert 'id="counted"' in practice["detailed_results.html"]
    assert 'id="why"' in practice["detailed_results.html"]
    # On the test gold: no report set, and a page without any unit.
    for shown in (evaluation, post):
        assert sorted(shown) == page_files
        page = shown["detailed_results.html"]
        for mark in ('id="counted"', 'id="why"', 'id="files"', "submission.", "Claim "):
            assert mark not in page
    # Evaluation: the scores reach the platform (its leaderboard, hidden), not the page.
    scores = json.loads(evaluation["scores.json"])
    assert scores == json.loads(post["scores.json"]) != json.loads(practice["scores.json"])
    assert "Scored and valid" in evaluation["detailed_results.html"]
    assert "2027-01-31 12:00:00" in evaluation["detailed_results.html"]
    assert repr(scores["sentence_label_f1"]) not in evaluation["detailed_results.html"]
    assert repr(scores["sentence_label_f1"]) in post["detailed_results.html"]


def test_the_policy_section_makes_the_same_bundle(tmp_path, golds):
    dev, test = golds
    policy = tmp_path / "policy.yaml"
    policy.write_text((CONFIGS / "scifact.yaml").read_text() + f"""
competition:
  format: codabench
  phases:
    - name: practice
      gold: {dev.name}
      start: 2026-09-01
    - name: evaluation
      gold: [{test.name}]
      start: 2027-01-10
      max_submissions_per_day: 2
    - name: post-evaluation
      start: 2027-01-31 12:00:00
""")
    from_switches = bundle(tmp_path, golds)
    from_policy = str(tmp_path / "policy-bundle.zip")
    assert main(["-bundle", from_policy, "-policy", str(policy)]) == 0
    with zipfile.ZipFile(from_switches) as a, zipfile.ZipFile(from_policy) as b:
        assert a.read("competition.yaml") == b.read("competition.yaml")
        assert a.namelist() == b.namelist()


@pytest.mark.parametrize("arguments, message", [
    (["-phase", "evaluation"], "the first phase needs its gold"),
    (["-phase", "practice:{dev}", "-phase", "evaluation:{test}",
      "-phase_start", "evaluation:2026-01-01", "-phase_start", "practice:2026-02-01"],
     "before it starts"),
    (["-phase", "practice:{dev}", "-phase", "evaluation:{test}", "-phase_end",
      "practice:2026-03-01", "-phase_start", "evaluation:2026-02-01",
      "-phase_start", "practice:2026-01-01"], "phases follow one another"),
    (["-phase", "practice:{dev}", "-max_submissions", "practice:x/day"], "N a whole number"),
    (["-phase", "practice:{dev}", "-max_submissions", "final:3"], "no phase final"),
    (["-phase", "practice:{dev}", "-phase_start", "practice:tomorrow"], "is not a date"),
    (["-phase", "a b:{dev}"], "a phase's name is letters"),
    (["-phase", "practice:{dev}", "-format", "kaggle"], "-format must be one of"),
    (["-phase", "practice:{dev}", "{dev}"], "besides them"),
    (["-phase", "practice:{dev}", "-phase", "practice:{test}"], "named twice"),
    (["-phase", "practice:{dev}", "-phase", "evaluation:{test}"], "needs a start"),
    (["-phase", "practice:missing.jsonl"], "missing.jsonl"),
])
def test_phase_mistakes_are_refused_and_nothing_is_written(tmp_path, golds, capsys,
                                                           arguments, message):
    dev, test = golds
    target = tmp_path / "b.zip"
    status = main(["-bundle", str(target), "-policy", str(CONFIGS / "scifact.yaml"),
                   *(a.format(dev=dev, test=test) for a in arguments)])
    err = capsys.readouterr().err
    assert status == 255 and message in err, err
    assert "Traceback" not in err and not target.exists()


def test_one_phase_for_codalab(tmp_path, golds):
    dev, _test = golds
    target = tmp_path / "b.zip"
    assert main(["-bundle", str(target), "-start", "2026-12-01", "-format", "codalab",
                 "-policy", str(CONFIGS / "scifact.yaml"), str(dev)]) == 0
    with zipfile.ZipFile(target) as z:
        data = yaml.safe_load(z.read("competition.yaml"))
    check_fields(data, CODALAB["competition"], "competition")
    [phase] = data["phases"].values()
    assert phase["start_date"] == datetime.datetime(2026, 12, 1)
    assert phase["leaderboard_management_mode"] == "default"


def test_coldstart_phases_take_their_query_file_and_assessments(tmp_path):
    demo = FIXTURES / "coldstart" / "demo" / "input"
    references = f"{demo / 'ldc-query.xml'},{demo / 'qrel.txt'}"
    target = str(tmp_path / "cs.zip")
    assert main(["-bundle", target, "-expand", "CSSF17", "-phase", f"practice:{references}",
                 "-phase", f"evaluation:{references}", "-phase_start",
                 "practice:2026-09-01", "-phase_start", "evaluation:2027-01-10"]) == 0
    with zipfile.ZipFile(target) as z:
        scoring = yaml.safe_load(z.read("reference_data_evaluation/scoring.yaml"))
        assert scoring["references"] == ["ldc-query.xml", "qrel.txt"]
        assert scoring["phase"]["shows"] == "receipt"
        # The same gold in both phases: the practice shows the scores, no detail.
        assert yaml.safe_load(z.read("reference_data_practice/scoring.yaml"))["phase"][
            "shows"] == "scores"
    folder = tmp_path / "run"
    ref = folder / "input" / "ref"
    ref.mkdir(parents=True)
    with zipfile.ZipFile(target) as z:
        for name in z.namelist():
            if name.startswith("reference_data_evaluation/"):
                (ref / name.split("/", 1)[1]).write_bytes(z.read(name))
    (folder / "input" / "res").mkdir()
    (folder / "input" / "res" / "DEMORUN.tab.txt").write_bytes(
        (demo / "DEMORUN.tab.txt").read_bytes())
    assert main([str(folder / "input"), str(folder / "output")]) == 0
    assert sorted(os.listdir(folder / "output")) == ["detailed_results.html", "scores.json",
                                                     "scores.txt"]
    assert "Scored and valid" in (folder / "output" / "detailed_results.html").read_text()


def test_one_codabench_phase_is_the_bundle_it_always_was(tmp_path, golds):
    """-format codabench, or a policy whose competition: section only says how
    -collect ranks, make the one-phase bundle byte for byte."""
    dev, _test = golds
    policy = tmp_path / "p.yaml"
    policy.write_text((CONFIGS / "scifact.yaml").read_text()
                      + "competition:\n  ranked_submission: best\n")
    made = []
    for extra in ([], ["-format", "codabench"], ["-policy", str(policy)]):
        target = tmp_path / f"b{len(made)}.zip"
        policy_switch = [] if extra[:1] == ["-policy"] else ["-policy",
                                                            str(CONFIGS / "scifact.yaml")]
        assert main(["-bundle", str(target), "-start", "2026-12-01", *policy_switch, *extra,
                     str(dev)]) == 0
        made.append(target.read_bytes())
    with zipfile.ZipFile(io.BytesIO(made[0])) as z:
        assert "reference_data/scoring.yaml" in z.namelist()
    assert made[0] == made[1]
    with zipfile.ZipFile(io.BytesIO(made[0])) as a, zipfile.ZipFile(io.BytesIO(made[2])) as b:
        assert a.read("competition.yaml") == b.read("competition.yaml")


@pytest.mark.slow
@pytest.mark.parametrize("codalab", [False, True])
def test_the_phases_on_the_platform(tmp_path, golds, codalab):
    """Each phase's reference data and the bundle's own scoring program (no
    scorer installed), as the platform runs them."""
    from platform_standin import play_platform
    path = bundle(tmp_path, golds, *(["-format", "codalab"] if codalab else []))
    submission = {"team/preds.jsonl": PREDICTIONS.read_text()}
    seen = {}
    for phase in ("practice", "evaluation", "post-evaluation"):
        status, stderr, output = play_platform(tmp_path, path, submission,
                                               f"reference_data_{phase}", codalab)
        assert status == 0, stderr
        seen[phase] = sorted(os.listdir(output))
        assert json.loads((output / "scores.json").read_text())
    assert "submission.debug" in seen["practice"]
    assert seen["evaluation"] == seen["post-evaluation"] == [
        "detailed_results.html", "scores.json", "scores.txt"]
