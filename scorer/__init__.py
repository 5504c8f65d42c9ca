"""scorer: one tool for scoring NLP shared tasks (TAC KBP Cold Start, SciFact, FEVER)."""

from scorer.version import PERL_REFERENCE_VERSION, __version__  # noqa: F401


def __getattr__(name):
    # The API (scorer.score, scorer.score_track, scorer.ScorerError, scorer.InputErrors)
    # is imported on first use, so that `python -m scorer -version` imports nothing heavy.
    if name in ("score", "score_track", "InputErrors"):
        from scorer import api
        return getattr(api, name)
    if name == "ScorerError":
        from scorer.problems import ScorerError    # (one place of the API's names, as above)
        return ScorerError
    raise AttributeError(f"module 'scorer' has no attribute {name!r}")
