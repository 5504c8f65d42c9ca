"""Breaking a name (a run name, a column title, a signature) over lines no
wider than a given width, for any way of measuring text: the LaTeX tables
measure Computer Modern, the pictures ask matplotlib.

A name breaks after ``_ - . / : ; , |`` or a space; a piece still too wide is
cut where it must.  No character is lost: the lines joined give the name back
(spaces at the breaks aside).
"""
from __future__ import annotations

from typing import Callable

#: A line may end after these.
BREAK_AFTER = "_-./:;,| "


def pieces(text: str, most: float, measure: Callable[[str], float]) -> list:
    """``text`` cut where it may break (each piece ends with its breaking
    character), pieces wider than ``most`` cut further where they must."""
    found, current = [], ""
    for char in text:
        current += char
        if char in BREAK_AFTER:
            found.append(current)
            current = ""
    if current:
        found.append(current)
    # a piece of one or two characters stays with the next ('p_' of 'p_holm')
    glued: list = []
    for piece in found:
        if glued and len(glued[-1]) <= 2 and glued[-1][-1] in BREAK_AFTER:
            glued[-1] += piece
        else:
            glued.append(piece)
    out = []
    for piece in glued:
        while len(piece) > 1 and measure(piece) > most:
            # the longest head that fits (at least one character)
            low, high = 1, len(piece) - 1
            while low < high:
                middle = (low + high + 1) // 2
                if measure(piece[:middle]) <= most:
                    low = middle
                else:
                    high = middle - 1
            out.append(piece[:low])
            piece = piece[low:]
        out.append(piece)
    return out


def wrap(text: str, most: float, measure: Callable[[str], float]) -> list:
    """``text`` in lines at most ``most`` wide, broken where it may break;
    a line neither starts nor ends with a space."""
    lines, current = [], ""
    for piece in pieces(str(text), most, measure):
        if current and measure(current + piece.rstrip()) > most:
            lines.append(current.rstrip())
            current = piece.lstrip()
        else:
            # (a line after a break starts without its spaces)
            current += piece.lstrip() if lines and not current else piece
    if current.strip() or not lines:
        lines.append(current.rstrip())
    return lines


def balanced(text: str, most: float, measure: Callable[[str], float]) -> list:
    """As :func:`wrap`, in as many lines or fewer, each about as short as that
    allows (no last line of one character under a full one)."""
    lines = wrap(text, most, measure)
    if len(lines) < 2:
        return lines
    best = lines
    low, high = 0.0, max(measure(line) for line in lines)
    for _step in range(12):         # to within 1/4096 of the width
        middle = (low + high) / 2
        tried = wrap(text, middle, measure)
        # (cuts inside words make the count not quite monotone: keep the best seen)
        if len(tried) <= len(lines):
            high = middle
            if max(map(measure, tried)) <= max(map(measure, best)):
                best = tried
        else:
            low = middle
    return best
