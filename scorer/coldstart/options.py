"""Cold Start's own switches of a request (``-expand``, ``-queries``,
``-runids``, ``-tabs``), typed: what the driver and the reports read."""
from __future__ import annotations

from collections import namedtuple


class Options(namedtuple("Options", "expand queries runids tabs kb")):
    """``expand``: the base of expanded query names (None: no -expand);
    ``queries``: the -queries file or list as given (None: every query);
    ``runids``: the run ids asked for (None: every run id); ``tabs``; ``kb``:
    the files after the assessments are KBs (-kb, or the policy's ``input: kb``)."""

    __slots__ = ()


def options(request) -> Options:
    runids = request.option("runids")
    return Options(request.option("expand"), request.option("queries"),
                   tuple(runids.split(":")) if runids else None, bool(request.option("tabs")),
                   request.option("kb") is True
                   or getattr(request.policy, "input", None) == "kb")
