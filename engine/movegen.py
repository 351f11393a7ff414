"""Legal move generation for Alice chess.

Legality without make/unmake, from what a move does to the board of the mover's
king (board K):

* a piece on the other board only *adds* a blocker on K where it lands, so it is
  legal unless the king is in check, when it must land between king and checker;
* a piece on K leaves K (and a capture removes the captured piece from K), so it
  can never block; it may open a line, which is tested only when it starts or
  captures on a line from an enemy slider to the king with at most two blockers;
  in check it must capture the checker;
* the king must land on a square safe on K (king removed) and on the other board.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.tables import (
    BB_ALL,
    BETWEEN,
    CASTLES,
    DIAG_ATTACKS,
    DIAG_MASKS,
    DIAG_RAYS,
    FILE_ATTACKS,
    FILE_MASKS,
    KING_ATTACKS,
    KNIGHT_ATTACKS,
    ORTHO_RAYS,
    PAWN_ATTACKS,
    RANK_ATTACKS,
    RANK_MASKS,
    Bitboard,
    Move,
    Square,
)

if TYPE_CHECKING:
    from engine.position import Position

BB_RANK_1 = 0xFF
BB_RANK_2 = 0xFF << 8
BB_RANK_7 = 0xFF << 48
BB_RANK_8 = 0xFF << 56
PROMOTIONS = (5 << 12, 4 << 12, 3 << 12, 2 << 12)  # queen, rook, bishop, knight
WHITE_RIGHTS = (1, 2)
BLACK_RIGHTS = (4, 8)


def _attacked(bb: list[Bitboard], them: int, s: Square, o: Bitboard) -> Bitboard:
    """Pieces of ``them`` among occupancy ``o`` (one board) attacking ``s``."""
    return (
        bb[8 | them]
        & o
        & (
            (KNIGHT_ATTACKS[s] & bb[2])
            | (KING_ATTACKS[s] & bb[6])
            | (PAWN_ATTACKS[them ^ 1][s] & bb[1])
            | (DIAG_ATTACKS[s][DIAG_MASKS[s] & o] & (bb[3] | bb[5]))
            | ((RANK_ATTACKS[s][RANK_MASKS[s] & o] | FILE_ATTACKS[s][FILE_MASKS[s] & o]) & (bb[4] | bb[5]))
        )
    )


def legal_moves(pos: Position, captures_only: bool = False) -> list[Move]:
    """All legal moves, or only the captures and promotions.

    >>> from engine.position import Position
    >>> len(legal_moves(Position()))
    20
    """
    sq = pos.sq
    bb = pos.bb
    us = pos.turn
    them = us ^ 1
    occ_us = bb[8 | us]
    occ_them = bb[8 | them]
    empty = BB_ALL ^ (occ_us | occ_them)
    occ_ab = (bb[10], bb[11])
    ksq = (bb[6] & occ_us).bit_length() - 1
    kb = sq[ksq] >> 4
    occ_k = occ_ab[kb]
    occ_y = occ_ab[kb ^ 1]
    them_k = occ_them & occ_k
    bq = bb[3] | bb[5]
    rq = bb[4] | bb[5]

    checkers = them_k & (
        (KNIGHT_ATTACKS[ksq] & bb[2])
        | (PAWN_ATTACKS[us][ksq] & bb[1])
        | (DIAG_ATTACKS[ksq][DIAG_MASKS[ksq] & occ_k] & bq)
        | ((RANK_ATTACKS[ksq][RANK_MASKS[ksq] & occ_k] | FILE_ATTACKS[ksq][FILE_MASKS[ksq] & occ_k]) & rq)
    )
    # Blockers of slider lines to the king with at most two pieces in the way:
    # a move on board K starting or capturing there may expose the king.
    danger = 0
    snipers = them_k & ((DIAG_RAYS[ksq] & bq) | (ORTHO_RAYS[ksq] & rq)) & ~checkers
    while snipers:
        b = snipers & -snipers
        snipers ^= b
        blk = BETWEEN[ksq][b.bit_length() - 1] & occ_k
        if blk.bit_count() <= 2:
            danger |= blk

    if checkers:
        if checkers & (checkers - 1):
            k_mask = 0  # double check: only the king moves
            y_mask = 0
        else:
            k_mask = checkers
            y_mask = BETWEEN[ksq][checkers.bit_length() - 1]
    else:
        k_mask = BB_ALL
        y_mask = BB_ALL

    moves: list[Move] = []
    append = moves.append
    targets_ab = (occ_them & occ_ab[0], occ_them & occ_ab[1])
    if not captures_only:
        targets_ab = (targets_ab[0] | empty, targets_ab[1] | empty)
    forward = 8 if us else -8
    last_rank = BB_RANK_8 if us else BB_RANK_1
    start_rank = BB_RANK_2 if us else BB_RANK_7

    pieces = occ_us ^ (1 << ksq)
    while pieces:
        fb = pieces & -pieces
        pieces ^= fb
        s = fb.bit_length() - 1
        p = sq[s]
        t = p & 7
        x = p >> 4
        o = occ_ab[x]
        if t == 1:
            dests = PAWN_ATTACKS[us][s] & occ_them & o
            d1 = s + forward
            b1 = 1 << d1
            if b1 & empty:
                if b1 & last_rank or not captures_only:
                    dests |= b1
                if fb & start_rank and not captures_only:
                    b2 = 1 << (d1 + forward)
                    if b2 & empty and not b1 & o:
                        dests |= b2
            elif fb & start_rank and not b1 & o and not captures_only:
                # The passed square is taken only on the other board.
                b2 = 1 << (d1 + forward)
                if b2 & empty:
                    dests |= b2
        elif t == 2:
            dests = KNIGHT_ATTACKS[s] & targets_ab[x]
        elif t == 3:
            dests = DIAG_ATTACKS[s][DIAG_MASKS[s] & o] & targets_ab[x]
        elif t == 4:
            dests = (RANK_ATTACKS[s][RANK_MASKS[s] & o] | FILE_ATTACKS[s][FILE_MASKS[s] & o]) & targets_ab[x]
        else:
            dests = (
                DIAG_ATTACKS[s][DIAG_MASKS[s] & o]
                | RANK_ATTACKS[s][RANK_MASKS[s] & o]
                | FILE_ATTACKS[s][FILE_MASKS[s] & o]
            ) & targets_ab[x]
        if x == kb:
            dests &= k_mask
            if dests and (danger & fb or danger & dests):
                dests = _safe_from_k(dests, fb, danger, ksq, occ_k, them_k, bq, rq)
        else:
            dests &= y_mask
        if t == 1 and dests & last_rank:
            while dests:
                b = dests & -dests
                dests ^= b
                m = s | ((b.bit_length() - 1) << 6)
                if b & last_rank:
                    for pr in PROMOTIONS:
                        append(m | pr)
                else:
                    append(m)
        else:
            while dests:
                b = dests & -dests
                dests ^= b
                append(s | ((b.bit_length() - 1) << 6))

    # King moves: safe on its board (king lifted) and on the board it lands on.
    kfb = 1 << ksq
    dests = KING_ATTACKS[ksq] & targets_ab[kb]
    occ_k_noking = occ_k ^ kfb
    while dests:
        b = dests & -dests
        dests ^= b
        d = b.bit_length() - 1
        if not _attacked(bb, them, d, occ_k_noking) and not _attacked(bb, them, d, occ_y):
            append(ksq | (d << 6))

    if pos.castling and not checkers and not captures_only:
        _castling(pos, moves, us, them, ksq, kb, occ_k, occ_y)
    return moves


def _safe_from_k(
    dests: Bitboard, fb: Bitboard, danger: Bitboard, ksq: Square, occ_k: Bitboard, them_k: Bitboard, bq: Bitboard, rq: Bitboard
) -> Bitboard:
    """Drop the destinations of a piece leaving board K that expose the king."""
    check = dests if danger & fb else dests & danger
    while check:
        tb = check & -check
        check ^= tb
        o2 = occ_k & ~(fb | tb)
        enemy = them_k & ~tb
        if (DIAG_ATTACKS[ksq][DIAG_MASKS[ksq] & o2] & enemy & bq) or (
            (RANK_ATTACKS[ksq][RANK_MASKS[ksq] & o2] | FILE_ATTACKS[ksq][FILE_MASKS[ksq] & o2]) & enemy & rq
        ):
            dests ^= tb
    return dests


def _castling(
    pos: Position, moves: list[Move], us: int, them: int, ksq: Square, kb: int, occ_k: Bitboard, occ_y: Bitboard
) -> None:
    sq = pos.sq
    bb = pos.bb
    king_code = 6 | us << 3 | kb << 4
    rook_code = 4 | us << 3 | kb << 4
    for right in WHITE_RIGHTS if us else BLACK_RIGHTS:
        if not pos.castling & right:
            continue
        kf, kt, rf, rt, between, crossed = CASTLES[right]
        if ksq != kf or sq[rf] != rook_code or sq[kf] != king_code:
            continue
        if between & occ_k or ((1 << kt) | (1 << rt)) & occ_y:
            continue
        if any(_attacked(bb, them, c, occ_k) for c in crossed):
            continue
        # The king lands on the other board beside its rook, which may shield it.
        if _attacked(bb, them, kt, occ_y | (1 << rt)):
            continue
        moves.append(kf | (kt << 6))
