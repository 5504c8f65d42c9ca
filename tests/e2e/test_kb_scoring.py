"""``python -m scorer -kb``: scoring a KB in one call gives the reports of
scoring what the toolkit's Perl chain makes of it (CS-ValidateKB -output tac,
CS-ValidateQueries -expand, CS-ResolveQueries, CS-ValidateSF: its
``NAME.valid.ldc.tab.txt``), byte for byte; ``-keep_stages`` writes each
stage's file as the Perl chain wrote it.

The Perl chain's files are those of the shared ``chain`` cases
(../shared/parity/pipeline/chain: the Makefile's setup-sf, run with the Perl
under several hash seeds; any one seed's set may be matched).  The
assessments are the official suite's where the shared scorer cases hold
them, else made up from the Perl's validated file (every line judged).
"""
from __future__ import annotations

import contextlib
import io
import json
import os
from pathlib import Path

import pytest

from assessments import assessments_of
from places import PARITY

from scorer.cli import main

CHAIN = PARITY / "pipeline" / "chain"
SUITE_SCORING = PARITY / "coldstart" / "testsuite"
REPORTS = ("ap", "debug", "sf", "ldcmax", "ldcmean", "summary")

needs_chain = pytest.mark.skipif(not CHAIN.is_dir(),
                                 reason=f"the Perl chain's cases are not here ({CHAIN})")


def score(args: list, out: Path) -> tuple:
    """(exit status, {extension: bytes}, error log) of python -m scorer."""
    out.mkdir(parents=True, exist_ok=True)
    prefix = str(out / "run")
    with contextlib.redirect_stderr(io.StringIO()):
        status = main(["-output_file", prefix, "-error_file", prefix + ".errlog", *args])
    outputs = {}
    for path in out.iterdir():
        if path.is_file():
            outputs[path.name.split(".", 1)[1]] = path.read_bytes()
    return status, outputs, outputs.pop("errlog", b"").decode("utf-8")


def chain_cases() -> list:
    return sorted(path.name for path in CHAIN.iterdir() if (path / "steps.json").is_file()) \
        if CHAIN.is_dir() else []


def chain_files(name: str) -> dict:
    """What the chain case's steps read and wrote: the LDC query file, the KB,
    and per result set (expected, each variant) the Perl's stage files."""
    case = CHAIN / name
    steps = json.loads((case / "steps.json").read_text())["steps"]
    tools = {tool: args for tool, args in steps}
    kb = tools["validatekb"][-1]
    ldc, sf = tools["validatequeries"][-2:]
    rq = tools["resolvequeries"][-1]
    args = tools["validatesf"]
    valid = args[args.index("-output_file") + 1]
    sets = [case / "expected" / "files"]
    if (case / "variants").is_dir():
        sets += sorted(path / "files" for path in (case / "variants").iterdir())
    return dict(kb=case / "input" / kb, ldc=case / "input" / ldc, sets=sets,
                stages={"sf-query.xml": sf, "tac.valid": kb + ".valid", "rq": rq,
                        "valid.ldc.tab.txt": valid})


def qrel_for(name: str, validated: list, tmp_path: Path) -> str:
    suite = SUITE_SCORING / name / "input" / "qrel.txt"
    if suite.is_file():
        return str(suite)
    return assessments_of(validated, tmp_path / "qrel.txt")


@needs_chain
def test_every_chain_case_is_here():
    assert len(chain_cases()) == 20


@needs_chain
@pytest.mark.parametrize("name", chain_cases())
def test_kb_scores_as_the_perl_chain_validated_file(name, tmp_path):
    files = chain_files(name)
    validated = [found / files["stages"]["valid.ldc.tab.txt"] for found in files["sets"]]
    qrel = qrel_for(name, [validated[0]], tmp_path)
    keep = tmp_path / "stages"
    status, ours, log = score(["-kb", "-expand", "CSSF17", "-keep_stages", str(keep),
                               str(files["ldc"]), qrel, str(files["kb"])], tmp_path / "kb")
    assert status == 0, log
    # The stage files: those of one of the Perl's runs (one hash seed's), each.
    base = files["kb"].name[:-len(".tac")]
    ours_stages = {"sf-query.xml": keep / "sf-query.xml",
                   "tac.valid": keep / f"{base}.tac.valid", "rq": keep / f"{base}.rq",
                   "valid.ldc.tab.txt": keep / f"{base}.valid.ldc.tab.txt"}
    matched = [found for found in files["sets"]
               if all(ours_stages[stage].read_bytes() == (found / path).read_bytes()
                      for stage, path in files["stages"].items())]
    assert matched, f"no Perl run's stage files equal ours ({sorted(os.listdir(keep))})"
    # The reports: those of scoring the Perl's validated file of that run.
    perl_valid = matched[0] / files["stages"]["valid.ldc.tab.txt"]
    status, official, official_log = score(["-expand", "CSSF17", str(files["ldc"]), qrel,
                                            str(perl_valid)], tmp_path / "perl")
    assert status == 0, official_log
    for extension in REPORTS:
        assert ours[extension] == official[extension], extension
    # One error log, every message marked with the stage that found it.
    for line in log.splitlines():
        if line.startswith(("WARNING: ", "ERROR: ")):
            assert line.split(": ", 1)[1].startswith(
                ("[validatekb] ", "[validatequeries] ", "[resolvequeries] ", "[validatesf] ",
                 "[score] ")), line
    assert "validate:kb:" in ours["params"].decode("utf-8")


@needs_chain
def test_kb_is_official_numbers_of_the_suite(tmp_path):
    """Where the official suite stored CS-Score's reports of the chain's
    file, the one call gives them (SCORER_TS_MERGE)."""
    files = chain_files("SCORER_TS_MERGE")
    qrel = SUITE_SCORING / "SCORER_TS_MERGE" / "input" / "qrel.txt"
    expected = SUITE_SCORING / "SCORER_TS_MERGE" / "expected"
    if not qrel.is_file():
        pytest.skip(f"the suite's scoring case is not here ({qrel})")
    status, ours, log = score(["-kb", "-expand", "CSSF17", "-justifications", "1:3",
                               str(files["ldc"]), str(qrel), str(files["kb"])], tmp_path)
    assert status == 0, log
    for extension in REPORTS:
        assert ours[extension] == (expected / f"run.{extension}").read_bytes(), extension


# -- our own fixture KB (fixtures/coldstart/kb): runs everywhere ----------------------

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "coldstart" / "kb"
GENERATED = FIXTURE / "generated"
STAGE_FILES = ("sf-query.xml", "team.tac.valid", "team.rq", "team.valid.ldc.tab.txt")


def fixture_args(case: Path) -> list:
    return [line for line in (case / "input" / "args").read_text().splitlines() if line]


def score_in(case: Path, args: list, out: Path) -> tuple:
    previous = os.getcwd()
    os.chdir(case / "input")
    try:
        return score(args, out)
    finally:
        os.chdir(previous)


def test_keep_stages_writes_each_stage_file_beside_the_reports(tmp_path):
    keep = tmp_path / "stages"
    status, ours, log = score_in(GENERATED, ["-keep_stages", str(keep), *fixture_args(GENERATED)],
                                 tmp_path / "out")
    assert status == 0, log
    assert sorted(os.listdir(keep)) == sorted(STAGE_FILES)
    for name in STAGE_FILES:
        assert (keep / name).read_bytes() == (GENERATED / "stages" / name).read_bytes()
    for extension in REPORTS:
        assert ours[extension] == (GENERATED / "expected" / f"run.{extension}").read_bytes()
    # The stages' files are what the toolkit's tools write, one by one.
    from scorer.coldstart.toolkit.resolvequeries import main as resolvequeries
    rq = tmp_path / "team.rq"
    with contextlib.redirect_stderr(io.StringIO()):
        assert resolvequeries([str(keep / "sf-query.xml"), str(keep / "team.tac.valid"),
                               str(rq)]) == 0
    assert rq.read_bytes() == (keep / "team.rq").read_bytes()


def test_without_keep_stages_nothing_but_the_reports(tmp_path):
    before = sorted(os.listdir(GENERATED / "input"))
    status, ours, _log = score_in(GENERATED, fixture_args(GENERATED), tmp_path / "out")
    assert status == 0
    assert sorted(os.listdir(GENERATED / "input")) == before
    assert sorted(os.listdir(tmp_path / "out")) == sorted(
        f"run.{extension}" for extension in (*REPORTS, "params", "errlog"))


def test_the_policy_input_kb_is_the_switch(tmp_path):
    policy = tmp_path / "kb.yaml"
    policy.write_text("task: coldstart\ninput: kb\n")
    args = [arg for arg in fixture_args(GENERATED) if arg != "-kb"]
    status, ours, _log = score_in(GENERATED, ["-policy", str(policy), *args], tmp_path / "out")
    assert status == 0
    for extension in REPORTS:
        assert ours[extension] == (GENERATED / "expected" / f"run.{extension}").read_bytes()
    assert "validate:kb:" in ours["params"].decode("utf-8")


def test_a_stage_that_fails_stops_the_run_with_every_error_and_nothing_written(tmp_path):
    refused = FIXTURE / "refused"
    keep = tmp_path / "stages"
    status, ours, log = score_in(refused, ["-keep_stages", str(keep), *fixture_args(refused)],
                                 tmp_path / "out")
    assert status == 255 and ours == {}
    assert not keep.exists() or not os.listdir(keep)
    assert "ERROR: [validatekb] Illegal confidence value: 1.7 (team.tac line 5)" in log
    assert "ERROR: [validatekb] Illegal predicate: spuose (team.tac line 199)" in log
    assert log.rstrip().splitlines()[-1].startswith("ERROR: ")


@pytest.mark.parametrize("mistake, message", [
    (["-keep_stages", "stages"], "-keep_stages keeps the files of the -kb chain's stages"),
    (["-kb", "-policy", "RAW"], "-kb runs the toolkit's whole chain, validatesf included"),
    (["-kb", "-keep_stages", "team.tac"], "-keep_stages team.tac: not a folder"),
])
def test_what_does_not_go_with_kb_is_refused_before_any_work(mistake, message, tmp_path):
    raw = tmp_path / "raw.yaml"
    raw.write_text("task: coldstart\nvalidate: false\n")
    mistake = [str(raw) if arg == "RAW" else arg for arg in mistake]
    args = [arg for arg in fixture_args(GENERATED) if arg != "-kb"]
    status, ours, log = score_in(GENERATED, [*mistake, *args], tmp_path / "out")
    assert status == 255 and ours == {}
    assert message in log


def test_an_sf_submission_given_as_a_kb_is_refused(tmp_path):
    run = GENERATED / "stages" / "team.valid.ldc.tab.txt"
    status, ours, log = score_in(GENERATED, ["-kb", "-expand", "CSSF17", "ldc-query.xml",
                                             "qrel.txt", str(run)], tmp_path / "out")
    assert status == 255 and ours == {}
    assert "is an SF submission file (9 columns), not a KB; score it without -kb" in log


def test_no_kb_among_the_files_is_refused(tmp_path):
    status, ours, log = score_in(GENERATED, ["-kb", "-expand", "CSSF17", "ldc-query.xml",
                                             "qrel.txt"], tmp_path / "out")
    assert status == 255 and ours == {}
    assert "-kb: no KB among the files" in log


def test_policy_input_must_be_sf_or_kb(tmp_path):
    policy = tmp_path / "p.yaml"
    policy.write_text("task: coldstart\ninput: tac\n")
    status, _ours, log = score_in(GENERATED, ["-policy", str(policy), "ldc-query.xml",
                                              "qrel.txt", "team.tac"], tmp_path / "out")
    assert status == 255
    assert "key 'input': sf or kb is expected, not 'tac'" in log


# -- the Perl chain run by hand, on our fixture KB and on generated KBs ----------------

def perl_chain(perl: str, folder: Path, docs: bool) -> Path:
    """ValidateKB -output tac, ValidateQueries -expand, ResolveQueries, ValidateSF of
    the Perl 2017.2.0 on ``folder``'s team.tac and ldc-query.xml, in ``folder/perl``;
    the validated file."""
    import subprocess
    out = folder / "perl"
    out.mkdir()
    (out / "team.tac").write_bytes((folder / "team.tac").read_bytes())
    lengths = ["-docs", str(folder / "doclength.txt")] if docs else []
    steps = [
        ["CS-ValidateKB-MASTER.pl", *lengths, "-output", "tac", "-error_file",
         str(out / "kb.errlog"), str(out / "team.tac")],
        ["CS-ValidateQueries-MASTER.pl", "-expand", "-query_base", "CSSF17",
         str(folder / "ldc-query.xml"), str(out / "sf-query.xml")],
        ["CS-ResolveQueries-MASTER.pl", str(out / "sf-query.xml"), str(out / "team.tac.valid"),
         str(out / "team.rq")],
        ["CS-ValidateSF-MASTER.pl", *lengths, "-justifications", "1:3", "-error_file",
         str(out / "sf.errlog"), "-output_file", str(out / "team.valid.ldc.tab.txt"),
         str(out / "sf-query.xml"), str(out / "team.rq")],
    ]
    for script, *args in steps:
        done = subprocess.run(["perl", "-I", perl, os.path.join(perl, script), *args],
                              cwd=perl, capture_output=True, env=dict(os.environ, PERL5LIB=perl))
        assert done.returncode == 0, (script, done.stdout[-2000:], done.stderr[-2000:])
    return out / "team.valid.ldc.tab.txt"


def perl_score(perl: str, args: list, prefix: Path):
    """CS-Score's reports ({extension: bytes}), None when it stopped."""
    import subprocess
    done = subprocess.run(["perl", "-I", perl, os.path.join(perl, "CS-Score-MASTER.pl"),
                           "-error_file", f"{prefix}.errlog", "-output_file", str(prefix),
                           *args], cwd=perl, capture_output=True,
                          env=dict(os.environ, PERL5LIB=perl))
    if done.returncode != 0:
        return None
    return {extension: Path(f"{prefix}.{extension}").read_bytes() for extension in REPORTS}


def generated_kbs() -> list:
    return [("fixture", None)] + [(f"seed{seed}", (assertions, seed, queries))
                                  for assertions, seed, queries in
                                  ((1500, 1, 30), (3000, 2, 60), (6000, 3, 80))]


@pytest.mark.parametrize("name, shape", generated_kbs(), ids=[n for n, _ in generated_kbs()])
def test_kb_scores_as_the_perl_chain_run_by_hand(name, shape, tmp_path):
    from places import perl_dir
    perl = perl_dir()
    if perl is None:
        pytest.skip("the Perl toolkit is not here (../ColdStart or $SCORER_PERL_DIR)")
    folder = tmp_path / "kb"
    folder.mkdir()
    if shape is None:
        for file in ("team.tac", "doclength.txt", "ldc-query.xml"):
            (folder / file).write_bytes((GENERATED / "input" / file).read_bytes())
    else:
        import sys
        sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
        import kb_workload
        kb_workload.generate(str(folder), shape[0], shape[1], shape[2])
    validated = perl_chain(perl, folder, docs=True)
    qrel = assessments_of([validated], folder / "qrel.txt", by_node=True)
    inputs = [str(folder / "ldc-query.xml"), qrel]
    keep = tmp_path / "stages"
    status, ours, log = score(["-kb", "-expand", "CSSF17", "-docs", str(folder / "doclength.txt"),
                               "-keep_stages", str(keep), *inputs, str(folder / "team.tac")],
                              tmp_path / "kb-run")
    assert status == 0, log
    for stage in ("sf-query.xml", "team.tac.valid", "team.valid.ldc.tab.txt"):
        assert (keep / stage).read_bytes() == (folder / "perl" / stage).read_bytes(), stage
    # (the Perl writes the responses in its hash order of the queries)
    assert sorted((keep / "team.rq").read_text().splitlines()) == \
        sorted((folder / "perl" / "team.rq").read_text().splitlines())
    status, official, official_log = score(["-expand", "CSSF17", *inputs, str(validated)],
                                           tmp_path / "sf-run")
    assert status == 0, official_log
    for extension in REPORTS:
        assert ours[extension] == official[extension], extension
    by_perl = perl_score(perl, ["-expand", "CSSF17", "-justifications", "1:3", *inputs,
                                str(validated)], tmp_path / "perl-score")
    assert by_perl is not None, "CS-Score stopped"
    for extension in REPORTS:
        assert ours[extension] == by_perl[extension], extension


# -- KB submissions in a track and on a leaderboard ----------------------------------

def kb_submissions(folder: Path) -> list:
    """The fixture's files with two KBs: the good one (team.tac) and the refused one."""
    for name in ("ldc-query.xml", "qrel.txt", "doclength.txt", "team.tac"):
        (folder / name).write_bytes((GENERATED / "input" / name).read_bytes())
    (folder / "bad.tac").write_bytes((FIXTURE / "refused" / "input" / "team.tac").read_bytes())
    return [str(folder / name) for name in ("ldc-query.xml", "qrel.txt", "team.tac", "bad.tac")]


@pytest.mark.parametrize("how", [["-kb"], ["-policy", "KB"]], ids=["switch", "policy"])
def test_a_track_ranks_the_kbs_that_validate_and_reports_the_others(how, tmp_path):
    from scorer.track.__main__ import main as track_main
    policy = tmp_path / "kb.yaml"
    policy.write_text("task: coldstart\ninput: kb\n")
    how = [str(policy) if arg == "KB" else arg for arg in how]
    files = kb_submissions(tmp_path)
    out = tmp_path / "track"
    with contextlib.redirect_stderr(io.StringIO()) as errors:
        status = track_main([*how, "-expand", "CSSF17", "-docs", str(tmp_path / "doclength.txt"),
                             "-jobs", "1", "-output_dir", str(out), *files])
    assert status == 255     # (a run with errors)
    assert "run bad has errors" in errors.getvalue()
    board = json.loads((out / "leaderboard.json").read_text())
    rows = board if isinstance(board, list) else board.get("rows", board.get("runs"))
    by_run = {row["run"]: row for row in rows}
    assert by_run["team"]["status"] == "ok" and by_run["team"]["rank"] == 1
    assert by_run["bad"]["status"] == "errors" and by_run["bad"].get("rank") in (None, "")
    log = (out / "runs" / "bad" / "run.errlog").read_text()
    assert "ERROR: [validatekb] Illegal confidence value: 1.7" in log
    assert "ERROR: [validatekb] Illegal predicate: spuose" in log
    # The ranked KB's reports are python -m scorer -kb's.
    for extension in REPORTS:
        assert (out / "runs" / "team" / f"run.{extension}").read_bytes() == \
            (GENERATED / "expected" / f"run.{extension}").read_bytes(), extension


def test_a_leaderboard_scores_a_kb_submission_and_refuses_a_kb_that_fails(tmp_path, capsys):
    from scorer.competition.__main__ import main as competition_main
    policy = tmp_path / "kb.yaml"
    policy.write_text("task: coldstart\ninput: kb\n")
    query, qrel, good, bad = kb_submissions(tmp_path)
    common = ["-policy", str(policy), "-expand", "CSSF17", "-docs",
              str(tmp_path / "doclength.txt"), query, qrel]
    assert competition_main(["-validate", good, *common]) == 0
    shown = capsys.readouterr().out
    assert "OK, it would be scored" in shown and "ldcmean_ap: 0.81574955" in shown
    assert competition_main(["-validate", bad, *common]) == 255
    said = capsys.readouterr()
    assert "ERROR: [validatekb] Illegal predicate: spuose (" in said.out + said.err
    assert "nothing goes on the leaderboard" in said.out + said.err


def test_a_track_refuses_keep_stages(tmp_path):
    from scorer.track.__main__ import main as track_main
    files = kb_submissions(tmp_path)
    with contextlib.redirect_stderr(io.StringIO()) as errors:
        status = track_main(["-kb", "-keep_stages", str(tmp_path / "stages"), "-expand",
                             "CSSF17", "-output_dir", str(tmp_path / "track"), *files])
    assert status == 255
    assert "a track and a leaderboard keep their runs' reports only" in errors.getvalue()
    assert not (tmp_path / "track").exists() and not (tmp_path / "stages").exists()


@pytest.mark.parametrize("name, content, message", [
    ("empty.tac", b"", "The first line of the file does not contain a legal runid (empty.tac"),
    ("nul.tac", b"RUN\n\0\0\0", "nul.tac line 2: a NUL byte"),
    ("binary.tac", bytes(range(256)) * 8, "binary.tac line 1: a NUL byte"),
    ("long.tac", b"RUN\n:Entity1\ttype\tPER\t" + b"x" * 10_000_000 + b"\n",
     "Wrong number of entries on line (expected 3, got 4) (long.tac line 2)"),
    ("norunid.tac", b"\n:Entity1\ttype\tPER\n", "does not contain a legal runid"),
])
def test_a_hostile_kb_is_refused_with_its_place_and_nothing_written(name, content, message,
                                                                    tmp_path):
    for file in ("ldc-query.xml", "qrel.txt"):
        (tmp_path / file).write_bytes((GENERATED / "input" / file).read_bytes())
    (tmp_path / name).write_bytes(content)
    keep = tmp_path / "stages"
    previous = os.getcwd()
    os.chdir(tmp_path)
    try:
        status, ours, log = score(["-kb", "-expand", "CSSF17", "-keep_stages", str(keep),
                                   "ldc-query.xml", "qrel.txt", name], tmp_path / "out")
    finally:
        os.chdir(previous)
    assert status == 255 and ours == {}
    assert not keep.exists()
    assert message in log
    assert f"FATAL_ERROR: -kb: the chain found errors in {name}" in log
    assert "Traceback" not in log


def test_the_same_kb_gives_the_same_files_whatever_the_hash_seed(tmp_path):
    import subprocess
    import sys
    outputs = []
    for seed in ("0", "12345"):
        out = tmp_path / f"h{seed}"
        out.mkdir()
        subprocess.run([sys.executable, "-m", "scorer", "-keep_stages", str(out / "stages"),
                        "-output_file", str(out / "run"), "-error_file", str(out / "run.errlog"),
                        *fixture_args(GENERATED)], cwd=GENERATED / "input", check=True,
                       env=dict(os.environ, PYTHONHASHSEED=seed), capture_output=True)
        # (the error log names the stage files where they are)
        outputs.append({str(path.relative_to(out)): path.read_bytes().replace(
                            str(out).encode(), b"OUT")
                        for path in sorted(out.rglob("*")) if path.is_file()
                        and not path.name.endswith(".params")})
    assert len(outputs[0]) == 11 and outputs[0] == outputs[1]   # (7 reports, 4 stages)


def test_stage_files_of_an_earlier_run_are_replaced_not_read(tmp_path):
    keep = tmp_path / "stages"
    keep.mkdir()
    (keep / "team.tac.valid").write_text("OTHER\n\n:Entity1\ttype\tPER\n")
    (keep / "team.rq").write_text("stale\n")
    status, ours, log = score_in(GENERATED, ["-keep_stages", str(keep), *fixture_args(GENERATED)],
                                 tmp_path / "out")
    assert status == 0, log
    for name in STAGE_FILES:
        assert (keep / name).read_bytes() == (GENERATED / "stages" / name).read_bytes()
    for extension in REPORTS:
        assert ours[extension] == (GENERATED / "expected" / f"run.{extension}").read_bytes()
