"""The leaderboard picture's layout, measured with matplotlib's own renderer:
no text past the figure's edges and no run name over another, at one- and
two-column widths, with 100 runs and 60-character names; the signature whole,
broken only between its parts; the metric named once; no empty band; the rank
range and group beside each run when the leaderboard has them; a vector PDF
beside the PNG and SVG."""
from __future__ import annotations

import dataclasses
import functools
from pathlib import Path

import matplotlib
import pandas as pd
import pytest
from matplotlib.text import Text

from scorer.display import plot

from trackviews import fake_track

HOSTILE = ["plain", "a&b $x$ 50%", "{braces}~^\\", "<script>x</script>", "ünï cødé",
           "x" * 60, "team007_system-with-a-rather-long-descriptive-name_v07_final", "Mu"]
LONG_NAMES = [f"team{i:03d}_system-with-a-rather-long-descriptive-name_v{i:02d}_final"
              for i in range(100)]
#: The largest stretch (pt) from top to bottom that nothing drawn covers.
MOST_EMPTY_PT = plot.GAP_PT + plot.MARGIN_PT


def with_ranks_and_groups(view):
    runs = len(view.runs)
    board = view.leaderboard.assign(
        rank_low=[max(1, i) for i in range(runs)],
        rank_high=[min(runs, i + 2) for i in range(runs)],
        group=[1 + i // 3 for i in range(runs)])
    return dataclasses.replace(view, leaderboard=board)


CASES = {
    "hostile names": lambda: fake_track(runs=len(HOSTILE), queries=4, seed=1, names=HOSTILE),
    "100 runs, 60-character names": lambda: fake_track(runs=100, queries=3, seed=2,
                                                        names=LONG_NAMES),
    "ranks and groups": lambda: with_ranks_and_groups(
        fake_track(runs=len(HOSTILE), queries=4, seed=3, names=HOSTILE)),
    "no samples": lambda: fake_track(runs=4, queries=4, seed=4, samples=False),
    "one run": lambda: fake_track(runs=1, queries=4, seed=5),
}


def laid_out(view, width_in):
    with matplotlib.rc_context(plot.RC):
        figure = plot.leaderboard_figure(view, width_in)
        renderer = figure.canvas.get_renderer()
        figure.draw(renderer)
    return figure, renderer


@functools.lru_cache(maxsize=None)
def laid_out_case(case: str, width_in: float):
    """The figure of a case (drawn once for the tests that look at it)."""
    return (CASES[case](),) + laid_out(CASES[case](), width_in)


def drawn_texts(figure, renderer) -> list:
    """(text, extent in display units) of every text drawn."""
    axes = figure.axes[0]
    ticks = set()
    for axis in (axes.xaxis, axes.yaxis):
        # only the ticks inside the view limits are drawn
        for tick in axis._update_ticks():
            ticks.update({tick.label1, tick.label2})
    found = []
    for text in figure.findobj(Text):
        if not text.get_visible() or not text.get_text():
            continue
        if text in {t for axis in (axes.xaxis, axes.yaxis) for tick in axis.get_major_ticks()
                    for t in (tick.label1, tick.label2)} and text not in ticks:
            continue
        found.append((text.get_text(), text.get_window_extent(renderer)))
    return found


@pytest.mark.slow
@pytest.mark.parametrize("width", [plot.TWO_COLUMN_IN, plot.ONE_COLUMN_IN])
@pytest.mark.parametrize("case", list(CASES))
def test_no_text_passes_the_edges_and_no_name_covers_another(case, width):
    view, figure, renderer = laid_out_case(case, width)
    assert figure.get_figwidth() == width
    box = figure.bbox           # display units, as the extents
    texts = drawn_texts(figure, renderer)
    assert texts
    for text, extent in texts:
        assert extent.x0 >= box.x0 - 0.5 and extent.x1 <= box.x1 + 0.5, text
        assert extent.y0 >= box.y0 - 0.5 and extent.y1 <= box.y1 + 0.5, text
    # everything drawn (axes, legend, texts) inside too
    tight = figure.get_tightbbox(renderer)
    assert tight.x0 >= -0.01 and tight.y0 >= -0.01
    assert tight.x1 <= figure.get_figwidth() + 0.01 and tight.y1 <= figure.get_figheight() + 0.01

    # every run name whole on the axis (broken over lines where it may break),
    # and no two names overlapping
    axes = figure.axes[0]
    labels = axes.get_yticklabels()
    # (a run scored despite errors has a '*' after its name, one not scored says so)
    shown = [run + ("*" if run in view.scored_with_errors() else "")
             + (" (not scored)" if pd.isna(score) else "")
             for run, score in zip(view.runs, view.leaderboard["score"])]
    assert [label.get_text().replace("\n", "") for label in labels] == \
        [name.replace(" ", "") if "\n" in label.get_text() else name
         for name, label in zip(shown, labels)]
    extents = [label.get_window_extent(renderer) for label in labels]
    for upper, lower in zip(extents, extents[1:]):
        assert lower.y1 <= upper.y0 + 0.5


@pytest.mark.slow
@pytest.mark.parametrize("width", [plot.TWO_COLUMN_IN, plot.ONE_COLUMN_IN])
@pytest.mark.parametrize("case", list(CASES))
def test_no_empty_band_from_top_to_bottom(case, width):
    _view, figure, renderer = laid_out_case(case, width)
    scale = 72.0 / figure.dpi
    spans = [(extent.y0, extent.y1) for _text, extent in drawn_texts(figure, renderer)]
    spans.append((figure.axes[0].get_window_extent(renderer).y0,
                  figure.axes[0].get_window_extent(renderer).y1))
    spans += [(legend.get_window_extent(renderer).y0, legend.get_window_extent(renderer).y1)
              for legend in figure.legends]
    covered_to = figure.bbox.y0
    widest = 0.0
    for low, high in sorted(spans):
        widest = max(widest, (low - covered_to) * scale)
        covered_to = max(covered_to, high)
    widest = max(widest, (figure.bbox.y1 - covered_to) * scale)
    assert widest <= MOST_EMPTY_PT


def test_the_signature_is_whole_in_the_footnote_broken_only_between_its_parts():
    signature = ("scorer:0.1.0|task:fever|policy:5d46c3fad893|metric:strict_score|"
                 "samples:a87ab3138f53|B:10000|compare:all|trials:10000|seed:7|"
                 "queries:/a/rather/long/path/to/the/queries/file/of/this/track.txt")
    view = dataclasses.replace(fake_track(runs=4, queries=4, seed=6), signature=signature)
    for width in (plot.TWO_COLUMN_IN, plot.ONE_COLUMN_IN):
        figure, renderer = laid_out(view, width)
        footnotes = [t for t in figure.texts if "signature: " in t.get_text()]
        assert len(footnotes) == 1
        lines = footnotes[0].get_text().split("\n")
        # (above it, the note on the run scored despite errors that fake_track has)
        lines = lines[next(i for i, line in enumerate(lines) if line.startswith("signature: ")):]
        assert "".join(lines) == "signature: " + signature
        assert len(lines) > 1 and all(line.endswith("|") for line in lines[:-1])
        assert footnotes[0].get_window_extent(renderer).x1 <= figure.bbox.x1


@pytest.mark.parametrize("title, metric", [("FEVER strict_score", "strict_score"),
                                           ("LDC-MEAN macro AP, all hops", "ldcmean_ap")])
def test_the_metric_is_named_once(title, metric):
    view = dataclasses.replace(fake_track(runs=3, queries=4, seed=7), metric_title=title,
                               signature=f"scorer:0.1.0|metric:{metric}|seed:1")
    view = dataclasses.replace(view, leaderboard=view.leaderboard.assign(metric=metric),
                               significance=view.significance.assign(metric=metric),
                               metric=metric)
    figure, renderer = laid_out(view, plot.TWO_COLUMN_IN)
    texts = [text for text, _extent in drawn_texts(figure, renderer)
             if not text.startswith("signature: ")]
    assert sum(text.count(metric) for text in texts) == 1
    assert sum(text.count(title) for text in texts) == 1


def test_rank_ranges_and_groups_stand_beside_each_run():
    view = with_ranks_and_groups(fake_track(runs=7, queries=4, seed=8))
    figure, renderer = laid_out(view, plot.ONE_COLUMN_IN)
    axes = figure.axes[0]
    beside = {}
    for annotation in axes.texts:
        beside.setdefault(annotation.xy[1], []).append(annotation.get_text())
    board = view.leaderboard
    for i in range(7):
        low, high = board["rank_low"][i], board["rank_high"][i]
        assert beside[i] == [str(low) if low == high else f"{low}\u2013{high}",
                             str(board["group"][i])]
    assert beside[-0.5] == ["ranks", "group"]
    # every other group on a band: groups 2 (rows 3-5) shaded, 1 and 3 not
    bands = [patch for patch in axes.patches]
    assert len(bands) == 3


@pytest.mark.slow
def test_the_pdf_is_a_vector_file_with_embedded_truetype_fonts(tmp_path):
    view = fake_track(runs=6, queries=4, seed=9, names=HOSTILE[:6])
    paths = [tmp_path / f"lb.{ext}" for ext in ("png", "svg", "pdf")]
    plot.leaderboard_plot(view, *map(str, paths), width_in=plot.ONE_COLUMN_IN)
    pdf = paths[2].read_bytes()
    assert pdf.startswith(b"%PDF-") and b"/Type3" not in pdf and b"/FontFile2" in pdf
    assert b"/Subtype /Image" not in pdf   # drawn, not a picture of a drawing
    assert b"CreationDate" not in pdf and b"Producer" not in pdf
    first = pdf
    plot.leaderboard_plot(view, *map(str, paths), width_in=plot.ONE_COLUMN_IN)
    assert paths[2].read_bytes() == first


@pytest.mark.parametrize("width", ["1", "41", "wide", "nan", ""])
def test_a_width_out_of_range_is_refused_saying_what_to_give(width):
    with pytest.raises(ValueError, match="3.3.*7"):
        plot.check_width(width)


# -- parts for a paper: none taller than a page ---------------------------------------

@functools.lru_cache(maxsize=None)
def parts_of(case: str, width_in: float):
    view = CASES[case]()
    with matplotlib.rc_context(plot.RC):
        whole, parts = plot.leaderboard_figures(view, width_in)
        drawn = []
        for part in parts:
            renderer = part.canvas.get_renderer()
            part.draw(renderer)
            drawn.append((part, renderer))
    return view, whole, drawn


@pytest.mark.slow
@pytest.mark.parametrize("width", [plot.TWO_COLUMN_IN, plot.ONE_COLUMN_IN])
@pytest.mark.parametrize("case", ["100 runs, 60-character names", "ranks and groups",
                                  "one run"])
def test_each_part_is_a_whole_figure_no_taller_than_a_page(case, width):
    """The parts hold every run once, in rank order, each no taller than a page;
    each is laid out as the whole is (nothing cut, no name over another), with
    the score axis on one scale, the legend and the signature."""
    view, whole, drawn = parts_of(case, width)
    most_pt = plot.part_height_pt(width)
    if whole.get_figheight() * 72 <= most_pt:
        assert [part for part, _renderer in drawn] == [whole]
    names = []
    for number, (part, renderer) in enumerate(drawn, 1):
        assert part.get_figwidth() == width
        assert part.get_figheight() * 72 <= most_pt + 0.01
        tight = part.get_tightbbox(renderer)
        assert tight.x0 >= -0.01 and tight.y0 >= -0.01
        assert tight.x1 <= width + 0.01 and tight.y1 <= part.get_figheight() + 0.01
        axes = part.axes[0]
        labels = [label.get_text().replace("\n", "") for label in axes.get_yticklabels()]
        names += labels
        extents = [label.get_window_extent(renderer) for label in axes.get_yticklabels()]
        for upper, lower in zip(extents, extents[1:]):
            assert lower.y1 <= upper.y0 + 0.5
        assert {label.get_fontsize() for label in axes.get_yticklabels()} == {8.0}
        # one scale, one place across the page: the plots line up
        assert axes.get_xlim() == whole.axes[0].get_xlim()
        assert axes.get_position().x0 == pytest.approx(drawn[0][0].axes[0].get_position().x0)
        assert axes.get_position().x1 == pytest.approx(drawn[0][0].axes[0].get_position().x1)
        texts = [text.get_text() for text in part.texts]
        footnote = [text for text in texts if "signature: " in text]
        assert len(footnote) == 1
        assert "".join(footnote[0].split("signature: ")[1].split("\n")) == view.signature
        if len(drawn) > 1:
            assert f"Part {number} of {len(drawn)}: " in footnote[0]
        assert any(view.metric in text.replace("\n", "") for text in texts)
        assert len(part.legends) == 1
        assert [t.get_text() for t in part.legends[0].get_texts()] == \
            [t.get_text() for t in whole.legends[0].get_texts()]
    shown = [run + ("*" if run in view.scored_with_errors() else "") for run in view.runs]
    assert [name.replace(" ", "") for name in names] == [name.replace(" ", "") for name in shown]


def test_parts_share_the_runs_evenly():
    _view, _whole, drawn = parts_of("100 runs, 60-character names", plot.TWO_COLUMN_IN)
    counts = [len(part.axes[0].get_yticklabels()) for part, _renderer in drawn]
    assert len(counts) > 1 and sum(counts) == 100 and max(counts) - min(counts) <= 1


@pytest.mark.slow
def test_the_parts_are_written_as_numbered_pdfs_and_replace_an_earlier_track(tmp_path):
    from scorer.display.files import PART_NAME
    from scorer.track.folder import check_output_dir
    view = fake_track(runs=12, queries=3, seed=2, names=LONG_NAMES[:12])
    paths = [tmp_path / f"leaderboard.{ext}" for ext in ("png", "svg", "pdf")]
    written = plot.leaderboard_plot(view, *map(str, paths), width_in=plot.ONE_COLUMN_IN)
    expected = ["leaderboard.pdf"] + [f"leaderboard-{n}.pdf" for n in range(2, len(written) + 1)]
    assert [Path(path).name for path in written] == expected and len(written) > 1
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(expected + ["leaderboard.png",
                                                                            "leaderboard.svg"])
    for path in written:
        assert Path(path).read_bytes().startswith(b"%PDF-")
    check_output_dir(str(tmp_path))    # an earlier track's parts may be replaced
    assert [bool(PART_NAME.match(name)) for name in (
        "leaderboard-2.pdf", "leaderboard-17.pdf", "leaderboard-1.pdf", "leaderboard-02.pdf",
        "leaderboard-2.png", "leaderboard-x.pdf")] == [True, True, False, False, False, False]


@pytest.mark.parametrize("runs", [8, 23])
def test_a_very_narrow_figure_is_not_cut_into_a_part_a_run(runs):
    """At 2 inches the legend and footnote alone nearly fill a page's height:
    one part for every five runs at most, each as laid out as any other."""
    view = fake_track(runs=runs, queries=3, seed=4, names=(LONG_NAMES + HOSTILE)[:runs])
    with matplotlib.rc_context(plot.RC):
        _whole, parts = plot.leaderboard_figures(view, 2.0)
        assert 1 < len(parts) <= -(-runs // plot.MIN_PART_RUNS)
        counts = [len(part.axes[0].get_yticklabels()) for part in parts]
        assert sum(counts) == runs and max(counts) - min(counts) <= 1
        for part in parts:
            renderer = part.canvas.get_renderer()
            part.draw(renderer)
            tight = part.get_tightbbox(renderer)
            assert tight.x0 >= -0.01 and tight.x1 <= 2.0 + 0.01
            assert tight.y0 >= -0.01 and tight.y1 <= part.get_figheight() + 0.01
