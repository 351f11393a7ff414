"""Endings by name, the symmetries Alice keeps, and the index of a position in a table.

A piece is a pair ``(code, slot)``: ``code`` is the engine's piece type and colour
(``ptype | colour << 3``, no board bit) and ``slot`` is ``square | board << 6`` (0..127). An
ending is named by the pieces of each side, the stronger side first and white in its table:
``KQK``, ``KRKN``, ``KPK``. Its table lists the white king first, then white's other pieces,
the black king, black's other pieces (each side in the order Q R B N P).

The symmetries: the same mirror applied to both boards (left-right always; up-down and the
diagonals too without pawns) and the board swap A <-> B (every piece to the other board: the
rules treat both boards alike, and castling, the only asymmetry, is never possible in these
endings). The index puts the white king on board A and in the fundamental region of the
mirrors: the triangle a1-d1-d4 (10 squares) without pawns, files a-d (32 squares) with them.

    index = ((stm * kings + king_slot) * 128 + slot_2) * 128 + ... + slot_n

so a table of ``n`` pieces holds ``2 * kings * 128 ** (n - 1)`` values (a slot a piece cannot
have, such as another piece's square, is an illegal entry).

>>> e = ending("KQK")
>>> e.size
327680
>>> locate([(14, 4), (13, 3), (6, 60)], 1)[0]
'KQK'
>>> locate([(6, 4), (5, 3), (14, 60)], 0)[0]  # black has the queen: white's table, mirrored
'KQK'
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import combinations, combinations_with_replacement
from typing import Final

KING: Final = 6
PAWN: Final = 1
WHITE: Final = 8  # the colour bit of a piece code
SLOTS: Final = 128  # 64 squares x 2 boards
LETTERS: Final = " PNBRQK"  # piece type -> letter (index = engine ptype)
ORDER: Final = "KQRBNP"  # the order of a side's pieces in a name and in a table
EXTRA_PIECES: Final = "QRBNP"  # what can stand beside the two kings

Placement = list[tuple[int, int]]  # (code, slot) per piece


def _square(file: int, rank: int) -> int:
    return rank * 8 + file


def _transform(kind: int) -> tuple[int, ...]:
    """The square map of one of the 8 mirrors: bit 0 left-right, bit 1 up-down, bit 2 the a1-h8
    diagonal (applied first)."""
    table = []
    for s in range(64):
        f, r = s & 7, s >> 3
        if kind & 4:
            f, r = r, f
        if kind & 1:
            f = 7 - f
        if kind & 2:
            r = 7 - r
        table.append(_square(f, r))
    return tuple(table)


TRANSFORMS: Final = tuple(_transform(k) for k in range(8))
TRIANGLE: Final = tuple(_square(f, r) for f in range(4) for r in range(f + 1))  # a1-d1-d4
HALF: Final = tuple(s for s in range(64) if s & 7 < 4)  # files a-d


@dataclass(frozen=True)
class Symmetry:
    """The mirrors an ending keeps: for each white-king square the mirror that takes it into the
    region, and each region square's number (``king_slot``)."""

    mirror_of: tuple[tuple[int, ...], ...]  # white-king square -> square map
    king_slot: tuple[int, ...]  # square -> its number in the region (-1 outside)
    region: tuple[int, ...]  # the region's squares by number
    kings: int  # squares in the region


def _symmetry(kinds: tuple[int, ...], region: tuple[int, ...]) -> Symmetry:
    mirror_of = []
    for s in range(64):
        mirror = next(TRANSFORMS[k] for k in kinds if TRANSFORMS[k][s] in region)
        mirror_of.append(mirror)
    slot = [-1] * 64
    for n, s in enumerate(region):
        slot[s] = n
    return Symmetry(tuple(mirror_of), tuple(slot), region, len(region))


PAWNLESS: Final = _symmetry(tuple(range(8)), TRIANGLE)
PAWNED: Final = _symmetry((0, 1), HALF)
IDENTITY: Final = _symmetry((0,), tuple(range(64)))  # no mirror (the full enumeration, tests)


def side_name(codes: list[int]) -> str:
    """The letters of one side's pieces in ``ORDER`` (``KQ``)."""
    return "".join(sorted((LETTERS[c & 7] for c in codes), key=ORDER.index))


def _strength(side: str) -> tuple[int, list[int]]:
    return len(side), [-ORDER.index(ch) for ch in side]


def canonical(white: str, black: str) -> tuple[str, bool]:
    """The table's name for these sides and whether colours are swapped to reach it (the stronger
    side plays white in the table: more pieces, then the better pieces)."""
    if _strength(black) > _strength(white):
        return black + white, True
    return white + black, False


@dataclass(frozen=True)
class Ending:
    """One ending: its name, its pieces' codes in table order, its symmetry and table size."""

    name: str
    codes: tuple[int, ...]
    symmetry: Symmetry
    swap_boards: bool  # the board swap A <-> B is used (False only in tests)

    @property
    def kings(self) -> int:
        """The white king's places: the region, on board A only or on both boards."""
        return self.symmetry.kings * (1 if self.swap_boards else 2)

    @property
    def size(self) -> int:
        return int(2 * self.kings * SLOTS ** (len(self.codes) - 1))

    @property
    def men(self) -> int:
        return len(self.codes)

    @property
    def pawns(self) -> bool:
        return any(c & 7 == PAWN for c in self.codes)

    def index(self, slots: list[int], stm: int) -> int:
        """The index of the position with these slots (in ``codes`` order) and side to move."""
        king = slots[0]
        flip = king & 64 if self.swap_boards else 0
        sym = self.symmetry
        mirror = sym.mirror_of[king & 63]
        kslot = sym.king_slot[mirror[king & 63]] + (0 if self.swap_boards else sym.kings * (king >> 6))
        idx = stm * self.kings + kslot
        for s in slots[1:]:
            idx = idx * SLOTS + (((s & 64) ^ flip) | mirror[s & 63])
        return idx

    def decode(self, idx: int) -> tuple[list[int], int] | None:
        """The slots and side to move of an index, or ``None`` when two pieces share a square
        or a pawn stands on its first or last rank."""
        slots = []
        for _ in range(len(self.codes) - 1):
            idx, s = divmod(idx, SLOTS)
            slots.append(s)
        slots.reverse()
        kings = self.symmetry.kings
        stm, kslot = divmod(idx, self.kings)
        king = self.symmetry.region[kslot % kings] | (64 if kslot >= kings else 0)
        slots.insert(0, king)
        squares = {s & 63 for s in slots}
        if len(squares) != len(slots):
            return None
        for code, s in zip(self.codes, slots):
            if code & 7 == PAWN and (s & 63) >> 3 in (0, 7):
                return None
        return slots, stm


def _codes(name: str) -> tuple[int, ...]:
    second = name.index("K", 1)
    white, black = name[:second], name[second:]
    return tuple(LETTERS.index(ch) | WHITE for ch in white) + tuple(LETTERS.index(ch) for ch in black)


def valid_name(name: str) -> bool:
    """A canonical ending name of 3 to 5 pieces (``KQK``; not ``KKQ``)."""
    if not name.startswith("K") or name.count("K") != 2 or not 3 <= len(name) <= 5:
        return False
    second = name.index("K", 1)
    white, black = name[:second], name[second:]
    if any(ch not in EXTRA_PIECES for ch in white[1:] + black[1:]):
        return False
    return side_name([LETTERS.index(c) for c in white]) == white and canonical(white, black) == (name, False)


@cache
def ending(name: str, reduced: bool = True) -> Ending:
    """The ending called ``name``; ``reduced=False``: no symmetry at all (the full enumeration)."""
    if not valid_name(name):
        raise ValueError(f"not an ending name: {name!r} (examples: KQK, KRKN, KPK)")
    codes = _codes(name)
    pawned = any(c & 7 == PAWN for c in codes)
    if not reduced:
        return Ending(name, codes, IDENTITY, False)
    return Ending(name, codes, PAWNED if pawned else PAWNLESS, True)


def endings_of(men: int) -> list[str]:
    """Every ending of ``men`` pieces, pawnless first, then with pawns (each in name order)."""
    names: set[str] = set()
    for extra in combinations_with_replacement(EXTRA_PIECES, men - 2):
        for split in range(len(extra) + 1):
            for white_extra in set(combinations(extra, split)):
                rest = list(extra)
                for ch in white_extra:
                    rest.remove(ch)
                white = "K" + "".join(sorted(white_extra, key=ORDER.index))
                black = "K" + "".join(sorted(rest, key=ORDER.index))
                names.add(canonical(white, black)[0])
    return sorted(names, key=lambda n: ("P" in n, [ORDER.index(ch) for ch in n]))


def locate(pieces: Placement, stm: int) -> tuple[str, list[int], int]:
    """The table of a position and its slots and side to move there: pieces sorted into table
    order, colours swapped (and the board mirrored up-down) when black is the stronger side."""
    white = side_name([c for c, _ in pieces if c & WHITE])
    black = side_name([c for c, _ in pieces if not c & WHITE])
    name, swapped = canonical(white, black)
    if swapped:
        pieces = [(c ^ WHITE, s ^ 56) for c, s in pieces]
        stm ^= 1
    ordered = sorted(pieces, key=lambda p: (not p[0] & WHITE, ORDER.index(LETTERS[p[0] & 7])))
    return name, [s for _, s in ordered], stm
