"""``-output edl``: a KB's entity mentions for entity discovery and linking
(the EDL 2015 format), as CS-ValidateKB 2017.2.0 writes ``NAME.edl.valid``:

    RUNID  NODE_MNNNNN  MENTION  PROVENANCE  KBID  TYPE  NAM|NOM  CONFIDENCE

one line per mention and nominal mention kept of a node that is not an event
(strings too), in the writers' order (``kb.output_order``); the mention ids
count on from ``M00001`` (as a Perl string counts: ``M99999`` is followed by
``N00000``).  A node's KBID is its link into the KB ``-linkkb`` names, else
``NIL_`` and a number given in the order of the nodes' ``type`` lines.
"""
from __future__ import annotations

from scorer.coldstart.toolkit.kb import output_order, read_again
from scorer.coldstart.toolkit.kbchecks import remove_quotes


def perl_increment(text: str) -> str:
    """Perl's ``++`` of a string of letters then digits (``az9`` -> ``ba0``)."""
    chars = list(text)
    i = len(chars) - 1
    while i >= 0:
        c = chars[i]
        if c == "9":
            chars[i] = "0"
        elif c == "z":
            chars[i] = "a"
        elif c == "Z":
            chars[i] = "A"
        else:
            chars[i] = chr(ord(c) + 1)
            return "".join(chars)
        i -= 1
    first = text[0]
    lead = "1" if first.isdigit() else ("a" if first.islower() else "A")
    return lead + "".join(chars)


def edl_text(kb, linkkb: str = "LDC2015E42") -> str:
    ordered = [a for a in output_order(kb) if not a.omit]
    types: dict = {}
    links: dict = {}
    nil = "0001"
    for assertion in ordered:
        name = assertion.predicate.name
        if name == "type":
            types[assertion.subject] = assertion.object
            if not links.get(assertion.subject):
                links[assertion.subject] = "NIL_" + nil
                nil = perl_increment(nil)
        elif name == "link":
            target, _, kbid = assertion.object.partition(":")
            if target == linkkb:
                links[assertion.subject] = kbid
    lines = []
    mention_id = "M00001"
    for assertion in ordered:
        name = assertion.predicate.name
        if assertion.subject.startswith(":Event") or name not in ("mention", "nominal_mention"):
            continue
        this_id, mention_id = mention_id, perl_increment(mention_id)
        lines.append("\t".join((
            kb.runid, f"{assertion.subject}_{this_id}", remove_quotes(assertion.object),
            read_again(kb, assertion).original_text(), links.get(assertion.subject, ""),
            types.get(assertion.subject, "").upper(), "NAM" if name == "mention" else "NOM",
            assertion.confidence)) + "\n")
    return "".join(lines)


def edl_files(kb, path: str, linkkb: str = "LDC2015E42", **_options) -> dict:
    return {path: edl_text(kb, linkkb)}
