"""The look package without a browser: the pictures (PNG and SVG files, their
sizes, names and determinism) and the page's HTML (escaping, size, content)."""
from __future__ import annotations

import html.parser
import os
import re
import struct
import subprocess
import sys
import xml.etree.ElementTree as ElementTree

import numpy as np
import pandas as pd
import pytest

from scorer.look import files, page, plot
from scorer.look.view import TrackView
from conftest import ROOT
from trackviews import fake_track

ODD_NAMES = ["plain", "a&b", "<script>window.pwned=1</script>", 'quote"s\'', "ünï cødé",
             "--comment-->", "x" * 40]


def png_size(path) -> tuple:
    with open(path, "rb") as f:
        header = f.read(24)
    assert header[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", header[16:24])


def draw(view, directory, name="lb"):
    png, svg, pdf = (directory / f"{name}.{ext}" for ext in ("png", "svg", "pdf"))
    plot.leaderboard_plot(view, str(png), str(svg), str(pdf))
    return png, svg, pdf


def svg_texts(path) -> str:
    root = ElementTree.parse(path).getroot()
    return "\n".join(text for element in root.iter() for text in (element.text, element.tail)
                     if text)


# --- the leaderboard picture ---

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


# --- a single run's picture ---

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


# --- the page ---

class Elements(html.parser.HTMLParser):
    """Counts start tags, and collects the rows of the leaderboard table (each
    cell's text, whatever tags such as <wbr> it holds)."""

    def __init__(self):
        super().__init__()
        self.tags, self.in_board, self.board_rows = {}, False, []

    def handle_starttag(self, tag, attrs):
        self.tags[tag] = self.tags.get(tag, 0) + 1
        if tag == "table":
            self.in_board = dict(attrs).get("id") == "leaderboard-table"
        if tag == "tr" and self.in_board:
            self.board_rows.append([])
        if tag in ("td", "th") and self.in_board and self.board_rows:
            self.board_rows[-1].append("")

    def handle_endtag(self, tag):
        if tag == "table":
            self.in_board = False

    def handle_data(self, data):
        if self.in_board and self.board_rows and self.board_rows[-1]:
            self.board_rows[-1][-1] += data


def render(view, tmp_path):
    _png, svg, _pdf = draw(view, tmp_path)
    return page.track_page(view, svg.read_text(encoding="utf-8"))


def parse(text) -> Elements:
    elements = Elements()
    elements.feed(text)
    return elements


def test_page_escapes_run_names_and_loads_nothing(tmp_path):
    view = fake_track(runs=len(ODD_NAMES), queries=6, seed=6, names=ODD_NAMES)
    text = render(view, tmp_path)
    elements = parse(text)
    # the page's own scripts only: the shared one, the heat map's and per-query data
    assert elements.tags["script"] == 3
    assert "<script>window" not in text and "</script>window" not in text
    assert "&lt;script&gt;window.pwned=1&lt;/script&gt;" in text
    assert elements.board_rows[0][:2] == ["rank", "run"]
    # (a run tied with the best has its mark after the name)
    assert [row[1].removesuffix(" \u2248") for row in elements.board_rows[1:]] == view.runs
    assert '<meta http-equiv="Content-Security-Policy" content="default-src &#x27;none&#x27;;' \
        in text
    for attribute in ("src=", "srcset=", "@import"):
        assert attribute not in text
    assert not re.search(r"url\((?!#)", text)  # the SVG's clip paths are within it
    assert "<?xml" not in text and "<!DOCTYPE svg" not in text


def test_page_links_each_run_to_its_report_files(tmp_path):
    names = ["team a/1", "b#2"]
    view = fake_track(runs=2, queries=3, seed=2, names=names)
    text = page.track_page(view, "<svg></svg>")
    assert 'href="runs/team%20a/1/run.summary"' in text
    assert 'href="runs/b%232/run.debug"' in text
    assert text == page.track_page(view, "<?xml version='1.0'?>\n<svg></svg>")


def test_page_of_100_runs_and_500_queries_is_under_5_mb(tmp_path):
    view = fake_track(runs=100, queries=500, seed=7)
    text = render(view, tmp_path)
    size = len(text.encode("utf-8"))
    assert size < 5_000_000, size
    elements = parse(text)
    assert len(elements.board_rows) == 101
    # every run's per-query scores are in the page: 12 columns of 500 values each
    assert text.count('"run-') >= 100 and text.count(">Per-query scores, worst first (500 ") == 100


def test_page_is_the_same_for_the_same_view(tmp_path):
    view = fake_track(runs=6, queries=8, seed=9)
    assert page.track_page(view, "<svg></svg>") == page.track_page(view, "<svg></svg>")


def test_page_without_samples_says_there_are_no_tests():
    view = fake_track(runs=4, queries=5, seed=3, samples=False)
    text = page.track_page(view, "<svg></svg>")
    assert "no bootstrap samples" in text and 'id="heat-data"' not in text
    assert 'class="ci"' not in text


def test_claims_page_lists_claims_and_every_metric():
    view = fake_track(runs=3, queries=5, seed=3, task="fever")
    text = page.track_page(view, "<svg></svg>")
    assert '"labelTitle":"claim"' in text
    assert ">sentence_<wbr>label_<wbr>f1</th>" in text and "hop ALL" not in text


def test_per_query_values_travel_at_four_decimals():
    view = fake_track(runs=1, queries=3, seed=1)
    per_query = pd.DataFrame({"run": "RUN001", "query": ["q2", "q10", "q1"], "hop": "ALL",
                              "metric": "AP", "value": [0.5, np.nan, 1 / 3]})
    view = TrackView(**{**view.__dict__, "per_query": per_query})
    family, counts = page._per_query_family(view)
    assert counts == {"RUN001": 2}
    # labels in natural order; values scaled by 10**4; a missing one blank
    assert '"labels":["q1","q2","q10"]' in family
    assert '"tables":{"RUN001":["3333,5000,"]}' in family


def test_queries_are_ordered_by_the_headline_metric_else_ap_else_f1():
    assert fake_track(runs=2, queries=2, task="scifact").sort_metric() == "sentence_label_f1"
    coldstart = fake_track(runs=2, queries=2)
    assert coldstart.sort_metric() == "AP"
    without_ap = coldstart.per_query[coldstart.per_query.metric != "AP"]
    assert TrackView(**{**coldstart.__dict__, "per_query": without_ap}).sort_metric() == "F1"
    assert TrackView(**{**coldstart.__dict__, "query_metric": "R"}).sort_metric() == "R"


def test_run_plot_shows_one_run_only(tmp_path):
    view = fake_track(runs=2, queries=2, seed=1)
    with pytest.raises(ValueError, match="several runs"):
        plot.run_plot(view.per_hop, None, "x", str(tmp_path / "x.png"))


def test_track_files_are_the_pictures_and_the_page_that_embeds_the_svg(tmp_path):
    view = fake_track(runs=3, queries=4, seed=2)
    paths = files.write_track_files(view, str(tmp_path))
    assert [os.path.basename(p) for p in paths] == list(files.TRACK_FILES)
    assert sorted(os.listdir(tmp_path)) == sorted(files.TRACK_FILES)  # no temporary left
    svg = (tmp_path / "leaderboard.svg").read_text(encoding="utf-8")
    index = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert page.inline_svg(svg) in index
    assert "For a paper: leaderboard.pdf (vector, \\includegraphics{leaderboard.pdf})." in index


def test_a_picture_taller_than_a_page_is_in_parts_the_page_lists(tmp_path):
    names = [f"team{i:03d}_system-with-a-rather-long-descriptive-name_v{i:02d}_final"
             for i in range(12)]
    paths = files.write_track_files(fake_track(runs=12, queries=3, seed=2, names=names),
                                    str(tmp_path), figure_width_in=3.3)
    parts = [os.path.basename(p) for p in paths if p.endswith(".pdf")]
    assert len(parts) > 1
    assert parts == ["leaderboard.pdf"] + [f"leaderboard-{n}.pdf" for n in range(2, len(parts) + 1)]
    assert sorted(os.listdir(tmp_path)) == sorted(["leaderboard.png", "leaderboard.svg",
                                                   "index.html"] + parts)
    index = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert (f"For a paper, in {len(parts)} parts no taller than a page, each a figure of its "
            f"own (\\includegraphics{{leaderboard.pdf}}, ...):") in index
    assert "".join(f'<li><a href="{name}">{name}</a></li>' for name in parts) in index


DRAW_IN_A_FRESH_INTERPRETER = """
import sys
from conftest import ROOT
from trackviews import fake_track
from scorer.look import files
names = ["b", "a", "\u00fc", "<x>", "c"]
files.write_track_files(fake_track(runs=5, queries=6, seed=3, names=names), sys.argv[1])
"""


def test_track_files_do_not_depend_on_the_hash_seed(tmp_path):
    outputs = []
    for hash_seed in ("0", "4242"):
        directory = tmp_path / hash_seed
        directory.mkdir()
        env = dict(os.environ, PYTHONHASHSEED=hash_seed,
                   PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "tests")]))
        subprocess.run([sys.executable, "-c", DRAW_IN_A_FRESH_INTERPRETER, str(directory)],
                       env=env, check=True)
        outputs.append({name: (directory / name).read_bytes() for name in files.TRACK_FILES})
    assert outputs[0] == outputs[1]


def test_the_leaderboard_shows_the_main_metrics_and_folds_the_others():
    import dataclasses
    view = fake_track(runs=6, queries=4, seed=13)
    others = view.other_metric_columns
    board = view.leaderboard.assign(rank_low=[1, 1, 2, 4, 4, 6], rank_high=[2, 3, 3, 5, 6, 6],
                                     group=[1, 1, 1, 2, 2, 3])
    view = dataclasses.replace(view, leaderboard=board, main_metrics=(others[1], "not_there"))
    elements = parse(page.leaderboard_table(view))
    assert elements.board_rows[0] == ["rank", "run", view.metric, others[1], "ranks", "group",
                                      "status"]
    assert [row[4:6] for row in elements.board_rows[1:]] == [
        ["1\u20132", "1"], ["1\u20133", "1"], ["2\u20133", "1"], ["4\u20135", "2"],
        ["4\u20136", "2"], ["6", "3"]]
    text = page.leaderboard_table(view)
    assert f"Every metric (1 more: {others[0]})" in text and 'id="every-metric-table"' in text
    # without main metrics (a view made elsewhere): every metric in the table, none folded
    plain = page.leaderboard_table(dataclasses.replace(view, main_metrics=None))
    assert "every-metric-table" not in plain


def test_many_main_metrics_keep_their_f1s_only():
    import dataclasses
    view = fake_track(runs=3, queries=4, seed=14, task="scifact")
    metrics = [f"{kind}_{measure}" for kind in ("a", "b", "c", "d")
               for measure in ("precision", "recall", "f1")]
    board = view.leaderboard.assign(**{m: 0.5 for m in metrics})
    view = dataclasses.replace(view, leaderboard=board, main_metrics=tuple(metrics))
    assert page.main_columns(view) == ["a_f1", "b_f1", "c_f1", "d_f1"]
