"""``-output tac``: the validated KB, what CS-ResolveQueries reads (as
CS-ValidateKB 2017.2.0 writes it): the run id line and a blank line, then
every assertion kept (those its checks dropped left out, the inverses and
mentions they added put in) in the Perl's order (``kb.output_order``), each
as it was read (the provenance column as written) with its predicate given
its subject's type (``per:siblings``) and its realis, and its comment.
Only the predicates of the labels asked for (-labels) are written.
"""
from __future__ import annotations

from scorer.coldstart.toolkit.kb import output_order, read_again

#: Predicates written without the subject's type before them.
_UNTYPED = frozenset(("type", "mention", "canonical_mention", "nominal_mention",
                      "pronominal_mention", "normalized_mention", "link"))


def tac_text(kb, labels=("TAC",)) -> str:
    """The validated KB's text."""
    return "".join(tac_lines(kb, labels))


def tac_lines(kb, labels=("TAC",)):
    """The validated KB's lines, one at a time (a large KB's text is not
    held whole)."""
    labels = set(labels)
    # with the built-in predicates only, every label is TAC's
    every = not kb.labels and labels >= {"TAC"}
    yield f"{kb.runid_line}\n\n"
    entity = domain_of = None
    for assertion in output_order(kb):
        if assertion.omit or not every and kb.label(assertion.predicate) not in labels:
            continue
        name = assertion.predicate.name
        domain = ""
        if name not in _UNTYPED:
            if assertion.subject_entity is not entity:
                # a subject's assertions come together: its type found once
                entity = assertion.subject_entity
                domain_of = entity.type()
            domain = domain_of
            if domain in ("unknown", "multiple"):
                continue
            domain += ":"
        if assertion.realis:
            name += "." + assertion.realis
        found = assertion.parsed
        provenance = found[0] if found is not None else read_again(kb, assertion)
        line = f"{assertion.subject}\t{domain}{name}\t{assertion.object}\t" \
               f"{provenance.original_text()}"
        if assertion.predicate.name != "type":
            line += f"\t{assertion.confidence}"
        yield line + assertion.comment + "\n"


def tac_files(kb, path: str, labels=("TAC",), **_options) -> dict:
    return {path: tac_lines(kb, labels)}
