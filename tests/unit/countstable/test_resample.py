"""The bootstrap over claims: reproducibility, samples files, intervals, and
the vectorised sums against a plain per-sample recomputation."""
from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer import tasks
from scorer.bootstrap import generate, parse_samples
from scorer.countstable import driver, resample
from scorer.countstable.metrics import full_data
from scorer.policy import build_policy
from scorer.problems import Problems, ScorerError
from scorer.request import Request

from places import FIXTURES

LABELS = ["SUPPORTS", "REFUTES", "NOT ENOUGH INFO"]


def evaluate(policy, files, problems):
    """A run's evaluation, as its task's record makes it."""
    return tasks.get(policy.task).evaluate(policy, files, problems)


def fever_set(directory: Path, n: int = 300, seed: int = 5) -> Path:
    """A sane FEVER run of ``n`` claims with inline gold: mostly right, some wrong."""
    rng = random.Random(seed)
    rows = []
    for i in range(n):
        label = rng.choice(LABELS)
        if label == "NOT ENOUGH INFO":
            evidence, gold = [[[i, None, None, None]]], []
        else:
            gold = [[f"P{rng.randrange(20)}", rng.randrange(5)] for _ in range(rng.randint(1, 2))]
            evidence = [[[i, j, page, line] for j, (page, line) in enumerate(gold)]]
        right = rng.random() < 0.7
        predicted_label = label if right else rng.choice([x for x in LABELS if x != label])
        predicted = [s for s in gold if rng.random() < 0.8]
        predicted += [[f"Q{rng.randrange(9)}", rng.randrange(5)] for _ in range(rng.randint(0, 3))]
        rng.shuffle(predicted)
        rows.append({"id": 1000 + i, "label": label, "evidence": evidence,
                     "predicted_label": predicted_label, "predicted_evidence": predicted})
    path = directory / "fever.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def fever_request(path: Path, **extra) -> Request:
    return Request(policy=build_policy({"task": "fever"}, {}), files=(str(path),), **extra)


def scifact_request(**extra) -> Request:
    case = FIXTURES / "scifact" / "basic"
    return Request(policy=build_policy({"task": "scifact"}, {}),
                   files=(str(case / "gold.jsonl"), str(case / "predictions.jsonl")), **extra)


def test_same_seed_same_reports_other_seed_other_samples(tmp_path):
    path = fever_set(tmp_path)
    first = dict(driver.run(fever_request(path, bootstrap=50, seed=11), Problems()))
    again = dict(driver.run(fever_request(path, bootstrap=50, seed=11), Problems()))
    other = dict(driver.run(fever_request(path, bootstrap=50, seed=12), Problems()))
    assert first == again
    assert first["samplescores"] != other["samplescores"]
    assert first["bootsamples"] != other["bootsamples"]
    assert first["summary"] == other["summary"]


def test_seed_zero_is_a_seed(tmp_path):
    path = fever_set(tmp_path, n=20)
    texts = dict(driver.run(fever_request(path, bootstrap=3, seed=0), Problems()))
    assert "|seed:0|B:3" in texts["params"]


def test_samples_file_gives_the_reports_of_the_bootstrap_run(tmp_path):
    path = fever_set(tmp_path)
    generated = dict(driver.run(fever_request(path, bootstrap=40, seed=3), Problems()))
    samples = tmp_path / "samples.txt"
    samples.write_text(generated["bootsamples"], encoding="utf-8")
    replayed = dict(driver.run(fever_request(path, samples=str(samples)), Problems()))
    assert "bootsamples" not in replayed
    for extension in ("summary", "debug", "samplescores", "confidence"):
        assert replayed[extension] == generated[extension], extension
    first, second = json.loads(generated["json"]), json.loads(replayed["json"])
    assert first["metrics"] == second["metrics"]
    # the same samples (digest), but no seed when read from a file
    assert first["signature"].replace("|seed:3|", "|seed:none|") == second["signature"]


def test_scifact_samples_file_replay_too():
    generated = dict(driver.run(scifact_request(bootstrap=25, seed=8), Problems()))
    samples = parse_samples(generated["bootsamples"].splitlines())
    assert len(samples) == 25
    # every sample draws as many claims as there are, all of them gold claims
    assert all(len(draw) == 4 for draw in samples.draws)
    assert {m for e in samples.elements for m in e.members} <= {"1", "2", "3", "4"}


@pytest.mark.parametrize("text, words", [
    # samples of another split: every sample came out empty, scored as strict 0 and
    # precision 1, intervals [0, 0] around the full-data score
    ("1 1 2 3\n2 3 2 1\n", ["line 1: '1' is not a claim of the gold", "1000, 1001, 1002, ..."]),
    ("1 1000 1001\n2 1010 nope 1012\n", ["line 2: 'nope' is not a claim of the gold"]),
    ("1 1000\n2 1000:1001\n", ["line 2: '1000:1001' is not a claim"]),
    # a sample line that draws no claim was scored as that empty sample
    ("1 1000 1001\n2\n3 1005\n", ["line 2: sample 2 draws no claim"]),
    ("7\r1 1000\r\n", ["line 1: sample 7 draws no claim"]),
    ("", [": no samples"]),
])
def test_samples_not_drawing_claims_of_the_gold_are_refused(tmp_path, text, words):
    path = fever_set(tmp_path, n=30)
    samples = tmp_path / "samples.txt"
    samples.write_bytes(text.encode())
    with pytest.raises(ScorerError) as caught:
        driver.run(fever_request(path, samples=str(samples)), Problems())
    message = str(caught.value)
    assert message.startswith(str(samples))
    for word in words:
        assert word in message


def test_unknown_claim_ids_stop_the_command_before_any_report(tmp_path):
    """Exit 255 and the file, line and id named; no report written."""
    from scorer import cli
    case = FIXTURES / "fever" / "blind"
    samples = tmp_path / "other.txt"
    samples.write_text("1 1 2 3\n", encoding="utf-8")
    prefix = tmp_path / "run"
    policy = FIXTURES.parent / "configs" / "fever.yaml"
    status = cli.main(["-policy", str(policy), "-samples", str(samples),
                       "-output_file", str(prefix), "-error_file", str(tmp_path / "log"),
                       str(case / "actual.jsonl"), str(case / "predictions.jsonl")])
    assert status == 255
    assert f"FATAL_ERROR: {samples} line 1: '1' is not a claim of the gold" in \
        (tmp_path / "log").read_text()
    assert not list(tmp_path.glob("run*"))


def test_claims_named_by_line_are_named_so_in_the_refusal(tmp_path):
    """Redacted ids (the official FEVER dev set's 0s): claims are line<N>; samples of
    '0' drew nothing."""
    rows = [json.loads(line) for line in fever_set(tmp_path, n=3).read_text().splitlines()]
    path = tmp_path / "zeros.jsonl"
    path.write_text("".join(json.dumps(dict(row, id=0)) + "\n" for row in rows))
    samples = tmp_path / "samples.txt"
    samples.write_text("1 0 0 0\n", encoding="utf-8")
    with pytest.raises(ScorerError, match=r"line1, line2, line3 \(by gold line number"):
        driver.run(fever_request(path, samples=str(samples)), Problems())
    samples.write_text("1 line1 line3 line3\n", encoding="utf-8")
    assert "confidence" in dict(driver.run(fever_request(path, samples=str(samples)),
                                           Problems()))


@pytest.mark.parametrize("task", ["scifact", "fever"])
def test_gold_keys_check_shared_samples_as_the_runs_do(tmp_path, task):
    """For a track: the gold alone names the claims as the runs' evaluations do."""
    case = FIXTURES / task / ("basic" if task == "scifact" else "blind")
    gold = case / ("gold.jsonl" if task == "scifact" else "actual.jsonl")
    predictions = case / "predictions.jsonl"
    evaluation = evaluate(build_policy({"task": task}, {}), (str(gold), str(predictions)),
                                 Problems())
    assert tasks.get(task).gold_keys(str(gold)) == (evaluation.keys, evaluation.key_source)
    samples = parse_samples([f"1 {' '.join(evaluation.keys)}\n", "2 nope\n"], "s.txt")
    with pytest.raises(ScorerError, match="s.txt line 2: 'nope' is not a claim"):
        driver.check_sample_ids(samples, "s.txt", *tasks.get(task).gold_keys(str(gold)), str(gold))


def test_bootstrap_needs_a_seed_and_excludes_samples(tmp_path):
    path = fever_set(tmp_path, n=5)
    with pytest.raises(ScorerError, match="-seed"):
        driver.run(fever_request(path, bootstrap=10), Problems())
    with pytest.raises(ScorerError, match="not both"):
        driver.run(fever_request(path, bootstrap=10, seed=1, samples=str(path)), Problems())
    with pytest.raises(ScorerError, match="negative"):
        driver.run(fever_request(path, bootstrap=-1, seed=1), Problems())


def test_interval_contains_the_full_data_score(tmp_path):
    path = fever_set(tmp_path, n=400)
    evaluation = evaluate(build_policy({"task": "fever"}, {}), (str(path),), Problems())
    samples = generate([(k, (k,)) for k in evaluation.keys], 200, 2026)
    values = resample.sample_values(evaluation.declared, evaluation.counts,
                                    samples.multiplicities(evaluation.keys))
    for name, full in evaluation.metrics.items():
        for level in (90, 95, 99):
            low, high = resample.interval(values, name, level)
            assert low <= full <= high, (name, level)
            assert low < high, (name, level)
    rows = resample.confidence_rows(values, evaluation.metrics)
    for name, lows, mean, full, highs in rows:
        assert lows[0] <= lows[1] <= lows[2] <= full <= highs[0] <= highs[1] <= highs[2]
        assert abs(mean - full) < 0.02


def test_confidence_uses_the_perl_index_rule(tmp_path):
    """n = 100 at 95 %: the 3rd and 97th smallest values (0-based 2 and 96)."""
    path = fever_set(tmp_path, n=60)
    evaluation = evaluate(build_policy({"task": "fever"}, {}), (str(path),), Problems())
    samples = generate([(k, (k,)) for k in evaluation.keys], 100, 77)
    values = resample.sample_values(evaluation.declared, evaluation.counts,
                                    samples.multiplicities(evaluation.keys))
    for name in values.columns:
        ordered = sorted(values[name].tolist())
        assert resample.interval(values, name, 95) == (ordered[2], ordered[96])
        assert resample.interval(values, name, 99) == (ordered[0], ordered[98])
        assert resample.interval(values, name, 90) == (ordered[5], ordered[94])


def _naive(evaluation, samples):
    """Each sample's metrics from its claims written out one by one (no matrices)."""
    position = {k: i for i, k in enumerate(evaluation.keys)}
    result = []
    for draw in samples.draws:
        rows = [position[m] for e in np.asarray(draw) for m in samples.elements[e].members
                if m in position]
        result.append(full_data(evaluation.declared, evaluation.counts.iloc[rows]))
    return result


def test_vectorised_values_equal_a_per_sample_recomputation(tmp_path):
    path = fever_set(tmp_path, n=80)
    for task, request in (("fever", fever_request(path)), ("scifact", scifact_request())):
        evaluation = evaluate(request.policy, request.files, Problems())
        samples = generate([(k, (k,)) for k in evaluation.keys], 30, 4)
        values = resample.sample_values(evaluation.declared, evaluation.counts,
                                        samples.multiplicities(evaluation.keys))
        for i, expected in enumerate(_naive(evaluation, samples)):
            got = values.iloc[i].to_dict()
            if task == "scifact":  # whole-number counts: exact
                assert got == expected
            else:  # per-claim fractions added in another order: equal to the last bits
                assert got == pytest.approx(expected, rel=1e-12, abs=1e-15)


def test_fractional_sums_are_exact_whatever_the_order():
    """The split-by-value sum does not depend on the claim order (BLAS order)."""
    import pandas as pd
    rng = np.random.default_rng(1)
    fractions = rng.integers(0, 6, 500) / rng.integers(1, 6, 500)
    table = pd.DataFrame({"x": fractions})
    weights = rng.integers(0, 3, (20, 500))
    order = rng.permutation(500)
    first = resample.column_sums(table, weights, ["x"])["x"]
    second = resample.column_sums(table.iloc[order].reset_index(drop=True),
                                  weights[:, order], ["x"])["x"]
    assert np.array_equal(first, second)


@pytest.mark.parametrize("task", ["fever", "scifact"])
@pytest.mark.parametrize("chunk, workers, generator, piece", [
    (7, 1, True, 10 ** 9), (7 * 301, 2, True, 10 ** 9), (7 * 5, 2, False, 10 ** 9),
    (10 ** 6, 1, False, 10 ** 9), (7, 1, True, 3), (7 * 5, 2, True, 4), (10 ** 6, 2, False, 2)])
def test_draws_too_many_to_keep_give_the_kept_samples_values(tmp_path, monkeypatch, task,
                                                             chunk, workers, generator, piece):
    """Beyond bootstrap.MAX_DRAWS the samples are drawn a block at a time and
    never kept (resample.DrawnClaims): the same samples, so the same
    .samplescores and .confidence as when they are kept, without .bootsamples
    (a warning says why) and with their own digest in the signature; whatever
    the blocks, the threads counting them, whether the doubles come from
    numpy's Generator.random or from the raw stream, and whether a sample's
    draws are read whole or a piece at a time (pieces that do not divide it)."""
    import scorer.bootstrap
    request = fever_request(fever_set(tmp_path), bootstrap=23, seed=3) if task == "fever" \
        else scifact_request(bootstrap=23, seed=3)
    kept = dict(driver.run(request, Problems()))
    monkeypatch.setattr(scorer.bootstrap, "MAX_DRAWS", 10)
    monkeypatch.setattr(resample.DrawnClaims, "CHUNK_DRAWS", chunk)  # 7: blocks of one sample
    monkeypatch.setattr(resample.DrawnClaims, "PIECE_DRAWS", piece)
    monkeypatch.setattr(resample.DrawnClaims, "THREADED_DRAWS", 0 if workers == 2 else 10 ** 12)
    monkeypatch.setattr(scorer.bootstrap.draws, "_RANDOM_IS_RAW", generator)
    if workers == 2:
        monkeypatch.setattr(resample.os, "sched_getaffinity", lambda _pid: {0, 1}, raising=False)
    problems = Problems()
    drawn = dict(driver.run(request, problems))
    assert "bootsamples" in kept and "bootsamples" not in drawn
    assert drawn["samplescores"] == kept["samplescores"]
    assert drawn["confidence"] == kept["confidence"]
    assert drawn["summary"] == kept["summary"] and drawn["debug"] == kept["debug"]
    assert "too many to write to .bootsamples" in problems.report()
    digest = json.loads(drawn["json"])["signature"].split("|samples:")[1].split("|")[0]
    assert len(digest) == 12 and digest not in kept["json"]
    assert dict(driver.run(request, Problems()))["json"] == drawn["json"]


def test_draws_beyond_the_streamed_bound_are_refused(tmp_path, monkeypatch):
    import scorer.bootstrap
    monkeypatch.setattr(scorer.bootstrap, "MAX_DRAWS", 10)
    monkeypatch.setattr(resample.DrawnClaims, "MAX_DRAWS", 1000)
    with pytest.raises(ScorerError, match="at most 1,000 draws"):
        driver.run(fever_request(fever_set(tmp_path), bootstrap=10_000, seed=3), Problems())


# ---------------------------------------------------------------- the claims' string order

_KEYS = st.lists(st.one_of(st.text(max_size=6),
                           st.text(alphabet=st.sampled_from("a\x00\U0001f600\ud800 9"),
                                   max_size=4),
                           st.from_regex(r"line[0-9]{1,3}", fullmatch=True)),
                 max_size=40)


@settings(max_examples=300, deadline=None)
@given(keys=_KEYS, numpy_from=st.sampled_from([0, 1, 10**9]), longest=st.sampled_from([1, 64]))
def test_string_order_is_sorteds(keys, numpy_from, longest):
    """Whichever way it is made (numpy's fixed-width text or ``sorted``), the
    order is ``sorted``'s: by code point, ties in index order, NULs and
    characters outside the BMP and lone surrogates included."""
    saved = resample._NUMPY_SORT_KEYS, resample._NUMPY_SORT_CHARACTERS
    resample._NUMPY_SORT_KEYS, resample._NUMPY_SORT_CHARACTERS = numpy_from, longest
    try:
        order = resample.string_order(keys)
    finally:
        resample._NUMPY_SORT_KEYS, resample._NUMPY_SORT_CHARACTERS = saved
    assert order.dtype == np.int64
    assert order.tolist() == sorted(range(len(keys)), key=keys.__getitem__)


@pytest.mark.parametrize("keys", [[], ["only"], ["b", "a", "a\nb", "é", "10", "9"],
                                  [f"{i * 7919 % 100_003}" for i in range(60_000)]])
def test_drawn_claims_digest_is_each_key_hashed_in_order(keys):
    """The digest of samples not kept names the sorted keys, each followed by
    a line end (hashed at once now, a key at a time before: the same bytes)."""
    import hashlib
    claims = hashlib.sha256()
    for key in sorted(keys):
        claims.update(key.encode("utf-8") + b"\n")
    text = f"claims bootstrap|seed:7|B:3|claims:{claims.hexdigest()}"
    expected = hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]
    drawn = resample.DrawnClaims(keys, 3, 7)
    assert drawn.digest() == expected
    assert drawn.order().tolist() == sorted(range(len(keys)), key=keys.__getitem__)
