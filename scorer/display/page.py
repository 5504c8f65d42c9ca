"""A track's results as one self-contained static page (``DIR/index.html``):
the leaderboard (sortable, each score with its interval), the leaderboard
picture as inline SVG, the significance matrix as a heat map, and per run its
per-hop scores, its per-query scores worst first and links to its report files;
the signature and the invocation.

Built from ``blocks`` alone.  Per-query scores travel as one compact JSON blob
and become tables only when a run's list is opened, so a 100-run x 500-query
track stays a few megabytes and opens at once.
"""
from __future__ import annotations

import math
import re

import pandas as pd

from scorer.metricnames import is_precision_or_recall, metric_named
from scorer.display import blocks
from scorer.display.blocks import Cell, Column, esc, fmt
from scorer.display.view import HOP_ORDER, METRIC_ORDER, SIGNIFICANCE_LEVEL, TrackView, ordered

#: Holm-adjusted p-value classes of the heat map: (upper bound, CSS class).
P_CLASSES = ((0.001, "p0"), (0.01, "p1"), (SIGNIFICANCE_LEVEL, "p2"), (0.1, "p3"),
             (math.inf, "p4"))
#: The leaderboard table's metric columns beside the headline, at most (the
#: others are under "every metric").
MAIN_COLUMNS = 6
#: Up to this many runs the heat map writes each p-value in its cell (always on hover).
P_IN_CELL_RUNS = 30


def run_anchor(index: int) -> str:
    """The id of a run's section (by rank position: names are user data)."""
    return f"run-{index + 1}"


def track_page(view: TrackView, plot_svg: str, paper_files=(), extra_sections=()) -> str:
    """The page's HTML; ``plot_svg`` is the text of the leaderboard's SVG
    (``plot.leaderboard_plot``), embedded as it is (its XML prolog dropped);
    ``paper_files``: the same picture's PDF files for a paper, listed under it;
    ``extra_sections``: ``(id, heading, HTML)`` of sections before the runs'
    (the slices')."""
    title = view.title or f"Track results: {view.metric_title}"
    body = [
        blocks.section("about", "How these numbers were made", blocks.definitions(
            [("Headline metric", metric_named(view.metric_title, view.metric)),
             ("Signature", view.signature), ("Invocation", view.invocation)]
            + ([("Randomization test", view.randomization)] if view.randomization else [])
            + [("WARNING", warning) for warning in view.warnings])),
        blocks.section("leaderboard", "Leaderboard", leaderboard_table(view)),
        blocks.section("plot", "Scores and 95 % intervals",
                       f'<div class="plot">{inline_svg(plot_svg)}</div>'
                       + paper_figure_note(list(paper_files))),
        blocks.section("significance", "Significance", significance_block(view)),
        *(blocks.section(*extra) for extra in extra_sections),
        blocks.section("runs", "Runs", run_sections(view)),
    ]
    return blocks.document(title, "".join(body), HEAT_MAP_SCRIPT)


def paper_figure_note(files: list) -> str:
    """Where the picture is for a paper: its PDF, or its parts when it is
    taller than a page."""
    if not files:
        return ""
    if len(files) == 1:
        text = (f"For a paper: {files[0]} (vector, "
                f"\\includegraphics{{{files[0]}}}).")
    else:
        text = (f"For a paper, in {len(files)} parts no taller than a page, each a figure of "
                f"its own (\\includegraphics{{{files[0]}}}, ...):")
    return f"<p>{esc(text)}</p>" + (blocks.links(files) if len(files) > 1 else "")


def inline_svg(svg: str) -> str:
    """An SVG document's <svg> element, for embedding in HTML."""
    start = svg.find("<svg")
    if start < 0:
        raise ValueError("the plot is not an SVG document")
    return svg[start:].strip()


def leaderboard_table(view: TrackView) -> str:
    """The leaderboard: rank, run, the headline with its interval, the main
    metrics, the rank range and group (when the track has them), the status;
    then, folded, every other metric (a table as wide as the metrics are many,
    scrolling in its own box)."""
    board = view.leaderboard
    tied = view.tied_with_best()
    shown = main_columns(view)
    ranges, groups = view.rank_ranges(), view.groups()
    columns = ([Column("rank"), Column("run", numeric=False),
                Column(view.metric, tip=f"{view.metric_title}, with its 95 % interval")]
               + [Column(name) for name in shown]
               + ([Column("ranks", numeric=False, tip="the run's ranks in 95 % of the "
                                                      "bootstrap samples")] if ranges else [])
               + ([Column("group", tip="group 1: the best run and those not significantly "
                                       "worse; group 2: the best run left and those not "
                                       "significantly worse than it; ...")] if groups else [])
               + [Column("status", numeric=False)])
    rows = []
    for index in range(len(board)):
        values = dict(zip(board.columns, board.iloc[index]))
        run = str(values["run"])
        marker = ""
        if run in tied:
            marker = (' <span class="tied" title="group 1: not significantly worse than the best '
                      f'run ({view.correction_name}-adjusted p \u2265 {SIGNIFICANCE_LEVEL:g})">'
                      '\u2248</span>')
        run_cell = Cell(f'<a href="#{run_anchor(index)}">{blocks.breakable(run)}</a>{marker}')
        score = values["score"]
        low, high = values["ci95_low"], values["ci95_high"]
        interval = "" if _missing(low) or _missing(high) else \
            f' <span class="ci">[{esc(fmt(low))}, {esc(fmt(high))}]</span>'
        score_cell = Cell(esc(fmt(score)) + interval, _number(score), css_class="score")
        status = str(values["status"])
        extra = []
        if ranges:
            low_rank, high_rank = ranges.get(run, (None, None))
            extra.append(Cell("" if low_rank is None else esc(
                f"{low_rank}" if low_rank == high_rank else f"{low_rank}\u2013{high_rank}"),
                _number(low_rank)))
        if groups:
            extra.append(blocks.cell(groups.get(run)))
        rows.append([blocks.cell(values["rank"]), run_cell, score_cell]
                    + [blocks.cell(_number(values[name])) for name in shown] + extra
                    + [Cell(esc(status), css_class="errors" if status != "ok" else "")])
    table = blocks.table(columns, rows, table_id="leaderboard-table")
    rest = [name for name in view.other_metric_columns if name not in shown]
    if not rest:
        return table
    every = blocks.table([Column("rank"), Column("run", numeric=False)]
                         + [Column(name) for name in view.other_metric_columns],
                         [[blocks.cell(rank), Cell(blocks.breakable(run))]
                          + [blocks.cell(_number(value)) for value in values]
                          for rank, run, values in zip(
                              board["rank"], board["run"],
                              board[view.other_metric_columns].itertuples(index=False))],
                         table_id="every-metric-table")
    return (table + f'<details class="every"><summary>Every metric ({len(rest)} more: '
            f'{esc(", ".join(rest))})</summary><div class="scroll">{every}</div></details>')


def main_columns(view: TrackView) -> list:
    """The metric columns of the leaderboard table: the view's main metrics,
    without precision and recall beside their F1 when they are more than
    MAIN_COLUMNS, and at most that many (the table fits a 1280-pixel window)."""
    shown = view.shown_metric_columns
    if len(shown) > MAIN_COLUMNS:
        shown = [name for name in shown if not is_precision_or_recall(name)]
    return shown[:MAIN_COLUMNS]


def _number(value) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return math.nan


def _missing(value) -> bool:
    return math.isnan(_number(value))


def significance_block(view: TrackView) -> str:
    rows = view.headline_significance()
    if rows is None:
        return ("<p>The track had no bootstrap samples: no intervals and no significance "
                "tests.</p>")
    runs = view.runs
    position = {run: i for i, run in enumerate(runs)}
    cells = []
    for record in rows.itertuples(index=False):
        a, b = position.get(str(record.run_a)), position.get(str(record.run_b))
        if a is None or b is None:
            continue
        cells.append([a, b] + [None if _missing(v) else float(v) for v in
                               (record.delta, record.p_bootstrap, record.p_randomization,
                                _adjusted(record, view.correction))])
    short = "BH" if view.correction == "bh" else "Holm"
    legend = "".join(f'<span class="{css}">p<sub>{short}</sub> &lt; {bound:g}</span>'
                     if bound != math.inf else
                     f'<span class="{css}">p<sub>{short}</sub> \u2265 0.1</span>'
                     for bound, css in P_CLASSES)
    data = {"runs": runs, "cells": cells, "classes": [[b if b != math.inf else None, c]
                                                      for b, c in P_CLASSES],
            "inCell": len(runs) <= P_IN_CELL_RUNS,
            "adjusted": "p_bh" if view.correction == "bh" else "p_holm"}
    return (f"<p>Each cell compares the run of its row with the run of its column "
            f"(columns by rank): colour by {view.correction_name}-adjusted p of the "
            f"randomization test "
            f"(significant below {SIGNIFICANCE_LEVEL:g}); hover for delta (row minus "
            f"column) and every p-value.</p>"
            f'<p class="legend">{legend}</p>'
            f'<div class="scroll"><table id="heat-map" class="heat"></table></div>'
            + blocks.json_script("heat-data", data))


def _adjusted(record, correction: str):
    """The adjusted p of a significance row under the track's correction."""
    return getattr(record, "p_bh") if correction == "bh" and hasattr(record, "p_bh") \
        else record.p_holm


def run_sections(view: TrackView) -> str:
    per_hop = _pivot_per_hop(view.per_hop)
    family, tables = _per_query_family(view)
    out = []
    for index, run in enumerate(view.runs):
        record = view.leaderboard.iloc[index]
        status = str(record["status"])
        heading = f"{record['rank']}. {run}" + ("" if status == "ok" else f" ({status})")
        parts = []
        if run in per_hop:
            # as wide as the task has metrics (SciFact's 13): in its own box
            parts.append(f'<div class="scroll">{per_hop[run]}</div>')
        if run in tables:
            parts.append(blocks.lazy_table("per-query", run, _per_query_summary(view, run,
                                                                                tables[run])))
        files = list(view.run_files.get(run, []))
        if run in tables and (view.per_query_totals or {}).get(run, 0) > tables[run]:
            files.append("per_query.csv.gz")    # (the units the page leaves out)
        if files:
            parts.append(blocks.links(files))
        out.append(blocks.section(run_anchor(index), heading, "".join(parts), level=3))
    return family + "".join(out)


def _per_query_summary(view: TrackView, run: str, shown: int) -> str:
    """What a run's per-unit table holds: every unit, or the first of them
    (the rest are in per_query.csv.gz, the page stays small)."""
    total = (view.per_query_totals or {}).get(run)
    if total is None or total <= shown:
        return f"Per-{view.unit} scores, worst first ({shown} " \
               f"{view.unit if shown == 1 else view.units})"
    return (f"Per-{view.unit} scores, worst first (the first {shown:,} of {total:,} "
            f"{view.units}; every one in per_query.csv.gz)")


def _pivot_per_hop(per_hop: pd.DataFrame) -> dict:
    """run -> its per-hop table: one row per variant and aggregate, one column
    per hop and metric."""
    if per_hop.empty:
        return {}
    frame = per_hop.copy()
    for column in ("run", "variant", "aggregate", "hop", "metric"):
        frame[column] = frame[column].fillna("").astype(str)
    hops = ordered(frame["hop"], HOP_ORDER)
    metrics = ordered(frame["metric"], METRIC_ORDER)
    one_hop = hops == ["ALL"]
    tables = {}
    for run, rows in frame.groupby("run", sort=False):
        values = {(v, a, h, m): x for v, a, h, m, x in
                  zip(rows["variant"], rows["aggregate"], rows["hop"], rows["metric"],
                      rows["value"])}
        groups = list(dict.fromkeys(zip(rows["variant"], rows["aggregate"])))
        present = [(h, m) for h in hops for m in metrics
                   if any((v, a, h, m) in values for v, a in groups)]
        columns = [Column("scores", numeric=False)] + [
            Column(m if one_hop else f"{m} hop {h}") for h, m in present]
        body = [[" ".join(part for part in group if part)]
                + [_number(values[group + key]) if group + key in values else math.nan
                   for key in present] for group in groups]
        tables[run] = blocks.table(columns, body, sortable=False, css_class="per-hop")
    return tables


def _per_query_family(view: TrackView):
    """The JSON blob of every run's per-query scores, and run -> its number of
    queries."""
    frame = view.per_query
    if frame.empty:
        return "", {}
    frame = frame[["run", "query", "hop", "metric", "value"]].copy()
    for column in ("run", "query", "hop", "metric"):
        frame[column] = frame[column].astype(str)
    hops = ordered(frame["hop"], HOP_ORDER)
    metrics = ordered(frame["metric"], METRIC_ORDER)
    keys = [(h, m) for h in hops for m in metrics]
    wide = frame.pivot_table(index=["run", "query"], columns=["hop", "metric"], values="value",
                             aggfunc="first", sort=False)
    keys = [key for key in keys if key in wide.columns]
    wide = wide.reindex(columns=pd.MultiIndex.from_tuples(keys))
    labels = sorted(set(frame["query"]), key=_natural)
    one_hop = hops == ["ALL"]
    sort_metric = view.sort_metric()
    sort_key = ("ALL", sort_metric) if ("ALL", sort_metric) in keys else \
        next((key for key in keys if key[1] == sort_metric), keys[0])
    tables, counts = {}, {}
    for run, rows in wide.groupby(level=0, sort=False):
        rows = rows.droplevel(0).reindex(labels)
        tables[run] = [[None if v != v else float(v) for v in rows[key].tolist()]
                       for key in keys]
        counts[run] = int(rows.notna().any(axis=1).sum())
    columns = [(m if one_hop else f"{m} hop {h}", blocks.DIGITS) for h, m in keys]
    family = blocks.lazy_tables("per-query", view.unit, labels, columns, tables,
                                sort_column=keys.index(sort_key))
    return family, counts


def _natural(text: str):
    """Query ids in natural order (CSSF17_ENG_2 before CSSF17_ENG_10)."""
    # (isdecimal: the digits int() reads; isdigit() passes '²', which it refuses)
    return [(0, int(part), "") if part.isdecimal() else (1, 0, part)
            for part in re.split(r"(\d+)", text)]


# The heat map, built from its JSON (run names only through textContent).
HEAT_MAP_SCRIPT = r"""
(function(){var source=document.getElementById("heat-data");if(!source)return;
  var data=JSON.parse(source.textContent),n=data.runs.length,table=document.getElementById("heat-map");
  var grid=[];for(var i=0;i<n;i++){grid.push(new Array(n).fill(null));}
  data.cells.forEach(function(c){grid[c[0]][c[1]]={delta:c[2],pb:c[3],pr:c[4],ph:c[5]};
    grid[c[1]][c[0]]={delta:c[2]===null?null:-c[2],pb:c[3],pr:c[4],ph:c[5]};});
  function klass(p){if(p===null)return "";for(var k=0;k<data.classes.length;k++){
    var b=data.classes[k][0];if(b===null||p<b)return data.classes[k][1];}return "";}
  function show(v){return v===null?"none":String(v);}
  var head=table.createTHead().insertRow();head.appendChild(document.createElement("th"));
  data.runs.forEach(function(run,j){var th=document.createElement("th");th.textContent=String(j+1);
    th.title=run;head.appendChild(th);});
  var body=table.createTBody();
  data.runs.forEach(function(run,i){var row=body.insertRow(),th=document.createElement("th");
    th.textContent=(i+1)+". "+run;row.appendChild(th);
    for(var j=0;j<n;j++){var td=row.insertCell(),c=grid[i][j];
      if(i===j){td.className="self";continue;}if(c===null)continue;
      td.className=klass(c.ph);
      if(data.inCell&&c.ph!==null)td.textContent=c.ph<0.001?"<.001":c.ph.toFixed(3).replace(/^0/,"");
      td.title=run+" vs "+data.runs[j]+": delta "+(c.delta===null?"none":c.delta.toFixed(4))+
        "\n"+data.adjusted+" "+show(c.ph)+"\np_randomization "+show(c.pr)+"\np_bootstrap "+show(c.pb);}});
})();
document.body.setAttribute("data-ready","1");
"""
