"""The pictures (scorer/display/plot.py) without a browser: the leaderboard's PNG,
SVG and PDF (sizes, names, marks, determinism) and a single run's picture."""
from __future__ import annotations

import struct
import xml.etree.ElementTree as ElementTree

import pandas as pd
import pytest

from scorer.display import page, plot
from scorer.display.view import TrackView

from trackviews import ODD_NAMES, draw, fake_track


def png_size(path) -> tuple:
    with open(path, "rb") as f:
        header = f.read(24)
    assert header[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", header[16:24])


def svg_texts(path) -> str:
    root = ElementTree.parse(path).getroot()
    return "\n".join(text for element in root.iter() for text in (element.text, element.tail)
                     if text)


@pytest.mark.slow
def test_leaderboard_png_grows_by_one_row_a_run_at_the_width_asked(tmp_path):
    sizes = {}
    for runs in (30, 100):
        for width in (plot.TWO_COLUMN_IN, plot.ONE_COLUMN_IN):
            png, svg = tmp_path / f"{runs}-{width}.png", tmp_path / f"{runs}-{width}.svg"
            plot.leaderboard_plot(fake_track(runs=runs, queries=5, seed=runs), str(png),
                                  str(svg), width_in=width)
            sizes[runs, width] = png_size(png)
            assert sizes[runs, width][0] == round(width * plot.LEADERBOARD_DPI)
            assert f'width="{width * 72:g}pt"' in svg.read_text(encoding="utf-8")[:2000]
    for width in (plot.TWO_COLUMN_IN, plot.ONE_COLUMN_IN):
        # a line of 8-pt text (1.2 line spacing) and 2.4 pt between rows: 12 pt a run
        row_px = 12.0 / 72 * plot.LEADERBOARD_DPI
        assert abs(sizes[100, width][1] - sizes[30, width][1] - 70 * row_px) < 2


def test_svg_has_every_run_name_as_text(tmp_path):
    view = fake_track(runs=len(ODD_NAMES), queries=4, seed=3, names=ODD_NAMES)
    _png, svg, _pdf = draw(view, tmp_path)
    texts = svg_texts(svg)
    for name in ODD_NAMES:
        assert name in texts
    assert view.metric in texts and view.signature in texts.replace("\n", "")


@pytest.mark.slow
def test_pictures_are_byte_identical_for_the_same_view(tmp_path):
    view = fake_track(runs=12, queries=5, seed=5)
    first = [p.read_bytes() for p in draw(view, tmp_path, "one")]
    second = [p.read_bytes() for p in draw(view, tmp_path, "two")]
    assert first == second
    assert b"<dc:date>" not in first[1]


def test_runs_tied_with_the_best_are_marked(tmp_path):
    view = fake_track(runs=6, queries=5, seed=8)
    runs = view.runs
    significance = view.significance.copy()
    significance["p_holm"] = 0.001
    # the pair with the best in either orientation; 0.05 itself is not significant
    significance.loc[(significance.run_a == runs[0]) & (significance.run_b == runs[2]),
                     "p_holm"] = 0.05
    significance.loc[(significance.run_a == runs[0]) & (significance.run_b == runs[3]),
                     "p_holm"] = 0.0499
    flipped = (significance.run_a == runs[0]) & (significance.run_b == runs[4])
    significance.loc[flipped, ["run_a", "run_b"]] = [runs[4], runs[0]]
    significance.loc[flipped, "p_holm"] = 0.7
    # a pair without the best does not count
    significance.loc[(significance.run_a == runs[1]) & (significance.run_b == runs[5]),
                     "p_holm"] = 0.9
    view = TrackView(**{**view.__dict__, "significance": significance})
    assert view.tied_with_best() == {runs[2], runs[4]}
    _png, svg, _pdf = draw(view, tmp_path)
    assert "not significantly worse than the best" in svg_texts(svg)
    cells = page.leaderboard_table(view)
    assert cells.count('class="tied"') == 2


@pytest.mark.slow
@pytest.mark.parametrize("compared", ["baseline", "adjacent"])
def test_runs_never_tested_against_the_best_are_not_called_worse(tmp_path, compared):
    """-baseline and -compare adjacent test few pairs with the best and give no
    groups: the picture says which runs were not tested against the best rather
    than calling them significantly worse, and has no empty group column."""
    view = fake_track(runs=6, queries=5, seed=8)
    runs = view.runs
    rows = view.significance.copy()
    rows["p_holm"] = 0.001                          # every pair tested is significant
    if compared == "baseline":
        picked = (rows.run_a == runs[3]) | (rows.run_b == runs[3])
    else:
        picked = [runs.index(a) + 1 == runs.index(b) for a, b in zip(rows.run_a, rows.run_b)]
    board = view.leaderboard.assign(rank_low=pd.array(range(1, 7), dtype="Int64"),
                                    rank_high=pd.array(range(2, 8), dtype="Int64"),
                                    group=pd.array([None] * 6, dtype="Int64"))
    view = TrackView(**{**view.__dict__, "significance": rows[picked], "leaderboard": board})
    tested_with_best = runs[3] if compared == "baseline" else runs[1]
    assert view.worse_than_best() == {tested_with_best} and view.tied_with_best() == set()
    texts = svg_texts(draw(view, tmp_path)[1])
    assert "significantly worse than the best" in texts
    assert "not tested against the best" in texts
    assert "ranks" in texts.split("\n") and "group" not in texts.split("\n")
    # with groups, every run is tested against the best: no such entry
    grouped = TrackView(**{**view.__dict__, "significance": rows,
                           "leaderboard": board.assign(group=pd.array([1, 1, 2, 2, 3, 3],
                                                                       dtype="Int64"))})
    assert grouped.worse_than_best() == set(runs[2:])
    texts = svg_texts(draw(grouped, tmp_path, "grouped")[1])
    assert "not tested against the best" not in texts and "group" in texts.split("\n")


def test_a_run_scored_despite_errors_is_marked_and_one_not_scored_says_so(tmp_path):
    """Cold Start scores the lines of a run file it could read, as the Perl does:
    such a run's number is not like the others', so the picture marks it and
    says why; a run with no score says it was not scored."""
    view = fake_track(runs=5, queries=5, seed=4)
    board = view.leaderboard.copy()
    assert list(board.status) == ["ok"] * 4 + ["errors"]
    board.loc[3, ["score", "ci95_low", "ci95_high"]] = float("nan")
    board.loc[3, "status"] = "empty"
    view = TrackView(**{**view.__dict__, "leaderboard": board})
    assert view.scored_with_errors() == {view.runs[4]}
    texts = svg_texts(draw(view, tmp_path)[1])
    assert view.runs[4] + "*" in texts and view.runs[3] + " (not scored)" in texts
    assert "*: the run's files have errors (its run.errlog says which); it was scored from the " \
           "lines that could be read." in texts.replace("\n", " ")
    clean = TrackView(**{**view.__dict__, "leaderboard": board.assign(status="ok")})
    assert "run.errlog" not in svg_texts(draw(clean, tmp_path, "clean")[1])


def test_a_track_without_samples_has_dots_and_no_bars(tmp_path):
    view = fake_track(runs=5, queries=5, seed=2, samples=False)
    assert view.tied_with_best() == set()
    png, svg, _pdf = draw(view, tmp_path)
    assert png_size(png)[1] > 0
    texts = svg_texts(svg)
    assert "no samples" in texts and "not significantly different" not in texts


def test_significance_for_another_metric_only_is_refused():
    view = fake_track(runs=3, queries=4, seed=1)
    other = view.significance.assign(metric="something_else")
    view = TrackView(**{**view.__dict__, "significance": other})
    with pytest.raises(ValueError, match="headline metric"):
        view.tied_with_best()


def one_run(view):
    rows = view.per_hop[view.per_hop.run == view.runs[0]].drop(columns="run")
    intervals = rows.assign(low=rows.value - 0.05, high=rows.value + 0.05).drop(columns="value")
    return rows, intervals


def test_run_plot_has_a_panel_per_hop_and_draws_intervals(tmp_path):
    rows, intervals = one_run(fake_track(runs=2, queries=4, seed=4))
    intervals = intervals.iloc[1:]  # a score without an interval is still drawn
    with_bars, without = tmp_path / "with.png", tmp_path / "without.png"
    plot.run_plot(rows, intervals, "RUN: per hop", str(with_bars))
    plot.run_plot(rows, None, "RUN: per hop", str(without))
    assert png_size(with_bars) == png_size(without) == (610, 840)  # three hop panels, six groups
    assert with_bars.read_bytes() != without.read_bytes()


def test_run_plot_draws_the_variants_in_the_tasks_order(tmp_path):
    """The record says the order (task.picture.variant_order); without one, the
    variants come as the rows give them, and others follow the named ones."""
    rows, _intervals = one_run(fake_track(runs=2, queries=4, seed=4))
    seen = tuple(dict.fromkeys(rows["variant"]))
    assert len(seen) > 1
    as_they_come = plot.run_png(rows, None, "x")
    assert plot.run_png(rows, None, "x", seen) == as_they_come
    assert plot.run_png(rows, None, "x", seen[:1]) == as_they_come
    assert plot.run_png(rows, None, "x", seen[::-1]) != as_they_come
    assert plot.run_png(rows, None, "x", seen[-1:]) == plot.run_png(
        rows, None, "x", seen[-1:] + seen[:-1])


def test_run_plot_of_claims_is_one_panel_of_every_metric(tmp_path):
    rows, intervals = one_run(fake_track(runs=2, queries=4, seed=4, task="scifact"))
    path = tmp_path / "claims.png"
    plot.run_plot(rows, intervals, "claims", str(path))
    assert png_size(path) == (610, 340)  # six metrics


def test_run_plot_refuses_intervals_without_their_columns(tmp_path):
    rows, intervals = one_run(fake_track(runs=2, queries=4, seed=4))
    with pytest.raises(ValueError, match="low"):
        plot.run_plot(rows, intervals.drop(columns="low"), "x", str(tmp_path / "x.png"))
    assert not (tmp_path / "x.png").exists()


def test_run_plot_shows_one_run_only(tmp_path):
    view = fake_track(runs=2, queries=2, seed=1)
    with pytest.raises(ValueError, match="several runs"):
        plot.run_plot(view.per_hop, None, "x", str(tmp_path / "x.png"))
