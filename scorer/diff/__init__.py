"""python -m scorer.diff: a semantic diff of two report sets (see __main__.py)."""
