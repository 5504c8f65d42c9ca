#!/usr/bin/env python3
"""Time the track page: build the pictures and index.html of fake tracks
(tests/helpers/trackviews.py, seeded) and open the page in headless Chromium.

    python bench/page_bench.py [--sizes 8x30,100x500] [--repeat N]

For each size RUNSxQUERIES it prints the seconds to draw the leaderboard (PNG +
SVG) and to write the page, the page's size, and, in Chromium from file://
(best of --repeat): the time from navigation to the end of the load event (the
page's script has built the heat map by then), the wall time from asking for
the page to its first paint after that, and the time to build one run's
per-query table when it is opened.  Exit
status 1 when a page is 5 MB or more or takes 2 s or more to render (the
page's targets).  The files stay under bench/out/page/ to look at.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "helpers"))

import browser  # noqa: E402
from scorer.display import page, plot  # noqa: E402
from trackviews import fake_track  # noqa: E402

OUT = os.path.join(HERE, "out", "page")
MAX_BYTES, MAX_SECONDS = 5_000_000, 2.0

# Two animation frames after the load: the page has been laid out and painted.
PAINTED = """
var done=arguments[arguments.length-1];
requestAnimationFrame(function(){requestAnimationFrame(function(){done(true);});});
"""
OPEN_ONE = """
var done=arguments[arguments.length-1],started=performance.now();
var d=document.querySelector('details.lazy');d.open=true;
(function wait(){if(d.querySelector('table'))done(performance.now()-started);
  else setTimeout(wait,1);})();
"""


def build(runs: int, queries: int) -> dict:
    directory = os.path.join(OUT, f"{runs}x{queries}")
    os.makedirs(directory, exist_ok=True)
    view = fake_track(runs=runs, queries=queries, seed=1)
    started = time.perf_counter()
    svg = os.path.join(directory, "leaderboard.svg")
    plot.leaderboard_plot(view, os.path.join(directory, "leaderboard.png"), svg)
    drawn = time.perf_counter()
    with open(svg, encoding="utf-8") as f:
        text = page.track_page(view, f.read())
    index = os.path.join(directory, "index.html")
    with open(index, "w", encoding="utf-8") as f:
        f.write(text)
    return {"plot_s": drawn - started, "page_s": time.perf_counter() - drawn,
            "bytes": len(text.encode("utf-8")), "url": "file://" + os.path.abspath(index)}


def render(driver, url: str) -> dict:
    driver.get("about:blank")
    started = time.perf_counter()
    driver.get(url)  # returns after the load event
    driver.execute_async_script(PAINTED)
    wall = time.perf_counter() - started
    load_ms, ready = driver.execute_script(
        "var t=performance.timing;return [t.loadEventEnd-t.navigationStart,"
        "document.body.getAttribute('data-ready')];")
    if ready != "1":
        raise SystemExit(f"{url}: the page's script did not finish")
    open_ms = driver.execute_async_script(OPEN_ONE)
    leaving = browser.leaving_requests(browser.requested_urls(driver), url)
    if leaving:
        raise SystemExit(f"{url}: requests left the page: {leaving}")
    return {"load_s": load_ms / 1000, "wall_s": wall, "open_s": open_ms / 1000}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="8x30,20x500,100x500")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    sizes = [tuple(int(n) for n in size.split("x")) for size in args.sizes.split(",")]
    why = browser.missing()
    if why:
        print(f"page bench: {why}", file=sys.stderr)
        return 1
    failed = False
    print(f"{'runs x queries':>15} {'plot':>7} {'page':>7} {'size':>9} {'load':>7} "
          f"{'painted':>8} {'open run':>9}")
    with browser.chromium() as driver:
        for runs, queries in sizes:
            built = build(runs, queries)
            best = min((render(driver, built["url"]) for _ in range(args.repeat)),
                       key=lambda timing: timing["wall_s"])
            print(f"{f'{runs} x {queries}':>15} {built['plot_s']:6.2f}s {built['page_s']:6.2f}s "
                  f"{built['bytes'] / 1e6:7.2f}MB {best['load_s']:6.2f}s {best['wall_s']:7.2f}s "
                  f"{best['open_s']:8.3f}s")
            if built["bytes"] >= MAX_BYTES or best["wall_s"] >= MAX_SECONDS:
                failed = True
                print(f"  over the targets ({MAX_BYTES / 1e6:g} MB, {MAX_SECONDS:g} s)")
    print(f"pages under {OUT}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
