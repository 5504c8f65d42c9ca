"""``-output sen``: a KB's sentiments (``likes`` and ``dislikes`` between
nodes), as CS-ValidateKB 2017.2.0 writes the folder ``sentiments``: for each
document with mentions (in string order),

- ``predicted-ere/DOCID.rich_ere.xml``: its nodes (string order) and their
  mentions, named, nominal and pronominal (in the order of the KB, those its
  checks dropped too, as the Perl has them), each with an id ``NODE.5000NN``;
- ``predicted-best/DOCID.best.xml``: each target mention (the span of a
  sentiment's justification) with the sentiments towards it, each from its
  source's canonical mention in the document.

The texts are written as the Perl writes them (mention strings as they are
in the KB, without XML escapes).
"""
from __future__ import annotations

from scorer.coldstart.toolkit.kb import read_again
from scorer.coldstart.toolkit.kbchecks import remove_quotes

_MENTIONS = {"mention": "NAM", "nominal_mention": "NOM", "pronominal_mention": "PRO"}


def _offset_length(kb, mention) -> tuple:
    if mention is None:
        return "", ""
    provenance = read_again(kb, mention)
    justification = provenance.justification
    start_text = justification.spans[0][0] if justification is not None and \
        justification.spans else "0"
    return start_text, provenance.end() - provenance.start() + 1


def sen_files(kb, path: str, **_options) -> dict:
    mentions: dict = {}
    sentiments: dict = {}
    for assertion in kb.assertions:
        verb = assertion.verb
        if verb in _MENTIONS:
            docid = read_again(kb, assertion).document
            mentions.setdefault(docid, {}).setdefault(assertion.subject, []).append(assertion)
        elif verb in ("likes", "dislikes"):
            provenance = read_again(kb, assertion)
            justification = provenance.justification
            target = justification.normalised() if justification is not None else ""
            sentiments.setdefault(provenance.document, {}).setdefault(assertion.object, {}) \
                .setdefault(target, []).append(assertion)
    by_span: dict = {}
    ids: dict = {}
    files = {}
    for docid in sorted(mentions):
        source_type = "multi_post" if "_DF_" in docid else "newswire"
        ere = ['<?xml version="1.0" encoding="UTF-8"?>\n',
               f'<deft_ere kit_id="{kb.runid}" doc_id="{docid}" source_type="{source_type}">\n',
               "  <entities>\n"]
        for node in sorted(mentions[docid]):
            ere.append(f'    <entity id="{node}" type="{kb.node_type(node).upper()}" '
                       f'specificity="specificIndividual">\n')
            for number, mention in enumerate(mentions[docid][node], 500001):
                mention_id = f"{node}.{number}"
                ids[id(mention)] = mention_id
                justification = read_again(kb, mention).justification
                span = justification.normalised() if justification is not None else ""
                by_span.setdefault(span, {})[node] = mention
                noun_type = _MENTIONS[mention.verb]
                start, length = _offset_length(kb, mention)
                text = remove_quotes(mention.object)
                ere.append(f'      <entity_mention id="{mention_id}" noun_type="{noun_type}" '
                           f'source="{docid}" offset="{start}" length="{length}">\n')
                ere.append(f"        <mention_text>{text}</mention_text>\n")
                if noun_type == "NOM":
                    ere.append(f'        <nom_head source="{docid}" offset="{start}" '
                               f'length="{length}">{text}</nom_head>\n')
                ere.append("      </entity_mention>\n")
            ere.append("    </entity>\n")
        ere += ["  </entities>\n", "</deft_ere>\n"]
        files[f"{path}/predicted-ere/{docid}.rich_ere.xml"] = "".join(ere)
        best = ['<?xml version="1.0" encoding="UTF-8"?>\n',
                f'<belief_sentiment_doc id="{docid}">\n', "  <sentiment_annotations>\n",
                "    <entities>\n"]
        for target in sorted(sentiments.get(docid, {})):
            for span in sorted(sentiments[docid][target]):
                mention = by_span.get(span, {}).get(target)
                start, length = _offset_length(kb, mention)
                best.append(f'      <entity ere_id="{ids.get(id(mention), "")}" '
                            f'offset="{start}" length="{length}">\n')
                best.append(f"        <text>{remove_quotes(mention.object) if mention else ''}"
                            f"</text>\n")
                best.append("        <sentiments>\n")
                for sentiment in sentiments[docid][target][span]:
                    source = sentiment.subject
                    canonicals = kb.in_document(source, "canonical_mention", docid)
                    source_span = ""
                    if canonicals:
                        justification = read_again(kb, canonicals[0]).justification
                        source_span = justification.normalised() if justification else ""
                    source_mention = by_span.get(source_span, {}).get(source)
                    source_start, source_length = _offset_length(kb, source_mention)
                    polarity = "neg" if sentiment.verb == "dislikes" else "pos"
                    confidence = sentiment.confidence if sentiment.confidence not in ("", "0") \
                        else "1"
                    best.append(f'          <sentiment polarity="{polarity}" sarcasm="no" '
                                f'confidence="{confidence}">\n')
                    source_text = remove_quotes(source_mention.object) if source_mention else ""
                    best.append(f'            <source ere_id="{ids.get(id(source_mention), "")}"'
                                f' offset="{source_start}" length="{source_length}">'
                                f"{source_text}</source>\n")
                    best.append("          </sentiment>\n")
                best.append("        </sentiments>\n")
                best.append("      </entity>\n")
        best += ["    </entities>\n", "  </sentiment_annotations>\n", "</belief_sentiment_doc>\n"]
        files[f"{path}/predicted-best/{docid}.best.xml"] = "".join(best)
    return files
