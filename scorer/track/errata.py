"""``python -m scorer.track -errata OLD_TRACK_DIR ...``: the track scored
again (typically on a corrected gold) and what changed, published beside
the new leaderboard as ``errata.md``, ``errata.csv`` and ``errata.tex``.

First the SHA-256 of both golds (the shared files: the published track's
from its track.params, the new ones read now) and both signatures; then,
for every run, the published and the new headline with its interval, rank,
rank range and group, and whether any of these changed, with the number of
the run's units whose outcome flipped (any per-unit value of
per_query.csv.gz changed); then the gold's units that changed: added,
removed, or changed, and in what (a JSON line's keys, such as ``label`` or
``evidence``; a tab-separated line's columns), keyed by the line's ``id``
(``claim_id``) or first column.  The published gold is read from where the
published track read it (its track.params) when its SHA-256 still matches,
else from ``-old_gold``.
"""
from __future__ import annotations

import csv
import io
import json
import os

from scorer import output
from scorer.problems import ScorerError
from scorer.textfile import fingerprints
from scorer.track import published as published_module
from scorer.track.folder import read_per_query
from scorer.track.latex import escape
from scorer.track.published import same_number

FIELDS = ("score", "ci95_low", "ci95_high", "rank", "rank_low", "rank_high", "group")
NAMES = ("errata.md", "errata.csv", "errata.tex")


def old_gold(published, given: list | None) -> list:
    """The published track's shared files, as (path, SHA-256): ``given``
    (-old_gold) or the files track.params names, each checked against the
    digest recorded."""
    if not published.shared:
        raise ScorerError(f"{published.folder}: no track.params naming the shared files (the "
                          f"gold); is it a track folder?")
    if given:
        if len(given) != len(published.shared):
            raise ScorerError(f"-old_gold names {len(given)} file(s); the published track "
                              f"shared {len(published.shared)}: "
                              f"{', '.join(p for p, _s, _d in published.shared)}")
        candidates = list(given)
    else:
        candidates = [path if os.path.isabs(path) else os.path.join(published.cwd or ".", path)
                      for path, _size, _digest in published.shared]
    found = []
    for path, (recorded, _size, digest) in zip(candidates, published.shared):
        if not os.path.isfile(path):
            raise ScorerError(f"the published track's gold {recorded} is not at {path}; give "
                              f"it with -old_gold FILE[,FILE...]")
        [(_p, _s, now)] = fingerprints([path])
        if now != digest:
            raise ScorerError(f"{path}: its SHA-256 ({now}) is not the one the published track "
                              f"recorded for {recorded} ({digest}); give the published gold "
                              f"with -old_gold")
        found.append((path, digest))
    return found


# -- the gold's units ---------------------------------------------------------------------

def _units(path: str) -> dict:
    """``{unit id: value}`` of a gold file: JSON lines by their ``id`` (or
    ``claim_id``), else lines by their first tab-separated column."""
    units = {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\r\n")
            if not line.strip():
                continue
            value = None
            if line.lstrip().startswith("{"):
                try:
                    value = json.loads(line)
                except ValueError:
                    value = None
            if isinstance(value, dict):
                key = value.get("id", value.get("claim_id", f"line {number}"))
                units[str(key)] = value
            else:
                columns = line.split("\t")
                key = columns[0] if len(columns) > 1 else line
                units.setdefault(key, [])
                units[key].append(columns[1:] if len(columns) > 1 else [])
    return units


def _what(old, new) -> str:
    if isinstance(old, dict) and isinstance(new, dict):
        keys = [k for k in dict.fromkeys([*old, *new]) if old.get(k) != new.get(k)]
        return ", ".join(keys)
    if isinstance(old, list) and isinstance(new, list):
        if len(old) != len(new):
            return f"{len(old)} line(s) -> {len(new)}"
        columns = sorted({i + 2 for a, b in zip(old, new) for i in range(max(len(a), len(b)))
                          if (a[i] if i < len(a) else None) != (b[i] if i < len(b) else None)})
        return "column " + ", ".join(map(str, columns))
    return "its value"


def gold_changes(old: list, new: list) -> list:
    """(file, unit, change, what) of every unit whose gold changed, file by file."""
    changes = []
    for (old_path, old_digest), (new_path, new_digest) in zip(old, new):
        if old_digest == new_digest:
            continue
        before, after = _units(old_path), _units(new_path)
        name = os.path.basename(new_path)
        for unit in after:
            if unit not in before:
                changes.append((name, unit, "added", ""))
            elif before[unit] != after[unit]:
                changes.append((name, unit, "changed", _what(before[unit], after[unit])))
        changes += [(name, unit, "removed", "") for unit in before if unit not in after]
    return changes


def flipped(old_per_query, new_per_query) -> dict:
    """``{run: how many of its units' outcomes changed}`` (a unit whose
    per-unit values differ, or that one side lacks)."""
    if old_per_query is None or new_per_query is None:
        return {}

    def by_run(frame) -> dict:
        found: dict = {}
        for run, query, hop, metric, value in frame[["run", "query", "hop", "metric",
                                                     "value"]].itertuples(index=False):
            value = None if value != value else float(value)
            found.setdefault(str(run), {}).setdefault(str(query), set()).add(
                (str(hop), str(metric), value))
        return found

    old, new = by_run(old_per_query), by_run(new_per_query)
    counts = {}
    for run in new:
        if run not in old:
            continue
        units = set(old[run]) | set(new[run])
        counts[run] = sum(old[run].get(u) != new[run].get(u) for u in units)
    return counts


# -- the errata ---------------------------------------------------------------------------

def run_rows(old_rows: list, new_rows: list, flips: dict) -> list:
    old = {row["run"]: row for row in old_rows}
    new = {row["run"]: row for row in new_rows}
    rows = []
    for run in list(new) + [r for r in old if r not in new]:
        before, after = old.get(run, {}), new.get(run, {})
        changed = [field for field in FIELDS
                   if not same_number(before.get(field), after.get(field))]
        rows.append({"run": run, "old": before, "new": after, "changed": changed,
                     "flipped": flips.get(run)})
    return rows


def _number(value, digits: int = 4) -> str:
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def _headline(row: dict) -> str:
    if not row:
        return "–"
    return (f"{_number(row.get('score'))} [{_number(row.get('ci95_low'))}, "
            f"{_number(row.get('ci95_high'))}]")


def _range(row: dict) -> str:
    if not row or row.get("rank_low") is None:
        return "–"
    low, high = row["rank_low"], row["rank_high"]
    return str(low) if low == high else f"{low}–{high}"


def markdown(golds: list, signatures: tuple, rows: list, changes: list, metric: str) -> str:
    def cell(text) -> str:
        return str(text).replace("|", "\\|")
    lines = ["# Errata\n\n", "The track scored again. What each was scored on:\n\n",
             "| | published | now |\n|---|---|---|\n"]
    for (old_path, old_digest), (new_path, new_digest) in golds:
        lines.append(f"| gold (SHA-256): {cell(os.path.basename(old_path))}, "
                     f"{cell(os.path.basename(new_path))} | `{old_digest}` | `{new_digest}` |\n")
    lines.append(f"| signature | `{cell(signatures[0])}` | `{cell(signatures[1])}` |\n\n")
    lines += [f"## Runs\n\nHeadline: {metric}, with its 95 % interval.\n\n",
              "| run | published | now | rank | rank range | group | changed | "
              "outcomes flipped |\n|---|---|---|---|---|---|---|---|\n"]
    for row in rows:
        old, new = row["old"], row["new"]
        lines.append(
            f"| {cell(row['run'])} | {_headline(old)} | {_headline(new)} | "
            f"{_number(old.get('rank'))} → {_number(new.get('rank'))} | "
            f"{_range(old)} → {_range(new)} | {_number(old.get('group'))} → "
            f"{_number(new.get('group'))} | {', '.join(row['changed']) or 'no'} | "
            f"{'' if row['flipped'] is None else row['flipped']} |\n")
    added = sum(c[2] == "added" for c in changes)
    removed = sum(c[2] == "removed" for c in changes)
    lines.append(f"\n## Gold units changed\n\n{len(changes)} unit(s): {added} added, "
                 f"{removed} removed, {len(changes) - added - removed} changed.\n\n")
    if changes:
        lines.append("| file | unit | change | what |\n|---|---|---|---|\n")
        lines += [f"| {cell(f)} | {cell(u)} | {c} | {cell(w)} |\n" for f, u, c, w in changes]
    return "".join(lines)


def csv_text(golds: list, signatures: tuple, rows: list, changes: list) -> str:
    """One long table: section, name, field, old, new, changed; the golds'
    digests and the signatures first, then every run's fields, then the units."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["section", "name", "field", "old", "new", "changed"])
    for (old_path, old_digest), (new_path, new_digest) in golds:
        writer.writerow(["gold", os.path.basename(new_path), "sha256", old_digest, new_digest,
                         old_digest != new_digest])
    writer.writerow(["signature", "", "", signatures[0], signatures[1],
                     signatures[0] != signatures[1]])
    for row in rows:
        for field in FIELDS:
            old, new = row["old"].get(field), row["new"].get(field)
            writer.writerow(["run", row["run"], field, "" if old is None else repr(old),
                             "" if new is None else repr(new), field in row["changed"]])
        writer.writerow(["run", row["run"], "flipped", "", "" if row["flipped"] is None
                         else row["flipped"], bool(row["flipped"])])
    for name, unit, change, what in changes:
        writer.writerow(["unit", unit, change, name, what, True])
    return buffer.getvalue()


def tex(golds: list, signatures: tuple, rows: list, changes: list, metric: str, task: str) -> str:
    lines = ["% errata.tex: the track scored again (python -m scorer.track -errata)\n"]
    for (old_path, old_digest), (new_path, new_digest) in golds:
        lines.append(f"% gold {os.path.basename(new_path)} SHA-256: published {old_digest}, "
                     f"now {new_digest}\n")
    lines += [f"% signature published: {signatures[0]}\n", f"% signature now: {signatures[1]}\n",
              "\\begin{table*}\n\\centering\n\\small\n\\begin{tabular}{lllllll}\n\\toprule\n",
              "Run & Published & Now & Rank & Range & Group & Changed \\\\\n\\midrule\n"]
    for row in rows:
        old, new = row["old"], row["new"]
        cells = [escape(row["run"]), escape(_headline(old)), escape(_headline(new)),
                 f"{escape(_number(old.get('rank')))}$\\to${escape(_number(new.get('rank')))}",
                 f"{escape(_range(old))}$\\to${escape(_range(new))}",
                 f"{escape(_number(old.get('group')))}$\\to$"
                 f"{escape(_number(new.get('group')))}",
                 "yes" if row["changed"] else "no"]
        lines.append(" & ".join(cells) + " \\\\\n")
    added = sum(c[2] == "added" for c in changes)
    removed = sum(c[2] == "removed" for c in changes)
    short = [(o[1][:12], n[1][:12]) for o, n in golds]
    lines += ["\\bottomrule\n\\end{tabular}\n",
              f"\\caption{{Errata: every run scored again on the corrected gold "
              f"({escape(metric)}, 95\\,\\% intervals; published $\\to$ now). Gold units "
              f"changed: {len(changes)} ({added} added, {removed} removed, "
              f"{len(changes) - added - removed} changed). Gold SHA-256: "
              + "; ".join(f"\\texttt{{{a}}} $\\to$ \\texttt{{{b}}}" for a, b in short)
              + ".}\n",
              f"\\label{{tab:errata-{escape(task)}}}\n\\end{{table*}}\n"]
    return "".join(lines)


def write(published, result, old_golds: list, new_shared: list, output_dir: str) -> dict:
    """errata.md, .csv and .tex into the new track folder; their texts."""
    new_golds = [(path, digest) for path, _size, digest in fingerprints(new_shared)]
    golds = list(zip(old_golds, new_golds))
    signatures = (published.signature, result.signature)
    old_per_query = None
    if published.per_query:
        old_per_query = read_per_query(published.per_query)
    rows = run_rows(published.rows, published_module.new_rows(result),
                    flipped(old_per_query, result.per_query))
    changes = gold_changes(old_golds, new_golds)
    texts = {"errata.md": markdown(golds, signatures, rows, changes, result.metric),
             "errata.csv": csv_text(golds, signatures, rows, changes),
             "errata.tex": tex(golds, signatures, rows, changes, result.metric, result.task)}
    output.write_files({os.path.join(output_dir, name): text for name, text in texts.items()})
    return texts
