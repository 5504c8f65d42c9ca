"""scorer/track/latex.py and papertables.py: leaderboard.tex and
significance.tex: they compile with pdflatex in an
article that loads only booktabs (one and two columns), fit the page (no
overfull box, no float taller than the page) whatever the run names hold and
however many runs there are, and show what a paper prints.  The compiling
tests are skipped where pdflatex is not installed (Debian:
apt-get install texlive-latex-base texlive-latex-recommended)."""
from __future__ import annotations

import functools
import json
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.metricnames import precision_recall_family
from scorer.track import latex, papertables
from scorer.track.__main__ import main as track_main
from scorer.track.folder import exact_floats

from places import ROOT
from trackviews import fake_track

PDFLATEX = shutil.which("pdflatex")


def has_booktabs() -> bool:
    kpsewhich = shutil.which("kpsewhich")
    return bool(kpsewhich) and subprocess.run([kpsewhich, "booktabs.sty"],
                                              capture_output=True).returncode == 0


#: A text extractor to read the compiled tables back (either will do).
EXTRACTOR = ([shutil.which("pdftotext"), "-layout"] if shutil.which("pdftotext") else
             [shutil.which("mutool"), "draw", "-F", "txt"] if shutil.which("mutool") else None)
#: Why a test that compiled its tables did not read them back.
NO_EXTRACTOR = ("pdftotext is not installed (apt-get install poppler-utils): the tables "
                "compiled and fit, but were not read back")

needs_pdflatex = pytest.mark.skipif(
    PDFLATEX is None or not has_booktabs(),
    reason="pdflatex or booktabs is not installed (apt-get install texlive-latex-base "
           "texlive-latex-recommended)")

#: The LaTeX log's complaints about a table that does not fit or does not print.
COMPLAINTS = re.compile(r"Overfull \\[hv]box|Float too large|Missing character|"
                        r"Font shape .* undefined|LaTeX Error|^! ", re.MULTILINE)


#: The documents the tables go into: article in one column (text 345 pt wide) and
#: two (469 pt), and an article set as ACL's pages are (A4, two columns of 219 pt,
#: text 455 pt wide and 702 pt high).
PREAMBLES = {
    1: "\\documentclass{article}\n",
    2: "\\documentclass[twocolumn]{article}\n",
    "acl": ("\\documentclass[twocolumn,a4paper]{article}\n"
            "\\setlength{\\textwidth}{455pt}\\setlength{\\columnsep}{17pt}"
            "\\setlength{\\textheight}{702pt}\n\\setlength{\\oddsidemargin}{0pt}"
            "\\setlength{\\topmargin}{-30pt}\n\\AtBeginDocument{\\twocolumn}\n"),
}


def compile_tables(directory: Path, texts: dict, columns) -> tuple:
    """Compile ``texts`` (file name -> LaTeX) \\input into one article (PREAMBLES:
    1, 2 or "acl"); returns (the log's complaints, the PDF's path)."""
    for name, text in texts.items():
        (directory / name).write_text(text, encoding="ascii")  # ASCII, whatever the names
    document = (PREAMBLES[columns] + "\\usepackage{booktabs}\n\\begin{document}\n"
                + "".join(f"\\input{{{name}}}\n" for name in texts)
                + "\\end{document}\n")
    (directory / "paper.tex").write_text(document, encoding="ascii")
    done = subprocess.run([PDFLATEX, "-interaction=nonstopmode", "-halt-on-error", "paper.tex"],
                          cwd=directory, capture_output=True, text=True, errors="replace")
    log = (directory / "paper.log").read_text(errors="replace")
    complaints = COMPLAINTS.findall(log)
    assert done.returncode == 0 or complaints, done.stdout[-2000:]
    return complaints, directory / "paper.pdf"


def pdf_text(pdf: Path) -> str:
    done = subprocess.run(EXTRACTOR + [str(pdf)] + (["-"] if "pdftotext" in EXTRACTOR[0]
                                                    else []),
                          capture_output=True, text=True, check=True)
    return done.stdout


def squeezed(text: str) -> str:
    """Text without spaces and line ends (names are broken over lines), with
    the underscore as OT1 fonts draw it (a rule, read back as a space)."""
    return re.sub(r"\s+", "", text.replace("_", " "))


def view_tables(view, main_metrics=None) -> dict:
    main = list(view.other_metric_columns) if main_metrics is None else main_metrics
    return {"leaderboard.tex": papertables.leaderboard_tex(view.leaderboard, view.metric,
                                                     view.metric_title, main, view.signature,
                                                     "tab:leaderboard"),
            "significance.tex": papertables.significance_tex(view.headline_significance(), view.runs,
                                                       view.metric, view.metric_title,
                                                       view.signature, "tab:significance")}


def layouts_of(text: str) -> dict:
    """A table file's layouts: ``{"narrow": ..., "wide": ...}``, for a one-column
    page and for a two-column page's table*; the same text twice when the file
    has one layout."""
    if "\\ifdim\\textwidth<" not in text:
        return {"narrow": text, "wide": text}
    head, rest = text.split("\\ifdim\\textwidth<", 1)
    narrow, wide = rest.split("\n\\else\n")
    assert wide.endswith("\\fi\n") and head.startswith("% Written by python -m scorer.track")
    return {"narrow": narrow.split("\n", 1)[1], "wide": wide[:-len("\\fi\n")]}


HOSTILE_NAMES = ["under_score", "a&b", "50%", "#1", "$cash", "{braces}", "tilde~", "caret^",
                 "back\\slash", "<less>|bar", "[bracket]", "*star", "--dashes--", "``quotes''",
                 "ünïcödé-ÅØß", "漢字", "x" * 60, "a_" * 30]


# -- what the tables hold (no pdflatex needed) -----------------------------------------

def test_escaped_text_is_ascii_and_leaves_no_special_character_bare():
    rng = random.Random(7)
    alphabet = "\\{}_&%#$~^<>|[]*-`',ab ü漢\t"
    for _ in range(300):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12)))
        escaped = latex.escape(text)
        assert escaped.isascii()
        # With the escapes taken out, no character LaTeX treats specially is left.
        bare = re.sub(r"\\[A-Za-z]+(\{\})?|\\[{}_&%#$,\"'`^~]|\{[\[\]*`']\}|-\{\}|,\{\}|"
                      r"\$-\$|\{\[\}U\+[0-9A-F]+\{\]\}", "", escaped)
        assert not set(bare) & set("\\_&%#$~^<>|[]*`'"), (text, escaped)


def test_names_are_broken_only_where_they_may_and_never_lose_a_character():
    for name in HOSTILE_NAMES + ["CSSF17_ENG_0123_team-name.v2", ""]:
        lines = latex.wrap(name, 60.0)
        assert "".join(lines).replace(" ", "") == name.replace(" ", "")
        assert all(latex.width_pt(line) <= 60.0 for line in lines if len(line) > 1)


def test_the_paper_table_is_rank_run_headline_with_interval_and_the_main_metrics():
    view = fake_track(runs=5, seed=3)
    text = papertables.leaderboard_tex(view.leaderboard, view.metric, view.metric_title,
                                 ["SF_ALL_Micro_F1"], view.signature, "tab:x")
    assert text.count(r"\begin{tabular}{") == 1 and r"\label{tab:x}" in text
    header = text.split(r"\toprule")[1].split(r"\midrule")[0].replace("\\\\", "")
    assert "Rank" in header and "Run" in header and "SF\\_ALL\\_Micro\\_F1" in header
    assert "LDCMEAN\\_ALL\\_Macro\\_AP" not in text.split(r"\midrule")[1].split(r"\bottomrule")[0]
    for row, record in zip(text.split(r"\midrule")[1].split(r"\bottomrule")[0].strip()
                           .splitlines(), view.leaderboard.itertuples()):
        cells = [c.strip() for c in row.rstrip(" \\").split(" & ")]
        assert cells[0] == str(record.rank)
        assert cells[2] == f"{record.score:.4f} {{[}}{record.ci95_low:.4f},{{}} " \
                           f"{record.ci95_high:.4f}{{]}}"
        assert cells[3] == f"{record.SF_ALL_Micro_F1:.4f}"
    # the metric named once in the caption, the signature whole
    caption = re.search(r"\\caption\{(.*)\}\n", text).group(1)
    assert caption.count("LDCMEAN\\_ALL\\_Macro\\_AP") == 1
    assert re.sub(r"\\allowbreak |\\char\d+\{\}", "", caption.split("Signature: ")[1]) \
        .startswith(r"\texttt{" + view.signature.replace("_", ""))


def test_rank_ranges_and_groups_are_shown_once_the_leaderboard_has_them():
    view = fake_track(runs=6, seed=4)
    board = view.leaderboard.assign(rank_low=[1, 1, 2, 3, 5, 5], rank_high=[2, 3, 3, 4, 6, 6],
                                     group=[1, 1, 1, 2, 3, 3])
    text = papertables.leaderboard_tex(board, view.metric, view.metric_title, [], view.signature,
                                 "tab:x")
    rows = text.split(r"\midrule")[1].split(r"\bottomrule")[0].strip().splitlines()
    assert [row.rstrip(" \\").split(" & ")[-2:] for row in rows] == [
        ["1--2", "1"], ["1--3", "1"], ["2--3", "1"], ["3--4", "2"], ["5--6", "3"], ["5--6", "3"]]
    assert "Rank range" in text and "Group" in text
    assert "Rank range" not in papertables.leaderboard_tex(view.leaderboard, view.metric,
                                                     view.metric_title, [], view.signature, "t")
    # -baseline and -compare adjacent give rank ranges but no groups; without samples
    # neither: a column of dashes and a caption explaining it are left out
    no_groups = papertables.leaderboard_tex(board.assign(group=pd.array([None] * 6, dtype="Int64")),
                                      view.metric, view.metric_title, [], view.signature, "t")
    assert "Rank range" in no_groups and "Group" not in no_groups
    neither = papertables.leaderboard_tex(
        board.assign(group=pd.array([None] * 6, dtype="Int64"),
                     rank_low=pd.array([None] * 6, dtype="Int64"),
                     rank_high=pd.array([None] * 6, dtype="Int64")),
        view.metric, view.metric_title, [], view.signature, "t")
    assert "Rank range" not in neither and "Group" not in neither


def test_a_run_scored_despite_errors_is_marked_in_the_paper_table():
    """A Cold Start run whose file has errors is scored from the lines read (as
    the Perl does): the paper's table marks it and its caption says why."""
    view = fake_track(runs=5, seed=4)
    assert list(view.leaderboard.status)[-1] == "errors"
    text = papertables.leaderboard_tex(view.leaderboard, view.metric, view.metric_title, [],
                                 view.signature, "t")
    rows = text.split(r"\midrule")[1].split(r"\bottomrule")[0].strip().splitlines()
    assert [row.split(" & ")[1].endswith("{*}") for row in rows] == [False] * 4 + [True]
    assert "{*}: the run{'}s files have errors (its run.errlog says which); it was scored " \
           "from the lines that could be read." in text
    clean = papertables.leaderboard_tex(view.leaderboard.assign(status="ok"), view.metric,
                                  view.metric_title, [], view.signature, "t")
    assert "{*}" not in clean and "run.errlog" not in clean


def test_too_many_metrics_lose_precision_and_recall_first_and_the_caption_says_so():
    metrics = [f"{kind}_{measure}" for kind in ("abstract_label_only", "abstract_rationalized",
                                                "sentence_selection", "sentence_label")
               for measure in ("precision", "recall", "f1")]
    view = fake_track(runs=4, seed=5, task="scifact")
    board = view.leaderboard.assign(**{m: np.linspace(0.1, 0.9, 4) for m in metrics})
    text = layouts_of(papertables.leaderboard_tex(board, "sentence_label_f1",
                                            "SciFact sentence_label_f1", metrics,
                                            view.signature, "tab:x"))["narrow"]
    header = text.split(r"\toprule")[1].split(r"\midrule")[0]
    assert "precision" not in header and "recall" not in header
    for kind in ("abstract\\_label\\_only", "abstract\\_rationalized", "sentence\\_selection"):
        assert kind in header.replace("\\\\", "")
    assert "Left out for width" in text and "abstract\\_label\\_only\\_precision" in text


COLDSTART_MAIN = ["ldcmean_macro_p", "ldcmean_macro_r", "ldcmean_macro_f1"]


def coldstart_tables(runs: int, names=None) -> dict:
    """A Cold Start track's tables as the track writes them: ldcmean_ap with its
    interval, the macro P, R and F1, rank ranges and groups."""
    view = fake_track(runs=runs, queries=3, seed=10, names=names)
    board = view.leaderboard.assign(
        **{m: np.linspace(0.9, 0.1, runs) for m in COLDSTART_MAIN},
        rank_low=[max(1, i) for i in range(runs)], rank_high=[min(runs, i + 2) for i in range(runs)],
        group=[1 + i // 5 for i in range(runs)])
    significance = view.headline_significance().assign(
        delta_ci95_low=-0.01, delta_ci95_high=0.05, p_bh=0.01)
    return {"leaderboard.tex": papertables.leaderboard_tex(board, "ldcmean_ap",
                                                     "Cold Start LDC-MEAN AP", COLDSTART_MAIN,
                                                     view.signature, "tab:leaderboard"),
            "significance.tex": papertables.significance_tex(significance, view.runs, "ldcmean_ap",
                                                       "Cold Start LDC-MEAN AP",
                                                       view.signature, "tab:significance")}


def header_of(text: str) -> str:
    return text.split(r"\toprule")[1].split(r"\midrule")[0].replace("\\\\", "")


def test_a_two_column_page_s_table_star_uses_its_width_for_the_metrics():
    """A table* across a two-column page (455 pt at ACL) shows the metrics a
    one-column page (345 pt) has no room for; where the narrower page must leave
    some out, a precision goes with its recall (never P and F1 without R)."""
    names = [f"team{i:03d}_system-with-a-rather-long-descriptive-name_v{i:02d}_final"
             for i in range(30)]
    shown = layouts_of(coldstart_tables(30, names)["leaderboard.tex"])
    wide, narrow = header_of(shown["wide"]), header_of(shown["narrow"])
    for metric in ("ldcmean\\_macro\\_p", "ldcmean\\_macro\\_r", "ldcmean\\_macro\\_f1"):
        assert metric in wide.replace("\\_\\", "\\_")
    assert "Left out for width" not in shown["wide"]
    narrow = narrow.replace("\\_\\", "\\_")
    assert "ldcmean\\_macro\\_f1" in narrow
    assert ("ldcmean\\_macro\\_p" in narrow) == ("ldcmean\\_macro\\_r" in narrow)
    assert "ldcmean\\_macro\\_r" not in narrow     # (here the page is too narrow for them)
    assert "Left out for width: ldcmean\\_macro\\_p,{} ldcmean\\_macro\\_r" in shown["narrow"]
    for layout, most in ((shown["narrow"], latex.TEXT_WIDTH_PT),
                         (shown["wide"], latex.WIDE_TEXT_PT)):
        assert r"\begin{table*}" in layout
        assert layout.count(r"\label{tab:leaderboard}") == 1


FAMILIES = {"coldstart": [f"{v}_{a}_{m}" for v in ("ldcmean", "sf") for a in ("macro", "micro")
                          for m in ("p", "r", "f1")],
            "scifact": [f"{kind}_{m}" for kind in ("abstract_label_only", "abstract_rationalized",
                                                    "sentence_selection", "sentence_label")
                        for m in ("precision", "recall", "f1")]}


@pytest.mark.slow
@settings(deadline=None, max_examples=60, derandomize=True)
@given(st.sampled_from(sorted(FAMILIES)), st.integers(0, 60), st.integers(1, 12),
       st.randoms(use_true_random=False))
def test_a_precision_is_never_shown_without_its_recall(task, name_length, count, rng):
    metrics = rng.sample(FAMILIES[task], min(count, len(FAMILIES[task])))
    view = fake_track(runs=4, queries=3, seed=11, names=[f"r{i}" + "x" * name_length
                                                         for i in range(4)])
    board = view.leaderboard.assign(**{m: np.linspace(0.1, 0.9, 4) for m in metrics})
    text = papertables.leaderboard_tex(board, view.metric, view.metric_title, metrics,
                                 view.signature, "tab:x")
    for layout in layouts_of(text).values():
        header = header_of(layout).replace("\\_\\", "\\_")
        shown = {m for m in metrics if f" {latex.escape(m)} " in f" {header} "
                 .replace("{@{}r@{}}", " ").replace("\\end{tabular}", " ").replace("&", " ")}
        for m in metrics:
            family = precision_recall_family(m)
            if family is None:
                continue
            partner = [n for n in metrics if n != m and precision_recall_family(n) == family]
            if partner:
                assert (m in shown) == (partner[0] in shown), (layout.splitlines()[:8], m)


@pytest.mark.parametrize("page", ["narrow", "wide"])
def test_a_long_leaderboard_continues_in_further_floats(page):
    view = fake_track(runs=100, queries=3, seed=6)
    text = layouts_of(view_tables(view)["leaderboard.tex"])[page]
    floats = text.count(r"\begin{table")
    assert floats >= 3
    assert text.count(r"\label{") == 1 and "continued: ranks 1" not in text
    rows = sum(len(part.split(r"\bottomrule")[0].strip().splitlines())
               for part in text.split(r"\midrule")[1:])
    assert rows == 100


def float_rows(text: str) -> list:
    return [len(part.split(r"\bottomrule")[0].strip().splitlines())
            for part in text.split(r"\midrule")[1:]]


@pytest.mark.parametrize("runs", [7, 24, 100])
def test_a_table_in_several_floats_shares_its_rows_evenly(runs):
    """The rows that need more than one float are shared evenly: 21 pairs that
    need two floats are not 20 and a float of one row."""
    view = fake_track(runs=runs, queries=3, seed=6,
                      names=[f"team_{i}_" + "long_name_" * 4 for i in range(runs)])
    for name, text in view_tables(view).items():
        for page, layout in layouts_of(text).items():
            rows = float_rows(layout)
            assert sum(rows) == (runs if name == "leaderboard.tex"
                                 else min(runs * (runs - 1) // 2, papertables.SIGNIFICANCE_ROWS)
                                 if runs * (runs - 1) // 2 <= papertables.SIGNIFICANCE_ROWS
                                 else runs - 1)
            if len(rows) > 1:
                # every row of these tables is equally tall: counts differ by one at most
                assert max(rows) - min(rows) <= 1, (name, page, rows)
    assert len(float_rows(layouts_of(view_tables(view)["significance.tex"])["narrow"])) > 1


def test_many_pairs_show_the_rank_neighbours_and_say_how_many_were_tested():
    view = fake_track(runs=30, queries=3, seed=8)   # 435 pairs
    for text in layouts_of(view_tables(view)["significance.tex"]).values():
        assert "29 of the 435 pairs tested,{} those of rank neighbours" in text
        rows = [row for part in text.split(r"\midrule")[1:]
                for row in part.split(r"\bottomrule")[0].strip().splitlines()]
        assert len(rows) == 29   # the neighbours: fewer than the most shown


@pytest.mark.parametrize("runs, pairs", [(2, "the 1 pair tested"), (3, "the 3 pairs tested")])
def test_the_caption_counts_the_pairs_in_words_that_agree(runs, pairs):
    view = fake_track(runs=runs, queries=3, seed=8)
    for text in layouts_of(view_tables(view)["significance.tex"]).values():
        assert f"Holm{{'}}s method for {pairs}" in text
        assert "1 pairs" not in text


# -- compiled ----------------------------------------------------------------------

@pytest.mark.slow
@needs_pdflatex
@pytest.mark.parametrize("columns", [1, 2])
def test_hostile_names_compile_fit_and_read_back(tmp_path, columns):
    view = fake_track(runs=len(HOSTILE_NAMES), queries=4, seed=9, names=HOSTILE_NAMES)
    complaints, pdf = compile_tables(tmp_path, view_tables(view), columns)
    assert complaints == []
    if EXTRACTOR is None:
        pytest.skip(NO_EXTRACTOR)
    # Computer Modern's accents and quotes read back as accents and quotes
    text = squeezed(pdf_text(pdf)).translate(str.maketrans("\u02dc\u02c6\u2018\u2019", "~^`'"))
    for name in HOSTILE_NAMES:
        if name.isascii():
            assert squeezed(name) in text, name
    assert "[U+6F22][U+5B57]" in text     # a character no LaTeX font here has


@pytest.mark.slow
@needs_pdflatex
@pytest.mark.parametrize("columns", [1, 2])
def test_100_runs_with_60_character_names_fit_the_pages(tmp_path, columns):
    names = [f"team{i:03d}_system-with-a-rather-long-descriptive-name_v{i:02d}_final"
             for i in range(100)]
    assert {len(name) for name in names} == {60}
    view = fake_track(runs=100, queries=3, seed=10, names=names)
    complaints, _pdf = compile_tables(tmp_path, view_tables(view), columns)
    assert complaints == []


@pytest.mark.slow
@needs_pdflatex
@pytest.mark.parametrize("page", [1, 2, "acl"])
@pytest.mark.parametrize("runs", [30, 100])
def test_each_page_takes_the_layout_of_its_width(tmp_path, page, runs):
    """One file for every paper: a one-column article prints the narrow layout,
    a two-column one (469 pt) and ACL's pages (455 pt) the wide one; none is
    too wide or too tall."""
    names = [f"team{i:03d}_system-with-a-rather-long-descriptive-name_v{i:02d}_final"
             for i in range(runs)]
    texts = coldstart_tables(runs, names)
    complaints, pdf = compile_tables(tmp_path, texts, page)
    assert complaints == []
    if EXTRACTOR is None:
        pytest.skip(NO_EXTRACTOR)
    text = squeezed(pdf_text(pdf))
    assert ("Leftoutforwidth:ldcmean macro p,ldcmean macro r".replace(" ", "") in text) == \
        (page == 1)


@needs_pdflatex
def test_a_track_writes_tables_that_compile(tmp_path):
    gold = ROOT / "fixtures" / "scifact" / "basic" / "gold.jsonl"
    rows = (ROOT / "fixtures" / "scifact" / "basic" / "predictions.jsonl").read_text() \
        .splitlines()
    first = json.loads(rows[0])
    first["evidence"] = {}
    runs = {"team_1&co": rows, "team%2": [json.dumps(first)] + rows[1:]}
    for name, lines in runs.items():
        (tmp_path / f"{name}.jsonl").write_text("\n".join(lines) + "\n")
    out = tmp_path / "track"
    assert track_main(["-policy", str(ROOT / "configs" / "scifact.yaml"), "-bootstrap", "50",
                       "-seed", "1", "-jobs", "1", "-output_dir", str(out), str(gold)]
                      + [str(tmp_path / f"{name}.jsonl") for name in runs]) == 0
    texts = {name: (out / name).read_text(encoding="ascii")
             for name in ("leaderboard.tex", "significance.tex")}
    assert r"\label{tab:leaderboard-scifact-sentence-label-f1}" in texts["leaderboard.tex"]
    paper = tmp_path / "paper"
    paper.mkdir()
    complaints, pdf = compile_tables(paper, texts, 2)
    assert complaints == []
    if EXTRACTOR is None:
        pytest.skip(NO_EXTRACTOR)
    text = squeezed(pdf_text(pdf))
    board = pd.read_csv(out / "leaderboard.csv", **exact_floats())
    for record in board.itertuples():
        assert squeezed(f"{record.score:.4f}[{record.ci95_low:.4f},{record.ci95_high:.4f}]") \
            in text
        assert squeezed(record.run) in text


@needs_pdflatex
def test_a_track_without_samples_writes_a_significance_table_saying_so(tmp_path):
    view = fake_track(runs=3, queries=3, seed=12, samples=False)
    texts = view_tables(view)
    assert "no bootstrap samples" in texts["significance.tex"]
    assert "[95" not in texts["leaderboard.tex"]
    complaints, _pdf = compile_tables(tmp_path, texts, 1)
    assert complaints == []


# -- the figure's parts in a paper ----------------------------------------------------------

def has_graphicx() -> bool:
    kpsewhich = shutil.which("kpsewhich")
    return bool(kpsewhich) and subprocess.run([kpsewhich, "graphicx.sty"],
                                              capture_output=True).returncode == 0


@functools.lru_cache(maxsize=None)
def figure_files(runs: int, width_in: float, directory: str) -> tuple:
    """The leaderboard picture's PDF files of a track of ``runs`` runs with
    60-character names, written into ``directory``; and the whole figure's PDF."""
    from scorer.display import plot
    names = [f"team{i:03d}_system-with-a-rather-long-descriptive-name_v{i:02d}_final"
             for i in range(runs)]
    view = fake_track(runs=runs, queries=3, seed=runs, names=names)
    folder = Path(directory) / f"{runs}-{width_in}"
    folder.mkdir(parents=True)
    parts = plot.leaderboard_plot(view, str(folder / "leaderboard.png"),
                                  str(folder / "leaderboard.svg"), str(folder / "leaderboard.pdf"),
                                  width_in=width_in)
    return folder, [Path(part).name for part in parts]


def compile_figures(directory: Path, files: list, page, across: bool) -> list:
    """Each of ``files`` in a figure of its own (``figure*`` when ``across`` on a
    two-column page), ``\\includegraphics[width=\\linewidth]``; the log's complaints."""
    environment = "figure*" if across and page != 1 else "figure"
    document = (PREAMBLES[page] + "\\usepackage{graphicx}\n\\begin{document}\n"
                + "".join(f"\\begin{{{environment}}}[tbp]\\centering\n"
                          f"\\includegraphics[width=\\linewidth]{{{name}}}\n"
                          f"\\caption{{The leaderboard, part {number} of {len(files)}.}}\n"
                          f"\\end{{{environment}}}\n" for number, name in enumerate(files, 1))
                + "\\end{document}\n")
    (directory / "paper.tex").write_text(document, encoding="ascii")
    subprocess.run([PDFLATEX, "-interaction=nonstopmode", "paper.tex"], cwd=directory,
                   capture_output=True, text=True, errors="replace")
    return COMPLAINTS.findall((directory / "paper.log").read_text(errors="replace"))


@pytest.mark.slow
@pytest.mark.skipif(PDFLATEX is None or not has_graphicx(),
                    reason="pdflatex or graphicx is not installed (apt-get install "
                           "texlive-latex-base texlive-latex-recommended)")
@pytest.mark.parametrize("runs, width_in", [(30, 7.0), (100, 7.0), (30, 3.3)])
def test_every_part_of_the_figure_fits_the_page_at_the_line_width(tmp_path_factory, runs,
                                                                  width_in):
    """A two-column figure (7 in) across a two-column page (figure*) and a
    one-column figure (3.3 in) in a column, each scaled to the line's width,
    and both across a one-column page: no part is too tall (60-character names;
    the parts of 100 runs at 3.3 inches, as tall as those of 30, are measured in
    test_look_layout)."""
    folder, files = figure_files(runs, width_in, str(tmp_path_factory.getbasetemp() / "figures"))
    for page in (1, 2, "acl"):
        assert compile_figures(folder, files, page, across=width_in >= 5) == [], (page, files)
    if runs == 100:
        assert len(files) > 1
        # the picture whole would not go in: the test sees a figure too tall
        whole = folder / "whole"
        whole.mkdir()
        from scorer.display import plot
        import matplotlib
        view = fake_track(runs=runs, queries=3, seed=runs, names=[
            f"team{i:03d}_system-with-a-rather-long-descriptive-name_v{i:02d}_final"
            for i in range(runs)])
        with matplotlib.rc_context(plot.RC):
            (whole / "all.pdf").write_bytes(plot._render(plot.leaderboard_figure(view, width_in),
                                                         "pdf"))
        assert "Float too large" in compile_figures(whole, ["all.pdf"], 1, across=False)
