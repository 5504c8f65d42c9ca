"""Pictures of scores: a track's leaderboard with its intervals, and a single
run's per-hop scores.

matplotlib is imported inside the functions (``python -m scorer`` starts
without it), and drives its Agg canvas directly rather than through pyplot, so
no global backend or figure state is touched.  The same input gives the same
bytes: no dates or software versions in the files, a fixed SVG hash salt, text
kept as text in the SVG.
"""
from __future__ import annotations

import contextlib
import dataclasses
import io
import math
import re
from typing import Optional

import pandas as pd

from scorer.display.view import ERRORS_NOTE, INTERVAL_COLUMNS, METRIC_ORDER, RUN_SCORE_COLUMNS, \
    SCORE_KEY, SIGNIFICANCE_LEVEL, TrackView, ordered, require_columns
from scorer.metricnames import metric_named
from scorer.output import write_bytes_atomically

DPI = 100            # the single-run picture's PNG
#: The leaderboard picture: its width (a two-column figure; ONE_COLUMN_IN for
#: one column of a two-column page), and the PNG's resolution.
TWO_COLUMN_IN = 7.0
ONE_COLUMN_IN = 3.3
DEFAULT_WIDTH_IN = TWO_COLUMN_IN
WIDTH_RANGE_IN = (2.0, 40.0)
LEADERBOARD_DPI = 200
#: Text sizes (pt), at every width: names stay readable in print (8 pt at 7
#: inches across ACL's 455-pt page is 7.2 pt; at 3.3 inches in its 219-pt column, 7.4 pt).
FONT_PT = 8.0
FOOTNOTE_PT = 6.5
MARGIN_PT = 4.0      # around everything
GAP_PT = 5.0         # between the plot's labels, the legend and the footnote
#: Run names take at most this share of the width (broken over lines) ...
NAME_SHARE = 0.42
#: ... or up to this share where that puts every name on fewer lines (rows are
#: lower: more runs a page)
WIDE_NAME_SHARE = 0.55
#: Space between two rows' names (pt)
ROW_GAP_PT = 2.4
MIN_PLOT_PT = 40.0   # the plot area of a track with very few runs
TOP_AXIS_RUNS = 25   # from this many runs on, the score axis is shown on top too
#: A figure at least this wide (inches) goes across a two-column page (figure*) ...
WIDE_IN = 5.0
#: ... so it is printed at most as wide as that page's text (article 469 pt, ACL 455
#: pt); a narrower one in a column (219-229.5 pt) or across a one-column page (345 pt).
PRINTED_WIDTH_PT = {True: 469.0, False: 345.0}
#: The most a part of the figure is tall as printed: article's text is 550 pt high
#: (ACL's 702 pt); the rest is for the caption, five lines.
PRINTED_HEIGHT_PT = 480.0
#: The runs are shared among at most one part for every this many (a figure of 2
#: inches has hardly room for more than its legend and footnote in a page's height
#: at a page's width: not a hundred parts of one run each).
MIN_PART_RUNS = 5

RC = {
    "svg.hashsalt": "scorer",  # element ids from content, not from a random salt
    "svg.fonttype": "none",    # names stay text: searchable, small, escaped by the writer
    "pdf.fonttype": 42,        # TrueType in the PDF: publishers refuse Type 3 fonts
    "font.size": 9,
    "font.family": "DejaVu Sans",  # shipped with matplotlib: the same glyphs on every machine
    "text.parse_math": False,  # a '$' in a run name is a dollar sign, not mathematics
}
#: No creation date or software version in the files.
METADATA = {"png": {"Software": None}, "svg": {"Date": None, "Creator": None},
            "pdf": {"Creator": None, "Producer": None, "CreationDate": None}}

BEST_COLOUR, TIED_COLOUR, OTHER_COLOUR = "#000000", "#d95f02", "#1b6ca8"
#: runs whose difference from the best was not tested (-compare adjacent, -baseline)
UNTESTED_COLOUR = "#8c8c8c"
INTERVAL_COLOUR = "#777777"
BAND_COLOUR = "#eeeeee"
METRIC_COLOURS = ("#1b6ca8", "#d95f02", "#1b9e77", "#7570b3", "#e7298a", "#66a61e",
                  "#a6761d", "#666666")
PANEL_HOPS = ("0", "1", "ALL")  # left to right, top to bottom in a run's plot


#: A width as the command line takes it: decimal, ASCII digits.
_DECIMAL = re.compile(r"[0-9]+(?:\.[0-9]*)?|\.[0-9]+")


def check_width(width_in) -> float:
    """A figure width in inches, as -figure_width takes it; ValueError saying
    why when it is not one."""
    try:
        if isinstance(width_in, str) and not _DECIMAL.fullmatch(width_in.strip()):
            # float() would also read '٣', '1_0', '7e0' and 'nan'
            raise ValueError
        width = float(width_in)
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"must be a width in inches such as {ONE_COLUMN_IN:g} (one column) "
                         f"or {TWO_COLUMN_IN:g} (two columns), not '{width_in}'") from None
    low, high = WIDTH_RANGE_IN
    if not (low <= width <= high):   # (NaN too)
        raise ValueError(f"must be between {low:g} and {high:g} inches "
                         f"({ONE_COLUMN_IN:g}: one column, {TWO_COLUMN_IN:g}: two columns), "
                         f"not '{width_in}'")
    return width


def leaderboard_plot(view: TrackView, png_path: str, svg_path: str, pdf_path=None,
                     width_in: float = DEFAULT_WIDTH_IN) -> list:
    """Write the leaderboard picture as PNG and SVG, whole, and (given
    ``pdf_path``) as PDF for a paper, in parts no taller than a page
    (``pdf_path``, then :func:`part_path` 2, 3, ...), ``width_in`` inches wide:
    one row per run, best on top, the headline score as a dot and its 95 %
    interval as a bar (none when the track had no samples), the runs not
    significantly worse than the best (group 1 under the track's correction) in
    their own colour; the rank range and group of each run beside it when the
    leaderboard has them; the metric named once (the score axis), the signature
    whole in a footnote.  The layout is computed from the text it holds, so
    that no name or label is cut.  Returns the PDF files written."""
    import matplotlib

    with matplotlib.rc_context(RC), _quiet_about_glyphs():
        whole, parts = leaderboard_figures(view, check_width(width_in))
        write_bytes_atomically(png_path, _render(whole, "png", LEADERBOARD_DPI))
        write_bytes_atomically(svg_path, _render(whole, "svg"))
        written = []
        if pdf_path is not None:
            for number, part in enumerate(parts, 1):
                written.append(part_path(pdf_path, number))
                write_bytes_atomically(written[-1], _render(part, "pdf"))
        return written


def part_path(path: str, number: int) -> str:
    """The file of the picture's part ``number`` (from 1): ``leaderboard.pdf``,
    then ``leaderboard-2.pdf``, ``leaderboard-3.pdf``, ..."""
    if number == 1:
        return path
    stem, dot, extension = path.rpartition(".")
    return f"{stem}-{number}.{extension}" if dot else f"{path}-{number}"


def part_height_pt(width_in: float) -> float:
    """The most a part of the picture may be tall, in its own points: printed
    as wide as the widest ``\\linewidth`` it goes into (PRINTED_WIDTH_PT), it is
    at most PRINTED_HEIGHT_PT tall."""
    return PRINTED_HEIGHT_PT * width_in * 72.0 / PRINTED_WIDTH_PT[width_in >= WIDE_IN]


def _render(figure, fmt: str, dpi: int = DPI) -> bytes:
    buffer = io.BytesIO()
    figure.savefig(buffer, format=fmt, dpi=dpi, metadata=METADATA[fmt])
    return buffer.getvalue()


def _new_figure(width_in: float, height_in: float):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(width_in, height_in), dpi=DPI)
    FigureCanvasAgg(figure)
    return figure


def _finite(value) -> bool:
    try:
        return math.isfinite(float(value))
    except (TypeError, ValueError):
        return False


def _present(value) -> bool:
    try:
        return not pd.isna(value)
    except (TypeError, ValueError):
        return True


class _TextMeasure:
    """Widths of text as the figure's renderer draws it, in points: each
    character's advance measured once, a text's width their sum and 1 % (kerning
    only narrows DejaVu Sans; measuring every candidate line whole made the
    layout of 100 long names take seconds)."""

    def __init__(self, figure, size_pt: float):
        from matplotlib.font_manager import FontProperties
        self.renderer = figure.canvas.get_renderer()
        self.font = FontProperties(size=size_pt)
        self.scale = 72.0 / figure.dpi
        self.widths: dict = {}

    def _char(self, char: str) -> float:
        if char not in self.widths:
            # a character's advance: the width of it between two others, less theirs
            pair = self._whole("||")
            self.widths[char] = self._whole("|" + char + "|") - pair
        return self.widths[char]

    def _whole(self, text: str) -> float:
        width, _height, _descent = self.renderer.get_text_width_height_descent(
            text, self.font, ismath=False)
        return width * self.scale

    def __call__(self, text: str) -> float:
        return 1.01 * sum(self._char(char) for char in text)


def _side_columns(board: pd.DataFrame) -> list:
    """(heading, texts) of the columns right of the plot: the rank range and
    the group, when the leaderboard has them."""
    columns = []
    # a column that would be empty (no samples; groups with -compare adjacent or
    # -baseline) is left out
    if {"rank_low", "rank_high"} <= set(board.columns) and board["rank_low"].notna().any():
        texts = []
        for low, high in zip(board["rank_low"], board["rank_high"]):
            if not (_present(low) and _present(high)):
                texts.append("")
            else:
                low, high = int(low), int(high)
                texts.append(str(low) if low == high else f"{low}\u2013{high}")
        columns.append(("ranks", texts))
    if "group" in board.columns and board["group"].notna().any():
        columns.append(("group", [str(int(g)) if isinstance(g, float) and g.is_integer()
                                  else str(g) if _present(g) else "" for g in board["group"]]))
    return columns


@dataclasses.dataclass
class _Shared:
    """What every part of the picture shares with the whole, so that the parts
    read as one figure: the names' lines, the rows' height, the legend, the
    score axis's limits and the room beside the plot."""

    names: list                          # each run's name, in lines
    row_pt: float
    kinds: list                          # each run's style (a key of _styles)
    has_intervals: bool
    xlim: Optional[tuple] = None         # None: from the data (the whole figure)
    beside_pt: Optional[tuple] = None    # (left, right) of the plot; None: measured


def leaderboard_figure(view: TrackView, width_in: float = DEFAULT_WIDTH_IN):
    """The leaderboard picture, whole, as a matplotlib Figure (see leaderboard_plot)."""
    shared = _shared(view, width_in)
    return _figure(view, width_in, shared, range(len(view.runs)), "")


def leaderboard_figures(view: TrackView, width_in: float = DEFAULT_WIDTH_IN) -> tuple:
    """``(whole, parts)``: the picture whole (for a screen), and in parts each
    at most :func:`part_height_pt` tall (for a paper): ``[whole]`` when it is
    no taller; else the runs shared evenly among as few parts as that allows
    (at most one for every MIN_PART_RUNS runs), each with the score axis, the
    legend and the footnote, all on one scale."""
    shared = _shared(view, width_in)
    n_runs = len(view.runs)
    whole = _figure(view, width_in, shared, range(n_runs), "")
    most_pt = part_height_pt(width_in)
    height_pt = whole.get_figheight() * 72.0
    if height_pt <= most_pt or n_runs < 2:
        return whole, [whole]
    axes = whole.axes[0]
    renderer = whole.canvas.get_renderer()
    bounds = axes.get_window_extent(renderer)
    tight = axes.get_tightbbox(renderer)
    scale = 72.0 / whole.dpi
    shared = dataclasses.replace(shared, xlim=axes.get_xlim(), beside_pt=(
        (bounds.x0 - tight.x0) * scale, (tight.x1 - bounds.x1) * scale))
    # How many runs a part holds: the page less everything but the rows, as
    # measured on a part with the longest note a part may have (measured again
    # when the count crosses TOP_AXIS_RUNS, from which the score axis is on top
    # too); a part whose note on runs with errors takes a row's room is found below.
    fits = int((most_pt - height_pt + _plot_pt(shared, n_runs)) // shared.row_pt)
    longest = f"Part {n_runs} of {n_runs}: ranks {n_runs}\u2013{n_runs} of {n_runs} runs."
    for _attempt in range(2):
        rows = range(min(n_runs, max(fits, 1)))
        probe = _figure(view, width_in, shared, rows, longest, errors_note=False)
        around_pt = probe.get_figheight() * 72.0 - _plot_pt(shared, len(rows))
        measured = int((most_pt - around_pt) // shared.row_pt)
        crossed = (measured > TOP_AXIS_RUNS) != (len(rows) > TOP_AXIS_RUNS)
        fits = measured
        if not crossed:
            break
    fits = max(MIN_PART_RUNS, fits)
    while True:
        count = -(-n_runs // fits)
        sizes = [n_runs // count + (1 if i < n_runs % count else 0) for i in range(count)]
        parts, first = [], 0
        for number, size in enumerate(sizes, 1):
            rows = range(first, first + size)
            parts.append(_figure(view, width_in, shared, rows,
                                 _part_note(view, rows, number, count)))
            first += size
        # (the estimate holds but for a part's longer note or legend)
        if fits <= MIN_PART_RUNS or all(part.get_figheight() * 72.0 <= most_pt + 0.01
                                        for part in parts):
            return whole, parts
        fits -= 1


def _part_note(view: TrackView, rows: range, number: int, count: int) -> str:
    ranks = [int(r) for r in view.leaderboard["rank"].iloc[rows.start:rows.stop] if _finite(r)]
    span = (f"ranks {ranks[0]}\u2013{ranks[-1]}" if len(ranks) > 1 and ranks[0] != ranks[-1]
            else f"rank {ranks[0]}" if ranks else "runs not scored")
    return f"Part {number} of {count}: {span} of {len(view.runs)} runs."


def _plot_pt(shared: _Shared, rows: int) -> float:
    return max(MIN_PLOT_PT, shared.row_pt * rows)


def _shared(view: TrackView, width_in: float) -> _Shared:
    """The names broken over lines, the rows' height, each run's style."""
    from scorer import linebreaks

    board = view.leaderboard
    width_pt = width_in * 72.0
    figure = _new_figure(width_in, 1.0)
    measure = _TextMeasure(figure, FONT_PT)
    flagged = view.scored_with_errors()
    unscored = {str(run) for run, score in zip(board["run"], board["score"]) if not _finite(score)}
    shown = [run + ("*" if run in flagged else "") + (" (not scored)" if run in unscored else "")
             for run in view.runs]
    # Names within NAME_SHARE of the width, or up to WIDE_NAME_SHARE where every
    # name then takes fewer lines (the least width that does).
    def lines_at(most_pt: float) -> int:
        return max([len(linebreaks.wrap(name, most_pt, measure)) for name in shown] or [1])

    most_pt = NAME_SHARE * width_pt
    fewest = lines_at(WIDE_NAME_SHARE * width_pt)
    if fewest < lines_at(most_pt):
        low, high = most_pt, WIDE_NAME_SHARE * width_pt
        for _step in range(12):
            middle = (low + high) / 2
            if lines_at(middle) <= fewest:
                high = middle
            else:
                low = middle
        most_pt = high
    names = [linebreaks.balanced(name, most_pt, measure) for name in shown]
    lines_a_row = max([len(lines) for lines in names] or [1])
    tied, worse = view.tied_with_best(), view.worse_than_best()
    kinds = ["best" if i == 0 else "tied" if run in tied else "worse" if run in worse
             else "other" for i, run in enumerate(view.runs)]
    return _Shared(names=names, row_pt=lines_a_row * FONT_PT * 1.2 + ROW_GAP_PT, kinds=kinds,
                   has_intervals=any(_finite(v) for v in board["ci95_low"]))


def _styles(view: TrackView) -> dict:
    """kind -> (colour, marker, label)."""
    return {
        "best": (BEST_COLOUR, "D", "best run"),
        "tied": (TIED_COLOUR, "o", ("group 1: " if view.groups() else "")
                 + f"not significantly worse than the best ({view.correction_name}-adjusted "
                   f"p \u2265 {SIGNIFICANCE_LEVEL:g})"),
        "worse": (OTHER_COLOUR, "o", "significantly worse than the best"),
        # -compare adjacent, -baseline: pairs with the best are not all tested
        "other": (UNTESTED_COLOUR, "o", "not tested against the best")
        if view.significance is not None else (OTHER_COLOUR, "o", "other runs"),
    }


def _figure(view: TrackView, width_in: float, shared: _Shared, rows: range, note: str,
            errors_note: Optional[bool] = None):
    """The picture of the runs at ``rows`` (rank positions), ``note`` above the
    signature, and the note on runs with errors where ``errors_note`` (None:
    where one of the runs shown has a '*')."""
    from matplotlib.lines import Line2D

    from scorer import linebreaks

    board = view.leaderboard
    width_pt = width_in * 72.0
    figure = _new_figure(width_in, 1.0)
    measure = _TextMeasure(figure, FONT_PT)
    positions = list(rows)
    n_rows = len(positions)

    axes = figure.add_axes((0.1, 0.1, 0.8, 0.8))
    scores = [float(s) if _finite(s) else math.nan for s in board["score"]]
    lows = [float(v) if _finite(v) else math.nan for v in board["ci95_low"]]
    highs = [float(v) if _finite(v) else math.nan for v in board["ci95_high"]]
    styles = _styles(view)
    handles = []
    for kind, (colour, marker, label) in styles.items():
        members = [(y, i) for y, i in enumerate(positions) if shared.kinds[i] == kind]
        bars = [(y, i) for y, i in members if _finite(lows[i]) and _finite(highs[i])]
        if bars:
            axes.hlines([y for y, _i in bars], [lows[i] for _y, i in bars],
                        [highs[i] for _y, i in bars], colors=colour, linewidth=1.4)
        dots = [(y, i) for y, i in members if _finite(scores[i])]
        if dots:
            axes.plot([scores[i] for _y, i in dots], [y for y, _i in dots], linestyle="none",
                      marker=marker, markersize=4, color=colour)
        # the legend of the whole picture on every part: the kinds any run has
        if any(shared.kinds[i] == kind and _finite(scores[i]) for i in range(len(scores))):
            handles.append((Line2D([], [], linestyle="none", marker=marker, markersize=4,
                                   color=colour), label))
    if shared.has_intervals and handles:
        handles.append((Line2D([], [], color=INTERVAL_COLOUR, linewidth=1.4),
                        "95\u2009% bootstrap interval"))

    side = _side_columns(board)
    if side and side[-1][0] == "group":
        # every other group on a grey band (a group's runs are mostly neighbours)
        for y, i in enumerate(positions):
            group = side[-1][1][i]
            if group.isdigit() and int(group) % 2 == 0:
                axes.axhspan(y - 0.5, y + 0.5, color=BAND_COLOUR, linewidth=0, zorder=0)

    axes.set_ylim(n_rows - 0.5 if n_rows else 0.5, -0.5)  # best on top
    axes.set_yticks(list(range(n_rows)))
    axes.set_yticklabels(["\n".join(shared.names[i]) for i in positions], fontsize=FONT_PT,
                         linespacing=1.2)
    top_axis = n_rows > TOP_AXIS_RUNS
    axes.tick_params(axis="both", labelsize=FONT_PT, length=2.5, pad=2)
    axes.tick_params(axis="x", labeltop=top_axis, top=top_axis)
    axes.grid(axis="x", color="#dddddd", linewidth=0.6)
    axes.set_axisbelow(True)
    if shared.xlim is not None:
        axes.set_xlim(*shared.xlim)
    else:
        axes.margins(x=0.04)
    # The score axis's title is the figure's (placed under the plot by _place):
    # as the axes' own label it would widen the axes' extent where it overhangs.
    title = metric_named(view.metric_title, view.metric) + (
        "" if shared.has_intervals else "  (no samples: no intervals, no tests)")
    axis_title = figure.text(0, 0, "\n".join(linebreaks.wrap(
        title, width_pt - 2 * MARGIN_PT, measure)), fontsize=FONT_PT, ha="center", va="bottom",
        linespacing=1.2)

    # The columns right of the plot, each as wide as its widest text (of every run).
    offset = 4.0
    for heading, texts in side:
        for y, i in enumerate(positions):
            axes.annotate(texts[i], xy=(1, y), xycoords=("axes fraction", "data"),
                          xytext=(offset, 0), textcoords="offset points", ha="left",
                          va="center", fontsize=FONT_PT)
        axes.annotate(heading, xy=(1, -0.5), xycoords=("axes fraction", "data"),
                      xytext=(offset, 2), textcoords="offset points", ha="left",
                      va="bottom", fontsize=FONT_PT, fontstyle="italic")
        offset += max(measure(t) for t in texts + [heading]) + 6.0

    legend = None
    if handles:   # else no run has a score: nothing has a label to show
        legend = _legend(figure, handles, width_pt - 2 * MARGIN_PT, FONT_PT)
    footnote_measure = _TextMeasure(figure, FOOTNOTE_PT)
    most_pt = width_pt - 2 * MARGIN_PT
    footnote_lines = _signature_lines(view.signature, most_pt, footnote_measure)
    flagged = view.scored_with_errors()
    if errors_note is None:     # (where the '*' it explains is shown)
        errors_note = any(view.runs[i] in flagged for i in positions)
    if errors_note:
        footnote_lines = linebreaks.wrap(ERRORS_NOTE, most_pt, footnote_measure) + footnote_lines
    if note:
        footnote_lines = linebreaks.wrap(note, most_pt, footnote_measure) + footnote_lines
    footnote = figure.text(0, 0, "\n".join(footnote_lines), fontsize=FOOTNOTE_PT, ha="left",
                           va="bottom", linespacing=1.2, color="#444444")
    _place(figure, axes, axis_title, legend, footnote, width_in, _plot_pt(shared, n_rows),
           shared.beside_pt)
    return figure


def _signature_lines(signature: str, most_pt: float, measure) -> list:
    """'signature: ...' broken after a '|' only (never inside a part, unless
    one part alone is wider than the figure) to fit the width."""
    from scorer import linebreaks
    parts = signature.split("|")
    words = ["signature: " + parts[0]] + parts[1:]
    lines, current = [], ""
    for number, word in enumerate(words):
        word += "|" if number < len(words) - 1 else ""
        if current and measure(current + word.rstrip("|")) > most_pt:
            lines.append(current)
            current = ""
        if not current and measure(word.rstrip("|")) > most_pt:
            broken = linebreaks.wrap(word, most_pt, measure)
            lines += broken[:-1]
            current = broken[-1]
        else:
            current += word
    return lines + [current] if current else lines


def _legend(figure, handles: list, most_pt: float, font_pt: float):
    """The legend below the plot: as many entries a row as fit the width,
    labels broken over lines when one alone is too wide."""
    from scorer import linebreaks
    measure = _TextMeasure(figure, font_pt)
    handle_pt = 2.0 * font_pt + 0.8 * font_pt   # handle length and the space after it
    spacing_pt = 2.0 * font_pt                  # between columns
    labels = [label for _handle, label in handles]
    for columns in range(len(labels), 0, -1):
        widths = [max(measure(label) for label in labels[c::columns]) for c in range(columns)]
        if sum(widths) + columns * handle_pt + (columns - 1) * spacing_pt <= most_pt:
            break
    else:
        columns = 1
    if columns == 1:
        labels = ["\n".join(linebreaks.wrap(label, most_pt - handle_pt, measure))
                  for label in labels]
    return figure.legend([h for h, _label in handles], labels, loc="lower left",
                         ncol=columns, frameon=False, fontsize=font_pt, borderaxespad=0,
                         borderpad=0, handlelength=2.0, handletextpad=0.8,
                         columnspacing=2.0, labelspacing=0.4)


def _place(figure, axes, axis_title, legend, footnote, width_in: float, plot_pt: float,
           beside_pt: Optional[tuple] = None) -> None:
    """Size the figure and place its parts from their measured extents, from
    the bottom: the footnote, the legend, the score axis's title, the plot
    with its labels on every side; nothing past the edges, no empty band.
    ``beside_pt``: the room left and right of the plot, at least (the whole
    picture's, so that its parts' plots line up)."""
    scale = 72.0 / figure.dpi        # display units (pixels) to points
    width_pt = width_in * 72.0
    placed = None
    # The score axis's ticks depend on the plot's width, and the labels at its
    # ends on the ticks: measure again until the extents hold still.
    for _attempt in range(4):
        renderer = figure.canvas.get_renderer()
        inside = axes.get_window_extent(renderer)
        around = axes.get_tightbbox(renderer)
        extents = tuple(round(value, 2) for value in (
            (inside.x0 - around.x0) * scale, (around.x1 - inside.x1) * scale,
            (around.y1 - inside.y1) * scale, (inside.y0 - around.y0) * scale))
        if extents == placed:
            break
        placed = extents
        left_pt, right_pt, top_pt, below_pt = extents
        if beside_pt is not None:
            left_pt, right_pt = max(left_pt, beside_pt[0]), max(right_pt, beside_pt[1])
        footnote_pt = footnote.get_window_extent(renderer).height * scale
        legend_pt = legend.get_window_extent(renderer).height * scale \
            if legend is not None else 0.0
        title_box = axis_title.get_window_extent(renderer)
        legend_at = MARGIN_PT + footnote_pt + GAP_PT
        title_at = legend_at + (legend_pt + GAP_PT if legend is not None else 0.0)
        plot_at = title_at + title_box.height * scale + 2.0 + below_pt
        height_pt = plot_at + plot_pt + top_pt + MARGIN_PT
        figure.set_size_inches(width_in, height_pt / 72.0)
        plot_width_pt = max(width_pt - 2 * MARGIN_PT - left_pt - right_pt, 0.2 * width_pt)
        axes.set_position(((MARGIN_PT + left_pt) / width_pt, plot_at / height_pt,
                           plot_width_pt / width_pt, plot_pt / height_pt))
        # centred under the plot, moved in where it would pass an edge
        half_pt = title_box.width * scale / 2
        centre_pt = min(max(MARGIN_PT + left_pt + plot_width_pt / 2, MARGIN_PT + half_pt),
                        width_pt - MARGIN_PT - half_pt)
        axis_title.set_position((centre_pt / width_pt, title_at / height_pt))
        footnote.set_position((MARGIN_PT / width_pt, MARGIN_PT / height_pt))
        if legend is not None:
            legend.set_bbox_to_anchor((MARGIN_PT / width_pt, legend_at / height_pt),
                                      transform=figure.transFigure)


def run_plot(per_hop: pd.DataFrame, intervals, title: str, png_path: str,
             variant_order: tuple = ()) -> None:
    """Write a single run's picture (``-plot``) as PNG: one panel per hop (0, 1,
    ALL), in it P, R and F1 (and AP, when given) of each variant and aggregate,
    each as a dot with its 95 % interval as a bar when ``intervals`` has one.
    Claims: one panel, every metric with its interval.

    ``per_hop``: columns variant, aggregate, hop, metric, value (one run; a
    ``run`` column, if any, is ignored).  ``intervals``: None, or a DataFrame
    with the columns variant, aggregate, hop, metric, low, high
    (``results.INTERVAL_COLUMNS``), matched to ``per_hop`` on the first four.
    ``variant_order``: the variants in the order they are drawn (the task's
    ``task.picture.variant_order``); others after them, as they come.
    """
    write_bytes_atomically(png_path, run_png(per_hop, intervals, title, variant_order))


def run_png(per_hop: pd.DataFrame, intervals, title: str, variant_order: tuple = ()) -> bytes:
    """:func:`run_plot`'s picture as PNG bytes (for a caller that writes it
    with the rest of a report set)."""
    import matplotlib

    require_columns(per_hop, RUN_SCORE_COLUMNS, "per_hop")
    if "run" in per_hop.columns and per_hop["run"].nunique() > 1:
        raise ValueError(f"per_hop holds several runs ({sorted(set(per_hop['run']))[:3]}...); "
                         "a run's picture shows one")
    if intervals is not None:
        require_columns(intervals, INTERVAL_COLUMNS, "intervals")
    with matplotlib.rc_context(RC), _quiet_about_glyphs():
        return _render(_run_figure(per_hop, intervals, title, variant_order), "png")


@contextlib.contextmanager
def _quiet_about_glyphs():
    """A context in which matplotlib does not warn of characters its font
    lacks (a name in Chinese, a tab): a warning for each character and each
    time the text is measured or drawn, some thirty lines of what looks like a
    traceback on the terminal.  The picture shows such a character as a box;
    the tables and the page show it."""
    import warnings
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r"Glyph \d+ .*missing from font",
                                category=UserWarning)
        yield


def _key_frame(frame: pd.DataFrame) -> pd.DataFrame:
    frame = frame.copy()
    for column in SCORE_KEY:
        frame[column] = frame[column].fillna("").astype(str)
    return frame


def _run_figure(per_hop: pd.DataFrame, intervals, title: str, variant_order: tuple = ()):
    scores = _key_frame(per_hop[list(RUN_SCORE_COLUMNS)])
    keys = list(SCORE_KEY)
    if intervals is not None:
        scores = scores.merge(_key_frame(intervals[list(INTERVAL_COLUMNS)]), on=keys, how="left")
    else:
        scores = scores.assign(low=math.nan, high=math.nan)
    hops = ordered(scores["hop"], PANEL_HOPS)
    # the task's variants in its order, each with its aggregates as they come
    groups = sorted(dict.fromkeys(zip(scores["variant"], scores["aggregate"])),
                    key=lambda group: variant_order.index(group[0])
                    if group[0] in variant_order else len(variant_order))
    metrics = ordered(scores["metric"], METRIC_ORDER)
    by_metric = len(groups) == 1  # claims: the metrics themselves along the axis

    slots = len(metrics) if by_metric else len(groups)
    width_in = max(6.0, 0.75 * slots + 1.6)
    figure = _new_figure(width_in, 2.5 * len(hops) + 0.9)
    panels = figure.subplots(len(hops), 1, squeeze=False)[:, 0] if hops else []
    values = pd.to_numeric(scores["value"], errors="coerce")
    in_unit = bool(((values >= 0) & (values <= 1) | values.isna()).all())

    for axes, hop in zip(panels, hops):
        rows = scores[scores["hop"] == hop]
        for m, metric in enumerate(metrics):
            colour = METRIC_COLOURS[m % len(METRIC_COLOURS)]
            xs, ys, lows, highs = [], [], [], []
            for g, group in enumerate(groups):
                match = rows[(rows["variant"] == group[0]) & (rows["aggregate"] == group[1])
                             & (rows["metric"] == metric)]
                if match.empty or not _finite(match["value"].iloc[0]):
                    continue
                offset = 0 if by_metric else (m - (len(metrics) - 1) / 2) * 0.8 / len(metrics)
                xs.append(m if by_metric else g + offset)
                ys.append(float(match["value"].iloc[0]))
                lows.append(float(match["low"].iloc[0]) if _finite(match["low"].iloc[0]) else None)
                highs.append(float(match["high"].iloc[0]) if _finite(match["high"].iloc[0]) else None)
            colour = METRIC_COLOURS[0] if by_metric else colour
            axes.plot(xs, ys, linestyle="none", marker="o", markersize=4.5, color=colour,
                      label=None if by_metric else metric)
            bars = [i for i in range(len(xs)) if lows[i] is not None and highs[i] is not None]
            if bars:
                axes.vlines([xs[i] for i in bars], [lows[i] for i in bars],
                            [highs[i] for i in bars], colors=colour, linewidth=1.4)
        labels = metrics if by_metric else [f"{v}\n{a}" if a else v for v, a in groups]
        axes.set_xticks(list(range(len(labels))))
        axes.set_xticklabels(labels, rotation=30 if by_metric else 0,
                             ha="right" if by_metric else "center", fontsize=8)
        axes.set_xlim(-0.6, len(labels) - 0.4)
        if in_unit:
            axes.set_ylim(0, 1.02)
        axes.grid(axis="y", color="#dddddd", linewidth=0.6)
        axes.set_axisbelow(True)
        axes.set_ylabel("score" if hops == ["ALL"] else "hops ALL" if hop == "ALL"
                        else f"hop {hop}")
    if len(panels) and not by_metric:
        panels[0].legend(loc="lower left", bbox_to_anchor=(0, 1.0), ncol=len(metrics),
                         frameon=False, fontsize=8)
    figure.suptitle(title, fontsize=10, x=0.01, ha="left")
    figure.set_layout_engine("constrained")
    return figure
