"""Following SF queries through a validated KB as CS-ResolveQueries 2017.2.0
does: the SF responses a KB gives, in the order the Perl writes them.

The Perl reads the KB file again and again, holding open tasks, each of
which sees every assertion once, starting where it was made and wrapping
around the end of the file:

1. for each query, find the entry point: the mentions overlapping the
   query's span (most characters in common, then fewest outside it, then
   the first in the file); its node is where the query starts (these tasks
   see the file twice before they choose);
2. for the node and the query's slot, each assertion of that slot fills it:
   a string is a response at once; a node's canonical mention in the
   assertion's document is looked for (3);
3. the canonical mention found gives the response its filler and, where the
   query has a further slot, the next hop starts at that node (2).

The order of the responses is the order in which these tasks are fulfilled,
so it is simulated here, a file position being a line's index: the runid
line is position 0, where the entry-point tasks are kept.  Where the Perl
starts the queries in its hash order, they start in string order of their
ids (one of the orders the Perl can take).
"""
from __future__ import annotations

import os
import re
from array import array

from scorer.coldstart import ids
from scorer.coldstart.provenance import perl_split
from scorer.coldstart.toolkit.kbprovenance import read_kb_provenance
from scorer.coldstart.toolkit.kbreader import _COMMENT, trim
from scorer.coldstart.toolkit.kbreader import _SPACE as _WHITE
from scorer.coldstart.toolkit.provenance import read_spans
from scorer.coldstart.toolkit.problemlog import Fatal
from scorer.textfile import open_input

_CONFIDENCE = re.compile(r"\d+\.\d+$")
_ENTITY_DEFS_CONFIDENCE = re.compile(r"\d+\.\d+$|\d+$")
_OFFSET = re.compile(r"(.*):(\d+)-(\d+)$")
_REALIS = re.compile(r"\.(actual|generic|other)$")
_SPACE = re.compile(r"[\t\n\x0b\x0c\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]")
_ESCAPE = re.compile(r"\\(.)")


class Line:
    """One assertion as the resolver reads it."""

    __slots__ = ("position", "entity", "predicate", "object", "offsets", "confidence",
                 "docid", "justification", "realis")

    def __init__(self, position):
        self.position = position
        self.docid = None
        #: (docid, start, end) of the first span of the provenance's first part
        self.justification = None
        self.realis = None


def normalize_filler(text: str) -> str:
    if len(text) >= 2 and text.startswith('"') and text.endswith('"') and "\n" not in text:
        text = _ESCAPE.sub(r"\1", text[1:-1])
    return _SPACE.sub(" ", text)


#: The lines validatekb -output tac writes, most of them: an assertion with one
#: provenance span and a confidence, and a type; read in one match (the
#: others, and any line with white space at a column's end, the long way).
_PLAIN = re.compile(r"(\S+)\t(\S+)\t(\S(?:[^\t]*\S)?)\t(([^\s:;,]+):([0-9]+)-([0-9]+))"
                    r"\t([0-9]+\.[0-9]+)")
_PLAIN_TYPE = re.compile(r"(\S+)\t(type)\t(\S+)\t?")


def _strip_comment(text: str) -> str:
    match = _COMMENT.match(text)
    return match.group(1) if match is not None else text


def parse_line(text: str, position: int, where: str, texts=None) -> Line:
    """One line's assertion (``texts``: one copy of each text repeated)."""
    match = _PLAIN.fullmatch(text)
    if match is not None and match.group(2).lower() in ("type", "link"):
        match = None        # (a type or link with provenance: the long way refuses it)
    elif match is None:
        match = _PLAIN_TYPE.fullmatch(text)
    if match is not None:
        line = Line(position)
        groups = match.groups()
        if texts is None:
            line.entity, predicate, line.object = groups[:3]
        else:
            line.entity = texts.setdefault(groups[0], groups[0])
            predicate = texts.setdefault(groups[1], groups[1])
            obj = groups[2]
            line.object = texts.setdefault(obj, obj) if len(obj) < 48 else obj
        if len(groups) > 3:
            line.offsets = groups[3]
            line.docid = docid = groups[4]
            line.justification = (docid, groups[5], groups[6])
            line.confidence = groups[7]
        else:
            line.offsets = None
            line.confidence = "1.0"
        if "." in predicate:
            found = _REALIS.search(predicate)
            if found is not None:
                line.realis = found.group(1).lower()
                predicate = predicate[:found.start()]
        line.predicate = predicate
        return line
    entries = [e for e in (field.strip(_WHITE) for field in text.split("\t")) if e]
    if texts is not None:
        entries = [texts.setdefault(e, e) if len(e) < 48 else e for e in entries]
    if not entries or not _CONFIDENCE.match(entries[-1]):
        entries.append("1.0")
    predicate = entries[1].lower() if len(entries) > 1 else ""
    wanted = 4 if predicate in ("type", "link") else 5
    if len(entries) != wanted:
        raise Fatal(f"{where}: wrong number of columns for predicate {predicate} (expected "
                    f"{wanted} with the confidence, got {len(entries)}): is this a KB "
                    f"validatekb -output tac wrote?")
    line = Line(position)
    line.entity, line.predicate, line.object = entries[0], entries[1], entries[2]
    line.confidence = entries[-1]
    line.offsets = entries[3] if wanted == 5 else None
    if line.offsets:
        for index, part in enumerate(perl_split(line.offsets, ";")[:3]):
            if not part or part == "0":
                continue
            for number, span in enumerate(perl_split(part, ",")):
                if span == "NIL":
                    continue
                match = _OFFSET.match(span)
                if match is None:
                    raise Fatal(f"{where}: illegal offset specification: {span}")
                if index == 0 and number == 0:
                    line.justification = match.groups()
                line.docid = match.group(1)
    match = _REALIS.search(line.predicate) if "." in line.predicate else None
    if match is not None:
        line.realis = match.group(1).lower()
        line.predicate = line.predicate[:match.start()]
    return line


class Task:
    __slots__ = ("kind", "query", "position", "wrapped", "entity", "slot", "slots", "docid",
                 "parent", "parent_line", "mention", "best", "common", "k_only")

    def __init__(self, kind, query):
        self.kind = kind
        self.query = query
        self.wrapped = False
        self.best = None


class Hop:
    """A query as the resolver follows it: its full id, its slots left, and
    for the first hop the entry point's span."""

    __slots__ = ("full_id", "slots", "docid", "start", "end")

    def __init__(self, full_id, slots, docid=None, start=0, end=0):
        self.full_id, self.slots = full_id, slots
        self.docid, self.start, self.end = docid, start, end

    def generate(self, value: str, provenance: str) -> "Hop":
        short = ids.target_query_short_id(self.full_id, value, provenance)
        return Hop(f"{self.full_id}_{short}", self.slots[1:] if len(self.slots) > 1 else None)


class Resolver:
    """The Perl's TaskSet over one KB file's lines.  The file is read once;
    what is kept of it is compact (a line's place in the file and the id of
    its node, for the lines a task may match): a line a task looks at is
    read again from the file (kept as text when the file is not a regular
    one, a pipe), so that memory grows with the KB's nodes, not its text."""

    def __init__(self, path: str, lines, queries: list):
        self.path = path
        self.hops = queries
        self.runid = None
        self.runid_line = None
        self.types: dict = {}
        self.at: dict = {}
        self.count = 0
        self.slot_index: dict = {}
        self.name_index: dict = {}
        self.out: list = []
        self.stats = {"ENTRYPOINTS_FOUND": 0, "FILLS_FOUND": 0, "FINAL_STRING_FILLS_FOUND": 0,
                      "TOTAL": 0, "Entity2NameTask": 0, "FillSlotTask": 0,
                      "FindEntrypointsTask": 0}
        #: node -> its id (1, 2, ...): the nodes of the lines a task may match
        self.ids: dict = {}
        #: each line's node id where a slot or name task may match it, else 0
        self.line_nodes = array("l")
        #: node id -> how many tasks look for its lines now
        self.active: list = [0]
        #: each line's byte offset in the file (when read again from it), or
        #: line index -> text (when not)
        self.offsets = array("q")
        self.held = None if os.path.isfile(path) else {}
        #: node -> the lines of its canonical mentions (no realis), and the
        #: Perl's EntityDefs of them once read (docid -> spans)
        self.canonical_lines: dict = {}
        self.canonical: dict = {}
        self.parsed: dict = {}
        self._file = None
        self.entry_tasks = [Task("FindEntrypointsTask", hop) for hop in queries]
        self._read(lines)

    def _read(self, lines) -> None:
        """Every line read once, as the resolver reads it: the entry points
        found (the Perl's first two passes, which only look for them), the
        nodes' types, where the lines the later passes can match are (slot
        assertions, canonical mentions)."""
        entry_points: dict = {}
        for task in self.entry_tasks:
            entry_points.setdefault(task.query.docid, []).append(task)
        ids, active, line_nodes, held = self.ids, self.active, self.line_nodes, self.held
        offsets = self.offsets
        types, kinds = self.types, {}
        canonical_lines = self.canonical_lines
        offset = 0
        plain = _PLAIN.fullmatch
        for index, text in enumerate(lines):
            if held is None:
                offsets.append(offset)
                offset += (len(text) if text.isascii() else len(text.encode("utf-8"))) + 1
            if index == 0:
                self.runid_line = text
                line_nodes.append(0)
                continue
            if "#" in text:
                text = _strip_comment(text)
            match = plain(text)
            line = None
            if match is not None and match.group(2).lower() not in ("type", "link"):
                entity, predicate, docid = match.group(1, 2, 5)
                realis = None
                if "." in predicate:
                    found = _REALIS.search(predicate)
                    if found is not None:
                        realis = found.group(1).lower()
                        predicate = predicate[:found.start()]
            else:
                if not text.strip(_WHITE):
                    line_nodes.append(0)
                    continue
                line = parse_line(text, index, f"{self.path} line {index + 1}")
                entity, predicate, realis = line.entity, line.predicate, line.realis
                docid = line.justification[0] if line.justification is not None else None
            if realis == "generic":
                line_nodes.append(0)
                continue
            if predicate == "type":
                if line is None:
                    line = parse_line(text, index, f"{self.path} line {index + 1}")
                kind = line.object
                types[entity] = kinds.setdefault(kind, kind)
            elif predicate == "mention":
                tasks = entry_points.get(docid) if docid is not None else None
                if tasks:
                    if line is None:
                        line = parse_line(text, index, f"{self.path} line {index + 1}")
                    for task in tasks:
                        self.entry_point(task, line)
            elif predicate == "canonical_mention" and realis is None:
                canonical_lines.setdefault(entity, []).append(index)
            if predicate == "canonical_mention" or ":" in predicate:
                node = ids.get(entity)
                if node is None:
                    node = ids[entity] = len(active)
                    active.append(0)
                line_nodes.append(node)
                if held is not None:
                    held[index] = text
            else:
                line_nodes.append(0)

    def _text(self, index: int) -> str:
        """The text of line ``index`` (its comment taken off), read again."""
        if self.held is not None:
            return self.held[index]
        if self._file is None:
            self._file = open_input(self.path)
        self._file.seek(self.offsets[index])
        text = self._file.readline().decode("utf-8")
        if text.endswith("\n"):
            text = text[:-1]
        return _strip_comment(text) if "#" in text else text

    def line_at(self, index: int) -> Line:
        """The assertion of line ``index`` (kept once read)."""
        line = self.parsed.get(index)
        if line is None:
            line = self.parsed[index] = parse_line(self._text(index), index,
                                                   f"{self.path} line {index + 1}")
        return line

    def canonical_of(self, entity: str) -> dict:
        """docid -> the spans of a node's canonical mention there, as the
        Perl's EntityDefs reads the line's columns (the last in the file)."""
        found = self.canonical.get(entity)
        if found is None:
            found = self.canonical[entity] = {}
            for index in self.canonical_lines.get(entity, ()):
                entries = perl_split_trimmed(self._text(index))
                if entries and _ENTITY_DEFS_CONFIDENCE.match(entries[-1]):
                    entries.pop()
                if len(entries) > 1 and entries[0] == entity and \
                        entries[1] == "canonical_mention":
                    spans, _ = read_spans(entries[3] if len(entries) > 3 else "", 3)
                    found[spans.document] = spans.normalised()
        return found

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def entry_point(self, task, line: Line) -> None:
        """A mention overlapping the query's: the best so far is kept (most
        characters in common, then fewest outside the query's, then the
        first in the file)."""
        query = task.query
        _, start, finish = line.justification
        start, finish = int(start), int(finish)
        if query.end < start or finish < query.start:
            return
        common = min(finish, query.end) - max(start, query.start)
        k_only = finish - start - common
        if task.best is not None:
            if common < task.common:
                return
            if common == task.common:
                if k_only > task.k_only:
                    return
                if k_only == task.k_only and line.position > task.best.position:
                    return
        task.best, task.common, task.k_only = line, common, k_only

    # -- tasks ----------------------------------------------------------------------

    def add(self, task: Task, position: int) -> None:
        task.position = position
        self.at.setdefault(position, []).append(task)
        self.count += 1
        node = self.ids.get(task.entity)
        if node is not None:
            self.active[node] += 1
        if task.kind == "FillSlotTask":
            self.slot_index.setdefault((task.entity, task.slot), []).append(task)
        else:
            self.name_index.setdefault((task.entity, task.docid), []).append(task)
        self.stats["TOTAL"] += 1
        self.stats[task.kind] += 1

    def fill_slot(self, hop: Hop, entity, line, position) -> None:
        if hop.slots is None:
            return
        task = Task("FillSlotTask", hop)
        task.entity = entity
        task.slot = hop.slots[0] if hop.slots else None
        task.slots = hop.slots[1:]
        task.parent_line = line
        self.add(task, position)

    def remove(self, task: Task, tell: int) -> None:
        node = self.ids.get(task.entity)
        if node is not None:
            self.active[node] -= 1
        if task.kind == "FillSlotTask":
            _drop(self.slot_index, (task.entity, task.slot), task)
        else:
            _drop(self.name_index, (task.entity, task.docid), task)
        here = self.at.get(task.position)
        if here is not None and task in here:
            here.remove(task)
        self.count -= 1

    def remove_at(self, position: int, tell: int) -> None:
        tasks = self.at.get(position)
        if not tasks:
            return
        keep = [t for t in tasks if not t.wrapped]
        done = [t for t in tasks if t.wrapped]
        self.at[position] = keep
        for task in done:
            self.remove(task, tell)

    def seek_to_start(self) -> None:
        if self.runid_line is None:
            raise Fatal(f"No runid found in {self.path} (an empty file)")
        text = self.runid_line
        if "#" in text:
            match = _COMMENT.match(text)
            if match is not None:
                text = match.group(1)
        runid = trim(text)
        if not runid or runid == "0":
            raise Fatal(f"No runid found on the first line of {self.path}")
        every = [t for tasks in self.at.values() for t in tasks]
        self.remove_at(0, 1)
        for task in every:
            task.wrapped = True
        self.runid = runid

    # -- the main loop --------------------------------------------------------------

    def run(self) -> list:
        """The responses, in the order the Perl finds them.  Its first two
        passes over the file only find the entry points (``_read`` did); at
        the end of the second, each query with one starts its first slot at
        the file's first assertion, in the order of the queries."""
        self.seek_to_start()
        for _task in self.entry_tasks:
            self.stats["TOTAL"] += 1
            self.stats["FindEntrypointsTask"] += 1
        for task in self.entry_tasks:
            if task.best is not None:
                self.fill_slot(task.query, task.best.entity, task.best, 1)
                self.stats["ENTRYPOINTS_FOUND"] += 1
        end = len(self.line_nodes)
        position = 1
        line_nodes, active, line_at = self.line_nodes, self.active, self.line_at
        slot_index, name_index = self.slot_index, self.name_index
        while self.count:
            if position in self.at:
                self.remove_at(position, position)
            if position >= end:
                self.seek_to_start()
                position = 1
                continue
            node = line_nodes[position]
            position += 1
            if not node or not active[node]:
                continue
            line = line_at(position - 1)
            predicate = line.predicate
            if predicate == "canonical_mention":
                docid = line.justification[0] if line.justification else None
                found = name_index.get((line.entity, docid))
            else:
                found = slot_index.get((line.entity, predicate))
            if found:
                for task in list(found):
                    self.execute(task, line, position)
        return self.out

    def execute(self, task: Task, line: Line, tell: int) -> None:
        if task.kind == "FillSlotTask":
            self.stats["FILLS_FOUND"] += 1
            if line.object.startswith(":"):
                name = Task("Entity2NameTask", task.query)
                name.entity = line.object
                name.docid = line.justification[0] if line.justification else None
                name.parent = task
                name.parent_line = line
                self.add(name, tell)
            else:
                self.fill(task, line)
                self.stats["FINAL_STRING_FILLS_FOUND"] += 1
        else:
            self.fill(task.parent, task.parent_line, line)
            self.remove(task, tell)
            hop = task.query
            if hop.slots:
                filler = normalize_filler(line.object)
                docid, start, finish = line.justification
                spans, _ = read_spans(f"{docid}:{start}-{finish}", 3)
                self.fill_slot(hop.generate(filler, spans.normalised()), line.entity, line, tell)

    def fill(self, task: Task, line: Line, name: Line = None) -> None:
        node = line.object
        provenance, _ = read_kb_provenance(line.offsets, line.entity, node, line.predicate)
        justification = provenance.justification
        text = justification.normalised() if justification is not None else ""
        if _is_event(line.entity) or _is_event(node):
            canonical = self.canonical_of(task.entity).get(line.docid)
            text = f"{canonical or ''},{text}"
        if name is not None:
            filler, filler_provenance = normalize_filler(name.object), name.offsets or ""
        else:
            filler = normalize_filler(node)
            docid, start, finish = line.justification or ("", "", "")
            filler_provenance = f"{docid}:{start}-{finish}"
        self.out.append("\t".join((task.query.full_id, task.slot or "", self.runid, text, filler,
                                   self.types.get(node) or "STRING", filler_provenance,
                                   line.confidence, node)) + "\n")

    def statistics(self) -> str:
        s = self.stats
        headers = ("Entry points", "Fills", "String fills", "ResolutionTasks",
                   "Entity2NameTasks", "FillSlotTasks", "FindEntrypointsTasks")
        values = (s["ENTRYPOINTS_FOUND"], s["FILLS_FOUND"], s["FINAL_STRING_FILLS_FOUND"],
                  s["TOTAL"], s["Entity2NameTask"], s["FillSlotTask"], s["FindEntrypointsTask"])
        return ("".join(f"\t{h}" for h in headers) + "\tRESOLUTION_STATISTICS\n" + self.runid
                + "".join(f"\t{v}" for v in values) + "\tRESOLUTION_STATISTICS\n")


def perl_split_trimmed(text: str) -> list:
    return [trim(e) for e in perl_split(text, "\t")]


def _is_event(name: str) -> bool:
    return name.startswith(":Event") and len(name) > 6


def _drop(index: dict, key, task) -> None:
    tasks = index.get(key)
    if tasks is not None:
        index[key] = [t for t in tasks if t is not task]
