"""The files of ``-slices`` in the track folder: every slice's leaderboard
(``slice_leaderboards``), every slice's paired tests (``slice_significance``),
and the run x slice table of headlines with intervals (``slice_table``), each
as Markdown for people and CSV and JSON for programs; the table also as LaTeX
(``slice_table.tex``, laid out by :mod:`scorer.track.latex`)."""
from __future__ import annotations

import os

import pandas as pd

from scorer.display import blocks, sliceplot
from scorer.display.page import inline_svg
from scorer.results import CORRECTION_NAMES, SIGNIFICANCE_LEVEL
from scorer.track import tables
from scorer.track.interaction import PERMUTATIONS
from scorer.track.latex import Column, escape, render
from scorer.track.papertables import RUN_WIDTH_PT, _present, _signature_tt, label_for, number
from scorer.track.slices import signature_part

#: The names the files take in a track folder (track/folder.py TRACK_NAMES).
NAMES = tuple(f"{stem}.{extension}" for stem in ("slice_leaderboards", "slice_significance",
                                                 "slice_table", "slice_interaction")
              for extension in ("csv", "json", "md")) + ("slice_table.tex",) + \
    tuple(f"slices.{extension}" for extension in ("png", "svg", "pdf"))


def notes(result, sliced, kind: str = "") -> str:
    """What the Markdown tables say under themselves (``kind``: the file's stem)."""
    sizes = ", ".join(f"{name} {sliced.sizes[name]:,}" for name in sliced.names)
    alone = ("each slice's scores are those of its units alone" if not sliced.levels else
             "every unit is in each slice, scored on that hop alone (the runs' .ap hop lines)")
    lines = [f"Slices (-slices {sliced.spec}; {result.metric}; units per slice: {sizes}): "
             f"{alone}."]
    if result.has_samples and kind == "slice_interaction":
        lines.append(f"p_interaction: a permutation test of whether the pair's difference "
                     f"depends on the slice ({PERMUTATIONS} permutations of the units among the "
                     f"slices); `significant`: "
                     f"{CORRECTION_NAMES.get(result.correction, result.correction)}-adjusted p "
                     f"below {SIGNIFICANCE_LEVEL:g} over the {len(sliced.interaction)} pairs.")
    elif result.has_samples:
        lines.append(f"Intervals and rank ranges: the track's bootstrap samples restricted to "
                     f"each slice's units. `significant` and `group`: "
                     f"{CORRECTION_NAMES.get(result.correction, result.correction)}-adjusted p "
                     f"below {SIGNIFICANCE_LEVEL:g}, adjusted over all {sliced.family_size} "
                     f"slice x pair tests together.")
    else:
        lines.append(tables.NO_SAMPLES_NOTE)
    return "\n\n".join(lines + [f"WARNING: {warning}" for warning in sliced.warnings])


def write(write, result) -> None:
    """The slices' files, by ``write(name, text)`` (the track folder's writer)."""
    sliced = result.slices
    for stem, frame in (("slice_leaderboards", sliced.leaderboards),
                        ("slice_significance", sliced.significance),
                        ("slice_table", sliced.table),
                        ("slice_interaction", sliced.interaction)):
        write(f"{stem}.csv", tables.csv_text(frame))
        write(f"{stem}.json", tables.json_text(frame))
        shown = readable_table(sliced) if stem == "slice_table" else frame
        write(f"{stem}.md", tables.markdown_text(shown, notes(result, sliced, stem)))
    write("slice_table.tex", table_tex(result, sliced))


def readable_table(sliced):
    """The run x slice table for reading: a cell per slice, 'score [low, high]'
    at 4 decimals (slice_table.csv has every digit, a column each)."""
    table = sliced.table
    shown = pd.DataFrame({"run": table["run"], "rank": table["rank"]})

    def cells(stem):
        return [_text(*values) for values in zip(table[stem], table[f"{stem}_ci95_low"],
                                                  table[f"{stem}_ci95_high"])]
    shown["all"] = cells("all")
    for name in sliced.names:
        shown[f"{name} (n={sliced.sizes[name]:,})"] = cells(name)
    return shown


def _text(score, low, high) -> str:
    """A cell of the Markdown table: ASCII minus signs, as the CSV writes them."""
    return _cell(score, low, high).replace("\u2212", "-").replace("\u2013", "")


def _cell(score, low, high) -> str:
    cell = number(score)
    if cell != "\u2013" and _present(low) and _present(high):
        cell += f" [{number(low)}, {number(high)}]"
    return cell


def table_tex(result, sliced) -> str:
    """``slice_table.tex``: a row per run (the track's order), its headline over
    all units and on each slice, with the 95 % intervals."""
    table = sliced.table
    columns = [Column("Run", [str(run) for run in table["run"]], "l", RUN_WIDTH_PT),
               Column("All", [_cell(*cells) for cells in zip(
                   table["all"], table["all_ci95_low"], table["all_ci95_high"])])]
    for name in sliced.names:
        columns.append(Column(f"{name}\n(n={sliced.sizes[name]:,})", [
            _cell(*cells) for cells in zip(table[name], table[f"{name}_ci95_low"],
                                           table[f"{name}_ci95_high"])]))
    interval = (", with 95\u2009% bootstrap intervals (the track's samples restricted to "
                "each slice)") if result.has_samples else " (no bootstrap samples: no intervals)"

    def caption(left_out: list) -> str:
        text = (f"{result.metric} of each run over all units and on each slice of "
                f"-slices {sliced.spec} (n: the slice's units){interval}.")
        signature = f"{result.signature}|{signature_part(sliced)}"
        return escape(text) + " Signature: " + _signature_tt(signature) + "."

    def continued(rows: list) -> str:
        return escape(f"{result.metric} per slice, continued.")

    return render(columns, caption, label_for("slices", result.task, result.metric), continued)


def page_section(folder: str, result, width_in: float) -> tuple:
    """The pictures (slices.png, .svg, .pdf) into ``folder``, and the page's
    section: the run x slice table, the picture, the interaction tests."""
    sliced = result.slices
    paths = {fmt: os.path.join(folder, f"slices.{fmt}") for fmt in ("png", "svg", "pdf")}
    sliceplot.write(sliced.table, sliced.names, sliced.sizes, result.metric, width_in, paths)
    with open(paths["svg"], encoding="utf-8") as f:
        svg = f.read()
    readable = readable_table(sliced)
    columns = [blocks.Column(str(name), numeric=name == "rank") for name in readable.columns]
    rows = [[None if (isinstance(v, float) and v != v) else v for v in row]
            for row in readable.itertuples(index=False, name=None)]
    parts = [f"<p>{blocks.esc(notes(result, sliced))}</p>",
             blocks.table(columns, rows, table_id="slice-table"),
             f'<div class="plot">{inline_svg(svg)}</div>',
             f"<p>{blocks.esc('For a paper: slices.pdf, slice_table.tex; every number: ')}</p>",
             blocks.links(["slice_leaderboards.csv", "slice_significance.csv",
                           "slice_table.csv", "slice_interaction.csv"])]
    if len(sliced.interaction):
        frame = sliced.interaction
        shown = ["run_a", "run_b", "delta", "delta_min", "delta_max", "p_interaction",
                 "p_holm", "p_bh", "significant"]
        parts += [f"<h3>{blocks.esc('Does the difference depend on the slice?')}</h3>",
                  f"<p>{blocks.esc(notes(result, sliced, 'slice_interaction'))}</p>",
                  blocks.table([blocks.Column(c, numeric=c not in ("run_a", "run_b",
                                                                   "significant"))
                                for c in shown],
                               [[("yes" if v else "no") if c == "significant" else v
                                 for c, v in zip(shown, row)]
                                for row in frame[shown].itertuples(index=False, name=None)],
                               table_id="slice-interaction")]
    return ("slices", f"Slices (-slices {sliced.spec})", "".join(parts))
