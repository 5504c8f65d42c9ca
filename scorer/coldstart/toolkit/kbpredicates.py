"""``validatekb -predicates LABEL.predicates.txt``: predicates a KB team adds
to the built-in ones (ColdStartLib.pm 2017.2.0's PredicateSet->load), each
line ``DOMAIN NAME RANGE INVERSE`` as the built-in table has them (types
comma-separated, ``*`` after a single-valued name, ``none`` for no inverse;
``#`` starts a comment line; read in lower case).  The predicates it defines
carry the file's LABEL (upper case), and ``-labels`` says which labels the
validated KB holds (TAC, the built-in ones', by default); a predicate the
file defines again as it is keeps its label.  A definition the built-in ones
contradict (another inverse, another quantity, a type that is none) stops
the validator with the Perl's words.
"""
from __future__ import annotations

import os
import re

from scorer.coldstart.toolkit.predicates import (NODE_TYPES, RANGE_TYPES, Predicate,
                                                 PredicateSet)
from scorer.coldstart.toolkit.problemlog import Fatal
from scorer.problems import ScorerError
from scorer.textfile import read_text

_FILE_NAME = re.compile(r"(\w+)\.predicates.txt$")


class LabelledPredicates(PredicateSet):
    """The built-in predicates (label TAC) and those files add."""

    def __init__(self):
        super().__init__()
        #: id(predicate) -> label, for the predicates a file made
        self.labels: dict = {}

    def load(self, path: str) -> None:
        match = _FILE_NAME.fullmatch(os.path.basename(path))
        if match is None:
            raise Fatal("Filename for predicates files should be <label>.predicates.txt")
        label = match.group(1).upper()
        try:
            text = read_text(path)
        except ScorerError as error:
            raise Fatal(f"Could not open {path}: {str(error).split(': ', 1)[-1]}")
        for line in text.lower().split("\n"):
            if re.match(r"\s*#", line) or not line.split():
                continue
            fields = line.split()
            fields += ["none"] * (4 - len(fields))
            self.define(fields[0], fields[1], fields[2], fields[3], label)

    def define(self, domain_text: str, name: str, range_text: str, inverse: str,
               label: str) -> Predicate:
        domain = frozenset(t for t in domain_text.split(",") if t)
        for kind in sorted(domain):
            if kind not in NODE_TYPES:
                raise Fatal(f"Illegal domain type: {kind}")
        range_types = frozenset(t for t in range_text.split(",") if t)
        for kind in sorted(range_types):
            if kind not in RANGE_TYPES:
                raise Fatal(f"Illegal range type: {kind}")
        quantity = "single" if name.endswith("*") else "list"
        bare, inverse_name = name.rstrip("*"), inverse.rstrip("*")
        found = self.lookup(bare, domain, range_types)
        if len(found) > 1:
            raise Fatal(f"More than one predicate defined for {bare}({domain_text}, "
                        f"{range_text})")
        if found:
            existing = found[0]
            if existing.inverse != inverse_name:
                raise Fatal(f"Attempt to redefine inverse of predicate {domain_text}:{bare} "
                            f"from {existing.inverse} to {inverse_name}")
            if existing.quantity != quantity:
                raise Fatal(f"Attempt to redefine quantity of predicate {domain_text}:{bare} "
                            f"from {existing.quantity} to {quantity}")
            return existing
        predicate = Predicate(bare, domain, range_types, quantity, inverse_name)
        self._add(predicate)
        self.labels[id(predicate)] = label
        if inverse_name != "none":
            self.define(",".join(sorted(range_types - {"string"})), inverse, domain_text, name,
                        label)
        return predicate
