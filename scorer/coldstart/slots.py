"""The TAC KBP 2017 slot inventory: which ``domain:name`` slots exist and which
are single-valued (spec Appendix A).

A slot is legal when its name is known and its domain is one of the name's
domains; names and domains are compared as written (lower case).
"""
from __future__ import annotations

import functools
from typing import Optional

ENTITY_TYPES = ("per", "org", "gpe", "fac", "loc")

EVENT_TYPES = (
    "conflict.attack", "conflict.demonstrate", "contact.broadcast", "contact.contact",
    "contact.correspondence", "contact.meet", "justice.arrest-jail", "life.die", "life.injure",
    "manufacture.artifact", "movement.transport-artifact", "movement.transport-person",
    "personnel.elect", "personnel.end-position", "personnel.start-position",
    "transaction.transaction", "transaction.transfer-money", "transaction.transfer-ownership",
)

#: Types a submission's VALUE_TYPE column may name (compared case-insensitively).
NODE_TYPES = frozenset(ENTITY_TYPES + ("string",) + EVENT_TYPES)


def _names(text: str) -> list:
    return text.replace(",", " ").split()


# name -> (domains, single-valued?)
_SLOTS: dict = {}


def _add(names: str, domains, single: bool = False) -> None:
    domains = frozenset(domains.split() if isinstance(domains, str) else domains)
    for name in _names(names):
        known, was_single = _SLOTS.get(name, (frozenset(), False))
        _SLOTS[name] = (known | domains, was_single or single)


# Standard slot-filling slots
_add("age", "per", single=True)
_add("alternate_names", "org per")
_add("births_in_city births_in_country births_in_stateorprovince", "gpe")
_add("cause_of_death", "per", single=True)
_add("charges children", "per")
_add("cities_of_residence countries_of_residence statesorprovinces_of_residence", "per")
_add("city_of_birth country_of_birth stateorprovince_of_birth city_of_death country_of_death "
     "stateorprovince_of_death", "per", single=True)
_add("city_of_headquarters country_of_headquarters stateorprovince_of_headquarters", "org",
     single=True)
_add("date_dissolved date_founded", "org", single=True)
_add("date_of_birth date_of_death", "per", single=True)
_add("deaths_in_city deaths_in_country deaths_in_stateorprovince", "gpe")
_add("employee_or_member_of", "per")
_add("employees_or_members", "gpe org")
_add("founded_by", "org")
_add("headquarters_in_city headquarters_in_country headquarters_in_stateorprovince", "gpe")
_add("holds_shares_in", "gpe org per")
_add("member_of", "gpe org")
_add("members", "org")
_add("number_of_employees_members", "org", single=True)
_add("organizations_founded", "gpe org per")
_add("origin", ["per", "movement.transport-artifact", "movement.transport-person"])
_add("other_family siblings spouse schools_attended title top_member_employee_of", "per")
_add("parents", "org per")
_add("political_religious_affiliation", "org")
_add("religion", "per", single=True)
_add("residents_of_city residents_of_country residents_of_stateorprovince", "gpe")
_add("shareholders students top_members_employees", "org")
_add("subsidiaries", "gpe org")
_add("website", "org", single=True)
# Sentiment slots
_add("likes dislikes is_liked_by is_disliked_by", "per org gpe loc fac")
# Entity-side event roles
_add("conflict.attack_attacker, contact.broadcast_audience, contact.broadcast_entity, "
     "contact.contact_entity, contact.correspondence_entity, contact.meet_entity, "
     "justice.arrest-jail_agent, life.die_agent, life.injure_agent, manufacture.artifact_agent, "
     "movement.transport-artifact_agent, movement.transport-person_agent, personnel.elect_agent, "
     "transaction.transaction_beneficiary, transaction.transaction_giver, "
     "transaction.transaction_recipient, transaction.transfer-money_beneficiary, "
     "transaction.transfer-money_giver, transaction.transfer-money_recipient, "
     "transaction.transfer-ownership_beneficiary, transaction.transfer-ownership_giver, "
     "transaction.transfer-ownership_recipient", "gpe org per")
_add("conflict.attack_place, conflict.demonstrate_place, contact.broadcast_place, "
     "contact.contact_place, contact.correspondence_place, contact.meet_place, "
     "justice.arrest-jail_place, life.die_place, life.injure_place, manufacture.artifact_place, "
     "movement.transport-artifact_destination, movement.transport-artifact_origin, "
     "movement.transport-person_destination, movement.transport-person_origin, "
     "personnel.elect_place, personnel.end-position_place, personnel.start-position_place, "
     "transaction.transaction_place, transaction.transfer-money_place, "
     "transaction.transfer-ownership_place", "fac gpe loc")
_add("conflict.attack_target", "fac gpe org per")
_add("conflict.demonstrate_entity", "org per")
_add("justice.arrest-jail_person, life.die_victim, life.injure_victim, "
     "movement.transport-person_person, personnel.elect_person, personnel.end-position_person, "
     "personnel.start-position_person", "per")
_add("manufacture.artifact_artifact, movement.transport-artifact_artifact", "fac")
_add("personnel.end-position_entity, personnel.start-position_entity", "gpe org")
_add("transaction.transfer-ownership_thing", "fac org")

# Event-side roles: the domain is the event type
_EVENT_ROLES = {
    "agent": "justice.arrest-jail life.die life.injure manufacture.artifact "
             "movement.transport-artifact movement.transport-person personnel.elect",
    "artifact": "manufacture.artifact movement.transport-artifact",
    "attacker": "conflict.attack",
    "audience": "contact.broadcast",
    "beneficiary": "transaction.transaction transaction.transfer-money "
                   "transaction.transfer-ownership",
    "canonical_mention": " ".join(EVENT_TYPES),
    "crime": "justice.arrest-jail",
    "destination": "movement.transport-artifact movement.transport-person",
    "entity": "conflict.demonstrate contact.broadcast contact.contact contact.correspondence "
              "contact.meet personnel.end-position personnel.start-position",
    "giver": "transaction.transaction transaction.transfer-money transaction.transfer-ownership",
    "instrument": "conflict.attack life.die life.injure manufacture.artifact "
                  "movement.transport-artifact movement.transport-person",
    "mention": " ".join(EVENT_TYPES),
    "money": "transaction.transfer-money",
    "origin": "movement.transport-artifact movement.transport-person",
    "person": "justice.arrest-jail movement.transport-person personnel.elect "
              "personnel.end-position personnel.start-position",
    "place": "conflict.attack conflict.demonstrate contact.broadcast contact.contact "
             "contact.correspondence contact.meet justice.arrest-jail life.die life.injure "
             "manufacture.artifact personnel.elect personnel.end-position personnel.start-position "
             "transaction.transaction transaction.transfer-money transaction.transfer-ownership",
    "position": "personnel.elect personnel.end-position personnel.start-position",
    "recipient": "transaction.transaction transaction.transfer-money transaction.transfer-ownership",
    "target": "conflict.attack",
    "thing": "transaction.transfer-ownership",
    "time": " ".join(EVENT_TYPES),
    "victim": "life.die life.injure",
}
for _role, _domains in _EVENT_ROLES.items():
    _add(_role, _domains)

# Knowledge-base bookkeeping predicates
_add("mention canonical_mention", list(ENTITY_TYPES) + ["string"] + list(EVENT_TYPES))
_add("pronominal_mention nominal_mention link", ENTITY_TYPES)
_add("normalized_mention", "string")
_add("type", NODE_TYPES)


@functools.lru_cache(maxsize=None)
def quantity(slot: Optional[str]) -> Optional[str]:
    """``'single'`` or ``'list'`` for a legal slot name, None for an unknown one.

    The domain is the text before the first ``:``; the rest is the name.
    """
    if slot is None or ":" not in slot:
        return None
    domain, name = slot.split(":", 1)
    entry = _SLOTS.get(name)
    if entry is None or domain not in entry[0]:
        return None
    return "single" if entry[1] else "list"


def is_node_type(value_type: str) -> bool:
    return value_type.lower() in NODE_TYPES
