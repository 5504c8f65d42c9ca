"""The toolkit's predicates are the Perl library's PredicateSet: every
predicate with its domain, range, quantity and inverse; lookups by name and
domain; and they agree with the scorer's slot inventory."""
import os
import subprocess

import pytest

from places import perl_dir
from scorer.coldstart import slots
from scorer.coldstart.toolkit.predicates import EVENT_TYPES, NODE_TYPES, predicates

#: Prints every predicate of the Perl's PredicateSet, one a line, sorted.
DUMP = r"""
use ColdStartLib;
my $set = PredicateSet->new(Logger->new());
my @lines;
foreach my $name (keys %{$set}) {
  next if $name eq 'LOGGER';
  foreach my $p (@{$set->{$name}}) {
    push @lines, join("\t", $p->{NAME}, join(",", sort keys %{$p->{DOMAIN}}),
                      join(",", sort keys %{$p->{RANGE}}), $p->{QUANTITY}, $p->{INVERSE_NAME});
  }
}
print join("\n", sort @lines), "\n";
"""


def ours() -> list:
    return sorted("\t".join((p.name, ",".join(sorted(p.domain)), ",".join(sorted(p.range)),
                             p.quantity, p.inverse)) for p in predicates().every())


@pytest.mark.perl
def test_every_predicate_is_the_perl_librarys():
    folder = perl_dir()
    if folder is None:
        pytest.skip("the official Perl scorer is not available (../ColdStart or SCORER_PERL_DIR)")
    perl = subprocess.run(["perl", "-I" + folder, "-e", DUMP], capture_output=True, text=True,
                          check=True, cwd=os.path.dirname(folder)).stdout.splitlines()
    assert ours() == perl


def test_a_name_has_one_predicate_per_domain():
    found = predicates().lookup("parents")
    assert {(tuple(sorted(p.domain)), tuple(sorted(p.range)), p.inverse) for p in found} == {
        (("per",), ("per",), "children"), (("org",), ("gpe", "org"), "subsidiaries")}
    assert predicates().lookup("parents", "gpe") == []
    assert [p.inverse for p in predicates().lookup("parents", "org", {"gpe"})] == ["subsidiaries"]


def test_an_inverse_the_table_leaves_out_is_made_from_its_predicate():
    (victim,) = predicates().lookup("life.die_victim")
    assert victim.domain == {"per"} and victim.range == {"life.die"}
    assert victim.inverse == "victim" and victim.quantity == "list"
    (birth,) = predicates().lookup("city_of_birth")
    assert birth.quantity == "single" and birth.range == {"gpe"}


def test_a_slot_is_a_domain_and_a_name():
    assert predicates().slot("per:siblings").range == {"per"}
    assert predicates().slot("conflict.attack:place").range == {"gpe", "loc", "fac", "string"}
    for unknown in ("PER:siblings", "per:bogus", "gpe:siblings", "siblings", None, ""):
        assert predicates().slot(unknown) is None
    # as the Perl reads it, a line end may end the slot's name
    assert predicates().slot("per:siblings\n").name == "siblings"


def test_the_scorer_and_the_toolkit_know_the_same_slots():
    for predicate in predicates().every():
        for domain in predicate.domain:
            assert slots.quantity(f"{domain}:{predicate.name}") == predicate.quantity, \
                (domain, predicate.name)
    assert "string" in NODE_TYPES and "life.die" in EVENT_TYPES
