"""``-output nug``: a KB's event mentions as event nuggets, as CS-ValidateKB
2017.2.0 writes ``NAME.nug.valid``: per document (in string order)

    #BeginOfDocument DOCID
    RUNID  DOCID  EN  START,END  MENTION  EVENT_TYPE  REALIS
    @Coreference  NODE  EN,EM,...
    #EndOfDocument

the lines of each event node in string order of node, then of line; the
mention ids count per document in the writers' order (``kb.output_order``).
The span is the Perl's today: its end is START + (START - END + 1), a length
counted backwards since a change of 10 Oct 2017 (``418-424`` is written
``418,413``; the test suite's stored file, made before it, has ``418,424``).
"""
from __future__ import annotations

from scorer.coldstart.toolkit.kb import output_order, read_again
from scorer.coldstart.toolkit.kbchecks import remove_quotes

_MENTIONS = frozenset(("mention", "nominal_mention", "pronominal_mention"))


def nug_text(kb) -> str:
    lines: dict = {}
    counts: dict = {}
    for assertion in output_order(kb):
        if assertion.omit or not assertion.subject.startswith(":Event") \
                or assertion.verb not in _MENTIONS:
            continue
        provenance = read_again(kb, assertion)
        docid = provenance.document
        justification = provenance.justification
        start_text = justification.spans[0][0] if justification is not None and \
            justification.spans else "0"
        start, end = provenance.start(), provenance.end()
        span = f"{start_text},{start + (start - end + 1)}"
        number = counts[docid] = counts.get(docid, 0) + 1
        kind = "_".join(part[:1].upper() + part[1:]
                        for part in assertion.subject_entity.type().split("."))
        realis = assertion.realis or ""
        line = "\t".join((kb.runid, docid, f"E{number}", span, remove_quotes(assertion.object),
                          kind, realis[:1].upper() + realis[1:]))
        lines.setdefault(docid, {}).setdefault(assertion.subject, []).append((f"E{number}",
                                                                             line))
    out = []
    for docid in sorted(lines):
        out.append(f"#BeginOfDocument {docid}\n")
        nodes = lines[docid]
        for node in sorted(nodes):
            out += [line + "\n" for line in sorted(line for _, line in nodes[node])]
        for node in sorted(nodes):
            ids = sorted({mention_id for mention_id, _ in nodes[node]})
            if len(ids) > 1:
                out.append(f"@Coreference\t{node}\t{','.join(ids)}\n")
        out.append("#EndOfDocument\n")
    return "".join(out)


def nug_files(kb, path: str, **_options) -> dict:
    return {path: nug_text(kb)}
