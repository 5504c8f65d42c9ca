"""What one invocation asks for: the policy, the input files, the output
targets and the bootstrap settings.  Built once by the command line, then
frozen; tasks read it, never the switches.
"""
from __future__ import annotations

from collections import namedtuple

#: Each field, with its default (``policy`` has none: every request has one).
_FIELDS = {
    "policy": None,            # scorer.policy.Policy
    "files": (),
    "output_file": "stdout",
    "error_file": "stderr",
    "policy_file": None,
    "expand": None,
    "queries": None,
    "runids": None,            # a tuple of run ids, or None for all
    "tabs": False,
    "samples": None,
    "bootstrap": None,         # -bootstrap N
    "seed": None,              # -seed S
    "argv": (),                # the command line as typed, for .params
    "program": "python -m scorer",
    "cwd": "",
}


class Request(namedtuple("Request", tuple(_FIELDS), defaults=tuple(_FIELDS.values())[1:])):
    """A named tuple (immutable; ``request._replace(seed=7)`` is a changed
    copy), not a dataclass: importing ``dataclasses`` is a tenth of a small
    run's start-up."""

    __slots__ = ()
