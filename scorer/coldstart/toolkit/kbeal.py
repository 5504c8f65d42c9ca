"""``-output eal``: a KB's event arguments, as CS-ValidateKB 2017.2.0 writes
the folder ``event_arguments``:

- ``arguments/DOCID``: one line per argument of an event (each assertion kept
  whose subject is an event, mentions and types aside) justified in DOCID, in
  the writers' order (``kb.output_order``): its id (``RUNID:EVENT.DOCID.N``),
  the document, the event type, the role, the filler (the argument's
  canonical mention in the document; a string's normalized mention there if
  it has one), the canonical mention's span, the justification, base filler
  and additional justification spans (or NIL), the realis, the confidence;
- ``linking/DOCID``: each event's arguments that are not generic, as one
  event frame (``RUNID:EVENT.DOCID`` and the argument ids);
- ``corpusLinking/corpusLinking``: each event's frames across documents.

The files are written as the Perl writes them, without an encoding: each
piece it prints whose characters all fit in Latin-1 as Latin-1 bytes, the
others as UTF-8.
Where the Perl goes through a document's events in its hash order (the lines
of a ``linking`` file), they are in string order of the event's node.
"""
from __future__ import annotations

from scorer.coldstart.toolkit.kb import output_order, read_again
from scorer.coldstart.toolkit.kbchecks import remove_quotes


def perl_raw(text: str) -> bytes:
    """What Perl prints of a string to a file without an encoding layer."""
    try:
        return text.encode("latin-1")
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogateescape")


def _short(part) -> str:
    return part.short() if part is not None else "NIL"


def _title(text: str) -> str:
    text = text.lower()
    return text[:1].upper() + text[1:]


def eal_files(kb, path: str, **_options) -> dict:
    runid = kb.runid
    arguments: dict = {}
    linking: dict = {}
    corpus: dict = {}
    for assertion in output_order(kb):
        if assertion.omit or not assertion.subject.startswith(":Event") \
                or "mention" in assertion.verb or "type" in assertion.verb:
            continue
        subject, role, obj = assertion.subject, assertion.predicate.name, assertion.object
        provenance = read_again(kb, assertion)
        docid = provenance.document
        types = kb.of_subject_verb(subject, "type")
        event_type = ".".join(_title(part) for part in types[0].object.split(".")) \
            if types else ""
        canonicals = kb.in_document(obj, "canonical_mention", docid)
        filler = canonicals[0].object if canonicals else kb.triple(subject, role, obj)[0].object
        if obj.startswith(":String") and len(obj) > 7:
            for normalized in kb.of_subject_verb(obj, "normalized_mention"):
                if read_again(kb, normalized).docid == docid:
                    filler = normalized.object
                    break
        cas = ""
        if canonicals:
            justification = read_again(kb, canonicals[0]).justification
            cas = justification.short() if justification is not None else ""
        realis = _title(assertion.realis or "")
        found = arguments.setdefault(docid, [])
        argument_id = f"{runid}{subject}.{docid}.{len(found) + 1}"
        found.append("\t".join((
            argument_id, docid, event_type, _title(role), remove_quotes(filler), cas,
            _short(provenance.justification), _short(provenance.base_filler),
            _short(provenance.additional), realis, assertion.confidence)) + "\n")
        if realis != "Generic":
            linking.setdefault(docid, {}).setdefault(subject, []).append(argument_id)
            corpus.setdefault(subject, set()).add(f"{docid}-{runid}{subject}.{docid}")
    files = {}
    for docid, lines in arguments.items():
        files[f"{path}/arguments/{docid}"] = b"".join(map(perl_raw, lines))
    for docid, events in linking.items():
        files[f"{path}/linking/{docid}"] = b"".join(
            perl_raw(f"{runid}{node}.{docid}\t") + perl_raw(" ".join(sorted(ids))) + b"\n"
            for node, ids in sorted(events.items()))
    if corpus:
        files[f"{path}/corpusLinking/corpusLinking"] = b"".join(
            perl_raw(f"{runid}{node}\t") + perl_raw(" ".join(sorted(frames))) + b"\n"
            for node, frames in sorted(corpus.items()))
    return files
