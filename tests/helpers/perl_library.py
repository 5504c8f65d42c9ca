"""Run a piece of Perl against the official toolkit's library (ColdStartLib.pm),
for tests that compare one of the toolkit's modules with the Perl's own, case by
case: ``run(perl_dir, script, lines)`` feeds the lines on standard input and
returns what the script printed, one JSON value a line.

``RECORDING_LOGGER`` is Perl that makes the library's Logger keep each problem
recorded, in order, in ``@LOG`` as ``[name, arguments...]`` (the place left out),
dying at the fatal ILLEGAL_DOCID as the library does."""
from __future__ import annotations

import json
import os
import subprocess

RECORDING_LOGGER = r"""
use strict; use warnings; no warnings 'uninitialized';
use ColdStartLib; use JSON;
our @LOG;
{ no warnings 'redefine';
  *Logger::record_problem = sub {
    my ($self, $name, @args) = @_; pop @args; push @LOG, [$name, @args];
    die "FATAL\n" if ($self->{FORMATS}{$name}{TYPE} || '') eq 'FATAL_ERROR';
  };
}
our $JSON = JSON->new->canonical;
binmode(STDIN, ":utf8"); binmode(STDOUT, ":utf8");
"""


def run(perl_dir: str, script: str, lines) -> list:
    """The JSON values the Perl ``script`` prints, given ``lines`` on its input."""
    process = subprocess.run(["perl", "-I" + perl_dir, "-e", RECORDING_LOGGER + script],
                             input="".join(line + "\n" for line in lines).encode("utf-8"),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             env=dict(os.environ, PERL_HASH_SEED="0"), check=True)
    return [json.loads(line) for line in process.stdout.decode("utf-8").splitlines()]
