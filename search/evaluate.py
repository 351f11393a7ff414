"""Static evaluation for Alice chess.

    evaluate(pos) -> centipawns for the side to move
    terms(pos)    -> [(name, white-perspective centipawns), ..., ("total", sum)]

Terms (every weight is a named constant in the block below):

* material and piece-square tables (the king's table blends from middlegame to
  endgame with the remaining piece material);
* mobility that respects the transfer rule: for each piece, the destinations open
  on its own board are split into *free* ones (the mirror square on the other board
  is empty, so the move is legal) and *mirror-blocked* ones (the other board holds
  a piece there, so the move is illegal although the line is open); free moves
  earn a bonus, mirror-blocked ones a penalty;
* king safety across both boards, counted in danger units and turned into a
  penalty that grows with their square: enemy pieces on the king's board attacking
  its neighbourhood; enemy pieces on the other board with moves that arrive with
  check (after the transfer they stand on the king's board) or arrive next to the
  king; and the king's flight squares that are safe on both boards (a king move
  lands on the other board, so a flight square must be empty there and attacked on
  neither board);
* board placement: pieces on the board the enemy king is not on (from there they arrive
  with check) and pieces on their own king's board next to it (they can take a checker
  that arrives);
* hanging pieces: a piece attacked on its own board that no friendly piece covers on
  the other board (where the capturer lands, so that is where a recapture happens);
* a small bonus for the side to move.

Pieces on the other board cannot capture or check the king directly; they are the
ones that *deliver* checks in Alice (a check comes from a piece that just
transferred), which is why the threat term looks at the board the king is not on.
"""

from __future__ import annotations

from engine.movegen import checking_squares
from engine.position import Position
from engine.tables import (
    DIAG_ATTACKS,
    DIAG_MASKS,
    FILE_ATTACKS,
    FILE_MASKS,
    KING_ATTACKS,
    KNIGHT_ATTACKS,
    RANK_ATTACKS,
    RANK_MASKS,
)

# ---------------------------------------------------------------- weights
PIECE_VALUE = (0, 116, 294, 346, 562, 1168, 0)  # material by ptype: -, P, N, B, R, Q, K
CENTER_BONUS = (0, -1, 13, 3, 0, -4, 0)  # piece-square: per step nearer the centre, by ptype
PAWN_RANK_BONUS = (0, 0, -3, -5, 13, 82, 231, 0)  # piece-square: pawn by relative rank (1..8 -> index 0..7)
KING_MG_BACK_RANK = 6  # king, middlegame: bonus for standing on its first rank
KING_MG_CENTER = -56  # king, middlegame: per step nearer the centre (it wants cover)
KING_EG_CENTER = 32  # king, endgame: per step nearer the centre
PHASE_WEIGHT = (0, 0, 1, 1, 2, 4, 0)  # game phase contribution by ptype; full phase is PHASE_MAX
PHASE_MAX = 24  # phase of the starting material (middlegame = PHASE_MAX, bare endgame = 0)
MOB_FREE = (0, 0, 10, 9, 8, 6, 0)  # per destination open on its board with the mirror square empty, by ptype
MOB_BLOCKED = (0, 0, 8, 7, -5, 0, 0)  # per destination open on its board but blocked by the mirror square
KS_ZONE_ATTACK = (0, 1, 1, 1, 1, 1, 0)  # danger units per king-neighbour square hit by a piece on the king's board
KS_CHECK_THREAT = (0, 0, 2, 2, 3, 2, 0)  # danger units per move of a piece on the other board that arrives with check
KS_ARRIVE = (0, 0, 2, 0, 0, -1, 0)  # danger units per move of a piece on the other board landing next to the king
KS_NO_FLIGHT = 4  # danger units when the king has no flight square safe on both boards
KS_ONE_FLIGHT = 2  # danger units when it has exactly one
KS_ATTACKERS_MIN = 2  # the danger counts in full only from this many enemy attackers; with one, half
KS_LINEAR = 2  # penalty = units * KS_LINEAR ...
KS_QUADRATIC = 4  # ... + units * units * KS_QUADRATIC // 4 ...
KS_MAX = 600  # ... capped at this many centipawns
OPP_BOARD = (0, 0, 4, 12, -8, 0, 0)  # per piece on the board the enemy king is not on (it can arrive with check)
DEFENDER = (0, 0, 4, 0, 4, -12, 0)  # per piece on its own king's board covering a square next to that king
THREAT_HANGING = (0, 15, 80, 95, 105, 85, 0)  # penalty per piece attacked on its board and uncovered on the other
TEMPO = 76  # bonus for the side to move

BB_ALL = (1 << 64) - 1
BB_FILE_A = 0x0101010101010101
BB_FILE_H = BB_FILE_A << 7


def _center(sq: int) -> int:
    """0 on the rim corners .. 6 on the four centre squares."""
    f, r = sq & 7, sq >> 3
    return 6 - (abs(2 * f - 7) + abs(2 * r - 7)) // 2


def _build_pst() -> list[list[int]]:
    """PST[code][sq]: white-perspective material + placement (kings excluded: blended by phase)."""
    pst = [[0] * 64 for _ in range(32)]
    for code in range(32):
        t = code & 7
        if t < 1 or t > 5:
            continue
        white = (code >> 3) & 1
        sign = 1 if white else -1
        for sq in range(64):
            rank = (sq >> 3) if white else 7 - (sq >> 3)
            v = PIECE_VALUE[t] + CENTER_BONUS[t] * _center(sq)
            if t == 1:
                v += PAWN_RANK_BONUS[rank]
            pst[code][sq] = sign * v
    return pst


def _build_king_pst() -> tuple[list[list[int]], list[list[int]]]:
    """(middlegame, endgame) king tables indexed [colour][sq], from the king's own perspective."""
    mg = [[0] * 64 for _ in range(2)]
    eg = [[0] * 64 for _ in range(2)]
    for c in range(2):
        for sq in range(64):
            rank = (sq >> 3) if c else 7 - (sq >> 3)
            mg[c][sq] = (KING_MG_BACK_RANK if rank == 0 else 0) + KING_MG_CENTER * _center(sq)
            eg[c][sq] = KING_EG_CENTER * _center(sq)
    return mg, eg


def _by_code(weights: tuple[int, ...]) -> list[int]:
    """A per-ptype weight as a table by piece code, negated for black (white perspective)."""
    return [(weights[code & 7] if code & 7 < len(weights) else 0) * (1 if code & 8 else -1) for code in range(32)]


PST: list[list[int]] = _build_pst()
KING_MG, KING_EG = _build_king_pst()
MOB_FREE_BY_CODE = _by_code(MOB_FREE)
MOB_BLOCKED_BY_CODE = _by_code(MOB_BLOCKED)
OPP_BOARD_BY_CODE = _by_code(OPP_BOARD)
DEFENDER_BY_CODE = _by_code(DEFENDER)


def _ks_penalty(units: int, attackers: int) -> int:
    if attackers < KS_ATTACKERS_MIN:
        units //= 2
    return max(0, min(KS_MAX, units * KS_LINEAR + units * units * KS_QUADRATIC // 4))


def _eval(pos: Position) -> tuple[int, int, int, int, int, int, int, int]:
    """White-perspective (material+pst, king placement, mobility, mirror blockage, king danger white,
    king danger black, threats, board placement).

    King danger values are penalties (>= 0) against the named colour.
    """
    sq = pos.sq
    bb = pos.bb
    occ = (bb[10], bb[11])
    col = (bb[8], bb[9])
    kings = bb[6]
    k0 = (kings & col[0]).bit_length() - 1
    k1 = (kings & col[1]).bit_length() - 1
    kb = (sq[k0] >> 4, sq[k1] >> 4)
    zone = (KING_ATTACKS[k0], KING_ATTACKS[k1])
    # Squares from which a piece standing on the king's board would give check, by ptype.
    chk = (checking_squares(k0, occ[kb[0]], 0), checking_squares(k1, occ[kb[1]], 1))

    # Attack maps att[colour][board], pawns in bulk.
    pawns = bb[1]
    att = [[0, 0], [0, 0]]
    for b in (0, 1):
        wp = pawns & col[1] & occ[b]
        bp = pawns & col[0] & occ[b]
        att[1][b] = (((wp & ~BB_FILE_H) << 9) | ((wp & ~BB_FILE_A) << 7)) & BB_ALL
        att[0][b] = ((bp & ~BB_FILE_A) >> 9) | ((bp & ~BB_FILE_H) >> 7)

    pst = PST
    material = 0
    pcs = pawns
    while pcs:
        lsb = pcs & -pcs
        pcs ^= lsb
        s = lsb.bit_length() - 1
        material += pst[sq[s]][s]
    phase = (
        PHASE_WEIGHT[2] * bb[2].bit_count()
        + PHASE_WEIGHT[3] * bb[3].bit_count()
        + PHASE_WEIGHT[4] * bb[4].bit_count()
        + PHASE_WEIGHT[5] * bb[5].bit_count()
    )
    mob = 0
    blk = 0
    rel = 0
    units = [0, 0]  # danger units against each colour's king
    attackers = [0, 0]
    mob_free = MOB_FREE_BY_CODE
    mob_blocked = MOB_BLOCKED_BY_CODE
    opp_board = OPP_BOARD_BY_CODE
    defender = DEFENDER_BY_CODE
    ks_zone = KS_ZONE_ATTACK
    ks_check = KS_CHECK_THREAT
    ks_arrive = KS_ARRIVE
    knight_attacks = KNIGHT_ATTACKS
    diag_attacks = DIAG_ATTACKS
    diag_masks = DIAG_MASKS
    rank_attacks = RANK_ATTACKS
    rank_masks = RANK_MASKS
    file_attacks = FILE_ATTACKS
    file_masks = FILE_MASKS
    pieces = (col[0] | col[1]) & ~(kings | pawns)
    while pieces:
        lsb = pieces & -pieces
        pieces ^= lsb
        s = lsb.bit_length() - 1
        p = sq[s]
        material += pst[p][s]
        t = p & 7
        b = p >> 4
        o = occ[b]
        if t == 2:
            a = knight_attacks[s]
        elif t == 3:
            a = diag_attacks[s][diag_masks[s] & o]
        elif t == 4:
            a = rank_attacks[s][rank_masks[s] & o] | file_attacks[s][file_masks[s] & o]
        else:
            a = (
                diag_attacks[s][diag_masks[s] & o]
                | rank_attacks[s][rank_masks[s] & o]
                | file_attacks[s][file_masks[s] & o]
            )
        c = (p >> 3) & 1
        att[c][b] |= a
        d = a & ~(col[c] & o)
        other = occ[b ^ 1]
        free = d & ~other
        mob += mob_free[p] * free.bit_count()
        blk += mob_blocked[p] * (d & other).bit_count()
        e = c ^ 1
        if b == kb[e]:
            n = (a & zone[e]).bit_count()
            if n:
                units[e] += ks_zone[t] * n
                attackers[e] += 1
        else:
            rel += opp_board[p]
            n = ks_check[t] * (free & chk[e][t]).bit_count() + ks_arrive[t] * (free & zone[e]).bit_count()
            if n:
                units[e] += n
                attackers[e] += 1
        if b == kb[c] and a & zone[c]:
            rel += defender[p]

    att[0][kb[0]] |= zone[0]
    att[1][kb[1]] |= zone[1]
    phase = min(phase, PHASE_MAX)
    kw = (KING_MG[1][k1] * phase + KING_EG[1][k1] * (PHASE_MAX - phase)) // PHASE_MAX
    kbl = (KING_MG[0][k0] * phase + KING_EG[0][k0] * (PHASE_MAX - phase)) // PHASE_MAX
    king = kw - kbl
    danger = [0, 0]
    for c in (0, 1):
        e = c ^ 1
        ob = kb[c]
        y = occ[ob ^ 1]
        flights = zone[c] & ~y & ~(col[c] & occ[ob]) & ~att[e][ob] & ~att[e][ob ^ 1]
        u = units[c]
        if not flights:
            u += KS_NO_FLIGHT
        elif not flights & (flights - 1):
            u += KS_ONE_FLIGHT
        danger[c] = _ks_penalty(u, attackers[c]) * phase // PHASE_MAX
    # Hanging pieces: attacked on their board and not covered on the other board, where a
    # capturer would land (a recapture in Alice happens across the looking-glass).
    threats = 0
    for c in (0, 1):
        e = c ^ 1
        for b in (0, 1):
            hanging = col[c] & occ[b] & att[e][b] & ~att[c][b ^ 1] & ~kings
            while hanging:
                lsb = hanging & -hanging
                hanging ^= lsb
                v = THREAT_HANGING[sq[lsb.bit_length() - 1] & 7]
                threats += -v if c else v
    return material, king, mob, blk, danger[1], danger[0], threats, rel


def evaluate(pos: Position) -> int:
    """Centipawns from the side to move's point of view (see the module docstring)."""
    material, king, mob, blk, dw, db, threats, rel = _eval(pos)
    score = material + king + mob + blk - dw + db + threats + rel
    return (score if pos.turn else -score) + TEMPO


def terms(pos: Position) -> list[tuple[str, int]]:
    """``(name, white-perspective centipawns)`` per term, the last one the total (as ``evaluate``)."""
    material, king, mob, blk, dw, db, threats, rel = _eval(pos)
    tempo = TEMPO if pos.turn else -TEMPO
    parts = [
        ("material+pst", material),
        ("king placement", king),
        ("mobility (free moves)", mob),
        ("mirror-square blockage", blk),
        ("king safety white", -dw),
        ("king safety black", db),
        ("hanging pieces", threats),
        ("board placement", rel),
        ("tempo", tempo),
    ]
    parts.append(("total", sum(v for _, v in parts)))
    return parts
