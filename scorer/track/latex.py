"""LaTeX tables laid out to fit a paper's page: text made ASCII LaTeX, widths
estimated, cells broken over lines, the first layout that fits taken, rows
spread over floats (the track's tables, ``scorer/track/papertables.py``, are
made of it).

Each table compiles with pdflatex in a document that loads ``booktabs`` and
nothing else, and is ASCII whatever the run names hold: every character LaTeX
treats specially is escaped, accented letters become LaTeX accents, anything
else is written as ``[U+XXXX]``.

The table is laid out here, from the text it holds: each cell's width is
estimated from Computer Modern's character widths (the widest common paper
font, so a Times document has room to spare), run names and column titles are
broken over lines at ``_ - . / :`` and spaces (or every few characters when they
have none), and the first layout that fits is taken:

- a ``table`` one column of a two-column page wide (``COLUMN_WIDTH_PT``), in
  the document's size, then ``\\small``;
- a ``table*`` as wide as the page's text, in the document's size, ``\\small``,
  then ``\\footnotesize``;
- then without the optional columns that matter least (the leaderboard's
  precision and recall, a pair at a time, their F1 stays; the significance
  table's p-value of the other correction, then p_bootstrap), then with run
  names broken narrower (down to ``NARROWEST_PT``), then without the other
  optional columns (the leaderboard's last metrics; p_randomization); the
  caption says which.

The page's text is as wide as a one-column page's (``TEXT_WIDTH_PT``) or a
two-column page's, which a ``table*`` spans (``WIDE_TEXT_PT``); where the two
give different layouts, both are written, and ``\\ifdim\\textwidth`` takes the
one for the document at hand (plain TeX: no package).

Rows go into floats of at most ``BODY_HEIGHT_PT`` each (a longer leaderboard
continues in the next float, its caption saying which ranks it holds), so no
float is taller than a page; the rows are shared evenly among the floats.
"""
from __future__ import annotations

import dataclasses
import functools
import unicodedata
from typing import Optional

from scorer import linebreaks

#: Column width of a two-column page (ACL 219 pt, article's twocolumn 229.5 pt).
COLUMN_WIDTH_PT = 219.0
#: A one-column page's text width (article 345 pt, LNCS 347 pt; two-column pages are wider).
TEXT_WIDTH_PT = 345.0
#: A two-column page's text width, which its ``table*`` spans (ACL 455 pt, article's
#: twocolumn 469 pt, ACM's 506 pt, IEEE's 516 pt).
WIDE_TEXT_PT = 455.0
#: The rows of one float (a page holds at least 550 pt: rows, header and caption fit).
BODY_HEIGHT_PT = 430.0
#: Room left unused for what the estimate misses (kerning, 1 % in wide tables).
SAFETY_PT = 5.0
#: Broken text is made narrower, down to this, before columns are left out.
NARROWEST_PT = 60.0
#: A word of a column title wider than this is broken inside.
TITLE_WORD_PT = 90.0



@dataclasses.dataclass(frozen=True)
class Size:
    command: str     # the font size switch ('' for the document's own)
    scale: float     # Computer Modern's widths at this size, relative to 10 pt
    tabcolsep: float  # space each side of a column, pt
    row_pt: float    # height of one line of a row, pt


SIZES = {"normal": Size("", 1.0, 6.0, 12.0), "small": Size(r"\small", 0.925, 5.0, 11.0),
         "footnote": Size(r"\footnotesize", 0.85, 4.0, 9.5)}


def layouts(text_pt: float) -> tuple:
    """The layouts tried, in order, on a page whose text is ``text_pt`` wide:
    (float, width available, size)."""
    return (("table", COLUMN_WIDTH_PT, "normal"), ("table", COLUMN_WIDTH_PT, "small"),
            ("table*", text_pt, "normal"), ("table*", text_pt, "small"),
            ("table*", text_pt, "footnote"))

# -- text -------------------------------------------------------------------------

_SPECIAL = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "_": r"\_", "&": r"\&",
            "%": r"\%", "#": r"\#", "$": r"\$", "~": r"\textasciitilde{}",
            "^": r"\textasciicircum{}", "<": r"\textless{}", ">": r"\textgreater{}",
            "|": r"\textbar{}",
            # no ligatures (-- --- `` '' ,, !` ?`), and no '[' or '*' taken as an
            # option of the '\\' before it
            "-": "-{}", "`": "{`}", "'": "{'}", ",": ",{}", "[": "{[}", "]": "{]}", "*": "{*}",
            "\u2212": "$-$", "\u2013": "--", "\u0394": r"$\Delta$",
            "\u2248": r"$\approx$", "\u2265": r"$\geq$", "\u2264": r"$\leq$",
            "\u00a0": "~", "\u2009": r"\,"}
_LETTERS = {"\u00df": r"\ss{}", "\u00e6": r"\ae{}", "\u00c6": r"\AE{}", "\u00f8": r"\o{}",
            "\u00d8": r"\O{}", "\u0153": r"\oe{}", "\u0152": r"\OE{}", "\u0142": r"\l{}",
            "\u0141": r"\L{}", "\u0131": r"\i{}", "\u00e5": r"\aa{}", "\u00c5": r"\AA{}"}
_ACCENTS = {"\u0300": "`", "\u0301": "'", "\u0302": "^", "\u0303": "~", "\u0308": '"',
            "\u0304": "=", "\u0307": ".", "\u030a": "r", "\u030b": "H", "\u030c": "v",
            "\u0306": "u", "\u0327": "c", "\u0328": "k"}

#: Computer Modern Roman 10 pt advance widths (pt) of printable ASCII, as
#: escaped here (the backslash as \textbackslash, ...), from space to '~'.
_CM_WIDTHS = (
    3.34, 2.78, 5.0, 8.34, 5.0, 8.34, 7.78, 2.78, 3.89, 3.89, 5.0, 7.78, 2.78, 3.34, 2.78, 5.0,
    5.0, 5.0, 5.0, 5.0, 5.0, 5.0, 5.0, 5.0, 5.0, 5.0, 2.78, 2.78, 7.78, 7.78, 7.78, 4.73,
    7.78, 7.5, 7.09, 7.23, 7.64, 6.81, 6.53, 7.85, 7.5, 3.62, 5.14, 7.78, 6.25, 9.17, 7.5, 7.78,
    6.81, 7.78, 7.37, 5.56, 7.23, 7.5, 7.5, 10.28, 7.5, 7.5, 6.12, 2.78, 5.0, 2.78, 5.0, 3.6,
    2.78, 5.0, 5.56, 4.45, 5.56, 4.45, 3.06, 5.0, 5.56, 2.78, 3.06, 5.28, 2.78, 8.34, 5.56, 5.0,
    5.56, 5.28, 3.92, 3.95, 3.89, 5.56, 5.28, 7.23, 5.28, 5.28, 4.45, 5.0, 2.78, 5.0, 5.0)
#: Anything else: as wide as the widest letter but one.
_WIDE_PT = 9.2


def _plain(char: str) -> Optional[str]:
    """``char`` as LaTeX when it is one character LaTeX shows (else None)."""
    if char in _SPECIAL:
        return _SPECIAL[char]
    if " " <= char <= "~":
        return char
    if char in _LETTERS:
        return _LETTERS[char]
    return None


def _escape_char(char: str) -> str:
    plain = _plain(char)
    if plain is not None:
        return plain
    if char.isspace():
        return " "
    accented = _accented(char)
    if accented is not None:
        return accented
    return f"{{[}}{_placeholder(char)}{{]}}"


def _accented(char: str) -> Optional[str]:
    """``char`` as LaTeX accents on an ASCII letter, when it is one (else None)."""
    decomposed = unicodedata.normalize("NFD", char)
    base, marks = decomposed[0], decomposed[1:]
    if not (marks and all(mark in _ACCENTS for mark in marks)
            and base.isascii() and base.isalpha()):
        return None
    text = {"i": r"\i{}", "j": r"\j{}"}.get(base, base)
    for mark in marks:
        text = f"\\{_ACCENTS[mark]}{{{text}}}"
    return text


def _placeholder(char: str) -> str:
    """What a character that LaTeX cannot show prints as, in brackets."""
    return f"U+{ord(char):04X}"


def escape(text) -> str:
    """``text`` as LaTeX that prints it (ASCII; see the module's note)."""
    return "".join(_escape_char(char) for char in str(text))


def escape_tt(text) -> str:
    """``text`` in ``\\texttt``: typewriter fonts have every ASCII character
    in its own place, taken by number (their \\text... forms are missing
    from the default encoding)."""
    out = []
    for char in str(text):
        if char in "\\{}_~^<>|$&%#":
            out.append(f"\\char{ord(char)}{{}}")
        else:
            out.append(_escape_char(char))
    return "".join(out)


def _char_pt(char: str) -> float:
    if " " <= char <= "~":
        return _CM_WIDTHS[ord(char) - 32]
    if char in "\u2212\u0394\u2248\u2265\u2264":
        return 7.78
    if char in "\u2013\u00a0":
        return 5.0
    if char == "\u2009":
        return 1.67
    if _plain(char) is None and not char.isspace() and _accented(char) is None:
        # Printed as [U+XXXX]: as wide as that text, so that a name of such
        # characters (Chinese, say) stays on one line where it fits.
        return width_pt(f"[{_placeholder(char)}]")
    plain = unicodedata.normalize("NFD", char)[0]
    if plain != char and " " <= plain <= "~":
        return _CM_WIDTHS[ord(plain) - 32]
    return _WIDE_PT if _plain(char) is not None else 5.0


def width_pt(text: str) -> float:
    """The estimated width of ``text`` at 10 pt Computer Modern Roman."""
    return sum(_char_pt(char) for char in text)


@functools.lru_cache(maxsize=4096)
def _balanced(text: str, most_pt: float) -> list:
    # (a cell is laid out again for every layout tried)
    return linebreaks.balanced(text, most_pt, width_pt)


def wrap(text: str, most_pt: float) -> list:
    """``text`` in lines at most ``most_pt`` wide (estimated), broken where it may break."""
    return linebreaks.wrap(text, most_pt, width_pt)


# -- tables -----------------------------------------------------------------------

@dataclasses.dataclass
class Column:
    title: str
    cells: list               # plain text of each row
    align: str = "r"          # "l" or "r"
    wrap_pt: Optional[float] = None  # cells wider than this are broken over lines
    #: the column's name in the caption when it is left out for width ('' never is)
    optional: str = ""
    #: the higher, the sooner it is left out (ties: the last first)
    priority: int = 1
    #: optional columns with the same key are left out together (a precision
    #: and its recall); '' for none
    together: str = ""

    def lines(self) -> list:
        """Each cell as its lines."""
        if self.wrap_pt is None:
            return [[cell] for cell in self.cells]
        return [_balanced(cell, self.wrap_pt) for cell in self.cells]

    def body_pt(self) -> float:
        return max([width_pt(line) for cell in self.lines() for line in cell] or [0.0])

    def title_lines(self) -> list:
        """The title's lines ("\\n" forces one): at most two a part where its
        words allow, no wider than that needs unless the values are wider."""
        lines = []
        for part in self.title.split("\n"):
            pieces = linebreaks.pieces(part, TITLE_WORD_PT, width_pt)
            halves = [max(width_pt("".join(pieces[:cut]).rstrip()),
                          width_pt("".join(pieces[cut:]).rstrip()))
                      for cut in range(1, len(pieces))]
            most = max([self.body_pt(), min(halves or [width_pt(part)])]
                       + [width_pt(piece.rstrip()) for piece in pieces])
            lines += wrap(part, most)
        return lines

    def width_pt(self) -> float:
        return max([self.body_pt()] + [width_pt(line) for line in self.title_lines()])


def _stacked(lines: list, align: str, vertical: str) -> str:
    if len(lines) == 1:
        return escape(lines[0])
    return (f"\\begin{{tabular}}[{vertical}]{{@{{}}{align}@{{}}}}"
            + r"\\".join(escape(line) for line in lines) + r"\end{tabular}")


@dataclasses.dataclass
class Layout:
    float: str
    size: Size
    columns: list
    left_out: list            # names of the columns left out for width


def table_width_pt(columns: list, size: Size) -> float:
    return sum(c.width_pt() * size.scale + 2 * size.tabcolsep for c in columns)


def _fewer(columns: list, least_priority: int = 1) -> list:
    """The columns with one optional column fewer: the last of the highest
    priority (at least ``least_priority``), with those that go with it; None
    when none is left."""
    optional = [c for c in columns if c.optional and c.priority >= least_priority]
    if not optional:
        return None
    top = max(c.priority for c in optional)
    last = [c for c in optional if c.priority == top][-1]
    dropped = [c for c in optional if c is last or (
        last.together and c.together == last.together and c.priority == top)]
    return [c for c in columns if not any(c is d for d in dropped)]


def _narrower(columns: list) -> list:
    """The columns with their broken text (run names) a fifth narrower; None
    when they are as narrow as NARROWEST_PT already."""
    if not any(c.wrap_pt is not None and c.wrap_pt > NARROWEST_PT for c in columns):
        return None
    return [dataclasses.replace(c, wrap_pt=max(NARROWEST_PT, c.wrap_pt * 0.8))
            if c.wrap_pt is not None else c for c in columns]


def layout(columns: list, text_pt: float = TEXT_WIDTH_PT) -> Layout:
    """The first layout that fits a page whose text is ``text_pt`` wide (see
    the module's note)."""
    current = list(columns)
    while True:
        shown = {c.optional for c in current}
        left_out = [c.optional for c in columns if c.optional and c.optional not in shown]
        for float_name, available, size_name in layouts(text_pt):
            size = SIZES[size_name]
            if table_width_pt(current, size) <= available - SAFETY_PT:
                return Layout(float_name, size, _widened(current, size, available), left_out)
        # the columns that matter least, then narrower names, then any optional column
        smaller = _fewer(current, 2) or _narrower(current) or _fewer(current)
        if smaller is None:  # nothing left to narrow or leave out: as wide as it is
            return Layout("table*", SIZES["footnote"], current, left_out)
        current = smaller


def _widened(columns: list, size: Size, available: float) -> list:
    """The columns with broken text (run names) given the room the others
    leave, each no wider than its widest cell whole: fewer lines a row."""
    wrapped = [c for c in columns if c.wrap_pt is not None]
    spare = (available - SAFETY_PT - table_width_pt(columns, size)) / size.scale
    if not wrapped or spare <= 0:
        return columns
    share = spare / len(wrapped)
    wider = [dataclasses.replace(c, wrap_pt=min(c.width_pt() + share, max(
        [width_pt(cell) for cell in c.cells] + [c.wrap_pt])))
             if c.wrap_pt is not None else c for c in columns]
    fits = table_width_pt(wider, size) <= available - SAFETY_PT
    return wider if fits else columns


def _chunks(columns: list, size: Size, first_pt: float) -> list:
    """Row indices per float: as few floats as rows of at most BODY_HEIGHT_PT
    need, of even heights (21 rows that need two floats go 11 and 10, not 20
    and a float of one row)."""
    lines = [c.lines() for c in columns]
    rows = len(columns[0].cells) if columns else 0
    talls = [max(len(cells[row]) for cells in lines) * size.row_pt for row in range(rows)]
    greedy = _filled(talls, first_pt, BODY_HEIGHT_PT)
    low = first_pt + max(talls, default=0.0)
    if len(greedy) < 2 or low > BODY_HEIGHT_PT:
        return greedy
    # Cut where the running height crosses each k-th of the whole ...
    count, total = len(greedy), sum(talls)
    running = [0.0]
    for tall in talls:
        running.append(running[-1] + tall)
    cuts = [0]
    for part in range(1, count):
        target = total * part / count
        cut = next(i for i, height in enumerate(running) if height >= target)
        if cut > cuts[-1] + 1 and target - running[cut - 1] < running[cut] - target:
            cut -= 1
        cuts.append(max(cut, cuts[-1] + 1))
    cuts.append(len(talls))
    even = [list(range(a, b)) for a, b in zip(cuts, cuts[1:])]
    if all(a < b for a, b in zip(cuts, cuts[1:])) and all(
            first_pt + running[b] - running[a] <= BODY_HEIGHT_PT for a, b in zip(cuts, cuts[1:])):
        return even
    # ... else (rows of very different heights) the lowest height limit that
    # needs no more floats than the page's does
    high = BODY_HEIGHT_PT
    for _step in range(40):
        middle = (low + high) / 2
        if len(_filled(talls, first_pt, middle)) <= count:
            high = middle
        else:
            low = middle
    return _filled(talls, first_pt, high)


def _filled(talls: list, first_pt: float, limit_pt: float) -> list:
    """Rows into floats in order, each float as full as ``limit_pt`` allows."""
    chunks, current, height = [], [], first_pt
    for row, tall in enumerate(talls):
        if current and height + tall > limit_pt:
            chunks.append(current)
            current, height = [], first_pt
        current.append(row)
        height += tall
    if current or not chunks:
        chunks.append(current)
    return chunks


HEADER = "% Written by python -m scorer.track. Needs \\usepackage{booktabs}."


def render(columns: list, caption, label: str, continued) -> str:
    """The floats of a table: ``caption(metrics left out)`` (LaTeX) under the
    first, ``continued(rows)`` (LaTeX) under each further one; ``\\label{label}``
    on the first.  Where a two-column page's ``table*`` (WIDE_TEXT_PT) gives
    another layout than a one-column page (TEXT_WIDTH_PT), both are written and
    TeX takes the one for the document's ``\\textwidth`` (no package needed)."""
    narrow = _floats(layout(columns, TEXT_WIDTH_PT), caption, label, continued)
    wide = _floats(layout(columns, WIDE_TEXT_PT), caption, label, continued)
    if narrow == wide:
        return "\n".join([HEADER] + narrow) + "\n"
    return "\n".join(
        [HEADER,
         f"% Two layouts, for the document's text width: narrower than {WIDE_TEXT_PT:g} pt (a",
         f"% one-column page, {TEXT_WIDTH_PT:g} pt), then at least that (a two-column page, whose",
         "% table* spans both columns: ACL 455 pt, article 469 pt).",
         f"\\ifdim\\textwidth<{WIDE_TEXT_PT:g}pt"] + narrow + ["\\else"] + wide + ["\\fi"]) + "\n"


def _floats(chosen: Layout, caption, label: str, continued) -> list:
    """The lines of the floats of one layout (see :func:`render`)."""
    columns, size = chosen.columns, chosen.size
    lines = [c.lines() for c in columns]
    titles = [c.title_lines() for c in columns]
    title_pt = max((len(t) for t in titles), default=1) * size.row_pt
    chunks = _chunks(columns, size, title_pt)
    spec = "".join(c.align for c in columns)
    head = " & ".join(_stacked(t, c.align, "b") for t, c in zip(titles, columns)) + r" \\"
    out = []
    for number, rows in enumerate(chunks):
        body = [" & ".join(_stacked(cells[row], c.align, "t") for cells, c in zip(lines, columns))
                + r" \\" for row in rows]
        text = caption(chosen.left_out) if number == 0 else continued(rows)
        out += [f"\\begin{{{chosen.float}}}[tbp]", r"\centering"]
        inner = ([size.command] if size.command else []) + (
            [f"\\setlength{{\\tabcolsep}}{{{size.tabcolsep:g}pt}}"] if size.tabcolsep != 6.0
            else [])
        out += ["{" + "".join(inner)] if inner else []
        out += [f"\\begin{{tabular}}{{{spec}}}", r"\toprule", head, r"\midrule"] + body + [
            r"\bottomrule", r"\end{tabular}"]
        out += ["\\par}"] if inner else []
        out += [f"\\caption{{{text}}}"]
        if number == 0:
            out.append(f"\\label{{{label}}}")
        out.append(f"\\end{{{chosen.float}}}")
    return out
