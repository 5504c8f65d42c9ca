"""What one invocation asks for: the policy, the input files, the output
targets and the bootstrap settings.  Built once by the command line, then
frozen; tasks read it, never the switches.
"""
from __future__ import annotations

import dataclasses
from typing import Optional

from scorer.policy import Policy


@dataclasses.dataclass(frozen=True)
class Request:
    policy: Policy
    files: tuple = ()
    output_file: str = "stdout"
    error_file: str = "stderr"
    policy_file: Optional[str] = None
    expand: Optional[str] = None
    queries: Optional[str] = None
    runids: Optional[tuple] = None
    tabs: bool = False
    samples: Optional[str] = None
    bootstrap: Optional[int] = None
    seed: Optional[int] = None
    #: The command line as typed, for ``.params``.
    argv: tuple = ()
    program: str = "python -m scorer"
    cwd: str = ""
