"""scorer/track/build.py: a track's request and options checked before
anything is scored (each message), run names as one token of the signature,
the note on how the randomization's p-values were made, and the metrics
shown beside the headline."""
from __future__ import annotations

from types import SimpleNamespace
from urllib.parse import unquote

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.problems import ScorerError
from scorer.track import build
from scorer.track.build import TrackOptions
from scorer.track.signaturetext import signature_text

from places import ROOT

FEVER_POLICY = str(ROOT / "configs" / "fever.yaml")
TITLES = {"strict_score": "FEVER score", "f1": "F1"}


@settings(deadline=None, max_examples=300, derandomize=True)
@given(st.text(min_size=1, max_size=20))
def test_a_baseline_name_is_one_token_of_the_signature_and_reads_back(name):
    token = signature_text(name)
    assert "|" not in token and not any(c.isspace() or not c.isprintable() for c in token)
    assert unquote(token, errors="surrogatepass") == name


@pytest.mark.parametrize("switches, message", [
    (dict(output_file="x"), "-output_file is not a track switch: the track names its files "
                            "itself (DIR/runs/<RUN>/run.*) and scores every run it finds"),
    (dict(runids="A"), "-runids is not a track switch"),
])
def test_switches_that_are_the_tracks_to_decide(switches, message):
    with pytest.raises(ScorerError) as error:
        build.track_request(["gold.jsonl", "run.jsonl"], FEVER_POLICY, **switches)
    assert str(error.value).startswith(message)


def test_a_seed_alone_is_a_tracks_randomization_seed():
    request = build.track_request(["gold.jsonl", "run.jsonl"], FEVER_POLICY, seed=7)
    assert (request.seed, request.bootstrap, request.samples) == (7, None, None)
    assert build._seed(request) == 7
    assert build._seed(request._replace(seed=None)) == 0


@pytest.mark.parametrize("options, metric, message", [
    (TrackOptions(), "bleu", "unknown -metric 'bleu' for fever; the metrics are: "
                             "strict_score, f1"),
    (TrackOptions(compare="some"), "f1", "-compare must be one of all, adjacent, not 'some'"),
    (TrackOptions(correction="bonferroni"), "f1", "-correction must be one of holm, bh, not "
                                                  "'bonferroni'"),
    (TrackOptions(baseline="team1", compare="adjacent"), "f1",
     "-baseline team1 compares every run with one run: give it or -compare adjacent, not both"),
    (TrackOptions(trials=0), "f1", "-trials must be a whole number of at least 1"),
    (TrackOptions(figure_width=0.5), "f1", "-figure_width "),
    (TrackOptions(output_dir=""), "f1", "-output_dir needs a folder name, not ''"),
])
def test_options_refused_before_anything_is_scored(options, metric, message):
    with pytest.raises(ScorerError) as error:
        build._check_options(options, "fever", metric, TITLES)
    assert str(error.value).startswith(message)


def test_clusters_need_a_bootstrap_of_the_tracks_own():
    request = build.track_request(["gold.jsonl", "run.jsonl"], FEVER_POLICY)
    options = TrackOptions(clusters="c.txt")
    with pytest.raises(ScorerError, match=r"^-clusters c.txt needs -bootstrap N -seed S"):
        build._read_clusters(options, request)
    with pytest.raises(ScorerError, match=r"^-clusters c.txt draws whole clusters itself: give "
                                          r"-bootstrap N -seed S, not -samples"):
        build._read_clusters(options, request._replace(samples="boot.txt"))
    assert build._read_clusters(TrackOptions(), request) is None


def _found(rows, tail, exact):
    return SimpleNamespace(rows=[None] * rows, tail_pairs=tail, exact_tail_pairs=exact)


def test_how_the_p_values_were_made():
    assert build._randomization_note(TrackOptions(), _found(0, 0, 0)) == ""
    assert build._randomization_note(TrackOptions(trials=500), _found(3, 1, 1)) == \
        "p_randomization: 500 trials, Monte Carlo p-values only."
    note = build._randomization_note(TrackOptions(), _found(6, 3, 1))
    assert note.startswith("p_randomization: 10000 trials; 3 of 6 p-values from the tail (1 "
                           "from the exact sign test, 2 from the normal approximation)")
    assert "from the exact sign test (fewer" in build._randomization_note(TrackOptions(),
                                                                          _found(6, 2, 2))
    assert "from the normal approximation of the tail" in build._randomization_note(
        TrackOptions(), _found(6, 2, 0))


def test_the_metrics_beside_the_headline(tmp_path):
    request = build.track_request(["gold.jsonl", "run.jsonl"], FEVER_POLICY)
    columns = ["rank", "run", "metric", "score", "label_accuracy", "f1"]
    assert build.paper_metrics(request, columns) == ["label_accuracy", "f1"]
    policy = tmp_path / "p.yaml"
    policy.write_text("task: fever\nleaderboard: [f1, recall]\n")
    chosen = build.track_request(["gold.jsonl", "run.jsonl"], str(policy))
    assert build.paper_metrics(chosen, columns) == ["f1"]
