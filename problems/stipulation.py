"""Stipulations: what a problem asks, parsed from Popeye's notation.

``#3`` (white mates in at most 3), ``=2`` (white stalemates black in at most 2),
``h#2`` (black starts, the two sides help white mate on white's 2nd move), ``h#2.5``
(white starts: one more half-move), ``h=2``, ``s#2`` (white forces black to mate white).

>>> parse_stipulation("h#2.5")
Stipulation(kind='help', goal='mate', moves=2, half=True)
>>> parse_stipulation("s#2").plies
4
>>> parse_stipulation("h#2").first_mover
0
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

MAX_MOVES: Final = 12  # longest stipulation accepted (moves): deeper ones would not finish
DIRECT: Final = "direct"
HELP: Final = "help"
SELF: Final = "self"
MATE: Final = "mate"
STALEMATE: Final = "stalemate"
_KINDS: Final = {"": DIRECT, "h": HELP, "s": SELF}
_GOALS: Final = {"#": MATE, "=": STALEMATE}
_RE: Final = re.compile(r"([hs]?)([#=])(\d+)(\.5)?")


class StipulationError(ValueError):
    """A stipulation outside the supported set (``#n``, ``=n``, ``h#n``, ``h#n.5``, ``h=n``, ``s#n``)."""


@dataclass(frozen=True)
class Stipulation:
    """``kind`` direct, help or self; ``goal`` mate or stalemate; ``moves`` n; ``half`` the .5."""

    kind: str
    goal: str
    moves: int
    half: bool = False

    @property
    def plies(self) -> int:
        """Half-moves of a full solution (helpmates: exactly; the others: at most)."""
        return 2 * self.moves + (1 if self.half else 0) - (1 if self.kind == DIRECT else 0)

    @property
    def first_mover(self) -> int:
        """1 (white) or 0 (black): the side that moves first."""
        return 0 if self.kind == HELP and not self.half else 1

    def __str__(self) -> str:
        prefix = {DIRECT: "", HELP: "h", SELF: "s"}[self.kind]
        sign = "#" if self.goal == MATE else "="
        return f"{prefix}{sign}{self.moves}{'.5' if self.half else ''}"


def parse_stipulation(text: str) -> Stipulation:
    """The stipulation written ``text``; raises ``StipulationError`` naming what is wrong."""
    match = _RE.fullmatch(text.strip().lower())
    if not match:
        raise StipulationError(f"unsupported stipulation {text!r} (supported: #n =n h#n h#n.5 h=n s#n)")
    kind, goal, number, half = match.groups()
    moves = int(number)
    if half and kind != "h":
        raise StipulationError(f"stipulation {text!r}: only helpmates take a half move (.5)")
    if kind == "s" and goal == "=":
        raise StipulationError(f"unsupported stipulation {text!r} (supported: #n =n h#n h#n.5 h=n s#n)")
    if moves > MAX_MOVES:
        raise StipulationError(f"stipulation {text!r}: at most {MAX_MOVES} moves are solved")
    if moves < 1 and not half:
        raise StipulationError(f"stipulation {text!r}: at least one move")
    return Stipulation(_KINDS[kind], _GOALS[goal], moves, bool(half))
