"""The version of scorer, and of the Perl scorer whose reports the Cold Start
task reproduces byte for byte.  A module of its own, imported by whatever
writes a version (reports, signatures, -version), so that none of them has
to import the ``scorer`` package and the API behind it."""

__version__ = "0.1.0"

#: The Perl scorer whose output files the Cold Start task reproduces byte for byte.
PERL_REFERENCE_VERSION = "2017.2.0"
