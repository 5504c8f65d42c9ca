"""``detailed_results.html``: what a participant sees of one scored
submission, composed from ``scorer.display.blocks`` (the one renderer): the
leaderboard numbers, a table per unit (query, claim, item) of what counted, the
``.debug`` text that says why, and links to the report set beside the page.
"""
from __future__ import annotations

import math

from scorer.display import blocks

#: Past this many characters the page shows the beginning of the .debug
#: and points at the file (a browser tab stays usable).
DEBUG_SHOWN = 2_000_000


def page(scored, task, titles: dict, headings: dict, files: list) -> str:
    """``task``: the task's record; ``titles``: each metric's explanation;
    ``headings``: each leaderboard key's column title."""
    body = [_headline(scored.scores, titles, headings), _counted(scored.result, task.unit),
            _why(scored.result.reports.get("debug", ""), task.unit), _warnings(scored.result),
            blocks.section("files", "The reports", "<p>Every report of this submission, "
                           "as <code>python -m scorer</code> writes it:</p>"
                           + blocks.links(files))]
    title = f"{task.name}: {scored.submission.label()}"
    return blocks.document(title, "".join(body))


def scores_page(scored, task, titles: dict, headings: dict, phase: dict) -> str:
    """A phase scored against the test gold (post-evaluation): the scores, and
    nothing of what each unit was given (which would show the gold)."""
    note = blocks.section("phase", f"Phase {phase.get('name', '')}",
                          "<p>This phase scores against the test gold: its detailed results "
                          f"show the scores alone, not what each {task.unit} was given.</p>")
    title = f"{task.name}: {scored.submission.label()}"
    return blocks.document(title, _headline(scored.scores, titles, headings) + note)


def receipt_page(scored, task, phase: dict) -> str:
    """A phase whose scores are hidden (evaluation): the participant is told
    only that the submission was scored and is valid."""
    end = phase.get("end")
    when = (f" The scores are shown when the phase ends ({blocks.esc(end)} UTC)." if end else
            " The scores are shown when the phase ends.")
    body = blocks.section(
        "receipt", "Scored and valid",
        f"<p>The submission <code>{blocks.esc(scored.submission.label())}</code> was read, "
        f"checked and scored: it is valid and counts in phase "
        f"<code>{blocks.esc(phase.get('name', ''))}</code>.{when}</p>")
    return blocks.document(f"{task.name}: {scored.submission.label()}", body)


def _headline(scores: dict, titles: dict, headings: dict) -> str:
    columns = [blocks.Column("metric", numeric=False), blocks.Column("key", numeric=False),
               blocks.Column("score"), blocks.Column("full precision", numeric=False)]
    # The meaning rides on the metric's cell (the competition's Metrics page has it too).
    rows = [[blocks.Cell(blocks.esc(headings[key]), title=titles.get(key, "")), key, value,
             blocks.Cell(blocks.esc(repr(value)))] for key, value in scores.items()]
    return blocks.section("scores", "Scores",
                          "<p>As the leaderboard shows them (point at a metric for its "
                          "meaning); <code>scores.json</code> holds the full precision.</p>"
                          + blocks.table(columns, rows, "scores", sortable=False))


def _counted(result, unit: str) -> str:
    # One row per unit (query, claim, item) and hop, one column per metric, in
    # first-seen order.
    grid = _claim_grid(result.claim_table)
    left_out = ""
    if grid is not None and len(grid[0]) * len(grid[1]) > GRID_CELLS and result.sparse_columns:
        # (a few hundred labels' counts of every item: a page of hundreds of megabytes)
        kept = [j for j, metric in enumerate(grid[1]) if metric not in result.sparse_columns]
        left_out = (f" The {len(grid[1]) - len(kept):,} columns that are zero for most "
                    f"{unit}s (such as each label's counts) are left out: the table would "
                    f"have {len(grid[0]) * len(grid[1]):,} cells (submission.debug shows "
                    f"what each {unit} was given).")
        grid = grid[0], [grid[1][j] for j in kept], [grid[2][j] for j in kept]
    if grid is None:
        rows = result.per_query_rows
        grid = _grid(rows) if rows else ([], [], [])
    keys, metrics, values = grid
    if not keys:
        return blocks.section("counted", "What counted", "<p>Nothing was scored.</p>")
    hops = sorted({hop for _query, hop in keys})
    labels = [query if len(hops) == 1 else f"{query} hop {hop}" for query, hop in keys]
    # Counts are whole numbers and shown so; scores with the reports' 4 decimals.
    columns = [(metric, 0 if (all(map(float.is_integer, column)) if None not in column else
                              all(v is None or v.is_integer() for v in column)) else 4)
               for metric, column in zip(metrics, values)]
    body = (f"<p>One row per {unit}{' and hop' if len(hops) > 1 else ''}: the counts each "
            f"score is made of (sort by any column).{left_out}</p>"
            + blocks.lazy_tables("counted", unit, labels, columns, {"all": values}, -1)
            + blocks.lazy_table("counted", "all", f"Open the table ({len(labels)} rows)"))
    return blocks.section("counted", "What counted", body)


#: The most cells the "What counted" table shows before it leaves out the
#: columns that are zero for most units (``task.scoring.sparse_columns``).
GRID_CELLS = 1_000_000


def _claim_grid(claim_table):
    """What :func:`_grid` makes of a claim task's per-query rows, made from
    the counts table they come from (``ScoreResult.claim_table``: claim keys,
    column lists), without the rows; None for Cold Start, or when a key is
    given twice, a column is short or a value is NaN (the rows then)."""
    if claim_table is None:
        return None
    claims, columns = claim_table
    if not claims or not columns:
        return [], [], []        # no rows
    if len(set(claims)) != len(claims):
        return None
    values = []
    for column in columns.values():
        floats = list(map(float, column[:len(claims)]))
        if len(floats) != len(claims) or any(map(math.isnan, floats)):
            return None
        values.append(floats)
    return [(claim, "ALL") for claim in claims], list(columns), values


def _grid(rows) -> tuple:
    """(keys, metrics, values): the (query, hop) keys and the metrics in
    first-seen order, and one list per metric, one value per key: floats, None
    for missing or NaN."""
    metrics = list(dict.fromkeys(metric for _query, _hop, metric, _value in rows))
    keys = list(dict.fromkeys((query, hop) for query, hop, _metric, _value in rows))
    row_of = {key: i for i, key in enumerate(keys)}
    column_of = {metric: j for j, metric in enumerate(metrics)}
    values = [[None] * len(keys) for _ in metrics]
    for query, hop, metric, value in rows:
        values[column_of[metric]][row_of[(query, hop)]] = None if value != value else float(value)
    return keys, metrics, values


def _why(debug: str, unit: str) -> str:
    if not debug:
        return ""
    shown = debug[:DEBUG_SHOWN]
    cut = "" if len(shown) == len(debug) else \
        f"<p>The first {DEBUG_SHOWN} characters; the whole text is in submission.debug.</p>"
    body = (f"<p>For each {unit}, what was submitted and the decision taken on it: the "
            f"<code>.debug</code> report.</p>" + cut
            + f'<details><summary>Show it</summary><div class="scroll"><pre>'
              f"{blocks.esc(shown)}</pre></div></details>")
    return blocks.section("why", "Why", body)


def _warnings(result) -> str:
    if "WARNING" not in result.errlog:
        return ""
    return blocks.section("warnings", "Warnings",
                          f"<pre>{blocks.esc(result.errlog)}</pre>")
