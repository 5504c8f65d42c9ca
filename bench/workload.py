#!/usr/bin/env python3
"""Seeded Cold Start workloads for the benchmark: valid scorer inputs of any size.

    python bench/workload.py OUTDIR LDC_QUERIES [--seed S]

writes into OUTDIR

  ldc-query.xml    LDC queries with 1-3 entry points (ENG/CMN/SPA documents),
                   slot0 and, for entity fillers, usually slot1 (score with -expand CSSF17)
  qrel.txt         10-column assessments: C, W and X answers, hop 1 only below C/X parents
  BENCHRUN.tab.txt 9-column submission: nodes with 1-3 justifications (distinct
                   documents), correct, wrong, inexact and unassessed answers,
                   hop-1 answers below correct, wrong and unassessed parents
  qids.txt         'LDC_ID SF_ID' lines, for scorer.samples and -queries

The SF query ids and hop-1 query ids are computed with scorer.coldstart.ids,
as the scorer derives them.  All entry points of an LDC query share its true
fillers (EC k is the k-th filler, always assessed correct at least once), so
their ground truth agrees, as in LDC's data, and LDC-MEAN does not depend on
the Perl's hash order.  The same LDC_QUERIES and seed give the same files
(with the same numpy).
The generator avoids what makes CS-Score-MASTER.pl 2017.2.0 die ("AP is
greater than 1.0"): two correct justifications of one node in one document and
two correct nodes for a single-valued slot.  Standard library, numpy and scorer.
"""
from __future__ import annotations

import argparse
import dataclasses
import os
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from scorer.coldstart.ids import expanded_query_short_id, target_query_short_id  # noqa: E402
from scorer.coldstart.slots import quantity  # noqa: E402

RUNID = "BENCHRUN"
EXPAND_BASE = "CSSF17"
INPUT_FILES = ("ldc-query.xml", "qrel.txt", f"{RUNID}.tab.txt")

# entity type of the query -> [(slot0, filler type)]
HOP0_SLOTS = {
    "per": [("per:children", "PER"), ("per:spouse", "PER"), ("per:siblings", "PER"),
            ("per:employee_or_member_of", "ORG"), ("per:schools_attended", "ORG"),
            ("per:city_of_birth", "GPE"), ("per:cities_of_residence", "GPE"),
            ("per:title", "STRING"), ("per:date_of_birth", "STRING")],
    "org": [("org:founded_by", "PER"), ("org:top_members_employees", "PER"),
            ("org:subsidiaries", "ORG"), ("org:city_of_headquarters", "GPE"),
            ("org:date_founded", "STRING")],
    "gpe": [("gpe:residents_of_city", "PER"), ("gpe:births_in_city", "PER"),
            ("gpe:headquarters_in_city", "ORG")],
}
# filler type of slot0 -> [(slot1, filler type)]
HOP1_SLOTS = {
    "PER": [("per:schools_attended", "ORG"), ("per:city_of_birth", "GPE"),
            ("per:employee_or_member_of", "ORG"), ("per:age", "STRING"),
            ("per:title", "STRING"), ("per:children", "PER")],
    "ORG": [("org:founded_by", "PER"), ("org:city_of_headquarters", "GPE"),
            ("org:top_members_employees", "PER"), ("org:date_founded", "STRING")],
    "GPE": [("gpe:residents_of_city", "PER"), ("gpe:headquarters_in_city", "ORG")],
}
FIRST = ["Ada", "Bruno", "Carla", "Dmitri", "Elena", "Farid", "Greta", "Hugo", "Ines", "Jonas",
         "Kira", "Lena", "Marek", "Nadia", "Oskar", "Paula", "Ravi", "Sofía", "Tomas", "Zoë"]
LAST = ["Brandt", "Castillo", "Dahl", "Eriksen", "Fontaine", "Grüber", "Haddad", "Ivanova",
        "Jansen", "Kowalski", "Lindqvist", "Moreau", "Núñez", "Okafor", "Petrov", "Quist"]
ORG_WORDS = ["Kestrel", "Northwind", "Meridian", "Harbor", "Summit", "Aurora", "Cobalt"]
ORG_KINDS = ["Records", "University", "Bank", "Institute", "Press", "Holdings", "Hospital"]
CITIES = ["Lisbon", "Valparaíso", "Nairobi", "Osaka", "Kraków", "Zürich", "Quito", "Denver",
          "Bergen", "Tianjin", "Sevilla", "Perth"]
STRINGS = ["1951", "March 3, 1967", "president", "chief executive", "34", "professor", "2004"]
NOMINALS = {"PER": ["her son", "the lawyer", "his wife", "the founder"],
            "ORG": ["the company", "the school", "the firm"], "GPE": ["the city", "the town"]}
LANGUAGES = ("ENG", "ENG", "ENG", "CMN", "SPA")


@dataclasses.dataclass
class Answer:
    """One line of a query's answer: a value justified in one document."""
    value: str
    relation: str
    filler: str
    value_type: str
    mention: str  # NAM or NOM


class Generator:
    def __init__(self, seed: int, pool: int = 0):
        self.rng = np.random.default_rng(seed)
        #: documents to draw from (0: a new document for every answer)
        self.pool = pool
        self.documents = 0
        self.assessments = 0
        self.nodes = 0
        self.qrel: list = []
        self.submission: list = []

    # random choices -------------------------------------------------------
    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def pick(self, items):
        return items[int(self.rng.integers(len(items)))]

    def count(self, low: int, high: int) -> int:
        return int(self.rng.integers(low, high + 1))

    def confidence(self) -> str:
        return f"{self.rng.uniform(0.05, 1.0):.4f}"

    # the world --------------------------------------------------------------
    def document(self, language: str) -> str:
        if self.pool:
            number = int(self.rng.integers(self.pool))
            return f"{language}_{('NW', 'DF')[number % 2]}_{number:06d}"
        self.documents += 1
        return f"{language}_{self.pick(('NW', 'DF'))}_{self.documents:06d}"

    def name(self, kind: str) -> str:
        if kind == "PER":
            return f"{self.pick(FIRST)} {self.pick(LAST)}"
        if kind == "ORG":
            return f"{self.pick(ORG_WORDS)} {self.pick(ORG_KINDS)}"
        if kind == "GPE":
            return self.pick(CITIES)
        return self.pick(STRINGS)

    def filler_count(self, slot: str, low: int, high: int) -> int:
        """How many true fillers a slot has: one for a single-valued slot."""
        return 1 if quantity(slot) == "single" else self.count(low, high)

    def names(self, kind: str, count: int) -> list:
        """``count`` different names."""
        names: list = []
        while len(names) < count:
            name = self.name(kind)
            if name not in names:
                names.append(name)
        return names

    def answer(self, name: str, kind: str, language: str, nominal: bool = False) -> Answer:
        """A justification of ``name`` in a new document (one span, sometimes two)."""
        docid = self.document(language)
        value, mention = (self.pick(NOMINALS[kind]), "NOM") if nominal else (name, "NAM")
        start = self.count(0, 5000)
        end = start + self.count(40, 199)
        value_start = self.count(start, end - len(value))
        spans = [f"{docid}:{start}-{end}"]
        if self.chance(0.15):  # a second span, written first: the scorer sorts them
            other = start + 2000
            spans.insert(0, f"{docid}:{other}-{other + self.count(10, 120)}")
        filler = f"{docid}:{value_start}-{value_start + len(value) - 1}"
        return Answer(value, ",".join(spans), filler, kind, mention)

    # lines ------------------------------------------------------------------
    def assess(self, query: str, slot: str, answer: Answer, code: str, ec: str) -> None:
        self.assessments += 1
        correct = code in "CX"
        self.qrel.append("\t".join([
            f"{query}_{self.assessments:06d}", f"{query}:{slot}", answer.relation, answer.value,
            answer.filler, code, answer.mention, code, ec if correct else "0",
            "NAM" if correct else "0"]))

    def submit(self, query: str, slot: str, answer: Answer, node: str) -> None:
        self.submission.append("\t".join([
            query, slot, RUNID, answer.relation, answer.value, answer.value_type, answer.filler,
            self.confidence(), node]))

    def new_node(self, kind: str) -> str:
        self.nodes += 1
        return f":{'String' if kind == 'STRING' else 'Entity'}{self.nodes}"

    # one SF query -------------------------------------------------------------
    def sf_query(self, query: str, slot0: str, kind0: str, slot1, kind1, language: str,
                 truth: list) -> None:
        """Answers of one entry point.  ``truth`` holds the LDC query's true
        fillers (name, [true hop-1 names]), the same for every entry point: EC k
        of each entry point is the k-th filler, always assessed correct at
        least once, so the ground truth of all entry points agrees."""
        hop1_lines: list = []
        for ec, (name, hop1_truth) in enumerate(truth, 1):
            self.node(query, slot0, kind0, language, name, f"{query}:{ec}", self.chance(0.8),
                      slot1, kind1, hop1_truth, hop1_lines)
        for _ in range(self.count(0, 2)):  # wrong (or never assessed) fillers
            self.node(query, slot0, kind0, language, self.name(kind0), None, True,
                      slot1, kind1, [], hop1_lines, assessed=self.chance(0.8))
        for line in hop1_lines:  # a hop-1 query is read after the line that generates it
            line()

    def node(self, query, slot, kind, language, name, ec, found, slot1, kind1, hop1_truth,
             hop1_lines, assessed=True) -> None:
        """A filler: the run's node (1-3 justifications, if ``found``), their
        assessments (C/X/W, some left out) and the hop-1 answers below it."""
        node = self.new_node(kind)
        answers, codes = [], []
        for _ in range(self.count(1, 3) if found else 0):
            nominal = kind in NOMINALS and self.chance(0.15)
            answer = self.answer(name, kind, language, nominal)
            code = None
            if ec is None:
                code = "W" if assessed else None
            elif self.chance(0.9):
                code = self.pick("CCCCCCXW")
            if code:
                self.assess(query, slot, answer, code, ec)
            self.submit(query, slot, answer, node)
            answers.append(answer)
            codes.append(code)
        truth_parent = next((a for a, code in zip(answers, codes) if code in ("C", "X")), None)
        if ec is not None and truth_parent is None:  # a correct answer the run missed
            truth_parent = self.answer(name, kind, language)
            self.assess(query, slot, truth_parent, "C", ec)
        if slot1 is None:
            return
        run_parent = self.hop1_query(query, answers[0]) if found else None
        truth_query = self.hop1_query(query, truth_parent) if truth_parent else None
        hop1_lines.append(lambda: self.hop1_answers(
            slot1, kind1, language, ec, hop1_truth, run_parent, truth_query,
            assessable=bool(codes) and codes[0] in ("C", "X")))

    @staticmethod
    def hop1_query(query: str, parent: Answer) -> str:
        return f"{query}_{target_query_short_id(query, parent.value, parent.filler)}"

    def hop1_answers(self, slot, kind, language, parent_ec, hop1_truth, run_query,
                     truth_query, assessable) -> None:
        """Hop-1 answers: the run's (below its node's first justification: the
        true fillers it finds and wrong ones, assessed only below a C/X parent)
        and the assessments of every true filler below a correct parent."""
        for n, name in enumerate(hop1_truth, 1):
            answer = self.answer(name, kind, language)
            if run_query and self.chance(0.7):
                self.submit(run_query, slot, answer, self.new_node(kind))
                if run_query != truth_query or self.chance(0.15):  # assessed elsewhere
                    answer = self.answer(name, kind, language)
            self.assess(truth_query, slot, answer, self.pick("CCCCX"), f"{parent_ec}:{n}")
        if run_query is None:
            return
        for _ in range(self.count(0, 1 if quantity(slot) == "single" else 2)):
            answer = self.answer(self.name(kind), kind, language)
            self.submit(run_query, slot, answer, self.new_node(kind))
            if assessable and self.chance(0.9):
                self.assess(run_query, slot, answer, "W", None)

    # the whole workload -------------------------------------------------------
    def ldc_query(self, number: int, width: int):
        """(LDC id, query XML, SF ids) of one LDC query, its answers generated."""
        ldc_id = f"CS17_{number:0{width}d}"
        enttype = self.pick(("per", "per", "org", "gpe"))
        slot0, kind0 = self.pick(HOP0_SLOTS[enttype])
        slot1, kind1 = (None, None)
        if kind0 in HOP1_SLOTS and self.chance(0.85):
            slot1, kind1 = self.pick(HOP1_SLOTS[kind0])
        slots = [slot0] + ([slot1] if slot1 else [])
        name = self.name(enttype.upper())
        truth = [(filler, self.names(kind1, self.filler_count(slot1, 0, 2)) if slot1 else [])
                 for filler in self.names(kind0, self.filler_count(slot0, 1, 4))]
        mentions, sf_ids = [], []
        for _ in range(self.count(1, 3)):
            language = self.pick(LANGUAGES)
            docid, begin = self.document(language), self.count(0, 3000)
            end = begin + len(name) - 1
            mentions.append(f"      <mention>\n        <name>{name}</name>\n"
                            f"        <docid>{docid}</docid>\n        <beg>{begin}</beg>\n"
                            f"        <end>{end}</end>\n      </mention>\n")
            sf_id = (f"{EXPAND_BASE}_{language}_"
                     f"{expanded_query_short_id(docid, str(begin), str(end), slots)}")
            sf_ids.append(sf_id)
            self.sf_query(sf_id, slot0, kind0, slot1, kind1, language, truth)
        xml = (f'  <query id="{ldc_id}">\n    <mentions>\n{"".join(mentions)}    </mentions>\n'
               f"    <enttype>{enttype}</enttype>\n"
               + "".join(f"    <slot{n}>{slot}</slot{n}>\n" for n, slot in enumerate(slots))
               + "  </query>\n")
        return ldc_id, xml, sf_ids


def generate(directory: str, ldc_queries: int, seed: int = 1, pool: int = 0) -> dict:
    """Write a workload into ``directory``; return its line counts.  ``pool``:
    answers and entry points drawn from that many documents per language (0:
    a new document each), for a corpus small enough to write (bench/validate_bench.py)."""
    generator = Generator(seed, pool)
    width = max(4, len(str(ldc_queries)))  # never 10 digits: that would parse as a hex id
    xml, qids = [], []
    for number in range(1, ldc_queries + 1):
        ldc_id, query_xml, sf_ids = generator.ldc_query(number, width)
        xml.append(query_xml)
        qids += [f"{ldc_id} {sf_id}" for sf_id in sf_ids]
    texts = {
        "ldc-query.xml": '<?xml version="1.0" encoding="UTF-8"?>\n<query_set>\n'
                         + "".join(xml) + "</query_set>\n",
        "qrel.txt": "".join(line + "\n" for line in generator.qrel),
        f"{RUNID}.tab.txt": "".join(line + "\n" for line in generator.submission),
        "qids.txt": "".join(line + "\n" for line in qids),
    }
    os.makedirs(directory, exist_ok=True)
    for name, text in texts.items():
        with open(os.path.join(directory, name), "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
    return {"ldc_queries": ldc_queries, "sf_queries": len(qids), "seed": seed,
            "qrel_lines": len(generator.qrel), "submission_lines": len(generator.submission)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("directory")
    parser.add_argument("ldc_queries", type=int)
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    counts = generate(options.directory, options.ldc_queries, options.seed)
    print(" ".join(f"{key}={value}" for key, value in counts.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
