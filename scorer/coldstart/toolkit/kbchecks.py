"""The checks CS-ValidateKB 2017.2.0 runs on a KB once it is read, in the
Perl's order, and the repairs they make:

1. every node has exactly one type, compatible with every use of it;
2. every type a use implies is asserted by a ``type`` line;
3. provenance: one string per mention span, filler strings given and
   mentions of their node, sentiment and normalized-mention provenance a
   mention of its node, events' base fillers given;
4. with ``-docs`` naming the documents' files, each mention's string is the
   text at its span (a warning);
5. every relation between nodes has its inverse (added when missing);
6. mentions and canonical mentions agree in each document (a canonical
   mention added for a lone mention, a mention for a canonical one);
7. both ends of a relation are mentioned in the relation's document;
8. confidence values are legal (``1`` is repaired to ``1.0``).

Where the Perl goes through its hashes (the nodes, a node's documents, a
document's canonical mentions), the order of the file is taken: it decides
only the order of added assertions that the output's sort leaves tied.
"""
from __future__ import annotations

import re

from scorer.coldstart.toolkit.predicates import NODE_TYPES

_CONFIDENCE = re.compile(r"(?:1\.0*)$|(?:0?\.[0-9]*[1-9][0-9]*)$")
_NOT_ENDPOINTS = frozenset(("type", "mention", "canonical_mention", "link"))


def remove_quotes(text: str) -> str:
    if len(text) >= 2 and text.startswith('"') and text.endswith('"'):
        return text[1:-1]
    return text


def check_integrity(kb, canonical_mentions: bool = True) -> None:
    check_entity_types(kb)
    check_definitions(kb)
    check_provenance_lists(kb)
    check_mention_strings(kb)
    assert_inverses(kb)
    assert_mentions(kb, canonical_mentions)
    check_relation_endpoints(kb)
    check_confidence(kb)


def check_entity_types(kb) -> None:
    for name, entity in kb.entities.items():
        kind = entity.type()
        if kind == "unknown":
            kb.record("UNKNOWN_TYPE", name, line=entity.bestuse[1] if entity.bestuse else None)
        elif kind == "multiple":
            kb.record("MULTITYPED_ENTITY", name,
                      ", ".join(f"{t} at line {entity.bestdef[t][1]}"
                                for t in sorted(entity.bestdef)))
        uses = iter(entity.possible)
        for types, line in zip(uses, uses):
            if kind not in types:
                kb.record("MULTITYPED_ENTITY", name,
                          " or ".join(sorted(types)) + f" at line {line} and {kind} at line "
                          f"{entity.bestuse[1] if entity.bestuse else ''}")


def check_definitions(kb) -> None:
    for name, entity in kb.entities.items():
        for kind, (_, line) in entity.bestdef.items():
            if "TYPEDEF" not in entity.typedefs[kind]:
                kb.record("MISSING_TYPEDEF", name, line=line)


def check_provenance_lists(kb) -> None:
    for spans in kb.mention_list.values():
        for mentions in spans.values():
            # one string a span: the mentions there of more than one
            if type(mentions) is list and len({a.object for a in mentions}) > 1:
                kb.record("MULTIPLE_STRINGS_FOR_PROV", mentions[0].provenance,
                          ", ".join(f"{a.object} at line {a.line}"
                                    for a in sorted(mentions, key=lambda a: a.line)))
    for assertion in list(kb.assertions):
        provenance = kb.provenance(assertion)
        line = assertion.line
        verb = assertion.verb
        if assertion.object_entity is not None and assertion.object_entity.type() == "string" \
                and provenance.filler is None:
            kb.record("MISSING_FILLER_STRING_PROV", provenance.original_text(), line=line)
        if "mention" in verb and (provenance.justification is None
                                  or provenance.filler is not None
                                  or provenance.base_filler is not None
                                  or provenance.additional is not None):
            kb.record("UNEXPECTED_PROVENANCE", provenance.original_text(), line=line)
        if provenance.filler is not None and not kb.mention_exists(assertion.object,
                                                                   provenance.filler):
            kb.record("MISSING_MENTION_E", "FILLER_STRING", provenance.filler.original(),
                      assertion.object, line=line)
        justification = provenance.justification
        if verb in ("likes", "dislikes"):
            if justification is not None and \
                    not kb.mention_exists(assertion.object, justification, True):
                kb.record("MISSING_MENTION_E", "PREDICATE_JUSTIFICATION",
                          justification.original(), assertion.object, line=line)
        elif verb in ("is_liked_by", "is_disliked_by"):
            if justification is not None and \
                    not kb.mention_exists(assertion.subject, justification, True):
                kb.record("MISSING_MENTION_E", "PREDICATE_JUSTIFICATION",
                          justification.original(), assertion.subject, line=line)
        if verb == "normalized_mention" and justification is not None and \
                not kb.mention_exists(assertion.subject, justification):
            kb.record("MISSING_MENTION_E", "Provenance", justification.original(),
                      assertion.subject, line=line)
        if (_is_event(assertion.subject) or _is_event(assertion.object)) \
                and verb != "type" and "mention" not in verb \
                and provenance.base_filler is None:
            kb.record("UNEXPECTED_BASE_FILLER", "NIL", line=line)


def _is_event(name: str) -> bool:
    return name.startswith(":Event") and len(name) > 6


_STRING_CHECKED = ("mention", "nominal_mention", "pronominal_mention", "canonical_mention")


def check_mention_strings(kb) -> None:
    documents = kb.documents
    for subject in list(kb.by_subject):
        docids = kb.documents_of(subject, _STRING_CHECKED)
        if not docids:
            kb.record("NO_MENTIONS", subject)
            continue
        for docid in docids:
            mentions = [a for verb in _STRING_CHECKED for a in kb.in_document(subject, verb, docid)]
            first = kb.provenance(mentions[0])
            if documents is None or first.docid is None or documents.file(first.docid) is None:
                continue
            for mention in mentions:
                value = remove_quotes(mention.object)
                provenance = kb.provenance(mention)
                justification = provenance.justification
                if justification is None:
                    continue
                if documents.mention_differs(value, first.docid, justification.start(),
                                             justification.end()):
                    kb.record("INACCURACTE_MENTION_STRING", value, justification.normalised(),
                              line=mention.line)


def assert_inverses(kb) -> None:
    for assertion in list(kb.assertions):
        if ":String" in assertion.object or assertion.object_entity is None:
            continue
        predicate = assertion.predicate
        if not predicate.range <= NODE_TYPES:
            continue
        inverse_name = predicate.inverse
        if any(assertion.provenance == other.provenance
               for other in kb.triple(assertion.object, inverse_name, assertion.subject)):
            continue
        kb.record("MISSING_INVERSE", predicate.name, assertion.subject, assertion.object,
                  line=assertion.line)
        if assertion.realis:
            inverse_name += "." + assertion.realis
        provenance = kb.provenance(assertion)
        inverse = kb.add(assertion.object, inverse_name, assertion.subject,
                         provenance.original, assertion.confidence, assertion.line)
        if inverse is None:
            continue
        inverse.inferred = True
        if inverse.omit:
            assertion.omit = True
        if assertion.omit:
            inverse.omit = True


def assert_mentions(kb, canonical_allowed: bool) -> None:
    for subject in list(kb.by_subject):
        docids = kb.documents_of(subject, ("mention", "nominal_mention", "canonical_mention"))
        if not docids:
            kb.record("NO_MENTIONS", subject)
            continue
        for docid in docids:
            mentions = {a.provenance: a for a in kb.in_document(subject, "mention", docid)}
            nominals = {a.provenance: a for a in kb.in_document(subject, "nominal_mention",
                                                                  docid)}
            canonicals = {a.provenance: a for a in kb.in_document(subject, "canonical_mention",
                                                                    docid)}
            if canonical_allowed and not canonicals:
                if len(mentions) + len(nominals) > 1:
                    kb.record("MULTIPLE_MENTIONS_NO_CANONICAL", subject, docid)
                elif mentions or nominals:
                    kb.record("MISSING_CANONICAL", subject, docid)
                    mention = next(iter((mentions or nominals).values()))
                    _infer(kb, mention, "canonical_mention")
            elif canonical_allowed and len(canonicals) > 1:
                kb.record("MULTIPLE_CANONICAL", subject, docid)
            for text, canonical in canonicals.items():
                if text in mentions or text in nominals:
                    continue
                kb.record("UNASSERTED_MENTION", canonical.print_string, docid,
                          line=canonical.line)
                _infer(kb, canonical, "mention")


def _infer(kb, assertion, verb: str) -> None:
    if assertion.realis:
        verb += "." + assertion.realis
    added = kb.add(assertion.subject, verb, assertion.object, assertion.provenance,
                   assertion.confidence, assertion.line)
    if added is not None:
        added.inferred = True


def check_relation_endpoints(kb) -> None:
    for assertion in list(kb.assertions):
        if assertion.predicate.name in _NOT_ENDPOINTS:
            continue
        provenance = kb.provenance(assertion)
        docid = provenance.document
        for entity in (assertion.subject_entity, assertion.object_entity):
            if entity is None:
                continue
            if not (kb.in_document(entity.name, "mention", docid)
                    or kb.in_document(entity.name, "nominal_mention", docid)):
                kb.record("UNATTESTED_RELATION_ENTITY", assertion.print_string, entity.name,
                          provenance.original_text(), line=assertion.line)


def check_confidence(kb) -> None:
    for assertion in kb.assertions:
        confidence = assertion.confidence
        if confidence is None:
            continue
        if confidence == "1":
            kb.record("MISSING_DECIMAL_POINT", confidence, line=assertion.line)
            confidence = assertion.confidence = "1.0"
        if not _CONFIDENCE.match(confidence):
            kb.record("ILLEGAL_CONFIDENCE_VALUE", confidence, line=assertion.line)
            assertion.confidence = "1.0"
