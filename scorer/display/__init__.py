"""Results a person can look at: pictures (plot.py) and a self-contained page
(page.py, from the building blocks of blocks.py), drawn from a TrackView
(view.py)."""
