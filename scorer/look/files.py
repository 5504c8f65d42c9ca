"""A track's pictures and page on disk: what the track command calls once it
has its TrackView."""
from __future__ import annotations

import os

from scorer.look.view import TrackView
from scorer.output import write_text_atomically

#: The files written into the track's directory, in write order.
TRACK_FILES = ("leaderboard.png", "leaderboard.svg", "leaderboard.pdf", "index.html")


def write_track_files(view: TrackView, directory: str, figure_width_in: float = 7.0) -> list:
    """Write DIR/leaderboard.png, .svg and .pdf, ``figure_width_in`` inches
    wide, and DIR/index.html (each through a temporary name and a rename);
    returns their paths."""
    from scorer.look import page, plot

    png, svg, pdf, index = (os.path.join(directory, name) for name in TRACK_FILES)
    plot.leaderboard_plot(view, png, svg, pdf, width_in=figure_width_in)
    with open(svg, encoding="utf-8") as f:
        write_text_atomically(index, page.track_page(view, f.read()))
    return [png, svg, pdf, index]
