"""``python -m scorer.samples``: a bootstrap samples file, seeded
(``__main__.py``: the command line; ``ids.py``: the ids file it draws from).
The samples files themselves are ``scorer/bootstrap/sampleset.py``'s."""
