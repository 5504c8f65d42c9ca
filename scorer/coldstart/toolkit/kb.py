"""A Cold Start knowledge base as CS-ValidateKB 2017.2.0 builds it while it
reads one: nodes (entities, events, strings) with what is known of their
types, assertions (``verb(subject, object)`` with provenance and confidence)
and the indexes its checks and writers look things up in.

It is not a KB that trusts its input: each assertion is checked as it is
added (node names, predicate and its domain, realis, provenance, quoting,
duplicates), and a rejected one leaves only its problems.  The problems are
the Perl's, recorded as often as the Perl records them (its count line
counts recordings): an assertion's provenance is read again at each look.

Where the Perl's hash order decides (which earlier fill of a single-valued
slot a new one is weighed against, when ``-ignore`` does not hide
MULTIPLE_FILLS_ENTITY), the order of the file decides here.
"""
from __future__ import annotations

import re

from scorer.coldstart.toolkit.kbprovenance import EMPTY, ProvenanceReader
from scorer.coldstart.toolkit.predicates import (ENTITY_TYPES, EVENT_TYPES, NODE_TYPES,
                                                 Predicate, predicates)
from scorer.coldstart.toolkit.problemlog import place

#: How good a use of a node is as the place a message points at (lower is better).
USE_PRIORITY = {"MENTION": 1, "TYPEDEF": 2, "SUBJECT": 3, "OBJECT": 4}
_SUBJECT_USE = USE_PRIORITY["SUBJECT"]
#: a one-type domain or range -> its type's name
_ONE_KIND: dict = {}

#: The predicates' aliases: domain -> alias -> (reason, predicate), as the library lists them.
_ALIASES = """
deprecated org dissolved date_dissolved
deprecated per employee_of employee_or_member_of
deprecated org,gpe employees employees_or_members
deprecated org founded date_founded
deprecated per member_of employee_or_member_of
deprecated org,gpe membership employees_or_members
deprecated org number_of_employees/members number_of_employees_members
deprecated org political/religious_affiliation political_religious_affiliation
deprecated per stateorprovinces_of_residence statesorprovinces_of_residence
deprecated org top_members/employees top_members_employees
misspelled per ages age
misspelled any canonical_mentions canonical_mention
misspelled per city_of_residence cities_of_residence
misspelled per country_of_residence countries_of_residence
misspelled any mentions mention
misspelled per spouses spouse
misspelled per stateorprovince_of_residence statesorprovinces_of_residence
misspelled per titles title
"""
ALIASES: dict = {}
for _line in _ALIASES.strip().splitlines():
    _reason, _domains, _alias, _actual = _line.split()
    for _domain in _domains.split(","):
        ALIASES.setdefault(_domain, {})[_alias] = (_reason, _actual)

REALIS = ("actual", "generic", "other")
#: Multiple attestations of one triple (-multiple).
MULTIPLE = {"MANY": "any number of duplicate assertions allowed",
            "ONE": "only one allowed - no duplicates",
            "ONEPERDOC": "at most one allowed per document"}

#: Verbs whose provenance is one justification span (each name found in a
#: verb counts: ``nominal_mention`` is also a ``mention``).
_ONE_SPAN_VERBS = ("mention", "canonical_mention", "nominal_mention", "normalized_mention",
                   "pronominal_mention", "likes", "dislikes", "is_liked_by", "is_disliked_by")
#: Verbs never checked for duplicates.
#: verb -> how many of _ONE_SPAN_VERBS it holds (each checks the spans once)
_SPAN_CHECKS: dict = {}
_NOT_DUPLICATES = frozenset(("mention", "nominal_mention", "canonical_mention",
                             "normalized_mention", "type", "link"))
_NO_PROVENANCE = (EMPTY, ())
_MENTION_VERBS = frozenset(("mention", "canonical_mention", "nominal_mention",
                            "pronominal_mention"))

_NODE_NAME = re.compile(r":?(?:Entity|Event|String).+$", re.I)
_QUOTED = re.compile(r'"(?>(?:(?>[^"\\]+)|\\.)*)"$')
_LINK = re.compile(r'"?(.*?):(.*?)"?$')
_DOMAIN = re.compile(r"(.*?):(.*)$")
_STRING_TYPES = frozenset(("string",))


def name_kinds(name: str) -> frozenset:
    """The types a node's name allows: ``:Entity...`` an entity's, ``:Event...``
    an event's, ``:String...`` a string's (case as written)."""
    if name.startswith(":Entity") and len(name) > 7:
        return ENTITY_TYPES
    if name.startswith(":Event") and len(name) > 6:
        return EVENT_TYPES
    if name.startswith(":String") and len(name) > 7:
        return _STRING_TYPES
    return frozenset()


def perl_number(text) -> float:
    """Perl's numeric value of a string (its leading number, else 0)."""
    match = _NUMBER.match(text or "")
    return float(match.group()) if match else 0.0


_NUMBER = re.compile(r"\s*[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")


class Entity:
    """A node: its name, and what its uses say of its type."""

    __slots__ = ("name", "kinds", "typedefs", "bestdef", "possible", "bestuse")

    def __init__(self, name: str):
        self.name = name
        #: the types its name allows
        self.kinds = name_kinds(name)
        #: type -> the kinds of definition given (TYPEDEF, SUBJECT, OBJECT)
        self.typedefs: dict = {}
        #: type -> (priority, line) of the definition a message points at
        self.bestdef: dict = {}
        #: types, line, types, line, ... of the uses that allow several types
        #: (flat: a pair's tuple would cost more than the two entries)
        self.possible: list = []
        #: (priority, line) of the use a message points at
        self.bestuse = None

    def type(self) -> str:
        """Its type; ``unknown`` without one, ``multiple`` with several."""
        types = self.typedefs
        if len(types) == 1:
            return next(iter(types))
        return "multiple" if types else "unknown"


class Assertion:
    """One assertion as kept: ``verb(subject, object)`` with its predicate,
    realis, provenance text, confidence text, line and comment."""

    __slots__ = ("subject", "verb", "object", "subject_entity", "predicate", "realis",
                 "object_entity", "provenance", "confidence", "line", "comment", "omit",
                 "inferred", "parsed")

    def __init__(self, subject, verb, obj, subject_entity, predicate, realis, object_entity,
                 provenance, confidence, line, comment):
        self.subject = subject
        self.verb = verb
        self.object = obj
        self.subject_entity = subject_entity
        self.predicate = predicate
        self.realis = realis
        self.object_entity = object_entity
        self.provenance = provenance
        self.confidence = confidence
        self.line = line
        self.comment = comment
        self.omit = False
        self.inferred = False
        #: (provenance read, its problems), once read
        self.parsed = None

    @property
    def print_string(self) -> str:
        return f"{self.verb}({self.subject}, {self.object})"


class KB:
    """The KB being read: ``file`` (the name messages give), the problem
    ``log``, the ``-docs`` documents (or None), ``multiple`` (-multiple)."""

    def __init__(self, file: str, log, documents=None, multiple: str = "MANY",
                 predicate_set=None, labels=None):
        self.file = file
        self.log = log
        self.documents = documents
        self.multiple = multiple
        self.predicates = predicate_set or predicates()
        #: id(predicate) -> its label (the built-in ones are TAC's)
        self.labels = labels or {}
        self.reader = ProvenanceReader(documents)
        self.predicate_names = frozenset(p.name for p in self.predicates.every())
        self._realis_memo: dict = {}
        self._predicate_memo: dict = {}
        self.runid = None
        self.runid_line = None
        self.entities: dict = {}
        #: every assertion kept, in order
        self.assertions: list = []
        #: subject -> its assertions; (subject, verb) -> object -> assertions
        #: (an assertion alone, or a list of them: most triples are asserted
        #: once), or the one assertion of a (subject, verb) alone (most are)
        self.by_subject: dict = {}
        self.by_triple: dict = {}
        #: (subject, verb) -> docid -> mentions (the four mention verbs), as by_triple
        self.docids: dict = {}
        #: one copy of each short text repeated on many lines (confidences, documents)
        self.texts: dict = {}
        #: docid -> justification -> ... (mention and nominal_mention)
        self.mention_list: dict = {}      # -> the mentions (one alone, or a list)
        self.pronominal: dict = {}        # -> subject -> assertion
        self.links: dict = {}
        #: why -> how many assertions were rejected while reading (-stats_file)
        self.rejected: dict = {}

    # -- places and problems --------------------------------------------------------

    def where(self, line) -> str:
        return place(self.file, line)

    def record(self, name: str, *args, line=None) -> None:
        self.log.record(name, *args, where=self.where(line) if line is not None else "NO_SOURCE")

    def provenance_of(self, text, subject: str, obj: str, verb: str, line):
        """The provenance of an assertion, read as the Perl reads it (its
        problems recorded again)."""
        found = self._read(text, subject, obj, verb)
        if found[1]:
            where = self.where(line)
            for name, args in found[1]:
                self.log.record(name, *args, where=where)
        return found[0]

    def _read(self, text, subject: str, obj: str, verb: str) -> tuple:
        if verb.lower() in ("type", "link"):
            return _NO_PROVENANCE
        return self.reader.read(text, subject, obj, verb)

    def provenance(self, assertion: Assertion):
        """An assertion's provenance, read again (its problems recorded again)."""
        found = assertion.parsed
        if found is None:
            found = assertion.parsed = self._read(assertion.provenance, assertion.subject,
                                                  assertion.object, assertion.verb)
        if found[1]:
            where = self.where(assertion.line)
            for name, args in found[1]:
                self.log.record(name, *args, where=where)
        return found[0]

    # -- nodes ----------------------------------------------------------------------

    def intern(self, name, line):
        """The node called ``name`` (made when new), or None for a name that
        is not one (recorded)."""
        if isinstance(name, Entity):
            return name
        # a name seen before is a node's (no other name is kept)
        entity = self.entities.get(name)
        if entity is not None:
            return entity
        if name.startswith('"'):
            self.record("STRING_USED_FOR_ENTITY", name, line=line)
            return None
        if not _NODE_NAME.match(name) or "-" in name:
            self.record("ILLEGAL_NODE_NAME", name, line=line)
            return None
        if not name.startswith(":"):
            self.record("COLON_OMITTED", name, line=line)
            name = ":" + name
        entity = self.entities.get(name)
        if entity is None:
            entity = self.entities[name] = Entity(name)
        return entity

    def use(self, entity: Entity, use_type: str, line) -> None:
        this = (USE_PRIORITY[use_type], line)
        if entity.bestuse is None or this < entity.bestuse:
            entity.bestuse = this

    def typedef(self, entity: Entity, types, def_type: str, line) -> None:
        """What a use says of a node's type (``types``: a type's name, or a
        predicate's domain or range)."""
        if type(types) is not str:
            if len(types) > 1:
                entity.possible += (types, line)
                return
            kind = _ONE_KIND.get(types)
            if kind is None:
                kind = _ONE_KIND[types] = next(iter(types)).lower()
        else:
            kind = types.lower()
        if kind not in NODE_TYPES:
            self.record("ILLEGAL_NODE_TYPE", kind, line=line)
            return
        name = entity.name
        if kind not in entity.kinds:
            self.record("INCOMPATIBLE_NODE_NAME", name, kind.upper(), line=line)
            return
        entity.typedefs.setdefault(kind, set()).add(def_type)
        this = (USE_PRIORITY[def_type], line)
        best = entity.bestdef.get(kind)
        if best is None or this < best:
            entity.bestdef[kind] = this

    def node_type(self, name) -> str:
        entity = self.entities.get(name) if isinstance(name, str) else name
        return entity.type() if entity is not None else "unknown"

    # -- predicates -----------------------------------------------------------------

    def realis(self, subject: str, verb: str, obj: str, line) -> tuple:
        """``(verb, realis)``: the realis taken off the verb, with the
        Perl's checks of it (an event's assertions need one, the others
        must not have one)."""
        event = subject.startswith(":Event") or obj.startswith(":Event")
        key = (verb, event)
        found = self._realis_memo.get(key)
        if found is None:
            found = self._realis_memo[key] = self._realis(verb, event)
        verb, realis, problems = found
        for name, args in problems:
            self.record(name, *args, line=line)
        return verb, realis

    def _realis(self, verb: str, event: bool) -> tuple:
        problems = []
        domain = None
        colon = verb.find(":")
        if colon >= 0:
            domain, verb = verb[:colon], verb[colon + 1:]
        names = self.predicate_names
        elements = verb.split(".")
        while elements and elements[-1] == "":
            elements.pop()
        realis = None
        if len(elements) > 1:
            candidate = elements[-1]
            bare = ".".join(elements[:-1])
            wanted = event and bare != "type"
            if bare == "type":
                problems.append(("UNEXPECTED_REALIS", ("none", candidate)))
                if candidate not in REALIS:
                    problems.append(("ILLEGAL_REALIS", (candidate,)))
                verb, realis = bare, candidate
            elif candidate in REALIS and bare in names:
                if not wanted:
                    problems.append(("UNEXPECTED_REALIS", ("none", candidate)))
                verb, realis = bare, candidate
            elif candidate not in REALIS:
                if f"{bare}.{candidate}" in names:
                    if wanted:
                        problems.append(("UNEXPECTED_REALIS",
                                         ("actual, generic, or other", "none")))
                else:
                    problems.append(("ILLEGAL_REALIS", (candidate,)))
                    if not wanted:
                        problems.append(("UNEXPECTED_REALIS", ("none", candidate)))
                verb = f"{bare}.{candidate}"
            else:
                # a realis, but no such predicate: the Perl calls the realis illegal
                problems.append(("ILLEGAL_REALIS", (candidate,)))
                if wanted:
                    problems.append(("UNEXPECTED_REALIS", ("none", candidate)))
                verb, realis = bare, candidate
        elif event and verb != "type":
            problems.append(("UNEXPECTED_REALIS", ("actual, generic, or other", "none")))
        if domain:
            verb = f"{domain}:{verb}"
        return verb, realis, tuple(problems)

    def predicate(self, verb: str, subject_type, line):
        """The predicate ``verb`` names for a subject of ``subject_type``
        (None: not known), or None (the problem recorded)."""
        key = (verb, subject_type)
        found = self._predicate_memo.get(key)
        if found is None:
            found = self._predicate_memo[key] = self._predicate(verb, subject_type)
        predicate, problems = found
        for name, args in problems:
            self.record(name, *args, line=line)
        return predicate

    def _predicate(self, verb: str, subject_type) -> tuple:
        domain = subject_type
        match = _DOMAIN.match(verb)
        problems = []
        if match is not None:
            domain, verb = match.group(1).lower(), match.group(2)
            if domain not in NODE_TYPES:
                return None, (("ILLEGAL_PREDICATE_TYPE", (domain,)),)
        if domain is not None and subject_type is not None and domain != subject_type:
            return None, (("SUBJECT_PREDICATE_MISMATCH", (subject_type, domain)),)
        alias = ALIASES.get((domain or "any").lower(), {}).get(verb) or \
            ALIASES["any"].get(verb)
        if alias is not None:
            problems.append(("PREDICATE_ALIAS", (alias[0], verb, alias[1])))
            verb = alias[1]
        found = self.predicates.lookup(verb, domain)
        if not found:
            problems.append(("ILLEGAL_PREDICATE", (verb,)))
            return None, tuple(problems)
        if len(found) > 1:
            problems.append(("AMBIGUOUS_PREDICATE", (verb,)))
            return None, tuple(problems)
        return found[0], tuple(problems)

    # -- assertions -----------------------------------------------------------------

    def add(self, subject, verb: str, obj: str, provenance_text, confidence: str, line,
            comment: str = ""):
        """Check an assertion and keep it (returned), or reject it (None)."""
        subject_entity = self.entities.get(subject)
        if subject_entity is None:
            subject_entity = self.intern(subject, line)
            if subject_entity is None:
                self._reject("NO_SUBJECT")
                return None
        subject = subject_entity.name
        typedefs = subject_entity.typedefs
        subject_type = next(iter(typedefs)) if len(typedefs) == 1 else None
        verb, realis = self.realis(subject, verb, obj, line)
        predicate = self.predicate(verb, subject_type, line)
        if predicate is None:
            self.use(subject_entity, "SUBJECT", line)
            self._reject("NO_PREDICATE")
            return None
        verb = predicate.name
        read = self.reader.read(provenance_text, subject, obj, verb) \
            if verb != "type" and verb != "link" and verb.lower() not in ("type", "link") \
            else _NO_PROVENANCE
        provenance = read[0]
        if read[1]:
            where = self.where(line)
            for name, args in read[1]:
                self.log.record(name, *args, where=where)
        raw_object = obj
        checks = _SPAN_CHECKS.get(verb)
        if checks is None:
            checks = _SPAN_CHECKS[verb] = sum(name in verb for name in _ONE_SPAN_VERBS)
        if checks:
            count = provenance.justification_count()
            if count > 1:
                for _ in range(checks):
                    self.record("TOO_MANY_PROVENANCE_TRIPLES_E", count, 1, line=line)
        object_entity = None
        if verb == "type":
            self.use(subject_entity, "TYPEDEF", line)
            self.typedef(subject_entity, obj, "TYPEDEF", line)
        elif verb == "link":
            self.use(subject_entity, "SUBJECT", line)
            match = _LINK.match(obj)
            if match is None:
                self.record("ILLEGAL_LINK_SPECIFICATION", obj, line=line)
                self._reject("BAD_PREDICATE")
                return None
            obj = f"{match.group(1)}:{match.group(2)}"
        else:
            this = (_SUBJECT_USE, line)
            best = subject_entity.bestuse
            if best is None or this < best:
                subject_entity.bestuse = this
            self.typedef(subject_entity, predicate.domain, "SUBJECT", line)
            if "string" in predicate.range and "mention" in predicate.name.lower():
                if not _QUOTED.match(obj):
                    self.record("UNQUOTED_STRING", obj, line=line)
                    obj = '"' + re.sub(r'(["\\])', r"\\\1", obj) + '"'
            elif predicate.range <= NODE_TYPES:
                object_entity = self.intern(obj, line)
                if object_entity is None:
                    self._reject("NO_OBJECT")
                    return None
                obj = object_entity.name
                self.use(object_entity, "OBJECT", line)
                self.typedef(object_entity, predicate.range, "OBJECT", line)
        duplicate = None
        if verb not in _NOT_DUPLICATES:
            same = self.triple(subject, verb, obj)
            for existing in [a for a in same if not a.inferred]:
                if existing.omit:
                    continue
                existing_provenance = self.provenance(existing)
                if self.multiple == "ONE":
                    duplicate = existing
                    break
                if existing_provenance.document != provenance.document:
                    continue
                if self.multiple == "ONEPERDOC":
                    duplicate = existing
                    break
                if existing_provenance.text() != provenance.text():
                    continue
                duplicate = existing
                break
        multiple_of = None
        if predicate.quantity == "single" and not self.log.is_ignored("MULTIPLE_FILLS_ENTITY"):
            for fills in _fills(self.by_triple.get((subject, verb))):
                for existing in _listed(fills):
                    if existing.omit:
                        continue
                    if object_entity is not None and existing.object_entity is not None:
                        differs = object_entity is not existing.object_entity
                    else:
                        differs = obj != existing.object
                    if differs:
                        multiple_of = existing
                        break
                if multiple_of is not None:
                    break
        assertion = Assertion(subject, verb, obj, subject_entity, predicate, realis,
                              object_entity, provenance_text, confidence, line, comment)
        if obj is raw_object or _same_kind(obj, raw_object):
            assertion.parsed = read
        if multiple_of is not None:
            self.record("MULTIPLE_FILLS_ENTITY", subject, verb, line=line)
            _keep_one(assertion, multiple_of)
        if duplicate is not None:
            duplicate_provenance = self.provenance(duplicate)
            self.record("DUPLICATE_ASSERTION", self.where(duplicate.line), line=line)
            if provenance.text() == duplicate_provenance.text():
                self._reject("DUPLICATE")
                return None
            _keep_one(assertion, duplicate)
        self._index(assertion, provenance)
        return assertion

    def _reject(self, why: str) -> None:
        self.rejected[why] = self.rejected.get(why, 0) + 1

    def _index(self, assertion: Assertion, provenance) -> None:
        subject, verb, obj = assertion.subject, assertion.verb, assertion.object
        if verb in _MENTION_VERBS or verb == "pronominal_mention":
            docid = provenance.document
            span = provenance.justification.short() if provenance.justification is not None \
                else ""
            if verb in ("mention", "nominal_mention"):
                _keep(self.mention_list.setdefault(docid, {}), span, assertion)
            elif verb == "pronominal_mention":
                self.pronominal.setdefault(docid, {}).setdefault(span, {})[subject] = assertion
            _keep(self.docids.setdefault((subject, verb), {}), docid, assertion)
        elif verb == "link":
            kb, _, kbid = obj.partition(":")
            self.links.setdefault(subject, {}).setdefault(kb, []).append(kbid)
        by_triple = self.by_triple
        key = (subject, verb)
        found = by_triple.get(key)
        if found is None:
            by_triple[key] = assertion
        else:
            if type(found) is not dict:
                found = by_triple[key] = {found.object: found}
            _keep(found, obj, assertion)
        self.by_subject.setdefault(subject, []).append(assertion)
        self.assertions.append(assertion)

    # -- looking up -----------------------------------------------------------------

    def triple(self, subject: str, verb: str, obj: str) -> list:
        found = self.by_triple.get((subject, verb))
        if found is None:
            return []
        if type(found) is dict:
            return _listed(found.get(obj))
        return [found] if found.object == obj else []

    def of_subject_verb(self, subject: str, verb: str) -> list:
        return [a for fills in _fills(self.by_triple.get((subject, verb)))
                for a in _listed(fills)]

    def in_document(self, subject: str, verb: str, docid: str) -> list:
        return _listed(self.docids.get((subject, verb), {}).get(docid))

    def documents_of(self, subject: str, verbs) -> list:
        """The documents of a node's mentions of the ``verbs``, in order of first use."""
        found: dict = {}
        docids = self.docids
        for verb in verbs:
            for docid in docids.get((subject, verb), ()):
                found[docid] = True
        return list(found)

    def mention_exists(self, node: str, spans, pronominal: bool = False) -> bool:
        """Whether ``spans`` (a provenance part) is a mention or nominal
        mention of ``node`` (or, with ``pronominal``, a pronominal one)."""
        docid, span = spans.document, spans.short()
        for mention in _listed(self.mention_list.get(docid, {}).get(span)):
            if mention.subject == node:
                return True
        return pronominal and node in self.pronominal.get(docid, {}).get(span, ())

    def label(self, predicate: Predicate) -> str:
        return self.labels.get(id(predicate), "TAC")


def _keep(index: dict, key, assertion) -> None:
    """Add an assertion under ``key``: alone, or a list when there are several."""
    found = index.get(key)
    if found is None:
        index[key] = assertion
    elif type(found) is list:
        found.append(assertion)
    else:
        index[key] = [found, assertion]


def _fills(found):
    """The fills of a (subject, verb) in ``by_triple``: object -> assertions."""
    if found is None:
        return ()
    return found.values() if type(found) is dict else (found,)


def _listed(found) -> list:
    if found is None:
        return []
    return found if type(found) is list else [found]


def _keep_one(assertion: Assertion, other: Assertion) -> None:
    """Of two fills (or duplicates), the one of higher confidence is kept,
    or else the earlier."""
    mine, theirs = perl_number(assertion.confidence), perl_number(other.confidence)
    if mine < theirs:
        assertion.omit = True
    elif mine > theirs:
        other.omit = True
    elif assertion.line < other.line:
        other.omit = True
    else:
        assertion.omit = True


def _priority(name: str) -> int:
    if name == "type":
        return 3
    if name == "link":
        return 2
    return 1 if name in ("mention", "canonical_mention") else 0


def output_order(kb: KB):
    """Every assertion in the order the Perl's writers go through them: by
    subject, then ``type``, ``link``, mentions and the rest, by predicate,
    document and start of the justification (ties in the order kept), one
    at a time.  Each subject's assertions are sorted alone (a subject's
    list holds them in the order kept), so that the keys of a whole large
    KB are never held at once."""
    def key(assertion):
        name = assertion.predicate.name.lower()
        provenance = read_again(kb, assertion)
        return (-_priority(name), name, provenance.document, provenance.start())

    by_subject = kb.by_subject
    for subject in sorted(by_subject):
        assertions = by_subject[subject]
        if len(assertions) > 1:
            assertions = sorted(assertions, key=key)
        yield from assertions


def read_again(kb: KB, assertion: Assertion):
    """An assertion's provenance, for a writer (its problems are not
    recorded again: the Perl reports them before it writes)."""
    found = assertion.parsed
    if found is None:
        found = assertion.parsed = kb._read(assertion.provenance, assertion.subject,
                                            assertion.object, assertion.verb)
    return found[0]


def _same_kind(obj: str, raw: str) -> bool:
    """Whether a provenance reads the same with either object (a string or
    an event object changes how it reads)."""
    return obj.startswith(":String") == raw.startswith(":String") and \
        obj.startswith(":Event") == raw.startswith(":Event")
