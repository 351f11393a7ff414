"""Static evaluation (first version: material and piece-square tables).

``evaluate(pos)`` is centipawns for the side to move; ``terms(pos)`` lists the
white-perspective terms for the UCI ``eval`` command, ending with the total.
"""

from __future__ import annotations

from engine.position import Position

# ---------------------------------------------------------------- weights
PIECE_VALUE = (0, 100, 320, 330, 500, 950, 0)  # by ptype: -, P, N, B, R, Q, K
CENTER_BONUS = (0, 4, 10, 6, 2, 3, 0)  # per step nearer the centre, by ptype
PAWN_ADVANCE = 8  # per rank a pawn has advanced beyond its second rank


def _center(sq: int) -> int:
    f, r = sq & 7, sq >> 3
    return 6 - (abs(2 * f - 7) + abs(2 * r - 7)) // 2  # 0 (corner) .. 6 (centre)


def _build_pst() -> list[list[int]]:
    pst = [[0] * 64 for _ in range(32)]
    for code in range(32):
        t = code & 7
        if t < 1 or t > 6:
            continue
        white = (code >> 3) & 1
        sign = 1 if white else -1
        for sq in range(64):
            rank = (sq >> 3) if white else 7 - (sq >> 3)
            v = PIECE_VALUE[t] + CENTER_BONUS[t] * _center(sq)
            if t == 1:
                v += PAWN_ADVANCE * max(0, rank - 1)
            pst[code][sq] = sign * v
    return pst


PST: list[list[int]] = _build_pst()


def evaluate(pos: Position) -> int:
    """Centipawns from the side to move's point of view."""
    sq = pos.sq
    pst = PST
    score = 0
    occ = pos.bb[8] | pos.bb[9]
    while occ:
        b = occ & -occ
        occ ^= b
        s = b.bit_length() - 1
        score += pst[sq[s]][s]
    return score if pos.turn else -score


def terms(pos: Position) -> list[tuple[str, int]]:
    """``(name, white-perspective centipawns)`` per term, the last one the total."""
    white = evaluate(pos) if pos.turn else -evaluate(pos)
    return [("material+pst", white), ("total", white)]
