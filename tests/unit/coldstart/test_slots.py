"""Slot names, their quantities and value types (scorer/coldstart/slots.py)."""
from __future__ import annotations

import pytest

from scorer.coldstart import slots


@pytest.mark.parametrize("slot, quantity", [
    # checked against the Perl's PredicateSet for every name x domain of the table
    ("per:age", "single"), ("per:children", "list"), ("org:founded_by", "list"),
    ("per:city_of_birth", "single"), ("org:website", "single"), ("per:date_of_birth", "single"),
    ("gpe:residents_of_city", "list"), ("gpe:births_in_city", "list"),
    ("per:dislikes", "list"), ("loc:is_liked_by", "list"),
    ("per:conflict.attack_attacker", "list"), ("gpe:conflict.attack_place", "list"),
    ("conflict.attack:attacker", "list"), ("life.die:victim", "list"),
    ("movement.transport-person:origin", "list"), ("per:origin", "list"),
    ("string:normalized_mention", "list"), ("contact.meet:type", "list"),
    ("per:mention", "list"), ("string:mention", "list"),
    ("org:age", None), ("per:kids", None), ("PER:age", None), ("per:AGE", None),
    ("per:residents_of_city", None), ("gpe:conflict.attack_attacker:x", None),
    ("per:conflict.attack_place", None), ("string:link", None), ("age", None), ("", None),
    (None, None),
])
def test_slot_quantity(slot, quantity):
    assert slots.quantity(slot) == quantity


@pytest.mark.parametrize("value_type, legal", [
    ("PER", True), ("per", True), ("Gpe", True), ("STRING", True), ("fac", True), ("LOC", True),
    ("ORG", True), ("conflict.attack", True), ("TRANSACTION.TRANSFER-MONEY", True),
    ("PERSON", False), ("", False), ("event", False), ("per:age", False),
])
def test_value_types(value_type, legal):
    assert slots.is_node_type(value_type) is legal
