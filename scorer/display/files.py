"""A track's pictures and page on disk: what the track command calls once it
has its TrackView."""
from __future__ import annotations

import os
import re

from scorer.display import page, plot
from scorer.display.view import TrackView
from scorer.output import write_text_atomically

#: The files written into the track's directory, in write order.
TRACK_FILES = ("leaderboard.png", "leaderboard.svg", "leaderboard.pdf", "index.html")


#: The picture's further parts for a paper, when it is taller than a page:
#: leaderboard-2.pdf, leaderboard-3.pdf, ...
PART_NAME = re.compile(r"leaderboard-(?:[2-9]|[1-9][0-9]+)\.pdf\Z")


def write_track_files(view: TrackView, directory: str, figure_width_in: float = 7.0,
                      extra_sections=()) -> list:
    """Write DIR/leaderboard.png and .svg, ``figure_width_in`` inches wide, the
    same picture for a paper in parts no taller than a page (DIR/leaderboard.pdf,
    then leaderboard-2.pdf, ... when it is taller), and DIR/index.html (each
    through a temporary name and a rename); returns their paths."""
    png, svg, pdf, index = (os.path.join(directory, name) for name in TRACK_FILES)
    parts = plot.leaderboard_plot(view, png, svg, pdf, width_in=figure_width_in)
    with open(svg, encoding="utf-8") as f:
        write_text_atomically(index, page.track_page(
            view, f.read(), [os.path.basename(path) for path in parts], extra_sections))
    return [png, svg] + parts + [index]
