"""Damaged copies of generated Cold Start runs and assessments: every kind of
line the validators warn about, repair or refuse, sprinkled at random (seeded)
over valid lines, for the tests that run the official Perl validators beside
ours on them.

    damage_run(lines, rng, rate)   -> the run's lines, some damaged, some repeated
    damage_qrel(lines, rng, rate)  -> the same for an assessment file

Each damage is one the validator knows: a confidence without a decimal point,
in scientific notation, out of range or empty; a value type in lower case or
unknown; semicolons between spans; spans reversed, too long, past 4 or from
two documents; an unknown or wrong slot; an empty column; one column too many
or too few; a line twice; another run id; a node id of 0; a comment.
"""
from __future__ import annotations

import re

_SPAN = re.compile(r"([^:,]+):(\d+)-(\d+)")


def _widened(provenance: str) -> str:
    match = _SPAN.match(provenance)
    if not match:
        return provenance
    docid, start, _end = match.groups()
    return f"{docid}:{start}-{int(start) + 250}"


def _reversed(provenance: str) -> str:
    match = _SPAN.match(provenance)
    if not match:
        return provenance
    docid, start, end = match.groups()
    return f"{docid}:{int(end) + 5}-{start}"


#: (name, function of the columns -> new columns or None to leave the line)
RUN_DAMAGES = (
    ("missing decimal point", lambda c: c[:7] + ["1"] + c[8:]),
    ("scientific confidence", lambda c: c[:7] + ["5.5e-01"] + c[8:]),
    ("illegal confidence", lambda c: c[:7] + ["1.5"] + c[8:]),
    ("empty confidence", lambda c: c[:7] + [""] + c[8:]),
    ("lower-case value type", lambda c: c[:5] + [c[5].lower()] + c[6:]),
    ("unknown value type", lambda c: c[:5] + ["MANGO"] + c[6:]),
    ("semicolon separator", lambda c: c[:3] + [c[3] + ";" + c[6]] + c[4:]),
    ("semicolon error", lambda c: c[:3] + [c[3] + ";x"] + c[4:]),
    ("reversed span", lambda c: c[:6] + [_reversed(c[6])] + c[7:]),
    ("long span", lambda c: c[:3] + [_widened(c[3])] + c[4:]),
    ("too many spans", lambda c: c[:3] + [",".join([c[3]] * 5)] + c[4:]),
    ("two documents", lambda c: c[:3] + [c[3] + ",OTHER_DOC:1-5"] + c[4:]),
    ("other document", lambda c: c[:3] + ["OTHER_DOC:1-5"] + c[4:]),
    ("unknown slot", lambda c: [c[0], "per:mango"] + c[2:]),
    ("wrong slot", lambda c: [c[0], "org:website" if c[1] != "org:website" else "per:age"]
     + c[2:]),
    ("empty value", lambda c: c[:4] + [" "] + c[5:]),
    ("empty node id", lambda c: c[:8] + [""]),
    ("node id 0", lambda c: c[:8] + ["0"]),
    ("extra column", lambda c: c + ["extra"]),
    ("missing column", lambda c: c[:-1]),
    ("other run", lambda c: c[:2] + [c[2] + "B"] + c[3:]),
)


def damage_run(lines: list, rng, rate: float = 0.05) -> list:
    """The lines of a 9-column run, about ``rate`` of them damaged (one damage
    each) and half as many repeated or repeated as a comment; the first line
    is left alone (it tells the file's type)."""
    return _damage_rows(lines, rng, rate, RUN_DAMAGES, 9)


#: Damage to 10-column assessment lines.
QREL_DAMAGES = (
    ("reversed span", lambda c: c[:4] + [_reversed(c[4])] + c[5:]),
    ("long span", lambda c: c[:2] + [_widened(c[2])] + c[3:]),
    ("semicolon separator", lambda c: c[:2] + [c[2] + ";" + c[4]] + c[3:]),
    ("unknown slot", lambda c: [c[0], c[1].split(":", 1)[0] + ":per:mango"] + c[2:]),
    ("wrong slot", lambda c: [c[0], c[1].split(":", 1)[0] + ":org:website"] + c[2:]),
    ("empty value", lambda c: c[:3] + [" "] + c[4:]),
    ("lower-case mention type", lambda c: c[:6] + [c[6].lower()] + c[7:]),
    ("extra column", lambda c: c + ["extra"]),
)


def damage_qrel(lines: list, rng, rate: float = 0.05) -> list:
    """The same for the lines of a 10-column assessment file."""
    return _damage_rows(lines, rng, rate, QREL_DAMAGES, 10)


def _damage_rows(lines, rng, rate, damages, width) -> list:
    result = []
    for number, line in enumerate(lines):
        if number and rng.random() < rate:
            _name, damage = damages[rng.randrange(len(damages))]
            columns = line.split("\t")
            if len(columns) == width:
                line = "\t".join(damage(columns))
        result.append(line)
        if number and rng.random() < rate / 2:
            result.append(line if rng.random() < 0.5 else "# " + line)
    return result
