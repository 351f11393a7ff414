"""Retrograde analysis of one ending: the distance to mate of every position.

``generate`` sets up what the compiled loops of ``tablebase.retro`` need -- the ending's
geometry (pieces, index, symmetries) and, for every capture and promotion, where it leads
(the smaller or other table, which must exist: ``generate`` takes them from ``tables``) --
and runs its two passes: the forward pass visits every index once (legal moves, exits), the
backward pass settles positions ply by ply through un-moves. Memory: three bytes per index
(the values, the moves left, the best exit) besides the tables read. The fifty-move rule is
ignored (as in every distance-to-mate table); repetitions do not matter for a value.
"""

from __future__ import annotations

from collections.abc import Callable

from tablebase.ending import PAWN, TRANSFORMS, WHITE, Ending, ending, locate
from tablebase.retro import KINDS, Exit, Geometry, backward, forward
from tablebase.values import DRAWN, TableSource

Progress = Callable[[int, int], None]  # (work done, work in all)
PROMOTIONS = (5, 4, 3, 2)  # queen, rook, bishop, knight


class MissingTableError(Exception):
    """A capture or promotion leads to an ending whose table is not there yet."""


def _inverse(table: tuple[int, ...]) -> list[int]:
    out = [0] * 64
    for s, t in enumerate(table):
        out[t] = s
    return out


def _kinds(e: Ending) -> tuple[int, ...]:
    """The mirrors of the ending's symmetry (by ``TRANSFORMS`` number)."""
    if not e.swap_boards:
        return (0,)
    return (0, 1) if e.pawns else tuple(range(KINDS))


def geometry(e: Ending) -> Geometry:
    """``e``'s pieces, index and symmetries as ``tablebase.retro`` reads them."""
    sym = e.symmetry
    inverse = [_inverse(t) for t in TRANSFORMS]
    kinds = _kinds(e)
    first = [TRANSFORMS.index(sym.mirror_of[s]) for s in range(64)]
    members = [0] * 64
    for k0 in sym.region:
        for kind in kinds:
            if first[inverse[kind][k0]] == kind:
                members[k0] |= 1 << kind
    return Geometry(
        list(e.codes), [list(m) for m in sym.mirror_of], list(sym.king_slot), list(sym.region), e.swap_boards, inverse, members
    )


def _exit(e: Ending, tables: TableSource, mover: int, captured: int, promo: int) -> Exit:
    """Where piece ``mover``'s move capturing piece ``captured`` (-1: none) and promoting to
    ``promo`` (0: none) leads."""
    placement = []
    for i, code in enumerate(e.codes):
        if i == mover and promo:
            placement.append((promo | (code & WHITE), i))
        elif i != captured:
            placement.append((code, i))
    if len(placement) == 2:
        return Exit(None, None, [], False)
    name, slots, stm = locate(placement, 0)
    data = tables(name)
    if data is None:
        raise MissingTableError(f"{e.name} needs the table of {name}: generate it first")
    swapped = stm == 1
    return Exit(bytes(data), geometry(ending(name)), [s ^ 56 if swapped else s for s in slots], swapped)


def exits(e: Ending, tables: TableSource) -> list[Exit]:
    """Every capture's and promotion's ``Exit``, at ``(mover * (n + 1) + captured + 1) * 8 +
    promotion`` (``tablebase.retro.exit_value``)."""
    n = e.men
    none = Exit(None, None, [], False)
    out = [none] * (n * (n + 1) * KINDS)
    for mover, code in enumerate(e.codes):
        for captured in range(-1, n):
            if captured >= 0 and ((e.codes[captured] ^ code) & WHITE == 0 or e.codes[captured] & 7 == 6):
                continue
            for promo in (*PROMOTIONS, 0) if code & 7 == PAWN else (0,):
                if captured >= 0 or promo:
                    out[(mover * (n + 1) + captured + 1) * KINDS + promo] = _exit(e, tables, mover, captured, promo)
    return out


def generate(name: str, tables: TableSource, progress: Progress | None = None, reduced: bool = True) -> bytearray:
    """The values of every index of ending ``name`` (``reduced=False``: without symmetries)."""
    e = ending(name, reduced)
    geo = geometry(e)
    found = exits(e, tables)
    values = bytearray(e.size)
    left = bytearray(e.size)
    exit_of = bytearray(e.size)
    forward(geo, found, values, left, exit_of, progress)
    backward(geo, values, left, exit_of, progress)
    del left, exit_of  # before the translated copy: at most three bytes per index at any time
    return values.translate(bytes(range(255)) + bytes([DRAWN]))
