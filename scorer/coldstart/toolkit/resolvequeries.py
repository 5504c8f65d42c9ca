"""``python -m scorer.coldstart resolvequeries``: follow the SF queries through
a validated KB, as CS-ResolveQueries-MASTER.pl 2017.2.0 does, and write the SF
responses the KB gives (what validatesf then checks and the scorer scores).

    python -m scorer.coldstart resolvequeries sf-query.xml team.tac.valid team.rq

How the queries are followed is ``toolkit/kbresolver.py``'s.  The responses
are in the Perl's order; the counts of what was found go to the error output
(the Perl's RESOLUTION_STATISTICS lines).  ``resolve_queries`` is the same as
data (``scorer.coldstart.resolve_queries``).
"""
from __future__ import annotations

import os
from collections import namedtuple

from scorer import gcpause
from scorer.coldstart.toolkit import toolrun
from scorer.coldstart.toolkit.kbreader import text_lines
from scorer.coldstart.toolkit.kbresolver import Hop, Resolver
from scorer.coldstart.toolkit.problemlog import Fatal, ProblemLog
from scorer.coldstart.toolkit.catalogue import FORMATS
from scorer.coldstart.toolkit.queryfile import read_query_file
from scorer.problems import ScorerError

DESCRIPTION = ("resolvequeries (CS-ResolveQueries-MASTER.pl 2017.2.0): Apply a set of evaluation "
               "queries to a knowledge base to produce Cold Start output for assessment.")
SWITCHES = {switch.name: switch for switch in (toolrun.ERROR_FILE, *toolrun.HELP_SWITCHES)}
PARAMS = (("queryfile", True, "XML file containing queries to be resolved"),
          ("runfile", True, "Files containing input KBs"),
          ("output_file", True, "File into which to place slot fills"))
USAGE = toolrun.usage_text("resolvequeries", DESCRIPTION, SWITCHES, PARAMS)


class Resolution(namedtuple("Resolution", ("lines", "runid", "statistics"))):
    """What resolvequeries makes: the SF response ``lines`` (each ending in a
    newline), the KB's run id, and the Perl's RESOLUTION_STATISTICS lines."""

    __slots__ = ()

    @property
    def text(self) -> str:
        return "".join(self.lines)


def resolve_queries(query_file: str, kb_file: str, *, queries=None) -> Resolution:
    """CS-ResolveQueries of the SF query file ``query_file`` against the
    validated KB ``kb_file`` (``validatekb -output tac`` writes it), as data.
    ``queries``: the SF queries already read (a
    :class:`~scorer.coldstart.toolkit.queryfile.QuerySet`; ``query_file`` then
    only names them).
    What stops the Perl (a file that cannot be read, a line of the wrong
    width) raises :class:`~scorer.coldstart.toolkit.problemlog.Fatal`."""
    if queries is None:
        queries = read_query_file(query_file, ProblemLog(FORMATS))
    hops = []
    for query in queries.in_id_order():
        if not query.entry_points:
            raise Fatal(f"Query {query.full_id} of {query_file} has no entry point")
        entry = query.entry_points[0]
        hops.append(Hop(query.full_id, list(query.slots or []), entry.docid,
                        _number(entry.start), _number(entry.end)))
    try:
        resolver = Resolver(kb_file, text_lines(kb_file), hops)
    except ScorerError as error:
        raise Fatal(str(error))
    try:
        with gcpause.paused():
            out = resolver.run()
    except Fatal:
        raise
    except ScorerError as error:
        raise Fatal(str(error))
    finally:
        resolver.close()
    return Resolution(out, resolver.runid, resolver.statistics())


def _number(text) -> int:
    digits = ""
    for c in (text or "").strip():
        if not c.isascii() or not c.isdigit():
            break
        digits += c
    return int(digits) if digits else 0


def main(argv) -> int:
    return toolrun.run(argv, SWITCHES, PARAMS, USAGE, _command)


def _command(given: dict, params: dict, errors) -> int:
    errors.open(refuse_existing=False)
    output_file = params["output_file"]
    runfile = params["runfile"]
    if not toolrun.is_stream(output_file):
        toolrun.check_writable(output_file)
        toolrun.refuse_input_written_over(output_file, [params["queryfile"], runfile])
    if "." in runfile and ".valid" not in runfile:
        errors.write(f"WARNING: {runfile} might not be a validated Cold Start run file (it "
                     f"doesn't contain .valid)\n")
    if not os.path.lexists(runfile):
        raise Fatal(f"Could not open {runfile}: No such file or directory")
    result = resolve_queries(params["queryfile"], runfile)
    toolrun.write_outputs({output_file: result.text})
    errors.write(result.statistics)
    return 0
