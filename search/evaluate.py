"""Static evaluation for Alice chess.

    evaluate(pos) -> centipawns for the side to move
    terms(pos)    -> [(name, white-perspective centipawns), ..., ("total", sum)]

Terms (every weight is a named constant in the block below):

* material (with a bonus for the bishop pair) and piece-square tables (the king's table blends from middlegame to
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

Bare kings (a draw by the Alice rules) evaluate to 0, every term left out.

Pieces on the other board cannot capture or check the king directly; they are the
ones that *deliver* checks in Alice (a check comes from a piece that just
transferred), which is why the threat term looks at the board the king is not on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from mypy_extensions import i64

from engine.bits import BB_ALL, Bitboard, bit_length, i64_buffer, popcount
from engine.movegen import checking_squares, piece_attacks
from engine.position import PSQ, PSQ_VERSION, Position, set_psq_table
from engine.tables import (
    BB_FILE_A,
    BB_FILE_H,
    BISHOP,
    KING_ATTACKS,
    KNIGHT,
    QUEEN,
    ROOK,
)
from search.score import DRAW, PIECE_VALUE

if TYPE_CHECKING:
    from librt.vecs import vec

# ---------------------------------------------------------------- weights
CENTER_BONUS: Final = (0, -2, 10, -3, 1, -3, 0)  # piece-square: per step nearer the centre, by ptype
PAWN_RANK_BONUS: Final = (0, -4, -7, -1, 4, 98, 145, 0)  # piece-square: pawn by relative rank (1..8 -> index 0..7)
KING_MG_BACK_RANK: Final = -26  # king, middlegame: bonus for standing on its first rank
KING_MG_CENTER: Final = -38  # king, middlegame: per step nearer the centre (it wants cover)
KING_EG_CENTER: Final = 25  # king, endgame: per step nearer the centre
PHASE_WEIGHT: Final = (0, 0, 1, 1, 2, 4, 0)  # game phase contribution by ptype; full phase is PHASE_MAX
PHASE_MAX: Final = 24  # phase of the starting material (middlegame = PHASE_MAX, bare endgame = 0)
MOB_FREE: Final = (0, 0, 10, 15, 8, 3, 0)  # per destination open on its board with the mirror square empty, by ptype
MOB_BLOCKED: Final = (0, 0, 4, 6, -1, -1, 0)  # per destination open on its board but blocked by the mirror square
KS_ZONE_ATTACK: Final = (0, 1, 3, 2, 2, 1, 0)  # danger units per king-neighbour square hit by a piece on the king's board
KS_CHECK_THREAT: Final = (0, 0, 3, 3, 2, 2, 0)  # danger units per move of a piece on the other board that arrives with check
KS_ARRIVE: Final = (0, 0, 2, 1, 1, 0, 0)  # danger units per move of a piece on the other board landing next to the king
KS_NO_FLIGHT: Final = 3  # danger units when the king has no flight square safe on both boards
KS_ONE_FLIGHT: Final = 2  # danger units when it has exactly one
KS_ATTACKERS_MIN: Final = 2  # the danger counts in full only from this many enemy attackers; with one, half
KS_LINEAR: Final = 5  # penalty = units * KS_LINEAR ...
KS_QUADRATIC: Final = 2  # ... + units * units * KS_QUADRATIC // 4 ...
KS_MAX: Final = 600  # ... capped at this many centipawns
OPP_BOARD: Final = (0, 0, 5, 0, 5, -15, 0)  # per piece on the board the enemy king is not on (it can arrive with check)
DEFENDER: Final = (0, 0, 3, 3, 10, -21, 0)  # per piece on its own king's board covering a square next to that king
THREAT_HANGING: Final = (0, 21, 46, 73, 60, 79, 0)  # penalty per piece attacked on its board and uncovered on the other
BISHOP_PAIR: Final = 53  # material: bonus for holding two or more bishops
TEMPO: Final = 16  # bonus for the side to move


def _center(sq: int) -> int:
    """0 on the rim corners .. 6 on the four centre squares."""
    f, r = sq & 7, sq >> 3
    return 6 - (abs(2 * f - 7) + abs(2 * r - 7)) // 2


def _build_pst() -> list[int]:
    """PST[code * 64 + sq]: white-perspective material + placement (kings excluded: blended by phase)."""
    pst = [0] * (32 * 64)
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
            pst[code << 6 | sq] = sign * v
    return pst


def _build_king_pst(middlegame: bool) -> list[int]:
    """King table ``[colour * 64 + sq]`` for the middlegame or the endgame, from the king's own view."""
    table = [0] * 128
    for c in range(2):
        for sq in range(64):
            rank = (sq >> 3) if c else 7 - (sq >> 3)
            if middlegame:
                table[c << 6 | sq] = (KING_MG_BACK_RANK if rank == 0 else 0) + KING_MG_CENTER * _center(sq)
            else:
                table[c << 6 | sq] = KING_EG_CENTER * _center(sq)
    return table


def _by_code(weights: tuple[int, ...]) -> list[int]:
    """A per-ptype weight as a table by piece code, negated for black (white perspective)."""
    return [(weights[code & 7] if code & 7 < len(weights) else 0) * (1 if code & 8 else -1) for code in range(32)]


# Tables derived from the weights above, made once at import and again by rebuild_tables()
# (an evaluation fitter patches the weights, then calls it). Each is filled in place, so every
# reference to it sees the new values; PST also fills the positions' piece-square accumulator
# (engine.position.PSQ), which push and pop keep summed (Position.psq).
PST: Final[vec[i64]] = i64_buffer(32 * 64)
KING_MG: Final[vec[i64]] = i64_buffer(128)
KING_EG: Final[vec[i64]] = i64_buffer(128)
MOB_FREE_BY_CODE: Final[vec[i64]] = i64_buffer(32)
MOB_BLOCKED_BY_CODE: Final[vec[i64]] = i64_buffer(32)
OPP_BOARD_BY_CODE: Final[vec[i64]] = i64_buffer(32)
DEFENDER_BY_CODE: Final[vec[i64]] = i64_buffer(32)
KS_ZONE_BY_TYPE: Final[vec[i64]] = i64_buffer(7)
KS_CHECK_BY_TYPE: Final[vec[i64]] = i64_buffer(7)
KS_ARRIVE_BY_TYPE: Final[vec[i64]] = i64_buffer(7)
HANGING_BY_TYPE: Final[vec[i64]] = i64_buffer(7)


def _fill(table: vec[i64], values: list[int]) -> None:
    for i in range(len(values)):
        table[i] = values[i]


def rebuild_tables() -> None:
    """Derive every table from the named weights of this module (their current values).

    Positions made before keep their piece-square sums from the old weights until they are
    next evaluated, which sums them again (``Position.psq_current``); cached evaluations
    (``search.evalcache``, a ``Searcher``'s) are not: clear or make anew the searchers after
    changing the weights. Patching the weights works in the pure build (``ALICE_ENGINE_PURE=1``
    or the checkout): the compiled one has them built into its code.

    >>> import search.evaluate as ev
    >>> from engine.position import Position
    >>> pos = Position("rnbqkbnr/pppppppp/8/8/8/5|N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1")
    >>> before, saved = ev.evaluate(pos), ev.CENTER_BONUS
    >>> ev.CENTER_BONUS = saved[:2] + (saved[2] + 10,) + saved[3:]  # knights: 10 more per step nearer the centre
    >>> ev.rebuild_tables(); ev.evaluate(pos) - before  # Nf3 is 3 steps in; black to move
    -30
    >>> ev.CENTER_BONUS = saved; ev.rebuild_tables(); ev.evaluate(pos) == before
    True
    """
    pst = _build_pst()
    _fill(PST, pst)
    set_psq_table(pst)
    _fill(KING_MG, _build_king_pst(True))
    _fill(KING_EG, _build_king_pst(False))
    _fill(MOB_FREE_BY_CODE, _by_code(MOB_FREE))
    _fill(MOB_BLOCKED_BY_CODE, _by_code(MOB_BLOCKED))
    _fill(OPP_BOARD_BY_CODE, _by_code(OPP_BOARD))
    _fill(DEFENDER_BY_CODE, _by_code(DEFENDER))
    _fill(KS_ZONE_BY_TYPE, list(KS_ZONE_ATTACK))
    _fill(KS_CHECK_BY_TYPE, list(KS_CHECK_THREAT))
    _fill(KS_ARRIVE_BY_TYPE, list(KS_ARRIVE))
    _fill(HANGING_BY_TYPE, list(THREAT_HANGING))


rebuild_tables()


def _ks_penalty(units: i64, attackers: i64) -> i64:
    if attackers < KS_ATTACKERS_MIN:
        units //= 2
    return max(0, min(KS_MAX, units * KS_LINEAR + units * units * KS_QUADRATIC // 4))


def _eval(pos: Position) -> tuple[i64, i64, i64, i64, i64, i64, i64, i64]:
    """White-perspective (material+pst, king placement, mobility, mirror blockage, king danger white,
    king danger black, threats, board placement).

    King danger values are penalties (>= 0) against the named colour. Per-colour and per-board
    values are separate locals rather than small lists, which the compiled build keeps in
    registers; each side's pieces are one ``_side`` call.
    """
    sq = pos.squares
    occ_a = pos.occ_a
    occ_b = pos.occ_b
    black = pos.black
    white = pos.white
    kings = pos.kings
    pawns = pos.pawns
    k0 = bit_length(kings & black) - 1
    k1 = bit_length(kings & white) - 1
    kb0 = sq[k0] >> 4
    kb1 = sq[k1] >> 4
    zone0 = KING_ATTACKS[k0]
    zone1 = KING_ATTACKS[k1]
    # Squares from which a piece standing on the king's board would give check, by ptype.
    _, _, kn0, dg0, ot0, qu0, _ = checking_squares(k0, occ_b if kb0 else occ_a, 0)
    _, _, kn1, dg1, ot1, qu1, _ = checking_squares(k1, occ_b if kb1 else occ_a, 1)

    # Attack maps by colour and board (att_w_a: white's on board A ...), pawns in bulk.
    wp = pawns & white
    bp = pawns & black
    # A pawn attacks on its own board: split the bulk maps by the boards of the pawns.
    wpa_b = ((((wp & occ_b & ~BB_FILE_H) << 9) | ((wp & occ_b & ~BB_FILE_A) << 7)) & BB_ALL)
    bpa_b = ((bp & occ_b & ~BB_FILE_A) >> 9) | ((bp & occ_b & ~BB_FILE_H) >> 7)
    wpa_a = ((((wp & occ_a & ~BB_FILE_H) << 9) | ((wp & occ_a & ~BB_FILE_A) << 7)) & BB_ALL)
    bpa_a = ((bp & occ_a & ~BB_FILE_A) >> 9) | ((bp & occ_a & ~BB_FILE_H) >> 7)

    if pos.psq_version != PSQ[PSQ_VERSION]:  # the weights changed since the sum was made
        pos.sum_psq()
    material = pos.psq  # material and placement of every piece but the kings (PST)
    phase = (
        PHASE_WEIGHT[KNIGHT] * popcount(pos.knights)
        + PHASE_WEIGHT[BISHOP] * popcount(pos.bishops)
        + PHASE_WEIGHT[ROOK] * popcount(pos.rooks)
        + PHASE_WEIGHT[QUEEN] * popcount(pos.queens)
    )
    # Each side's pieces: (mobility, blockage, placement, danger units it causes the enemy
    # king, how many of its pieces cause them, its attacks on A, its attacks on B).
    mob_w, blk_w, rel_w, units0, attackers0, aw_a, aw_b = _side(
        sq, white & ~(kings | pawns), white, occ_a, occ_b, kb0, zone0, kb1, zone1, kn0, dg0, ot0, qu0
    )
    mob_b, blk_b, rel_b, units1, attackers1, ab_a, ab_b = _side(
        sq, black & ~(kings | pawns), black, occ_a, occ_b, kb1, zone1, kb0, zone0, kn1, dg1, ot1, qu1
    )
    if popcount(pos.bishops & white) >= 2:
        material += BISHOP_PAIR
    if popcount(pos.bishops & black) >= 2:
        material -= BISHOP_PAIR
    mob = mob_w + mob_b
    blk = blk_w + blk_b
    rel = rel_w + rel_b
    att_w_a = wpa_a | aw_a
    att_w_b = wpa_b | aw_b
    att_b_a = bpa_a | ab_a
    att_b_b = bpa_b | ab_b

    # The kings attack their neighbourhood on their own board.
    if kb0:
        att_b_b |= zone0
    else:
        att_b_a |= zone0
    if kb1:
        att_w_b |= zone1
    else:
        att_w_a |= zone1
    phase = min(phase, PHASE_MAX)
    kw = (KING_MG[64 | k1] * phase + KING_EG[64 | k1] * (PHASE_MAX - phase)) // PHASE_MAX
    kbl = (KING_MG[k0] * phase + KING_EG[k0] * (PHASE_MAX - phase)) // PHASE_MAX
    king = kw - kbl
    # Flight squares: empty on the other board, not our piece here, attacked on neither board.
    own0 = occ_b if kb0 else occ_a
    flights0 = zone0 & ~(occ_a if kb0 else occ_b) & ~(black & own0) & ~att_w_a & ~att_w_b
    own1 = occ_b if kb1 else occ_a
    flights1 = zone1 & ~(occ_a if kb1 else occ_b) & ~(white & own1) & ~att_b_a & ~att_b_b
    danger0 = _ks_penalty(units0 + _flight_units(flights0), attackers0) * phase // PHASE_MAX
    danger1 = _ks_penalty(units1 + _flight_units(flights1), attackers1) * phase // PHASE_MAX
    # Hanging pieces: attacked on their board and not covered on the other board, where a
    # capturer would land (a recapture in Alice happens across the looking-glass).
    threats = (
        _hanging(sq, white & occ_a & att_b_a & ~att_w_b & ~kings)
        + _hanging(sq, white & occ_b & att_b_b & ~att_w_a & ~kings)
        - _hanging(sq, black & occ_a & att_w_a & ~att_b_b & ~kings)
        - _hanging(sq, black & occ_b & att_w_b & ~att_b_a & ~kings)
    )
    return material, king, mob, blk, danger1, danger0, -threats, rel


def _side(
    sq: vec[i64],
    pieces: Bitboard,
    mine: Bitboard,
    occ_a: Bitboard,
    occ_b: Bitboard,
    kbe: i64,
    zone_e: Bitboard,
    kbo: i64,
    zone_o: Bitboard,
    kn: Bitboard,
    dg: Bitboard,
    ot: Bitboard,
    qu: Bitboard,
) -> tuple[i64, i64, i64, i64, i64, Bitboard, Bitboard]:
    """One side's knights, bishops, rooks and queens (``pieces``): see ``_eval``. ``kbe``/``zone_e``
    are the enemy king's board and neighbourhood, ``kbo``/``zone_o`` its own king's, and
    ``kn``..``qu`` the squares from which each piece type checks the enemy king."""
    mob: i64 = 0
    blk: i64 = 0
    rel: i64 = 0
    units: i64 = 0
    attackers: i64 = 0
    att_a: Bitboard = 0
    att_b: Bitboard = 0
    chk: Bitboard
    while pieces:
        s = bit_length(pieces & -pieces) - 1
        pieces &= pieces - 1
        p = sq[s]
        t = p & 7
        b = p >> 4
        o = occ_b if b else occ_a
        other = occ_a if b else occ_b
        a = piece_attacks(p, s, o)
        if b:
            att_b |= a
        else:
            att_a |= a
        d = a & ~(mine & o)
        free = d & ~other
        mob += MOB_FREE_BY_CODE[p] * popcount(free)
        blk += MOB_BLOCKED_BY_CODE[p] * popcount(d & other)
        if b == kbe:
            n = popcount(a & zone_e)
            if n:
                units += KS_ZONE_BY_TYPE[t] * n
                attackers += 1
        else:
            rel += OPP_BOARD_BY_CODE[p]
            chk = kn if t == KNIGHT else dg if t == BISHOP else ot if t == ROOK else qu
            n = KS_CHECK_BY_TYPE[t] * popcount(free & chk) + KS_ARRIVE_BY_TYPE[t] * popcount(free & zone_e)
            if n:
                units += n
                attackers += 1
        if b == kbo and a & zone_o:
            rel += DEFENDER_BY_CODE[p]
    return mob, blk, rel, units, attackers, att_a, att_b


def _flight_units(flights: Bitboard) -> i64:
    """Danger units for a king with no flight square (``KS_NO_FLIGHT``) or only one."""
    if not flights:
        return KS_NO_FLIGHT
    if not flights & (flights - 1):
        return KS_ONE_FLIGHT
    return 0


def _hanging(sq: vec[i64], hanging: Bitboard) -> i64:
    """The hanging-piece penalty of the pieces in ``hanging``."""
    total: i64 = 0
    while hanging:
        lsb = hanging & -hanging
        hanging ^= lsb
        total += HANGING_BY_TYPE[sq[bit_length(lsb) - 1] & 7]
    return total


def evaluate(pos: Position) -> int:
    """Centipawns from the side to move's point of view (see the module docstring); bare kings,
    a draw by the rules, are 0 (as the web board shows a finished game)."""
    if pos.is_bare_kings():
        return DRAW
    material, king, mob, blk, dw, db, threats, rel = _eval(pos)
    score = material + king + mob + blk - dw + db + threats + rel
    return (score if pos.turn else -score) + TEMPO


def terms(pos: Position) -> list[tuple[str, int]]:
    """``(name, white-perspective centipawns)`` per term, the last one the total (as ``evaluate``)."""
    if pos.is_bare_kings():
        return [("bare kings (a draw)", DRAW), ("total", DRAW)]
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
