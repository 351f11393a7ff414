"""Arrows and circles drawn on the boards, and how they are kept in PGN (``[%cal]``, ``[%csl]``).

A shape is a colour letter (``G`` green, ``R`` red, ``B`` blue, ``Y`` yellow) and one square
(a circle) or two (an arrow from the first to the second), as lichess writes them. Alice
has two boards, so a square names its board the way the 16-wide FEN (and the XBoard front
end) does: files ``a``-``h`` are board A, files ``i``-``p`` board B (``m4`` is e4 on board
B). An arrow stays on one board.

In PGN the shapes of a position go into the comment of the move that led to it (the game
comment for the start position), board A's and board B's in separate annotations: a reader
that knows only ``a``-``h`` squares (python-chess's ``arrows()``) takes board A's arrows
and passes over board B's, and reads the game either way.

>>> parse_shapes(["Ge2e4", "Rm4", "Ye4", "Gm2m4"])
('Ge2e4', 'Rm4', 'Ye4', 'Gm2m4')
>>> shapes_annotation(("Ge2e4", "Rm4", "Ye4", "Gm2m4"))
'[%csl Ye4][%cal Ge2e4][%csl Rm4][%cal Gm2m4]'
>>> read_shapes("a note [%cal Ge2e4][%csl Rm4] more")
(('Ge2e4', 'Rm4'), 'a note more')
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

MAX_SHAPES = 64  # shapes on one position: more is not a drawing
COLOURS = "GRBY"
_SHAPE = re.compile(r"^([GRBY])([a-p][1-8])([a-p][1-8])?$")
_ANNOTATION = re.compile(r"\s?\[%(csl|cal)\s+([^\]]*)\]\s?")
_SPACES = re.compile(r"[ \t]{2,}")


class ShapeError(ValueError):
    """A shape that is not a colour and one or two squares of one board."""


def board_of(square: str) -> str:
    """``"A"`` for files a-h, ``"B"`` for i-p.

    >>> board_of("e4"), board_of("m4")
    ('A', 'B')
    """
    return "A" if square[0] <= "h" else "B"


def shape_error(text: Any) -> str | None:
    """Why ``text`` is not a shape, or ``None`` if it is one."""
    if not isinstance(text, str):
        return "a shape must be a string like Ge2e4 (an arrow) or Re4 (a circle)"
    match = _SHAPE.match(text)
    if match is None:
        return f"{text[:20]!r} is not a shape: a colour (G, R, B, Y) and one or two squares (a-h board A, i-p board B)"
    start, end = match.group(2), match.group(3)
    if end is not None and board_of(start) != board_of(end):
        return f"{text}: an arrow stays on one board"
    if end == start:
        return f"{text}: an arrow needs two different squares"
    return None


def parse_shapes(items: Any) -> tuple[str, ...]:
    """A list of shape strings checked (``ShapeError`` otherwise), duplicates dropped."""
    if not isinstance(items, list):
        raise ShapeError("shapes must be a list like [\"Ge2e4\", \"Rm4\"]")
    if len(items) > MAX_SHAPES:
        raise ShapeError(f"at most {MAX_SHAPES} shapes on one position")
    out: list[str] = []
    for item in items:
        error = shape_error(item)
        if error is not None:
            raise ShapeError(error)
        if item not in out:
            out.append(item)
    return tuple(out)


def shapes_annotation(shapes: Sequence[str]) -> str:
    """The PGN annotations of ``shapes``: circles and arrows of board A, then of board B."""
    parts = []
    for board in "AB":
        circles = [s for s in shapes if len(s) == 3 and board_of(s[1:]) == board]
        arrows = [s for s in shapes if len(s) == 5 and board_of(s[1:]) == board]
        if circles:
            parts.append(f"[%csl {','.join(circles)}]")
        if arrows:
            parts.append(f"[%cal {','.join(arrows)}]")
    return "".join(parts)


def read_shapes(comment: str) -> tuple[tuple[str, ...], str]:
    """The shapes annotated in a PGN comment (those that are not shapes passed over) and the
    comment without the annotations."""
    found: list[str] = []
    for match in _ANNOTATION.finditer(comment):
        for item in match.group(2).split(","):
            item = item.strip()
            if shape_error(item) is None and item not in found:
                found.append(item)
    if not _ANNOTATION.search(comment):
        return (), comment
    return tuple(found[:MAX_SHAPES]), _SPACES.sub(" ", _ANNOTATION.sub(" ", comment)).strip()
