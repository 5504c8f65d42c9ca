"""scorer: one tool for scoring NLP shared tasks (TAC KBP Cold Start, SciFact, FEVER)."""

__version__ = "0.1.0"

# The Perl scorer whose output files the Cold Start task reproduces byte for byte.
PERL_REFERENCE_VERSION = "2017.2.0"
