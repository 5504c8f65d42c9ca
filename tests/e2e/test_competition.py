"""python -m scorer.competition: the bundle, played on a stand-in platform,
gives the scores a direct run gives; hostile and broken submissions are
refused with a message and leave no scores behind."""
from __future__ import annotations

import io
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import zipfile

import pytest
import yaml

from scorer import api, cli
from scorer.competition import archive
from scorer.competition.__main__ import main

from places import ROOT
from platform_standin import platform_path, play_platform

CONFIGS = os.path.join(ROOT, "configs")
DEMO = os.path.join(ROOT, "fixtures", "coldstart", "demo", "input")
FEVER = os.path.join(ROOT, "fixtures", "fever", "blind")
SCIFACT_OFFICIAL = os.path.join(ROOT, "..", "shared", "parity", "scifact", "official_small")
START = "2026-12-01"


def make_bundle(tmp_path, *arguments) -> str:
    path = str(tmp_path / "bundle.zip")
    assert main(["-bundle", path, "-start", START, *arguments]) == 0
    return path


def direct_run(tmp_path, arguments: list) -> dict:
    """python -m scorer's own reports, for comparison."""
    prefix = str(tmp_path / "direct" / "run")
    os.makedirs(os.path.dirname(prefix))
    status = cli.main(["-output_file", prefix, "-error_file", prefix + ".errlog", *arguments])
    assert status == 0
    folder = os.path.dirname(prefix)
    return {name: open(os.path.join(folder, name), encoding="utf-8").read()
            for name in os.listdir(folder)}


@pytest.mark.slow
def test_no_scorer_without_the_bundle(tmp_path):
    """The platform stand-in really has no scorer but the bundle's copy, and no msgspec."""
    env = {"PYTHONPATH": platform_path(tmp_path), "PATH": os.environ.get("PATH", "")}
    done = subprocess.run([sys.executable, "-S", "-c", "import yaml, numpy, pandas, scipy\n"
                           "for name in ('scorer', 'msgspec'):\n"
                           " try:\n  __import__(name)\n except ImportError:\n"
                           "  print(name, 'absent')"],
                          cwd=str(tmp_path), env=env, capture_output=True, text=True)
    assert done.stdout.split("\n")[:2] == ["scorer absent", "msgspec absent"], done.stderr


def _same_reports(output, direct: dict, names: list) -> None:
    for extension in names:
        assert (output / f"submission.{extension}").read_text() == direct[f"run.{extension}"]


@pytest.mark.slow
def test_coldstart_on_the_platform(tmp_path):
    references = [os.path.join(DEMO, "ldc-query.xml"), os.path.join(DEMO, "qrel.txt")]
    switches = ["-expand", "CSSF17", "-queries", os.path.join(DEMO, "qids.txt")]
    path = make_bundle(tmp_path, *switches, *references)
    with open(os.path.join(DEMO, "DEMORUN.tab.txt"), encoding="utf-8") as f:
        status, stderr, output = play_platform(tmp_path, path, {"DEMORUN.tab.txt": f.read()})
    assert status == 0, stderr
    scores = json.loads((output / "scores.json").read_text())
    run = api.score(references + [os.path.join(DEMO, "DEMORUN.tab.txt")], expand="CSSF17",
                    queries=os.path.join(DEMO, "qids.txt"))
    assert list(scores) == ["ldcmean_ap", "ldcmean_macro_p", "ldcmean_macro_r",
                            "ldcmean_macro_f1"]
    assert scores == {key: run.values[key] for key in scores}
    direct = direct_run(tmp_path, [*switches, *references,
                                   os.path.join(DEMO, "DEMORUN.tab.txt")])
    _same_reports(output, direct, ["sf", "ldcmax", "ldcmean", "summary", "ap", "debug"])
    _scores_txt_matches(output)
    page = (output / "detailed_results.html").read_text()
    assert "ldcmean_ap" in page and repr(scores["ldcmean_ap"]) in page
    assert "One row per query and hop" in page and "For each query, what was submitted" in page
    assert "submission.debug" in page and "http" not in page.replace("http-equiv", "")


def _scores_txt_matches(output) -> None:
    scores = json.loads((output / "scores.json").read_text())
    lines = (output / "scores.txt").read_text().splitlines()
    assert [line.split(": ")[0] for line in lines] == list(scores)
    assert [float(line.split(": ")[1]) for line in lines] == list(scores.values())


@pytest.mark.skipif(not os.path.isdir(SCIFACT_OFFICIAL), reason="../shared is absent")
def test_scifact_official_fixture_on_the_platform(tmp_path):
    path = make_bundle(tmp_path, "-policy", os.path.join(CONFIGS, "scifact.yaml"),
                       os.path.join(SCIFACT_OFFICIAL, "gold.jsonl"))
    with open(os.path.join(SCIFACT_OFFICIAL, "predictions.jsonl"), encoding="utf-8") as f:
        status, stderr, output = play_platform(tmp_path, path, {"team/preds.jsonl": f.read()})
    assert status == 0, stderr
    with open(os.path.join(SCIFACT_OFFICIAL, "expected_metrics.json"), encoding="utf-8") as f:
        expected = json.load(f)
    scores = json.loads((output / "scores.json").read_text())
    assert scores == expected and list(scores) == list(expected)
    _scores_txt_matches(output)


def test_fever_on_the_platform_zipped(tmp_path):
    policy = os.path.join(CONFIGS, "fever.yaml")
    gold = os.path.join(FEVER, "actual.jsonl")
    predictions = os.path.join(FEVER, "predictions.jsonl")
    path = make_bundle(tmp_path, "-policy", policy, "-max_evidence", "1", gold)
    packed = tmp_path / "upload.zip"
    with zipfile.ZipFile(packed, "w", zipfile.ZIP_DEFLATED) as z:
        z.write(predictions, "mine/predictions.jsonl")
        z.writestr("__MACOSX/mine/._predictions.jsonl", "resource fork")
    status, stderr, output = play_platform(tmp_path, path, {"upload.zip": packed.read_bytes()})
    assert status == 0, stderr
    direct = direct_run(tmp_path, ["-policy", policy, "-max_evidence", "1", gold, predictions])
    expected = json.loads(direct["run.json"])
    scores = json.loads((output / "scores.json").read_text())
    assert list(scores) == ["strict_score", "label_accuracy", "precision", "recall", "f1"]
    assert scores == {key: expected["metrics"][key] for key in scores}
    _same_reports(output, direct, ["summary", "debug"])


def test_a_submission_named_like_a_switch_is_a_file(tmp_path):
    """The submission's name is a file name, never a switch: the request is
    built from typed arguments, not from an argv."""
    policy = os.path.join(CONFIGS, "fever.yaml")
    gold = os.path.join(FEVER, "actual.jsonl")
    predictions = os.path.join(FEVER, "predictions.jsonl")
    path = make_bundle(tmp_path, "-policy", policy, gold)
    with open(predictions, encoding="utf-8") as f:
        status, stderr, output = play_platform(tmp_path, path, {"-max_evidence": f.read()})
    assert status == 0, stderr
    direct = direct_run(tmp_path, ["-policy", policy, gold, predictions])
    scores = json.loads((output / "scores.json").read_text())
    assert scores == {key: json.loads(direct["run.json"])["metrics"][key] for key in scores}
    assert "predictions => -max_evidence\n" in (output / "submission.params").read_text()


def test_a_broken_submission_fails_on_the_platform(tmp_path):
    path = make_bundle(tmp_path, "-policy", os.path.join(CONFIGS, "fever.yaml"),
                       os.path.join(FEVER, "actual.jsonl"))
    status, stderr, output = play_platform(
        tmp_path, path, {"team/preds.jsonl": '{"predicted_label": "SUPPORTS"}\n{"predicted\n'})
    assert status == 255
    assert "team/preds.jsonl line 2" in stderr and "not valid JSON" in stderr
    assert "Traceback" not in stderr and str(tmp_path) not in stderr
    assert os.listdir(output) == []


# -- refusals, in process ---------------------------------------------------------

@pytest.fixture(params=[archive.DEFAULT_MAX_SIZE])
def fever_ref(request, tmp_path, monkeypatch):
    """A FEVER reference folder, INPUT/res, OUTPUT, and a private temp folder
    (the scratch folder must be gone afterwards)."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    path = make_bundle(tmp_path, "-policy", os.path.join(CONFIGS, "fever.yaml"),
                       "-max_size", str(request.param), os.path.join(FEVER, "actual.jsonl"))
    with zipfile.ZipFile(path) as z:
        for name in z.namelist():
            if name.startswith("reference_data/"):
                target = tmp_path / "input" / "ref" / name[len("reference_data/"):]
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(z.read(name))
    (tmp_path / "input" / "res").mkdir()
    return tmp_path


def refused(folder, capsys) -> str:
    status = main([str(folder / "input"), str(folder / "output")])
    message = capsys.readouterr().err
    assert status == 255, message
    assert "Traceback" not in message
    assert not (folder / "output").exists() or os.listdir(folder / "output") == []
    assert os.listdir(folder / "tmp") == []          # the scratch folder is gone
    return message


def _zip(folder, members) -> None:
    with zipfile.ZipFile(folder / "input" / "res" / "sub.zip", "w") as z:
        for info, data in members:
            z.writestr(info, data)


def _info(name: str, mode: int = stat.S_IFREG | 0o644) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name)
    info.create_system = 3
    info.external_attr = mode << 16
    return info


PREDICTION = '{"predicted_label": "SUPPORTS", "predicted_evidence": []}\n'


@pytest.mark.parametrize("name, why", [
    ("../../evil.jsonl", "'..'"),
    ("/tmp/evil.jsonl", "absolute path"),
    ("ok\\..\\..\\evil.jsonl", "'..'"),
    ("C:/evil.jsonl", "absolute path"),
])
def test_zip_slip_is_refused(fever_ref, capsys, name, why):
    _zip(fever_ref, [(_info(name), PREDICTION)])
    message = refused(fever_ref, capsys)
    assert "sub.zip" in message and name in message and why in message
    assert not any("evil" in f for _, _, files in os.walk(fever_ref) for f in files)


@pytest.mark.parametrize("mode, why", [(stat.S_IFLNK | 0o777, "symbolic link"),
                                       (stat.S_IFCHR | 0o644, "device file"),
                                       (stat.S_IFIFO | 0o644, "device file")])
def test_links_and_devices_are_refused(fever_ref, capsys, mode, why):
    _zip(fever_ref, [(_info("preds.jsonl"), PREDICTION), (_info("x", mode), "/etc/passwd")])
    message = refused(fever_ref, capsys)
    assert "'x'" in message and why in message and "nothing was unpacked" in message


def test_a_link_in_res_is_refused(fever_ref, capsys):
    os.symlink("/etc/passwd", fever_ref / "input" / "res" / "preds.jsonl")
    assert "symbolic link" in refused(fever_ref, capsys)


@pytest.mark.slow
def test_a_zip_bomb_is_refused_before_unpacking(fever_ref, capsys):
    # 400 MB of zeros, deflated as they are made: under half a megabyte on disk.
    path = fever_ref / "input" / "res" / "sub.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        with z.open("preds.jsonl", "w", force_zip64=True) as member:
            block = bytes(1 << 20)
            for _ in range(400):
                member.write(block)
    assert path.stat().st_size < 1 << 20
    message = refused(fever_ref, capsys)
    assert "'preds.jsonl' refused" in message and "more than 200" in message


@pytest.mark.parametrize("fever_ref", [4000], indirect=True)
def test_max_size_is_the_bundles(fever_ref, capsys):
    text = "".join(PREDICTION.replace("[]", f'[["P{i}", {i}]]') for i in range(100))
    (fever_ref / "input" / "res" / "preds.jsonl").write_text(text)
    with zipfile.ZipFile(fever_ref / "input" / "res" / "sub.zip", "w",
                         zipfile.ZIP_DEFLATED) as z:
        z.writestr("preds.jsonl", text)
    assert "preds.jsonl" in refused(fever_ref, capsys)      # two files
    os.unlink(fever_ref / "input" / "res" / "preds.jsonl")
    assert len(text) > 4000
    assert "more than the limit of 4000" in refused(fever_ref, capsys)
    os.unlink(fever_ref / "input" / "res" / "sub.zip")
    (fever_ref / "input" / "res" / "preds.jsonl").write_text(text)
    assert "preds.jsonl: " in refused(fever_ref, capsys)


def test_a_high_ratio_is_refused_under_the_size_limit(fever_ref, capsys):
    with zipfile.ZipFile(fever_ref / "input" / "res" / "sub.zip", "w",
                         zipfile.ZIP_DEFLATED) as z:
        z.writestr("preds.jsonl", PREDICTION + " " * (4 << 20))
    assert "more than 200" in refused(fever_ref, capsys)


@pytest.mark.parametrize("files", [["a.jsonl", "b.jsonl"], ["a.jsonl", "team/b.jsonl"],
                                   [], ["x/y/deep.jsonl"]])
def test_not_exactly_one_file_is_refused(fever_ref, capsys, files):
    for name in files:
        (fever_ref / "input" / "res" / name).parent.mkdir(parents=True, exist_ok=True)
        (fever_ref / "input" / "res" / name).write_text(PREDICTION)
    message = refused(fever_ref, capsys)
    assert "expected one FEVER predictions file" in message
    assert all(name.split("/")[0] in message for name in files)


def test_two_files_in_an_archive_are_refused(fever_ref, capsys):
    _zip(fever_ref, [(_info("a.jsonl"), PREDICTION), (_info("b.jsonl"), PREDICTION)])
    message = refused(fever_ref, capsys)
    assert "sub.zip holds a.jsonl, b.jsonl" in message


def test_an_error_inside_an_archive_names_the_member(fever_ref, capsys):
    _zip(fever_ref, [(_info("team/preds.jsonl"), PREDICTION + "oops\n")])
    message = refused(fever_ref, capsys)
    assert "team/preds.jsonl (in sub.zip)" in message and "team/preds.jsonl line 2" in message


def test_validate_gives_the_platforms_messages_and_scores(tmp_path, capsys):
    gold = os.path.join(FEVER, "actual.jsonl")
    broken = tmp_path / "preds.jsonl"
    broken.write_text(PREDICTION + "oops\n")
    policy = ["-policy", os.path.join(CONFIGS, "fever.yaml")]
    assert main(["-validate", str(broken), *policy, gold]) == 255
    assert "preds.jsonl line 2" in capsys.readouterr().err
    assert main(["-validate", os.path.join(FEVER, "predictions.jsonl"), *policy, gold]) == 0
    shown = capsys.readouterr().out
    values = api.score([gold, os.path.join(FEVER, "predictions.jsonl")],
                       policy=policy[1]).values
    assert f"strict_score: {values['strict_score']!r}" in shown


def test_fever_predictions_carrying_their_own_gold_are_refused(tmp_path, capsys):
    """The reference scores a prediction that carries 'label' and 'evidence'
    against them (a direct run warns and uses them); a leaderboard's gold
    alone decides, so the program and the participants' check refuse it.
    Scored directly, such a file gets a perfect strict score from gold it
    made up itself."""
    policy = os.path.join(CONFIGS, "fever.yaml")
    gold = os.path.join(FEVER, "actual.jsonl")
    with open(os.path.join(FEVER, "predictions.jsonl"), encoding="utf-8") as f:
        honest = [json.loads(line) for line in f]
    forged = "".join(json.dumps(dict(p, label=p["predicted_label"], evidence=[[
        [0, 0, *sentence] for sentence in p["predicted_evidence"]]])) + "\n" for p in honest)
    (tmp_path / "forged.jsonl").write_text(forged, encoding="utf-8")
    assert api.score([gold, str(tmp_path / "forged.jsonl")], policy=policy).values[
        "strict_score"] == 1.0
    path = make_bundle(tmp_path, "-policy", policy, gold)
    status, stderr, output = play_platform(tmp_path, path, {"team/preds.jsonl": forged})
    assert status == 255, stderr
    assert "team/preds.jsonl: predictions carry their own 'label' and 'evidence'" in stderr
    assert "Traceback" not in stderr and os.listdir(output) == []
    capsys.readouterr()
    assert main(["-validate", str(tmp_path / "forged.jsonl"), "-policy", policy, gold]) == 255
    assert "carry their own 'label' and 'evidence'" in capsys.readouterr().err


# -- the bundle ---------------------------------------------------------------------

def test_the_bundle_is_what_codabench_reads(tmp_path):
    path = make_bundle(tmp_path, "-title", "FEVER dev", "-policy",
                       os.path.join(CONFIGS, "fever.yaml"), os.path.join(FEVER, "actual.jsonl"))
    with zipfile.ZipFile(path) as z:
        names = set(z.namelist())
        competition = yaml.safe_load(z.read("competition.yaml"))
        metadata = yaml.safe_load(z.read("scoring_program/metadata.yaml"))
        for page in competition["pages"]:
            assert z.read(page["file"]).strip()
        policy = yaml.safe_load(z.read("reference_data/policy.yaml"))
    assert competition["version"] == 2 and competition["title"] == "FEVER dev"
    task = competition["tasks"][0]
    assert {task["scoring_program"] + "/metadata.yaml", "reference_data/actual.jsonl",
            "reference_data/policy.yaml", competition["terms"], competition["image"]} <= names
    with zipfile.ZipFile(path) as z:
        import matplotlib.image
        logo = matplotlib.image.imread(io.BytesIO(z.read(competition["image"])), format="png")
    assert logo.shape == (96, 96, 3)
    assert competition["phases"][0]["tasks"] == [0]
    columns = competition["leaderboards"][0]["columns"]
    assert [c["key"] for c in columns] == ["strict_score", "label_accuracy", "precision",
                                           "recall", "f1"]
    assert all(c["sorting"] == "desc" and 0 < len(c["title"]) <= 36 for c in columns)
    assert policy["leaderboard"] == [c["key"] for c in columns]
    assert "$program/score.py $input $output" in metadata["command"]
    assert "scoring_program/scorer/competition/archive.py" in names
    # The same inputs make the same bundle.
    again = tmp_path / "again"
    again.mkdir()
    assert open(make_bundle(again, "-title", "FEVER dev", "-policy",
                            os.path.join(CONFIGS, "fever.yaml"),
                            os.path.join(FEVER, "actual.jsonl")), "rb").read() == \
        open(path, "rb").read()


@pytest.mark.parametrize("policy_text, switches, message", [
    ("task: fever\nleaderboard: [strict_score, bleu]\n", [], "bleu unknown for fever"),
    ("task: coldstart\nleaderboard: [ldcmean_ap]\n", [], "need -expand"),
    ("task: fever\n", ["-output_file", "x"], "no use here"),
])
def test_bundle_mistakes_are_errors_when_it_is_made(tmp_path, capsys, policy_text, switches,
                                                    message):
    policy = tmp_path / "p.yaml"
    policy.write_text(policy_text)
    status = main(["-bundle", str(tmp_path / "b.zip"), "-policy", str(policy), *switches,
                   os.path.join(DEMO, "qrel.txt")])
    assert status == 255
    assert message in capsys.readouterr().err
    assert not (tmp_path / "b.zip").exists()


@pytest.mark.parametrize("rewrite, held", [
    (lambda lines: lines + [lines[0].replace("\tDEMORUN\t", "\tOTHER\t")], "runs DEMORUN, OTHER"),
    (lambda lines: [], "no run"),
])
def test_a_coldstart_submission_is_one_run(tmp_path, capsys, rewrite, held):
    references = [os.path.join(DEMO, "ldc-query.xml"), os.path.join(DEMO, "qrel.txt")]
    with open(os.path.join(DEMO, "DEMORUN.tab.txt"), encoding="utf-8") as f:
        lines = f.read().splitlines()
    run = tmp_path / "mine.tab.txt"
    run.write_text("".join(line + "\n" for line in rewrite(lines)))
    assert main(["-validate", str(run), "-expand", "CSSF17", *references]) == 255
    message = capsys.readouterr().err
    assert f"mine.tab.txt: holds {held}; a submission is one run" in message


def test_help_names_every_switch(capsys):
    from scorer.competition.__main__ import OWN_SWITCHES
    assert main(["-help"]) == 0
    shown = capsys.readouterr().out
    assert all(f"-{switch.name}" in shown for switch in OWN_SWITCHES)
    assert main(["only-one-folder"]) == 255
    assert "two folders, INPUT and OUTPUT" in capsys.readouterr().err


def test_encrypted_members_other_archives_and_crowds_are_refused(fever_ref, capsys):
    secret = _info("preds.jsonl")
    secret.flag_bits |= 0x1
    _zip(fever_ref, [(secret, PREDICTION)])
    assert "encrypted" in refused(fever_ref, capsys)
    _zip(fever_ref, [(_info(f"f{i}"), "") for i in range(archive.MAX_MEMBERS + 1)])
    assert f"at most {archive.MAX_MEMBERS}" in refused(fever_ref, capsys)
    os.unlink(fever_ref / "input" / "res" / "sub.zip")
    (fever_ref / "input" / "res" / "preds.tar.gz").write_bytes(b"\x1f\x8b")
    assert "only .zip archives" in refused(fever_ref, capsys)


# -- what the bundle and the check refuse before reading or writing anything -------

SCIFACT = os.path.join(ROOT, "fixtures", "scifact", "basic")


def _demo_copy(tmp_path) -> dict:
    """The Cold Start demo inputs and a policy file, copied (they may be targets)."""
    paths = {}
    for name in ("ldc-query.xml", "qrel.txt", "qids.txt", "DEMORUN.tab.txt"):
        shutil.copy(os.path.join(DEMO, name), tmp_path / name)
        paths[name] = str(tmp_path / name)
    (tmp_path / "cs.yaml").write_text("task: coldstart\n")
    paths["cs.yaml"] = str(tmp_path / "cs.yaml")
    return paths


@pytest.mark.parametrize("target", ["ldc-query.xml", "qrel.txt", "qids.txt", "cs.yaml",
                                    "link"])
def test_the_bundle_never_writes_over_its_inputs(tmp_path, capsys, target):
    paths = _demo_copy(tmp_path)
    os.link(paths["qrel.txt"], tmp_path / "link")            # the same file, another name
    paths["link"] = str(tmp_path / "link")
    before = {name: open(path, "rb").read() for name, path in paths.items()}
    status = main(["-bundle", paths[target], "-policy", paths["cs.yaml"], "-expand", "CSSF17",
                   "-queries", paths["qids.txt"], paths["ldc-query.xml"], paths["qrel.txt"]])
    message = capsys.readouterr().err
    assert status == 255
    assert f"-bundle {paths[target]} would write over the input file" in message
    assert {name: open(path, "rb").read() for name, path in paths.items()} == before


@pytest.mark.parametrize("arguments, message", [
    (["-bundle", "-policy"], "Switch -bundle needs a value, not the switch -policy"),
    (["-validate", "-policy"], "Switch -validate needs a value, not the switch -policy"),
    (["-bundle", "b.zip", "-title", "-policy"],
     "Switch -title needs a value, not the switch -policy"),
])
def test_a_switch_is_not_taken_for_a_value(tmp_path, capsys, monkeypatch, arguments, message):
    monkeypatch.chdir(tmp_path)
    status = main([*arguments, os.path.join(CONFIGS, "scifact.yaml"),
                   os.path.join(SCIFACT, "gold.jsonl")])
    assert status == 255
    assert message in capsys.readouterr().err
    assert os.listdir(tmp_path) == []


def _reference_mistakes(tmp_path) -> list:
    """(policy, reference files, what the message says) of bundles no submission
    could be scored against."""
    demo = _demo_copy(tmp_path)
    fever_gold = os.path.join(FEVER, "actual.jsonl")
    scifact_gold = os.path.join(SCIFACT, "gold.jsonl")
    (tmp_path / "empty.jsonl").write_text("")
    (tmp_path / "no-queries.xml").write_text("<query_set></query_set>\n")
    lines = open(demo["qrel.txt"], encoding="utf-8").read().splitlines(keepends=True)
    lines[1] = "\t".join(lines[1].split("\t")[:9]) + "\n"
    (tmp_path / "short.txt").write_text("".join(lines))
    (tmp_path / "unlabelled.jsonl").write_text('{"id": 1, "evidence": []}\n')
    (tmp_path / "bad-evidence.jsonl").write_text('{"id": 1, "label": "SUPPORTS", '
                                                 '"evidence": [["Nile", 0]]}\n')
    os.mkdir(tmp_path / "folder")
    (tmp_path / "other-split.txt").write_text("1 nosuch\n")
    (tmp_path / "other-queries.txt").write_text("1 CS17_0009:CSSF17_ENG_0123456789\n")
    cs = ["-expand", "CSSF17"]
    scifact = ["-policy", os.path.join(CONFIGS, "scifact.yaml")]
    fever = ["-policy", os.path.join(CONFIGS, "fever.yaml")]
    return [
        # samples of another split or query set: every submission refused for them
        ([*fever, "-samples", str(tmp_path / "other-split.txt")], [fever_gold],
         "other-split.txt line 1: 'nosuch' is not a claim of the gold"),
        ([*scifact, "-samples", str(tmp_path / "other-split.txt")], [scifact_gold],
         "other-split.txt line 1: 'nosuch' is not a claim of the gold"),
        ([*cs, "-samples", str(tmp_path / "other-queries.txt")],
         [demo["ldc-query.xml"], demo["qrel.txt"]], "other-queries.txt line 1: "),
        ([], [scifact_gold], "no query file (.xml) among the reference files"),
        (cs, [demo["ldc-query.xml"]], "no assessment file among the reference files"),
        (cs, [demo["ldc-query.xml"], demo["DEMORUN.tab.txt"]],
         "DEMORUN.tab.txt: a submission file (9 columns), not assessments"),
        (cs, [str(tmp_path / "no-queries.xml"), demo["qrel.txt"]], "no queries in "),
        (cs, [demo["ldc-query.xml"], str(tmp_path / "short.txt")],
         "Wrong number of entries on line (expected 10, got 9) ("
         + str(tmp_path / "short.txt") + " line 2)"),
        ([], [demo["ldc-query.xml"], demo["qrel.txt"]], "qrel.txt line 1: Query "),
        (scifact, [scifact_gold, os.path.join(SCIFACT, "predictions.jsonl")],
         "reference is the gold file alone"),
        (scifact, [fever_gold], "actual.jsonl line 1: 'evidence' must be an object"),
        (scifact, [str(tmp_path / "empty.jsonl")], "empty.jsonl: an empty file"),
        (scifact, ["/dev/null"], "/dev/null: not a regular file"),
        (scifact, [str(tmp_path / "absent.jsonl")], "Could not open"),
        (scifact, [str(tmp_path / "folder")], "a reference must be a file"),
        (fever, [scifact_gold], "gold.jsonl line 1: the gold claim has no 'label'"),
        (fever, [os.path.join(FEVER, "predictions.jsonl")], "has no 'label'"),
        (fever, [str(tmp_path / "unlabelled.jsonl")], "unlabelled.jsonl line 1: the gold "
                                                      "claim has no 'label'"),
        (fever, [str(tmp_path / "bad-evidence.jsonl")],
         "bad-evidence.jsonl line 1: gold evidence entry \"Nile\" is not an [annotation"),
    ]


def test_reference_files_are_read_before_a_bundle_is_made(tmp_path, capsys):
    """A bundle every submission would fail against is never written; the
    message names the reference file and what is wrong with it."""
    for number, (switches, files, expected) in enumerate(_reference_mistakes(tmp_path)):
        target = tmp_path / f"b{number}.zip"
        status = main(["-bundle", str(target), *switches, *files])
        message = capsys.readouterr().err
        assert status == 255, (files, message)
        assert expected in message, (files, message)
        assert "Traceback" not in message
        assert not target.exists()


def test_the_participants_check_reads_the_references_alike(tmp_path, capsys):
    """-validate refuses the same references with the same messages, and does
    not blame the submission for them."""
    run = {"coldstart": os.path.join(DEMO, "DEMORUN.tab.txt"),
           "scifact": os.path.join(SCIFACT, "predictions.jsonl"),
           "fever": os.path.join(FEVER, "predictions.jsonl")}
    for switches, files, expected in _reference_mistakes(tmp_path):
        task = switches[1].rsplit("/", 1)[1][:-5] if "-policy" in switches else "coldstart"
        status = main(["-validate", run[task], *switches, *files])
        message = capsys.readouterr().err
        assert status == 255, (files, message)
        assert expected in message and "was not scored" not in message, (files, message)


# -- the scoring program's INPUT and OUTPUT -------------------------------------------

def _submit(folder) -> None:
    shutil.copy(os.path.join(FEVER, "predictions.jsonl"), folder / "input" / "res")


def _listing(folder) -> list:
    return sorted(os.path.relpath(os.path.join(top, name), folder)
                  for top, dirs, files in os.walk(folder) for name in dirs + files)


@pytest.mark.parametrize("output, message", [
    ("input/ref", "is inside INPUT"),
    ("input/res", "is inside INPUT"),
    ("input", "is inside INPUT"),
    ("input/res/out", "is inside INPUT"),
    ("link-to-ref", "is inside INPUT"),
    ("taken", "is not a folder"),
    ("missing/out", "missing that would hold it does not exist"),
])
def test_output_must_be_a_folder_outside_input(fever_ref, capsys, output, message):
    _submit(fever_ref)
    (fever_ref / "taken").write_text("mine\n")
    os.symlink(fever_ref / "input" / "ref", fever_ref / "link-to-ref")
    before = _listing(fever_ref)
    status = main([str(fever_ref / "input"), str(fever_ref / output)])
    shown = capsys.readouterr().err
    assert status == 255 and message in shown and "Traceback" not in shown, shown
    assert _listing(fever_ref) == before
    assert (fever_ref / "taken").read_text() == "mine\n"


def test_output_is_made_when_the_platform_has_not(fever_ref, capsys):
    _submit(fever_ref)
    assert main([str(fever_ref / "input"), str(fever_ref / "output")]) == 0
    assert (fever_ref / "output" / "scores.json").stat().st_size > 0


@pytest.mark.parametrize("break_input, message", [
    (lambda folder: shutil.rmtree(folder / "input"), "input does not exist"),
    (lambda folder: (shutil.rmtree(folder / "input" / "res"),
                     (folder / "input" / "res").write_text(PREDICTION)),
     os.path.join(" ", "input", "res")[1:] + " is a file, not a folder"),
    (lambda folder: (shutil.rmtree(folder / "input" / "ref"),
                     (folder / "input" / "ref").write_text("")),
     os.path.join(" ", "input", "ref")[1:] + " is a file, not a folder"),
])
def test_input_mistakes_say_what_is_wrong(fever_ref, capsys, break_input, message):
    break_input(fever_ref)
    assert message in refused(fever_ref, capsys)


def test_a_mistaken_switch_is_the_last_thing_printed(capsys):
    """The message and a pointer to -help, as python -m scorer prints them."""
    assert main(["-bundel", "b.zip", "gold.jsonl"]) == 255
    err = capsys.readouterr().err
    assert err.startswith("ERROR: Unknown switch: -bundel")
    assert err.endswith("\nRun with -help for the switches and what they mean.\n")
    assert len(err.splitlines()) == 2
