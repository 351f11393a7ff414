"""Piece codes, move encoding and precomputed tables, built once at import.

Every occupied coordinate holds one piece, so a position is a 64-entry mailbox of
small ints. A piece code packs the piece type, its colour and its board:

    code = ptype | colour << 3 | board << 4

with ``ptype`` as in python-chess (``chess.PAWN`` = 1 .. ``chess.KING`` = 6),
``colour`` 1 for white and 0 for black (``chess.WHITE`` is ``True``), and
``board`` 0 for A and 1 for B. The transfer through the looking-glass is
``code ^ BOARD_BIT``.

>>> piece_code(chess.KNIGHT, chess.WHITE, BOARD_B) == 2 | 8 | 16
True

A move is an int ``from | to << 6 | promotion << 12``; the landing board is
implied (the other board of the piece on ``from``). Castling is the king's
two-square move (``e1g1``).

Attack tables come from python-chess (``chess.BB_*``); this module adds only what
it lacks: the squares strictly between two squares and the Zobrist keys.
"""

from __future__ import annotations

import random

import chess

Square = int
Bitboard = int
Move = int
Piece = int  # a piece code, see the module docstring

BOARD_A = 0
BOARD_B = 1
BOARD_NAMES = "AB"

COLOR_BIT = 8
BOARD_BIT = 16

PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = 1, 2, 3, 4, 5, 6

# Indices into a position's bitboard list ``bb``: 1..6 are piece types (both
# colours, both boards); then occupancy by colour and by board.
OCC_BLACK = 8
OCC_WHITE = 9
OCC_A = 10
OCC_B = 11
BB_LEN = 12

BB_ALL = chess.BB_ALL
NO_MOVE: Move = 0


def piece_code(ptype: int, color: int, board: int) -> Piece:
    """The mailbox code of a piece (see the module docstring)."""
    return ptype | (int(color) << 3) | (board << 4)


def make_move(from_sq: Square, to_sq: Square, promotion: int = 0) -> Move:
    """Encode a move.

    >>> make_move(chess.E7, chess.E8, chess.QUEEN) >> 12 == chess.QUEEN
    True
    """
    return from_sq | (to_sq << 6) | (promotion << 12)


def move_from(move: Move) -> Square:
    return move & 63


def move_to(move: Move) -> Square:
    return (move >> 6) & 63


def move_promotion(move: Move) -> int:
    return move >> 12


def _between_table() -> list[list[Bitboard]]:
    table = [[0] * 64 for _ in range(64)]
    for a in range(64):
        for b in range(64):
            table[a][b] = chess.between(a, b)
    return table


# BETWEEN[a][b]: squares strictly between a and b on a common line, else 0.
BETWEEN: list[list[Bitboard]] = _between_table()
# LINE[a][b]: the whole line (edge to edge) through a and b, else 0.
LINE: list[list[Bitboard]] = [[chess.ray(a, b) for b in range(64)] for a in range(64)]

KNIGHT_ATTACKS: list[Bitboard] = list(chess.BB_KNIGHT_ATTACKS)
KING_ATTACKS: list[Bitboard] = list(chess.BB_KING_ATTACKS)
# PAWN_ATTACKS[colour][sq]: squares a pawn of that colour on sq attacks.
PAWN_ATTACKS: list[list[Bitboard]] = [list(chess.BB_PAWN_ATTACKS[0]), list(chess.BB_PAWN_ATTACKS[1])]
DIAG_MASKS = list(chess.BB_DIAG_MASKS)
FILE_MASKS = list(chess.BB_FILE_MASKS)
RANK_MASKS = list(chess.BB_RANK_MASKS)
DIAG_ATTACKS = list(chess.BB_DIAG_ATTACKS)
FILE_ATTACKS = list(chess.BB_FILE_ATTACKS)
RANK_ATTACKS = list(chess.BB_RANK_ATTACKS)
# Empty-board slider reach, to find the sliders that line up with a king.
DIAG_RAYS: list[Bitboard] = [DIAG_ATTACKS[s][0] for s in range(64)]
ORTHO_RAYS: list[Bitboard] = [FILE_ATTACKS[s][0] | RANK_ATTACKS[s][0] for s in range(64)]


def diag_attacks(sq: Square, occupied: Bitboard) -> Bitboard:
    return DIAG_ATTACKS[sq][DIAG_MASKS[sq] & occupied]


def ortho_attacks(sq: Square, occupied: Bitboard) -> Bitboard:
    return RANK_ATTACKS[sq][RANK_MASKS[sq] & occupied] | FILE_ATTACKS[sq][FILE_MASKS[sq] & occupied]


# Castling: right bit -> (king from, king to, rook from, rook to, squares that must
# be empty on the castling board, squares the king crosses and lands on).
CASTLE_WK, CASTLE_WQ, CASTLE_BK, CASTLE_BQ = 1, 2, 4, 8
CASTLING_LETTERS = ((CASTLE_WK, "K"), (CASTLE_WQ, "Q"), (CASTLE_BK, "k"), (CASTLE_BQ, "q"))
CASTLES = {
    CASTLE_WK: (chess.E1, chess.G1, chess.H1, chess.F1, chess.BB_F1 | chess.BB_G1, (chess.F1, chess.G1)),
    CASTLE_WQ: (chess.E1, chess.C1, chess.A1, chess.D1, chess.BB_B1 | chess.BB_C1 | chess.BB_D1, (chess.D1, chess.C1)),
    CASTLE_BK: (chess.E8, chess.G8, chess.H8, chess.F8, chess.BB_F8 | chess.BB_G8, (chess.F8, chess.G8)),
    CASTLE_BQ: (chess.E8, chess.C8, chess.A8, chess.D8, chess.BB_B8 | chess.BB_C8 | chess.BB_D8, (chess.D8, chess.C8)),
}
# CASTLING_KEEP[sq]: rights that survive a move from or to sq.
CASTLING_KEEP: list[int] = [15] * 64
CASTLING_KEEP[chess.E1] = 15 & ~(CASTLE_WK | CASTLE_WQ)
CASTLING_KEEP[chess.H1] = 15 & ~CASTLE_WK
CASTLING_KEEP[chess.A1] = 15 & ~CASTLE_WQ
CASTLING_KEEP[chess.E8] = 15 & ~(CASTLE_BK | CASTLE_BQ)
CASTLING_KEEP[chess.H8] = 15 & ~CASTLE_BK
CASTLING_KEEP[chess.A8] = 15 & ~CASTLE_BQ
# Rook squares of a castling king move, keyed by the king's destination.
CASTLE_ROOK = {
    chess.G1: (chess.H1, chess.F1),
    chess.C1: (chess.A1, chess.D1),
    chess.G8: (chess.H8, chess.F8),
    chess.C8: (chess.A8, chess.D8),
}

# Zobrist keys: one per (piece code, square), so the board of every piece is in
# the key; fixed seed so keys (and bench) are the same on every run.
_rng = random.Random(0xA11CE)
ZOBRIST: list[list[int]] = [[_rng.getrandbits(64) for _ in range(64)] for _ in range(32)]
ZOBRIST_SIDE: int = _rng.getrandbits(64)  # xored in when white is to move
ZOBRIST_CASTLING: list[int] = [_rng.getrandbits(64) for _ in range(16)]
