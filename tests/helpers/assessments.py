"""Assessments made up for validated SF files, so that a scoring of them
depends on every line kept (the -validate and -kb equivalence tests)."""
from __future__ import annotations

from pathlib import Path


def assessments_of(runs, path, by_node: bool = False) -> str:
    """Assessments of every line of the ``runs`` (validated files; lines of their hop-0 queries
    first, so that the hop-1 queries are made before they are assessed): two
    of three correct, each its own equivalence class, the others wrong; so
    that the numbers, and the order ties take, depend on the lines kept.
    ``by_node``: the lines of one node of a query (a KB's answers: one entity
    with several justifications) are one equivalence class, right or wrong
    together, as an assessor would judge them."""
    lines = []
    seen = set()
    for run in runs:
        for line in Path(run).read_text(encoding="utf-8").splitlines():
            columns = line.split("\t")
            if len(columns) == 9 and not line.startswith("#"):
                key = (columns[0], columns[1], columns[3], columns[4], columns[6])
                if key not in seen:
                    seen.add(key)
                    lines.append((*key, columns[8]))
    lines.sort(key=lambda key: key[0].count("_"))
    from scorer.coldstart.ids import target_query_short_id
    made = {}   # hop-1 query made -> the equivalence class of the line that made it
    rows = []
    number = 0
    classes: dict = {}
    for query, slot, relation, value, provenance, node in lines:
        if query.count("_") > 2 and query not in made:
            continue    # (a hop-1 query no assessed line makes: the validator drops its lines)
        number += 1
        judged = classes.setdefault((query, node), len(classes) + 1) if by_node else number
        correct = judged % 3 != 0
        ec = f"{query.rsplit('_', 1)[0] if query.count('_') > 2 else query}:{judged}" \
            if correct else "0"
        if by_node and correct and query.count("_") > 2:
            # (a hop-1 class is its parent's, then its own number, as LDC writes them)
            ec = f"{made[query]}:{judged}"
        if correct:     # (a child needs a correct parent)
            made.setdefault(f"{query}_{target_query_short_id(query, value, provenance)}", ec)
        rows.append("\t".join((f"{query}_{number:04d}", f"{query}:{slot}", relation, value,
                               provenance, "C" if correct else "W", "NAM",
                               "C" if correct else "W", ec, "NAM")))
    Path(path).write_text("".join(row + "\n" for row in rows), encoding="utf-8")
    return str(path)
