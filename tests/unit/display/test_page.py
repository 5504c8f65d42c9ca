"""The track page's HTML (scorer/display/page.py) without a browser: escaping,
links, size, content, and what it shows of the view."""
from __future__ import annotations

import html.parser
import re

import pytest
import numpy as np
import pandas as pd

from scorer.display import page
from scorer.display.view import TrackView

from trackviews import ODD_NAMES, draw, fake_track


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


@pytest.mark.slow
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


def test_a_long_invocation_is_folded_to_its_start_and_kept_whole():
    """A track of 100 run files has an invocation of thousands of characters,
    which filled the first screens before the leaderboard: it is folded, and
    the folded text is the whole invocation."""
    import dataclasses
    import html as html_module
    from scorer.display import blocks
    short = fake_track(runs=3, queries=4, seed=5)
    text = page.track_page(short, "<svg></svg>")
    assert f"<dd><code>{blocks.esc(short.invocation)}</code></dd>" in text
    long = dataclasses.replace(short, invocation=short.invocation + " " + " ".join(
        f"runs/team_{i:03d}_a_rather_long_system_name.jsonl" for i in range(100)))
    text = page.track_page(long, "<svg></svg>")
    about = text.split('<section id="about">')[1].split("</section>")[0]
    folded = re.search(r"<dd><details><summary><code>(.*?)</code> … \(([\d,]+) characters\)"
                       r"</summary><code>(.*?)</code></details></dd>", about)
    assert folded, about[:500]
    assert html_module.unescape(folded.group(3)) == long.invocation
    assert long.invocation.startswith(html_module.unescape(folded.group(1)))
    assert int(folded.group(2).replace(",", "")) == len(long.invocation)
    assert len(folded.group(1)) < 200
