"""The Cold Start predicates as the toolkit's tools know them (ColdStartLib.pm
2017.2.0's PredicateSet): each predicate's name, domain and range (sets of
node types), whether it is single-valued, and the name of its inverse.

The slot-filling predicates are a table (domain, name, range, inverse; an
asterisk marks a single-valued one); each event type's roles are listed with
their ranges, and the entity-side predicate of a role (``conflict.attack_attacker``,
its inverse) follows from them.  As in the Perl, an inverse missing from the
table is made from its predicate (the range without ``string`` as its domain),
and a name may have several predicates with disjoint domains (``parents`` of
a person and of an organization).  Types are lower case and compared as
written.
"""
from __future__ import annotations

import re
from collections import namedtuple

ENTITY_TYPES = frozenset(("per", "gpe", "org", "fac", "loc"))

#: Each event type's roles: ``role=range`` (a role whose range is only
#: ``string`` has no inverse; the others have ``EVENT_role``).
EVENT_ROLES = {
    "conflict.attack": "attacker=per,gpe,org,string instrument=string "
                       "target=per,gpe,org,fac,string time=string place=gpe,loc,fac,string",
    "conflict.demonstrate": "entity=per,org,string time=string place=gpe,loc,fac,string",
    "contact.broadcast": "audience=per,org,gpe,string entity=per,org,gpe,string time=string "
                         "place=gpe,loc,fac,string",
    "contact.contact": "entity=per,org,gpe,string time=string place=gpe,loc,fac,string",
    "contact.correspondence": "entity=per,org,gpe,string time=string place=gpe,loc,fac,string",
    "contact.meet": "entity=per,org,gpe,string time=string place=gpe,loc,fac,string",
    "justice.arrest-jail": "agent=per,org,gpe,string crime=string person=per,string time=string "
                           "place=gpe,loc,fac,string",
    "life.die": "agent=per,org,gpe,string instrument=string victim=per,string time=string "
                "place=gpe,loc,fac,string",
    "life.injure": "agent=per,org,gpe,string instrument=string victim=per,string time=string "
                   "place=gpe,loc,fac,string",
    "manufacture.artifact": "agent=per,org,gpe,string artifact=fac,string instrument=string "
                            "time=string place=gpe,loc,fac,string",
    "movement.transport-artifact": "agent=per,org,gpe,string artifact=fac,string "
                                   "destination=gpe,loc,fac,string instrument=string "
                                   "origin=gpe,loc,fac,string time=string",
    "movement.transport-person": "agent=per,org,gpe,string destination=gpe,loc,fac,string "
                                 "instrument=string origin=gpe,loc,fac,string person=per,string "
                                 "time=string",
    "personnel.elect": "agent=per,org,gpe,string person=per,string position=string time=string "
                       "place=gpe,loc,fac,string",
    "personnel.end-position": "entity=org,gpe,string person=per,string position=string "
                              "time=string place=gpe,loc,fac,string",
    "personnel.start-position": "entity=org,gpe,string person=per,string position=string "
                                "time=string place=gpe,loc,fac,string",
    "transaction.transaction": "beneficiary=per,org,gpe,string giver=per,org,gpe,string "
                               "recipient=per,org,gpe,string time=string "
                               "place=gpe,loc,fac,string",
    "transaction.transfer-money": "beneficiary=per,org,gpe,string giver=per,org,gpe,string "
                                  "money=string recipient=per,org,gpe,string time=string "
                                  "place=gpe,loc,fac,string",
    "transaction.transfer-ownership": "beneficiary=per,org,gpe,string giver=per,org,gpe,string "
                                      "recipient=per,org,gpe,string thing=fac,org,string "
                                      "time=string place=gpe,loc,fac,string",
}

EVENT_TYPES = frozenset(EVENT_ROLES)
#: Types a node may have (the Perl's legal node types).
NODE_TYPES = ENTITY_TYPES | EVENT_TYPES | {"string"}
#: Types a predicate's range may name (``type`` is the range of ``type``).
RANGE_TYPES = NODE_TYPES | {"type"}
SENTIMENT_SLOTS = frozenset(("likes", "dislikes", "is_liked_by", "is_disliked_by"))

#: domain, name (``*``: single-valued), range, inverse (``none``: no inverse).
_TABLE = """
per age* string none
per,org alternate_names string none
gpe births_in_city per city_of_birth*
gpe births_in_country per country_of_birth*
gpe births_in_stateorprovince per stateorprovince_of_birth*
per cause_of_death* string none
per charges string none
per children per parents
per cities_of_residence gpe residents_of_city
per city_of_birth* gpe births_in_city
per city_of_death* gpe deaths_in_city
org city_of_headquarters* gpe headquarters_in_city
per countries_of_residence gpe residents_of_country
per country_of_birth* gpe births_in_country
per country_of_death* gpe deaths_in_country
org country_of_headquarters* gpe headquarters_in_country
org date_dissolved* string none
org date_founded* string none
per date_of_birth* string none
per date_of_death* string none
gpe deaths_in_city per city_of_death*
gpe deaths_in_country per country_of_death*
gpe deaths_in_stateorprovince per stateorprovince_of_death*
per employee_or_member_of org,gpe employees_or_members
org,gpe employees_or_members per employee_or_member_of
org founded_by per,org,gpe organizations_founded
gpe headquarters_in_city org city_of_headquarters*
gpe headquarters_in_country org country_of_headquarters*
gpe headquarters_in_stateorprovince org stateorprovince_of_headquarters*
per,org,gpe holds_shares_in org shareholders
org,gpe member_of org members
org members org,gpe member_of
org number_of_employees_members* string none
per,org,gpe organizations_founded org founded_by
per origin string none
per other_family per other_family
per parents per children
org parents org,gpe subsidiaries
org political_religious_affiliation string none
per religion* string none
gpe residents_of_city per cities_of_residence
gpe residents_of_country per countries_of_residence
gpe residents_of_stateorprovince per statesorprovinces_of_residence
per schools_attended org students
org shareholders per,org,gpe holds_shares_in
per siblings per siblings
per spouse per spouse
per stateorprovince_of_birth* gpe births_in_stateorprovince
per stateorprovince_of_death* gpe deaths_in_stateorprovince
org stateorprovince_of_headquarters* gpe headquarters_in_stateorprovince
per statesorprovinces_of_residence gpe residents_of_stateorprovince
org students per schools_attended
org,gpe subsidiaries org parents
per title string none
per top_member_employee_of org top_members_employees
org top_members_employees per top_member_employee_of
org website* string none
per,org,gpe,fac,loc,string mention string none
per,org,gpe,fac,loc,string canonical_mention string none
per,org,gpe,fac,loc pronominal_mention string none
string normalized_mention string none
per,org,gpe,fac,loc link string none
per,org,gpe,fac,loc nominal_mention string none
per,org,gpe,loc,fac dislikes per,org,gpe,loc,fac is_disliked_by
per,org,gpe,loc,fac is_disliked_by per,org,gpe,loc,fac dislikes
per,org,gpe,loc,fac is_liked_by per,org,gpe,loc,fac likes
per,org,gpe,loc,fac likes per,org,gpe,loc,fac is_liked_by
"""

_SLOT = re.compile(r"(.*?):(.*)$")

#: One predicate: ``quantity`` is ``single`` or ``list``; ``inverse`` the
#: inverse's name, or ``none``.
Predicate = namedtuple("Predicate", ("name", "domain", "range", "quantity", "inverse"))


def rows():
    """(domain, name, range, inverse) of every predicate the table defines, in
    the Perl's order of definition (a single-valued name keeps its ``*``;
    domains and ranges are comma-separated)."""
    for line in _TABLE.strip().splitlines():
        yield line.split()
    for event, roles in EVENT_ROLES.items():
        yield event, "mention", "string", "none"
        yield event, "canonical_mention", "string", "none"
        for role in roles.split():
            name, range_types = role.split("=")
            yield event, name, range_types, "none" if range_types == "string" \
                else f"{event}_{name}"


class PredicateSet:
    """Every predicate, by name."""

    def __init__(self):
        self._by_name: dict = {}
        for domain, name, range_types, inverse in rows():
            self._define(frozenset(domain.split(",")), name, frozenset(range_types.split(",")),
                         inverse)
        self._add(Predicate("type", NODE_TYPES, frozenset(("type",)), "list", "none"))

    def _define(self, domain, name, range_types, inverse):
        quantity = "single" if name.endswith("*") else "list"
        bare = name.rstrip("*")
        # A predicate already made (as an earlier one's inverse) is kept.
        if self.lookup(bare, domain, range_types):
            return
        self._add(Predicate(bare, domain, range_types, quantity, inverse.rstrip("*")))
        if inverse != "none":
            self._define(range_types - {"string"}, inverse, domain, name)

    def _add(self, predicate) -> None:
        self._by_name.setdefault(predicate.name, []).append(predicate)

    def lookup(self, name, domain=None, range_types=None) -> list:
        """The predicates called ``name`` whose domain holds ``domain`` (one
        type, or a set of types) and whose range holds ``range_types``."""
        found = self._by_name.get(name, [])
        if domain is not None:
            wanted = {domain} if isinstance(domain, str) else domain
            found = [p for p in found if wanted <= p.domain]
        if range_types is not None:
            wanted = {range_types} if isinstance(range_types, str) else range_types
            found = [p for p in found if wanted <= p.range]
        return found

    def every(self):
        """Every predicate (for tests)."""
        for predicates in self._by_name.values():
            yield from predicates

    def slot(self, slot_name):
        """The predicate of a query's slot ``domain:name`` (``per:siblings``),
        or None when the slot is unknown (no colon, an unknown name, a domain
        the name does not have).  Split as the Perl splits it: at the first
        colon, neither part running over a line end (but a final one)."""
        match = _SLOT.match(slot_name or "")
        if match is None:
            return None
        found = self.lookup(match.group(2), match.group(1))
        return found[0] if found else None


_PREDICATES = None


def predicates() -> PredicateSet:
    """The predicate set, made once."""
    global _PREDICATES
    if _PREDICATES is None:
        _PREDICATES = PredicateSet()
    return _PREDICATES
