"""Static exchange evaluation (SEE) for Alice chess: what a move wins or loses on its square.

    see(pos, move)                 # material balance of the exchange, centipawns, mover's view
    see_ge(pos, move, threshold)   # see(pos, move) >= threshold, usually decided early

How the search is meant to use it (not wired in here):

* move ordering: a capture with ``see_ge(pos, m, 0)`` false is a bad capture (after the quiet
  moves), replacing the cheaper "retaken on the landing board" test of ``search.movepick``;
* quiescence: skip captures with ``not see_ge(pos, m, 0)`` (or a small negative margin);
* pruning at low depth: skip a quiet move with ``not see_ge(pos, m, -margin * depth)`` (it lands
  en prise), a capture with ``not see_ge(pos, m, -margin * depth * depth)``.

``see_ge`` is the form to call in the search: it stops as soon as the answer is known (most
quiet moves: one attack test), ``see`` computes the whole exchange.

The Alice exchange. The moving piece stands on board X and lands on the square ``d`` of the
other board Y (a capture removes the victim from ``d`` on X). The only piece that can be
taken next is the one on ``d`` of Y, by an enemy piece standing on Y, which lands on ``d`` of
X, now empty; the one after that is taken by a piece of ours on X, and so on. So every
capture of ours is made from board X and every capture of the opponent's from board Y: each
side's attackers stand on one board, and only pieces on that board block its lines. When a
piece leaves its board, the line behind it opens on that board (an x-ray), for its own side
only: the pieces of the other side stand on the other board. That is why the usual trouble of
orthodox SEE (a capture opening a line for the opponent's slider) cannot happen here.

Rules of the computation, which is the standard one (the minimax of a swap list):

* each capture is made by the least valuable attacker of the side to move (``PIECE_VALUE``);
  either side may stop instead of capturing; the first move is always played;
* a king captures only if the square is then safe on both boards: no enemy attacker left on
  the board it lands on (so a king capture is always the last) and no enemy piece standing on
  the king's own board attacking ``d`` there (the king is lifted first). This is exactly the
  legality of a king capture in Alice;
* a pawn capturing on its last rank promotes to a queen (the promotion of the first move is
  the one the move names); promoting to anything else never does better in the exchange;
* pins and checks are ignored (a pinned piece, or one that cannot resolve a check, is counted
  as if it could capture), as in orthodox SEE; so is the legality of a capture that removes a
  piece screening the capturer's own king. The move itself is assumed legal: a king move is
  given the value of what it takes (a legal king move lands where nothing can take it);
* a quiet move is an exchange without a victim: 0, or minus what the opponent wins by taking
  the moved piece where it lands (on board Y). Castling counts as a king move: 0.

>>> from engine.notation import parse_uci
>>> pos = Position("4k3/8/8/3p4/8/8/8/3QK3 w - - 0 1")
>>> see(pos, parse_uci(pos, "d1d5"))  # the pawn is undefended on board A
105
>>> pos = Position("4k3/3r4/8/3p4/8/8/8/3QK3 w - - 0 1")
>>> see(pos, parse_uci(pos, "d1d5"))  # the rook on A cannot retake: the queen lands on B
105
>>> pos = Position("4k3/3|r4/8/3p4/8/8/8/3QK3 w - - 0 1")
>>> see(pos, parse_uci(pos, "d1d5")), see_ge(pos, parse_uci(pos, "d1d5"), 0)
(-1098, False)
"""

from __future__ import annotations

from typing import Final

from mypy_extensions import i64

from engine.bits import Bitboard, bit_length, i64_table
from engine.movegen import attackers
from engine.position import Position
from engine.tables import (
    BB_RANK_1,
    BB_RANK_8,
    BB_SQUARES,
    BISHOP,
    KING,
    PAWN,
    QUEEN,
    ROOK,
    diag_attacks,
    ortho_attacks,
)
from search.score import PIECE_VALUE

# SEE's piece values by ptype (the king's is never taken: it captures only when safe).
SEE_VALUE: Final = i64_table(PIECE_VALUE)
PROMOTION_GAIN: Final[i64] = PIECE_VALUE[QUEEN] - PIECE_VALUE[PAWN]  # a pawn recapturing on its last rank
MAX_EXCHANGE: Final = 40  # more captures than any exchange on one square can have (32 pieces)


def last_rank(color: i64) -> Bitboard:
    """The rank where a pawn of ``color`` (1 white, 0 black) promotes."""
    return BB_RANK_8 if color else BB_RANK_1


def least_valuable(pos: Position, att: Bitboard) -> Bitboard:
    """The square (a one-bit set) of the least valuable piece in ``att`` (0 if empty): by ptype,
    pawn first, king last; among pieces of a type, the lowest square."""
    found = att & pos.pawns
    if not found:
        found = att & pos.knights
        if not found:
            found = att & pos.bishops
            if not found:
                found = att & pos.rooks
                if not found:
                    found = att & pos.queens
                    if not found:
                        found = att & pos.kings
    return found & -found


def add_xrays(pos: Position, d: i64, ptype: i64, color_occ: Bitboard, occ: Bitboard) -> Bitboard:
    """The sliders of one side (``color_occ``) on a board (occupancy ``occ``, the capturer
    already removed) that attack ``d`` there: the line a capturer of type ``ptype`` opened.
    A knight or king opens nothing (a king capture is the last)."""
    found: Bitboard = 0
    if ptype == PAWN or ptype == BISHOP or ptype == QUEEN:
        found = diag_attacks(d, occ) & (pos.bishops | pos.queens)
    if ptype == ROOK or ptype == QUEEN:
        found |= ortho_attacks(d, occ) & (pos.rooks | pos.queens)
    return found & color_occ & occ


def _start(pos: Position, m: i64) -> tuple[i64, i64, i64, i64, Bitboard, Bitboard]:
    """The exchange after ``m``: (target square, mover's colour, first gain, value on the
    target, occupancy of the mover's board without the mover, the other board's occupancy)."""
    s = m & 63
    d = (m >> 6) & 63
    promo = m >> 12
    p = pos.squares[s]
    gain = SEE_VALUE[pos.squares[d] & 7]
    on_d = SEE_VALUE[p & 7]
    if promo:
        gain += SEE_VALUE[promo] - SEE_VALUE[PAWN]
        on_d = SEE_VALUE[promo]
    if p >> 4:
        return d, (p >> 3) & 1, gain, on_d, pos.occ_b ^ BB_SQUARES[s], pos.occ_a
    return d, (p >> 3) & 1, gain, on_d, pos.occ_a ^ BB_SQUARES[s], pos.occ_b


def king_may_capture(pos: Position, d: i64, color: i64, king: Bitboard, own_occ: Bitboard, other_att: Bitboard) -> bool:
    """Can the king of ``color`` (on ``king``, board occupancy ``own_occ``) take on ``d``? Only if
    the enemy has no attacker left on the board it lands on (``other_att``) and no enemy piece
    on its own board attacks ``d`` with the king lifted."""
    return not other_att and not attackers(pos, color ^ 1, d, own_occ ^ king)


def see(pos: Position, m: i64) -> i64:
    """The material the mover of ``m`` (a legal move, capture or not) wins in the exchange on
    its destination, in centipawns (negative: it loses); see the module docstring."""
    d, color, gain, on_d, occ, other_occ = _start(pos, m)
    if pos.squares[m & 63] & 7 == KING:
        return gain
    # ``occ``/``att``: the board and attackers of the side to capture next, ``other_*``: the other.
    att = attackers(pos, color ^ 1, d, other_occ)
    other_att = attackers(pos, color, d, occ)
    occ, other_occ = other_occ, occ
    color ^= 1
    gains = [gain]  # gains[i]: what the side making capture i nets if the exchange stops there
    while att and len(gains) < MAX_EXCHANGE:
        b = least_valuable(pos, att)
        ptype = pos.squares[bit_length(b) - 1] & 7
        if ptype == KING and not king_may_capture(pos, d, color, b, occ, other_att):
            break
        value = on_d
        on_d = SEE_VALUE[ptype]
        if ptype == PAWN and BB_SQUARES[d] & last_rank(color):
            value += PROMOTION_GAIN
            on_d = SEE_VALUE[QUEEN]
        gains.append(value - gains[-1])
        occ ^= b
        att = (att ^ b) | add_xrays(pos, d, ptype, pos.white if color else pos.black, occ)
        att, other_att = other_att, att
        occ, other_occ = other_occ, occ
        color ^= 1
    i = len(gains) - 1
    while i > 0:  # the side making capture i makes it only if that beats stopping before it
        gains[i - 1] = -max(-gains[i - 1], gains[i])
        i -= 1
    return gains[0]


def see_ge(pos: Position, m: i64, threshold: i64) -> bool:
    """``see(pos, m) >= threshold``, deciding as soon as the rest of the exchange cannot change
    the answer (no swap list: the balance is compared with the threshold after every capture)."""
    d, color, gain, on_d, occ, other_occ = _start(pos, m)
    balance = gain - threshold  # our material balance over the threshold, the exchange stopped here
    if balance < 0:
        return False  # the opponent can stop now
    if pos.squares[m & 63] & 7 == KING:
        return True
    them = color ^ 1
    promo_them = PROMOTION_GAIN if BB_SQUARES[d] & last_rank(them) else 0
    if balance - on_d - promo_them >= 0:
        return True  # even losing the mover, we stay at or above the threshold
    att = attackers(pos, them, d, other_occ)
    if not att:
        return True
    other_att = attackers(pos, color, d, occ)
    return _exchange_ge(pos, d, them, balance, on_d, att, other_occ, other_att, occ)


def _exchange_ge(
    pos: Position,
    d: i64,
    color: i64,
    balance: i64,
    on_d: i64,
    att: Bitboard,
    occ: Bitboard,
    other_att: Bitboard,
    other_occ: Bitboard,
) -> bool:
    """The rest of ``see_ge``: ``color`` captures next with ``att`` on its board (``occ``), the
    mover's side (``other_*``) after it. The answer is true iff ``balance >= 0`` when the
    exchange ends: a side stops when capturing cannot bring the balance to its side of zero,
    and wins at once when it can even if its capturer is then taken."""
    ours = False  # is ``color`` the mover's side?
    while True:
        if not att:
            return not ours  # the last capture was ours exactly when the balance is on our side
        b = least_valuable(pos, att)
        ptype = pos.squares[bit_length(b) - 1] & 7
        if ptype == KING and not king_may_capture(pos, d, color, b, occ, other_att):
            return not ours
        value = on_d
        on_d = SEE_VALUE[ptype]
        if ptype == PAWN and BB_SQUARES[d] & last_rank(color):
            value += PROMOTION_GAIN
            on_d = SEE_VALUE[QUEEN]
        if ours:
            balance += value
            if balance < 0:
                return False  # capturing does not reach the threshold, and stopping did not either
        else:
            balance -= value
            if balance >= 0:
                return True  # the opponent's best capture still leaves us at the threshold
        occ ^= b
        att = (att ^ b) | add_xrays(pos, d, ptype, pos.white if color else pos.black, occ)
        att, other_att = other_att, att
        occ, other_occ = other_occ, occ
        color ^= 1
        ours = not ours
