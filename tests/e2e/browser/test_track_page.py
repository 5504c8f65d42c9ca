"""The track page in a real browser: Debian's Chromium, headless, opens
index.html from disk; the tests read the rendered DOM.  Skipped (saying why)
where chromium, chromedriver or selenium are missing; .ci/run installs them."""
from __future__ import annotations

import pytest

from scorer.display import page, plot

import browser
from trackviews import fake_track

# A browser: seconds each, so pytest -m "not slow" leaves them out.
pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(bool(browser.missing()), reason=f"browser tests: {browser.missing()}")]

NAMES = ["zeta", "<img src=x onerror=window.pwned=1>", "alpha & co", "Mu", "beta", "ünï",
         "delta", "gamma"]
QUERIES = 12


@pytest.fixture(scope="module")
def driver():
    with browser.chromium() as chromium:
        yield chromium


@pytest.fixture(scope="module")
def track(tmp_path_factory):
    """A track's index.html on disk, opened from file://."""
    directory = tmp_path_factory.mktemp("track")
    view = fake_track(runs=len(NAMES), queries=QUERIES, seed=11, names=NAMES)
    plot.leaderboard_plot(view, str(directory / "leaderboard.png"),
                          str(directory / "leaderboard.svg"))
    index = directory / "index.html"
    index.write_text(page.track_page(view, (directory / "leaderboard.svg").read_text("utf-8")),
                     encoding="utf-8")
    return view, index.as_uri()


@pytest.fixture
def opened(driver, track):
    view, url = track
    browser.requested_urls(driver)  # forget earlier requests
    driver.get(url)
    assert driver.execute_script("return document.body.getAttribute('data-ready')") == "1"
    return view, url


def column(driver, table_id, index) -> list:
    return driver.execute_script(
        "return Array.prototype.map.call(document.getElementById(arguments[0]).tBodies[0].rows,"
        " function(r){return r.cells[arguments[1]].textContent;})".replace("arguments[1]",
                                                                          str(index)),
        table_id)


def click_header(driver, table_id, title):
    header = driver.execute_script(
        "return Array.prototype.find.call(document.getElementById(arguments[0]).tHead.rows[0]"
        ".cells, function(c){return c.textContent===arguments[1];})".replace(
            "arguments[1]", repr(title)), table_id)
    header.click()


def test_one_row_per_run_in_rank_order(driver, opened, tmp_path):
    view, url = opened
    assert column(driver, "leaderboard-table", 0) == [str(r) for r in view.leaderboard["rank"]]
    assert [name.rstrip(" \u2248") for name in column(driver, "leaderboard-table", 1)] \
        == view.runs
    # a name that is markup stays text
    assert driver.execute_script("return window.pwned") is None
    screenshot = tmp_path / "index.png"
    assert driver.save_screenshot(str(screenshot)) and screenshot.stat().st_size > 10_000
    assert browser.leaving_requests(browser.requested_urls(driver), url) == []


def test_sorting_by_a_column_reorders_the_rows(driver, opened):
    view, _url = opened
    click_header(driver, "leaderboard-table", "run")
    names = [name.rstrip(" \u2248") for name in column(driver, "leaderboard-table", 1)]
    assert names == sorted(view.runs)
    click_header(driver, "leaderboard-table", view.metric)
    scores = [float(s.split(" [")[0]) for s in column(driver, "leaderboard-table", 2)]
    assert scores == sorted(scores) and scores != list(
        float(f"{s:.4f}") for s in view.leaderboard["score"])
    click_header(driver, "leaderboard-table", view.metric)  # again: the other way
    assert column(driver, "leaderboard-table", 0) == [str(r) for r in view.leaderboard["rank"]]


def test_heat_map_has_a_cell_per_pair_with_its_p_values(driver, opened):
    view, _url = opened
    cells = driver.execute_script(
        "var t=document.getElementById('heat-map');return Array.prototype.map.call("
        "t.tBodies[0].rows,function(r){return Array.prototype.slice.call(r.cells,1).map("
        "function(c){return [c.className,c.title,c.textContent];});});")
    runs = len(view.runs)
    assert len(cells) == runs and all(len(row) == runs for row in cells)
    best_vs_third = cells[0][2]
    pair = view.significance[(view.significance.run_a == view.runs[0])
                             & (view.significance.run_b == view.runs[2])].iloc[0]
    shown = dict(line.split(" ", 1) for line in best_vs_third[1].split("\n")[1:])
    assert {name: float(value) for name, value in shown.items()} == {  # every digit
        "p_holm": pair.p_holm, "p_randomization": pair.p_randomization,
        "p_bootstrap": pair.p_bootstrap}
    assert best_vs_third[0] == next(c for bound, c in page.P_CLASSES if pair.p_holm < bound)
    assert cells[2][0][1].replace(f"{view.runs[2]} vs {view.runs[0]}", "") \
        == best_vs_third[1].replace(f"{view.runs[0]} vs {view.runs[2]}", "").replace(
            f"delta {pair.delta:.4f}", f"delta {-pair.delta:.4f}")
    assert [row[i][0] for i, row in enumerate(cells)] == ["self"] * runs


def test_a_runs_queries_open_worst_first(driver, opened):
    view, _url = opened
    last = len(view.runs)
    rows = driver.execute_script(
        "var d=document.querySelector('#run-" + str(last) + " details.lazy');d.open=true;"
        "return new Promise(function(done){setTimeout(function(){var t=d.querySelector('table');"
        "done(Array.prototype.map.call(t.tBodies[0].rows,function(r){"
        "return Array.prototype.map.call(r.cells,function(c){return c.textContent;});}));},50);});")
    run = view.runs[-1]
    expected = view.per_query[(view.per_query.run == run) & (view.per_query.hop == "ALL")
                              & (view.per_query.metric == "AP")]
    assert len(rows) == QUERIES
    ap = [float(row[4]) for row in rows]  # query, P, R, F1, AP at hop ALL
    assert ap == sorted(ap)
    assert ap[0] == round(expected.value.min(), 4) and rows[0][0] == expected.loc[
        expected.value.idxmin(), "query"]


def test_the_request_check_sees_a_request_that_leaves(driver, tmp_path):
    other = tmp_path / "other.html"
    other.write_text('<html><body><img src="elsewhere.png"></body></html>', encoding="utf-8")
    browser.requested_urls(driver)
    driver.get(other.as_uri())
    assert browser.leaving_requests(browser.requested_urls(driver), other.as_uri()) \
        == [(tmp_path / "elsewhere.png").as_uri()]


LONG_NAMES = [f"team{i:03d}_system-with-a-rather-long-descriptive-name_v{i:02d}_final"
              for i in range(100)]


def _many_metrics(view, metrics, headline, title, main):
    """``view`` with the leaderboard columns of a track of ``metrics``."""
    import dataclasses
    import numpy as np
    board = view.leaderboard
    head = board[["rank", "run", "metric", "score", "ci95_low", "ci95_high"]].assign(
        metric=headline)
    board = head.assign(**{m: np.linspace(0.1, 0.9, len(board)) for m in metrics
                           if m != headline}).assign(status=board["status"])
    return dataclasses.replace(view, leaderboard=board, metric=headline, metric_title=title,
                               significance=view.significance.assign(metric=headline),
                               main_metrics=tuple(main))


def _coldstart_metrics():
    from scorer.coldstart.metrics import METRICS
    return [m.name for m in METRICS]


SCIFACT_METRICS = [f"{kind}_{measure}" for kind in ("abstract_label_only",
                                                    "abstract_rationalized",
                                                    "sentence_selection", "sentence_label")
                   for measure in ("precision", "recall", "f1")] + ["label_accuracy"]

WIDE_PAGES = {
    "100 runs, 60-character names": lambda: fake_track(runs=100, queries=30, seed=21,
                                                        names=LONG_NAMES),
    "names without a break": lambda: fake_track(
        runs=6, queries=8, seed=22, names=["x" * 90, "y" * 61, "z", "w" * 70, "v", "u"]),
    "Cold Start, every metric": lambda: _many_metrics(
        fake_track(runs=100, queries=10, seed=23, names=LONG_NAMES), _coldstart_metrics(),
        "ldcmean_ap", "LDC-MEAN ALL-Macro AP, hop ALL (the official 2017 score)",
        ["ldcmean_macro_p", "ldcmean_macro_r", "ldcmean_macro_f1"]),
    "SciFact, its twelve leaderboard metrics": lambda: _many_metrics(
        fake_track(runs=40, queries=10, seed=24, task="scifact", names=LONG_NAMES[:40]),
        SCIFACT_METRICS, "sentence_label_f1", "SciFact sentence_label_f1",
        SCIFACT_METRICS[:12]),
}


@pytest.mark.parametrize("case", list(WIDE_PAGES))
def test_the_page_fits_a_1280_pixel_window_without_scrolling_sideways(driver, tmp_path, case):
    view = WIDE_PAGES[case]()
    svg, png = tmp_path / "leaderboard.svg", tmp_path / "leaderboard.png"
    plot.leaderboard_plot(view, str(png), str(svg))
    index = tmp_path / "index.html"
    index.write_text(page.track_page(view, svg.read_text("utf-8")), encoding="utf-8")
    driver.get(index.as_uri())
    assert driver.execute_script("return document.body.getAttribute('data-ready')") == "1"
    assert driver.execute_script("return window.innerWidth") == 1280
    measure = ("return [document.documentElement.scrollWidth, "
               "document.documentElement.clientWidth]")
    scroll_width, client_width = driver.execute_script(measure)
    assert scroll_width <= client_width, case
    # every folded table opened (each run's per-unit scores, every metric): still none
    driver.execute_script("document.querySelectorAll('details').forEach("
                          "function(d){d.open=true;});")
    assert driver.execute_script(
        "return new Promise(function(done){setTimeout(function(){done("
        "document.querySelectorAll('details.lazy table').length);},100);});") == len(view.runs)
    scroll_width, client_width = driver.execute_script(measure)
    assert scroll_width <= client_width, case
    # the leaderboard itself fits, whole: no column cut, no box to scroll
    table_right = driver.execute_script(
        "return document.getElementById('leaderboard-table').getBoundingClientRect().right")
    assert table_right <= client_width


def test_a_claim_tracks_page_says_claims(driver, tmp_path):
    view = fake_track(runs=3, queries=7, seed=25, task="scifact")
    svg, png = tmp_path / "leaderboard.svg", tmp_path / "leaderboard.png"
    plot.leaderboard_plot(view, str(png), str(svg))
    index = tmp_path / "index.html"
    index.write_text(page.track_page(view, svg.read_text("utf-8")), encoding="utf-8")
    driver.get(index.as_uri())
    summaries = driver.execute_script(
        "return Array.prototype.map.call(document.querySelectorAll('details.lazy summary'),"
        "function(s){return s.textContent;});")
    assert summaries == ["Per-claim scores, worst first (7 claims)"] * 3
    driver.execute_script("document.querySelector('details.lazy').open=true;")
    header = driver.execute_script(
        "return new Promise(function(done){setTimeout(function(){done(document.querySelector("
        "'details.lazy table').tHead.rows[0].cells[0].textContent);},50);});")
    assert header == "claim"
    assert "quer" not in driver.execute_script("return document.body.textContent")


def _real_tracks():
    """Track inputs from the bundled files, one track per task (file, name in
    the track): their per-run tables show every metric the task has (SciFact's
    13)."""
    from places import CONFIGS, DEMO, FIXTURES
    scifact = FIXTURES / "scifact"
    classification = FIXTURES / "classification" / "semeval" / "input"
    fever = FIXTURES / "fever" / "blind"
    return {
        "SciFact": ([(scifact / "basic" / "gold.jsonl", "gold.jsonl"),
                     (scifact / "basic" / "predictions.jsonl", "team_a.jsonl"),
                     (scifact / "sets_shape" / "predictions.jsonl", "team_b.jsonl")],
                    {"policy": CONFIGS / "scifact.yaml"}),
        "FEVER": ([(fever / "actual.jsonl", "actual.jsonl"),
                   (fever / "predictions.jsonl", "team_a.jsonl")],
                  {"policy": CONFIGS / "fever.yaml"}),
        "classification": ([(classification / "gold.jsonl", "gold.jsonl"),
                            (classification / "predictions.tsv", "team_a.tsv")],
                           {"policy": CONFIGS / "classification.yaml"}),
        "Cold Start": ([(DEMO / name, name) for name in ("ldc-query.xml", "qrel.txt",
                                                          "DEMORUN.tab.txt")],
                       {"expand": "CSSF17"}),
    }


@pytest.mark.parametrize("task", list(_real_tracks()))
def test_a_real_tracks_page_fits_a_1280_pixel_window(driver, tmp_path, task):
    import shutil
    import scorer
    files, switches = _real_tracks()[task]
    (tmp_path / "in").mkdir()
    for source, name in files:
        shutil.copyfile(source, tmp_path / "in" / name)
    scorer.score_track([str(tmp_path / "in" / name) for _source, name in files],
                       output_dir=str(tmp_path / "track"), bootstrap=50, seed=1,
                       **{k: str(v) for k, v in switches.items()})
    driver.get((tmp_path / "track" / "index.html").as_uri())
    assert driver.execute_script("return window.innerWidth") == 1280
    driver.execute_script("document.querySelectorAll('details').forEach("
                          "function(d){d.open=true;});")
    scroll_width, client_width = driver.execute_script(
        "return new Promise(function(done){setTimeout(function(){done(["
        "document.documentElement.scrollWidth, document.documentElement.clientWidth]);},100);});")
    assert scroll_width <= client_width, task
