"""A whole track: every run scored, ranked, with intervals and significance tests."""
