"""The hot loops of retrograde analysis, without ``Position``s (compiled by mypyc).

A table entry is decoded into each piece's square and board (``Scratch.sq``, ``Scratch.bd``)
and the occupancy of each board (two bitboards). A piece on board ``b`` moves as on an
orthodox board holding only board ``b``'s pieces, to a square empty on the other board, and
then stands on the other board. Check and legality are ``engine.movegen``'s: a king is
attacked only by enemy pieces on its board (lines blocked by that board's pieces), a move is
legal when the mover's king is not attacked after it, and a king's destination must also be
safe on the board it leaves (the king lifted). These tables have no castling (no rook and
king on their squares with rights) and Alice has no en passant.

The forward pass (``forward``) visits every index once and keeps three bytes per entry: the
value when it is known at once (illegal, mate, stalemate, a win through a capture or a
promotion -- an exit, valued in the smaller or other table), the number of legal moves that
stay in the table (``left``) and the best exit for a side that cannot win (``exit_of``: a
draw, or the longest loss). The backward pass (``backward``) settles plies in order: each
position decided in ``n`` plies generates its predecessors by un-moves (quiet moves only:
captures and promotions are exits) and makes them wins in ``n + 1`` (when it is lost) or takes
one from their ``left`` (when it is won); a predecessor left with no move is lost. No move
list is stored: memory is three bytes per entry.

The index keeps one position of each class under the symmetries (``tablebase.ending``). An
un-move from the kept position ``r`` of a class must reach every kept position with a move
into that class, as often as it has such moves: so the un-moves of every member of the
class are generated, as the un-moves of ``r`` seen through each symmetry ``g`` that makes
a member (``Geometry.members``). Only a king's un-move can change which mirror the white
king needs; any other un-move keeps the king and reaches its kept position directly.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from mypy_extensions import i64

from engine.bits import Bitboard, bit_length, i64_buffer, i64_table
from engine.movegen import piece_attacks
from engine.tables import (
    BB_SQUARES,
    BETWEEN,
    BISHOP,
    DIAG_RAYS,
    KING,
    KING_ATTACKS,
    KNIGHT,
    KNIGHT_ATTACKS,
    ORTHO_RAYS,
    PAWN,
    PAWN_ATTACKS,
    QUEEN,
    ROOK,
)

if TYPE_CHECKING:
    from librt.vecs import vec

ILLEGAL: Final = 0  # = tablebase.values.ILLEGAL
DRAWN: Final = 1  # = tablebase.values.DRAWN
DECIDED: Final = 2  # = tablebase.values.DECIDED
MAX_PLIES: Final = 252  # = tablebase.values.MAX_PLIES
UNKNOWN: Final = 255  # a legal entry not settled yet (a draw when the passes end)
DRAW_EXIT: Final = 255  # ``exit_of``: an exit draws (no exit: 0; else the longest loss in plies)
NO_EXIT: Final = 0
PROGRESS_EVERY: Final = 1 << 16  # entries between two progress reports
RANK_FIRST: Final = 0
RANK_LAST: Final = 7
KINDS: Final = 8  # the mirrors (tablebase.ending.TRANSFORMS)

Progress = Callable[[int, int], None]  # (work done, work in all)


class Geometry:
    """One ending's pieces and index: piece types and colours in table order, the mirror that
    puts each white-king square into the region (flattened ``[king * 64 + square]``), the
    region's numbering, and for the backward pass the inverse mirrors and, per region square,
    the symmetries that make the members of a class (``members``, a bit set of mirror kinds)."""

    def __init__(
        self,
        codes: list[int],
        mirror_of: list[list[int]],
        king_slot: list[int],
        region: list[int],
        swap: bool,
        inverse: list[list[int]],
        members: list[int],
    ) -> None:
        self.n: i64 = len(codes)
        self.ptype: vec[i64] = i64_table([c & 7 for c in codes])
        self.pcol: vec[i64] = i64_table([(c >> 3) & 1 for c in codes])
        self.black_king: i64 = next(i for i, c in enumerate(codes) if c == KING)
        self.canon: vec[i64] = i64_table([m[x] for m in mirror_of for x in range(64)])
        self.king_slot: vec[i64] = i64_table(king_slot)
        self.region: vec[i64] = i64_table(region)
        self.region_kings: i64 = len(region)
        self.swap: bool = swap
        self.kings: i64 = len(region) * (1 if swap else 2)
        self.size: i64 = 2 * self.kings * 128 ** (len(codes) - 1)
        self.inverse: vec[i64] = i64_table([m[x] for m in inverse for x in range(64)])
        self.members: vec[i64] = i64_table(members)


class Exit:
    """Where a capture or promotion leads: the other table (``None``: bare kings, a draw), its
    geometry, which piece of the position fills each of its places (``perm``), and whether
    its colours are swapped (the board turned upside down, the other side to move)."""

    def __init__(self, table: bytes | None, geo: Geometry | None, perm: list[int], swapped: bool) -> None:
        self.table: bytes | None = table
        self.geo: Geometry | None = geo
        self.perm: vec[i64] = i64_table(perm)
        self.flip: i64 = 56 if swapped else 0
        self.turn: i64 = 1 if swapped else 0


class Scratch:
    """One position being looked at: each piece's square and board, the boards' occupancy,
    the side to move; and a second set of squares and boards for an exit's position."""

    def __init__(self) -> None:
        self.sq: vec[i64] = i64_buffer(8)
        self.bd: vec[i64] = i64_buffer(8)
        self.xsq: vec[i64] = i64_buffer(8)
        self.xbd: vec[i64] = i64_buffer(8)
        self.occ0: Bitboard = 0
        self.occ1: Bitboard = 0
        self.stm: i64 = 0


def decode(geo: Geometry, st: Scratch, idx: i64) -> bool:
    """Fill ``st`` with entry ``idx``; False when two pieces share a square or a pawn stands
    on its first or last rank."""
    n = geo.n
    occ: Bitboard = 0
    occ0: Bitboard = 0
    occ1: Bitboard = 0
    i = n - 1
    while i > 0:
        s = idx & 127
        idx >>= 7
        sq = s & 63
        st.sq[i] = sq
        st.bd[i] = s >> 6
        i -= 1
    kslot = idx % geo.kings
    st.stm = idx // geo.kings
    st.sq[0] = geo.region[kslot % geo.region_kings]
    st.bd[0] = 1 if kslot >= geo.region_kings else 0
    i = 0
    while i < n:
        sq = st.sq[i]
        b = BB_SQUARES[sq]
        if occ & b:
            return False
        if geo.ptype[i] == PAWN and (sq >> 3 == RANK_FIRST or sq >> 3 == RANK_LAST):
            return False
        occ |= b
        if st.bd[i]:
            occ1 |= b
        else:
            occ0 |= b
        i += 1
    st.occ0 = occ0
    st.occ1 = occ1
    return True


def index_of(geo: Geometry, sq: vec[i64], bd: vec[i64], stm: i64) -> i64:
    """The index of the position with these squares and boards (in table order) and side to
    move: ``tablebase.ending.Ending.index``."""
    k = sq[0]
    base = k << 6
    flip: i64 = 0
    kslot = geo.king_slot[geo.canon[base | k]]
    if geo.swap:
        flip = bd[0] << 6
    else:
        kslot += geo.region_kings * bd[0]
    idx = stm * geo.kings + kslot
    i: i64 = 1
    n = geo.n
    while i < n:
        idx = idx * 128 + (((bd[i] << 6) ^ flip) | geo.canon[base | sq[i]])
        i += 1
    return idx


def attacks(t: i64, col: i64, x: i64, target: i64, occ: Bitboard) -> bool:
    """Does a piece of type ``t`` and colour ``col`` on ``x`` attack ``target`` on a board
    with occupancy ``occ``?"""
    tb = BB_SQUARES[target]
    if t == KNIGHT:
        return bool(KNIGHT_ATTACKS[x] & tb)
    if t == KING:
        return bool(KING_ATTACKS[x] & tb)
    if t == PAWN:
        return bool(PAWN_ATTACKS[col << 6 | x] & tb)
    ray: Bitboard = 0
    if t != ROOK:
        ray = DIAG_RAYS[x]
    if t != BISHOP:
        ray |= ORTHO_RAYS[x]
    return bool(ray & tb) and not BETWEEN[x << 6 | target] & occ


def attacked(geo: Geometry, st: Scratch, target: i64, board: i64, occ: Bitboard, by: i64, skip: i64) -> bool:
    """Is ``target`` attacked on ``board`` (occupancy ``occ``) by a piece of colour ``by``
    standing there (piece ``skip`` left out: it was just captured)?"""
    i: i64 = 0
    n = geo.n
    while i < n:
        if i != skip and geo.pcol[i] == by and st.bd[i] == board and attacks(geo.ptype[i], by, st.sq[i], target, occ):
            return True
        i += 1
    return False


def king_of(geo: Geometry, colour: i64) -> i64:
    """The piece number of ``colour``'s king (the white king is first)."""
    return 0 if colour else geo.black_king


def in_check(geo: Geometry, st: Scratch, colour: i64) -> bool:
    """Is ``colour``'s king attacked on its board?"""
    k = king_of(geo, colour)
    b = st.bd[k]
    return attacked(geo, st, st.sq[k], b, st.occ1 if b else st.occ0, colour ^ 1, -1)


def destinations(geo: Geometry, st: Scratch, i: i64) -> Bitboard:
    """The squares piece ``i`` (of the side to move) may go to, king safety aside."""
    t = geo.ptype[i]
    col = geo.pcol[i]
    x = st.sq[i]
    b = st.bd[i]
    own = st.occ1 if b else st.occ0
    other = st.occ0 if b else st.occ1
    ours = own & _colour_set(geo, st, col)
    if t == PAWN:
        forward: i64 = 8 if col else -8
        dests = PAWN_ATTACKS[col << 6 | x] & own & ~ours
        one = BB_SQUARES[x + forward]
        if not one & (own | other):
            dests |= one
        if (x >> 3) == (1 if col else 6) and not one & own:
            two = BB_SQUARES[x + 2 * forward]
            if not two & (own | other):
                dests |= two
        return dests
    return piece_attacks(t, x, own) & ~ours & ~other


def _colour_set(geo: Geometry, st: Scratch, col: i64) -> Bitboard:
    """The squares of ``col``'s pieces (either board)."""
    out: Bitboard = 0
    i: i64 = 0
    while i < geo.n:
        if geo.pcol[i] == col:
            out |= BB_SQUARES[st.sq[i]]
        i += 1
    return out


def piece_on(geo: Geometry, st: Scratch, sq: i64) -> i64:
    """The piece number on square ``sq`` (either board), or -1."""
    i: i64 = 0
    while i < geo.n:
        if st.sq[i] == sq:
            return i
        i += 1
    return -1


def legal_after(geo: Geometry, st: Scratch, i: i64, d: i64, captured: i64) -> bool:
    """Is the move of piece ``i`` to ``d`` (capturing piece ``captured``, or -1) legal? The
    position in ``st`` is left unchanged."""
    x = st.sq[i]
    b = st.bd[i]
    col = geo.pcol[i]
    own = st.occ1 if b else st.occ0
    other = st.occ0 if b else st.occ1
    if geo.ptype[i] == KING:
        # Safe on the board it leaves (king lifted) and on the board it lands on.
        if attacked(geo, st, d, b, own ^ BB_SQUARES[x], col ^ 1, captured):
            return False
        return not attacked(geo, st, d, b ^ 1, other, col ^ 1, captured)
    k = king_of(geo, col)
    kb = st.bd[k]
    after: Bitboard
    if kb == b:
        after = own & ~(BB_SQUARES[x] | BB_SQUARES[d])
    else:
        after = other | BB_SQUARES[d]
    st.sq[i] = d
    st.bd[i] = b ^ 1
    checked = attacked(geo, st, st.sq[k], kb, after, col ^ 1, captured)
    st.sq[i] = x
    st.bd[i] = b
    return not checked


def exit_value(exits: list[Exit], geo: Geometry, st: Scratch, i: i64, d: i64, captured: i64, promo: i64) -> i64:
    """The table value, for the side to move after it, of the move of piece ``i`` to ``d``
    that leaves the table (``captured``: the piece taken or -1; ``promo``: the new piece
    type or 0)."""
    ex = exits[(i * (geo.n + 1) + captured + 1) * KINDS + promo]
    table = ex.table
    sub = ex.geo
    if table is None or sub is None:
        return DRAWN
    k: i64 = 0
    while k < sub.n:
        j = ex.perm[k]
        if j == i:
            ex_sq = d
            ex_bd = st.bd[i] ^ 1
        else:
            ex_sq = st.sq[j]
            ex_bd = st.bd[j]
        st.xsq[k] = ex_sq ^ ex.flip
        st.xbd[k] = ex_bd
        k += 1
    return table[index_of(sub, st.xsq, st.xbd, st.stm ^ 1 ^ ex.turn)]


class Visit:
    """The forward pass's result at one entry: its value when known at once, its moves that
    stay in the table, its best exit (``DRAW_EXIT``, a loss's plies, or ``NO_EXIT``) and the
    fewest plies to mate through an exit (0: none)."""

    def __init__(self) -> None:
        self.value: i64 = ILLEGAL
        self.inside: i64 = 0
        self.exit: i64 = NO_EXIT
        self.win: i64 = 0
        self.moves: i64 = 0

    def take(self, child: i64) -> None:
        """Count an exit whose value for the opponent is ``child``."""
        self.moves += 1
        if child == DRAWN:
            self.exit = DRAW_EXIT
            return
        plies = child - DECIDED + 1
        if plies % 2:
            if self.win == 0 or plies < self.win:
                self.win = plies
        elif self.exit != DRAW_EXIT and plies > self.exit:
            self.exit = plies


def visit(geo: Geometry, exits: list[Exit], st: Scratch, idx: i64, out: Visit) -> None:
    """The forward pass at entry ``idx`` (see the module docstring)."""
    out.value = ILLEGAL
    out.inside = 0
    out.exit = NO_EXIT
    out.win = 0
    out.moves = 0
    if not decode(geo, st, idx):
        return
    stm = st.stm
    if in_check(geo, st, stm ^ 1):
        return
    n = geo.n
    i: i64 = 0
    while i < n:
        if geo.pcol[i] == stm:
            _moves_of(geo, exits, st, i, out)
        i += 1
    if out.moves == 0:
        out.value = DECIDED if in_check(geo, st, stm) else DRAWN
    elif out.win:
        out.value = DECIDED + out.win
    elif out.inside == 0:
        out.value = DRAWN if out.exit == DRAW_EXIT else DECIDED + out.exit
    else:
        out.value = UNKNOWN


def _moves_of(geo: Geometry, exits: list[Exit], st: Scratch, i: i64, out: Visit) -> None:
    """Count piece ``i``'s legal moves into ``out``: in-table ones, exits with their values."""
    dests = destinations(geo, st, i)
    pawn = geo.ptype[i] == PAWN
    while dests:
        b = dests & -dests
        dests ^= b
        d = bit_length(b) - 1
        captured = piece_on(geo, st, d)
        if not legal_after(geo, st, i, d, captured):
            continue
        if pawn and (d >> 3 == RANK_FIRST or d >> 3 == RANK_LAST):
            promo: i64 = QUEEN
            while promo >= KNIGHT:
                out.take(exit_value(exits, geo, st, i, d, captured, promo))
                promo -= 1
        elif captured >= 0:
            out.take(exit_value(exits, geo, st, i, d, captured, 0))
        else:
            out.moves += 1
            out.inside += 1


def forward(
    geo: Geometry, exits: list[Exit], values: bytearray, left: bytearray, exit_of: bytearray, progress: Progress | None
) -> None:
    """The forward pass over every entry: ``values``, ``left`` and ``exit_of`` filled."""
    st = Scratch()
    out = Visit()
    size = geo.size
    idx: i64 = 0
    while idx < size:
        visit(geo, exits, st, idx, out)
        values[idx] = out.value
        if out.value == UNKNOWN:
            if out.inside > 255:
                raise OverflowError("more than 255 moves in one position")
            left[idx] = out.inside
            exit_of[idx] = out.exit
        if progress is not None and idx % PROGRESS_EVERY == 0:
            progress(idx, 2 * size)
        idx += 1


def backward(geo: Geometry, values: bytearray, left: bytearray, exit_of: bytearray, progress: Progress | None) -> None:
    """Settle the entries ply by ply (see the module docstring); unsettled ones become draws."""
    st = Scratch()
    size = geo.size
    done: i64 = 0
    plies: i64 = 0
    while plies <= MAX_PLIES:
        mark = bytes([DECIDED + plies])
        idx: i64 = values.find(mark)
        while idx >= 0:
            decode(geo, st, idx)
            _predecessors(geo, st, plies, values, left, exit_of)
            done += 1
            if progress is not None and done % PROGRESS_EVERY == 0:
                progress(size + min(done, size - 1), 2 * size)
            idx = values.find(mark, idx + 1)
        plies += 1
    if progress is not None:
        progress(2 * size, 2 * size)


def _predecessors(geo: Geometry, st: Scratch, plies: i64, values: bytearray, left: bytearray, exit_of: bytearray) -> None:
    """Un-move every piece of the side that just moved in ``st`` (decided in ``plies``) and
    settle what each predecessor learns."""
    mover = st.stm ^ 1
    n = geo.n
    i: i64 = 0
    while i < n:
        if geo.pcol[i] == mover:
            origins = _origins(geo, st, i)
            x = st.sq[i]
            b = st.bd[i]
            st.stm = mover
            st.bd[i] = b ^ 1
            while origins:
                o = origins & -origins
                origins ^= o
                st.sq[i] = bit_length(o) - 1
                if i == 0 and geo.swap:
                    _king_predecessors(geo, st, x, plies, values, left, exit_of)
                else:
                    _learn(index_of(geo, st.sq, st.bd, mover), plies, values, left, exit_of)
            st.sq[i] = x
            st.bd[i] = b
            st.stm = mover ^ 1
        i += 1


def _origins(geo: Geometry, st: Scratch, i: i64) -> Bitboard:
    """The squares piece ``i`` (of the side not to move) can have come from by a quiet move:
    on the other board, empty now on both, its path clear there; a king's also not attacked
    there from its destination's point of view (a king cannot step along a checking line)."""
    t = geo.ptype[i]
    col = geo.pcol[i]
    d = st.sq[i]
    b = st.bd[i]
    there = st.occ0 if b else st.occ1  # the board it came from
    empty = ~(st.occ0 | st.occ1)
    if t == PAWN:
        back: i64 = -8 if col else 8
        rank = d >> 3
        out: Bitboard = 0
        if rank != (1 if col else 6):
            out = BB_SQUARES[d + back] & empty
        if rank == (3 if col else 4) and not BB_SQUARES[d + back] & there:
            out |= BB_SQUARES[d + 2 * back] & empty
        return out
    if t == KING and attacked(geo, st, d, b ^ 1, there, col ^ 1, -1):
        return 0
    return piece_attacks(t, d, there) & empty


def _king_predecessors(
    geo: Geometry, st: Scratch, k0: i64, plies: i64, values: bytearray, left: bytearray, exit_of: bytearray
) -> None:
    """The white king's un-move (from ``k0``, in the region on board A, to ``st``): the kept
    position reached through each symmetry that makes a member of the settled entry's class
    (the symmetry's mirror inverted; the board swap when the king now stands on board B)."""
    kinds = geo.members[k0]
    flip = st.bd[0] << 6
    n = geo.n
    kind: i64 = 0
    while kind < KINDS:
        if kinds >> kind & 1:
            base = kind << 6
            kslot = geo.king_slot[geo.inverse[base | st.sq[0]]]
            if kslot >= 0:
                idx = st.stm * geo.kings + kslot
                i: i64 = 1
                while i < n:
                    idx = idx * 128 + (((st.bd[i] << 6) ^ flip) | geo.inverse[base | st.sq[i]])
                    i += 1
                _learn(idx, plies, values, left, exit_of)
        kind += 1


def _learn(q: i64, plies: i64, values: bytearray, left: bytearray, exit_of: bytearray) -> None:
    """Entry ``q`` has a move to a position decided in ``plies``: lost there, ``q`` wins in one
    more (unless it already wins sooner); won there, one move fewer is left to ``q``, and with
    none left (and no exit that draws) ``q`` is lost in one more than its longest."""
    v: i64 = values[q]
    if plies % 2 == 0:
        if v == UNKNOWN or (v > DECIDED + plies + 1 and (v - DECIDED) % 2 == 1):
            if plies + 1 > MAX_PLIES:
                raise OverflowError(f"a mate longer than {MAX_PLIES} plies does not fit a table byte")
            values[q] = DECIDED + plies + 1
        return
    if v != UNKNOWN:
        return
    count: i64 = left[q] - 1
    left[q] = count
    if count == 0:
        e: i64 = exit_of[q]
        if e != DRAW_EXIT:
            loss = max(plies + 1, e)
            if loss > MAX_PLIES:
                raise OverflowError(f"a mate longer than {MAX_PLIES} plies does not fit a table byte")
            values[q] = DECIDED + loss


def move_list(geo: Geometry, st: Scratch) -> list[int]:
    """The legal moves of the side to move in ``st`` as the engine writes them (``from | to <<
    6 | promotion << 12``), from the same pieces of code as the forward pass (for tests)."""
    out: list[int] = []
    i: i64 = 0
    while i < geo.n:
        if geo.pcol[i] == st.stm:
            dests = destinations(geo, st, i)
            while dests:
                b = dests & -dests
                dests ^= b
                d = bit_length(b) - 1
                if legal_after(geo, st, i, d, piece_on(geo, st, d)):
                    m = st.sq[i] | d << 6
                    last = d >> 3 == RANK_FIRST or d >> 3 == RANK_LAST
                    out.extend([m | p << 12 for p in (QUEEN, ROOK, BISHOP, KNIGHT)] if geo.ptype[i] == PAWN and last else [m])
        i += 1
    return out


def unmove_list(geo: Geometry, st: Scratch) -> list[int]:
    """The quiet moves (``from | to << 6``) that can have led to ``st``, as the backward pass
    finds them (for tests; a predecessor may still be illegal: its entry says so)."""
    out: list[int] = []
    i: i64 = 0
    while i < geo.n:
        if geo.pcol[i] != st.stm:
            origins = _origins(geo, st, i)
            while origins:
                o = origins & -origins
                origins ^= o
                out.append((bit_length(o) - 1) | st.sq[i] << 6)
        i += 1
    return out
