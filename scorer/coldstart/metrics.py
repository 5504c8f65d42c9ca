"""Cold Start's metrics: the names a track ranks by and a leaderboard shows,
each with its explanation (-help, the reference page), declared here, in one
place, and carried by the task's record (``scorer/tasks/coldstart.py``).

They are not the counts-table kinds of ``scorer/countstable/metrics.py``
(``Ratio``, ``HarmonicMean``, ``Mean``), because parity with CS-Score-MASTER.pl
decides how each value is made, not a ratio of two column sums: the
precision's denominator is Submitted - Ignored; macro averages are the Perl's
running sums in its order; LDC-MAX picks an entry point per LDC query and
LDC-MEAN averages them; AP is computed over ranked responses.  Each metric
names instead the ``.summary`` line (variant, aggregate, letter at hop ALL) or
the AP whose number it is: ``scorer/coldstart/units.py`` takes that number
from the very functions that write the reports (docs/architecture.md, "Metrics").
"""
from __future__ import annotations

#: The aggregates of the .summary lines (spec §7): over responses, and the mean over queries.
MICRO, MACRO = "ALL-Micro", "ALL-Macro"

# A plain class, not a dataclass: every command reads the task records
# (``dataclasses`` imports ``inspect``).


class Metric:
    """A Cold Start metric: its name, its title (also its explanation), and
    where its number is."""

    __slots__ = ("name", "title", "variant", "aggregate", "letter", "needs_index")

    def __init__(self, name: str, title: str, variant: str, aggregate: str = "",
                 letter: str = "", needs_index: bool = False):
        self.name = name
        self.title = title
        #: "AP", or (variant, aggregate, metric letter) of a .summary line at hop ALL
        self.variant = variant
        self.aggregate = aggregate
        self.letter = letter
        #: needs the SF -> LDC index (-expand)
        self.needs_index = needs_index

    @property
    def explanation(self) -> str:
        return self.title

    def __repr__(self) -> str:
        return f"Metric({self.name!r})"


def _declared() -> tuple:
    metrics = [Metric("ldcmean_ap", "LDC-MEAN ALL-Macro AP, hop ALL (the official 2017 score)",
                      "LDCMEAN", "AP", needs_index=True),
               Metric("sf_ap", "SF ALL-Macro AP, hop ALL", "SF", "AP")]
    letters = (("p", "P", "precision"), ("r", "R", "recall"), ("f1", "F", "F1"))
    shown = {"SF": "SF", "LDCMAX": "LDC-MAX", "LDCMEAN": "LDC-MEAN"}
    for variant, aggregates in (("SF", (MICRO, MACRO)), ("LDCMAX", (MICRO, MACRO)),
                                ("LDCMEAN", (MACRO,))):
        for aggregate in aggregates:
            kind = "micro" if aggregate == MICRO else "macro"
            for suffix, letter, word in letters:
                metrics.append(Metric(f"{variant.lower()}_{kind}_{suffix}",
                                      f"{shown[variant]} {aggregate} {word}, hop ALL",
                                      variant, aggregate, letter,
                                      needs_index=variant != "SF"))
    return tuple(metrics)


#: Every Cold Start metric a track can rank by, in leaderboard column order.
METRICS = _declared()
BY_NAME = {metric.name: metric for metric in METRICS}


def available(has_index: bool) -> list:
    """The metrics a run has: those needing the SF -> LDC index only with -expand."""
    return [m for m in METRICS if has_index or not m.needs_index]


def headline(has_index: bool) -> str:
    """The official score: LDC-MEAN ALL-Macro AP with -expand, else SF ALL-Macro AP."""
    return "ldcmean_ap" if has_index else "sf_ap"


def catalogue(has_index: bool) -> list:
    """(name, title) of every metric a run has, the official score first."""
    head = headline(has_index)
    ordered = sorted(available(has_index), key=lambda metric: metric.name != head)
    return [(metric.name, metric.title) for metric in ordered]
