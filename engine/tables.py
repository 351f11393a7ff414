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

Attack tables come from python-chess (``chess.BB_*``), converted once to the build's
bitboard representation (``engine.bits``); this module adds only what python-chess
lacks: the squares between and the lines through two squares, flat tables indexed by
``a * 64 + b``, and the Zobrist keys.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Final

import chess
from mypy_extensions import i64

from engine.bits import BB_ALL as BB_ALL
from engine.bits import COMPILED, Bitboard, i64_table, native

if TYPE_CHECKING:
    from librt.vecs import vec

Square = int
Move = int
Piece = int  # a piece code, see the module docstring

BOARD_A: Final = 0
BOARD_B: Final = 1
BOARD_NAMES: Final = "AB"

COLOR_BIT: Final = 8
BOARD_BIT: Final = 16

PAWN: Final = 1
KNIGHT: Final = 2
BISHOP: Final = 3
ROOK: Final = 4
QUEEN: Final = 5
KING: Final = 6

# Indices into a position's bitboard list ``bb``: 1..6 are piece types (both
# colours, both boards); then occupancy by colour and by board.
OCC_BLACK: Final = 8
OCC_WHITE: Final = 9
OCC_A: Final = 10
OCC_B: Final = 11
BB_LEN: Final = 12

NO_MOVE: Final = 0


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


def _bitboards(values: list[int]) -> vec[i64]:
    """A python-chess table of bitboards as this build stores them (``engine.bits``)."""
    return i64_table(values)


def _attack_dicts(table: list[dict[int, int]]) -> list[dict[Bitboard, Bitboard]]:
    """python-chess's slider tables (per square: masked occupancy -> attacks), converted."""
    return [{native(k): native(v) for k, v in d.items()} for d in table]


# BB_SQUARES[s]: the bitboard of square s.
BB_SQUARES: Final = _bitboards(chess.BB_SQUARES)
# BETWEEN[a * 64 + b]: squares strictly between a and b on a common line, else 0.
BETWEEN: Final = _bitboards([chess.between(a, b) for a in range(64) for b in range(64)])
# LINE[a * 64 + b]: the whole line (edge to edge) through a and b, else 0.
LINE: Final = _bitboards([chess.ray(a, b) for a in range(64) for b in range(64)])

KNIGHT_ATTACKS: Final = _bitboards(chess.BB_KNIGHT_ATTACKS)
KING_ATTACKS: Final = _bitboards(chess.BB_KING_ATTACKS)
# PAWN_ATTACKS[colour * 64 + sq]: squares a pawn of that colour on sq attacks.
PAWN_ATTACKS: Final = _bitboards(chess.BB_PAWN_ATTACKS[0] + chess.BB_PAWN_ATTACKS[1])
DIAG_MASKS: Final = _bitboards(chess.BB_DIAG_MASKS)
FILE_MASKS: Final = _bitboards(chess.BB_FILE_MASKS)
RANK_MASKS: Final = _bitboards(chess.BB_RANK_MASKS)
DIAG_ATTACKS: Final[list[dict[Bitboard, Bitboard]]] = _attack_dicts(chess.BB_DIAG_ATTACKS)
FILE_ATTACKS: Final[list[dict[Bitboard, Bitboard]]] = _attack_dicts(chess.BB_FILE_ATTACKS)
RANK_ATTACKS: Final[list[dict[Bitboard, Bitboard]]] = _attack_dicts(chess.BB_RANK_ATTACKS)
# Empty-board slider reach, to find the sliders that line up with a king.
DIAG_RAYS: Final = _bitboards([chess.BB_DIAG_ATTACKS[s][0] for s in range(64)])
ORTHO_RAYS: Final = _bitboards([chess.BB_FILE_ATTACKS[s][0] | chess.BB_RANK_ATTACKS[s][0] for s in range(64)])

BB_RANK_1: Final[i64] = native(chess.BB_RANK_1)
BB_RANK_2: Final[i64] = native(chess.BB_RANK_2)
BB_RANK_7: Final[i64] = native(chess.BB_RANK_7)
BB_RANK_8: Final[i64] = native(chess.BB_RANK_8)
BB_FILE_A: Final[i64] = native(chess.BB_FILE_A)
BB_FILE_H: Final[i64] = native(chess.BB_FILE_H)


def _slide(sq: Square, occupied: int, df: int, dr: int) -> int:
    """Squares a slider on ``sq`` reaches in the one direction (df, dr) over ``occupied``."""
    f, r, found = (sq & 7) + df, (sq >> 3) + dr, 0
    while 0 <= f < 8 and 0 <= r < 8:
        found |= 1 << (r * 8 + f)
        if occupied >> (r * 8 + f) & 1:
            break
        f, r = f + df, r + dr
    return found


def _line_table(
    line: tuple[tuple[int, int], tuple[int, int]], bit_square: Callable[[Square, int], Square | None]
) -> vec[i64]:
    """``T[sq << 6 | i]``: the slider reach of ``sq`` along ``line`` (two opposite directions)
    when the line's inner occupancy index is ``i`` (bit j: the line's square that
    ``bit_square(sq, j + 1)`` names is occupied; ``None``: no such square)."""
    table: list[int] = []
    for sq in range(64):
        for i in range(64):
            occ = 0
            for j in range(6):
                s = bit_square(sq, j + 1)
                if i >> j & 1 and s is not None:
                    occ |= 1 << s
            table.append(_slide(sq, occ, *line[0]) | _slide(sq, occ, *line[1]))
    return _bitboards(table)


def _on_diagonal(sq: Square, f: int, slope: int) -> Square | None:
    """The square on file ``f`` of the diagonal through ``sq`` rising by ``slope`` per file."""
    r = (sq >> 3) + (f - (sq & 7)) * slope
    return r * 8 + f if 0 <= r < 8 else None


# Slider reach without a dictionary: the occupancy of one line through the square is
# folded into a 6-bit index (the line's two end squares never matter) and looked up in a
# flat table. Ranks: a shift. Files: the a-file bits folded into one byte by shifts. A
# diagonal has one square per file, so OR-ing its bytes together gives a byte indexed by
# file. The compiled build uses these (a dict lookup there costs more than the folding);
# the pure build keeps python-chess's per-square dicts (fewer interpreted operations) and
# does not build these tables (they would add tens of milliseconds to its start-up).
if COMPILED:
    RANK_REACH: Final = _line_table(((1, 0), (-1, 0)), lambda sq, j: (sq & 56) + j)
    FILE_REACH: Final = _line_table(((0, 1), (0, -1)), lambda sq, j: j * 8 + (sq & 7))
    DIAG_UP_REACH: Final = _line_table(((1, 1), (-1, -1)), lambda sq, j: _on_diagonal(sq, j, 1))
    DIAG_DOWN_REACH: Final = _line_table(((1, -1), (-1, 1)), lambda sq, j: _on_diagonal(sq, j, -1))
    DIAG_UP_MASKS: Final = _bitboards([_slide(s, 0, 1, 1) | _slide(s, 0, -1, -1) for s in range(64)])
    DIAG_DOWN_MASKS: Final = _bitboards([_slide(s, 0, 1, -1) | _slide(s, 0, -1, 1) for s in range(64)])

    def diag_attacks(sq: i64, occupied: Bitboard) -> Bitboard:
        """Bishop moves from ``sq`` over ``occupied`` (one board)."""
        x = occupied & DIAG_UP_MASKS[sq]
        x |= x >> 32  # bytes folded: sign bits shifted in stay above the low byte
        x |= x >> 16
        x |= x >> 8
        y = occupied & DIAG_DOWN_MASKS[sq]
        y |= y >> 32
        y |= y >> 16
        y |= y >> 8
        i = sq << 6
        return DIAG_UP_REACH[i | ((x >> 1) & 63)] | DIAG_DOWN_REACH[i | ((y >> 1) & 63)]

    def ortho_attacks(sq: i64, occupied: Bitboard) -> Bitboard:
        """Rook moves from ``sq`` over ``occupied`` (one board)."""
        x = (occupied >> (sq & 7)) & BB_FILE_A
        x |= x >> 7  # file bits 8k gathered into the low byte
        x |= x >> 14
        x |= x >> 28
        i = sq << 6
        return RANK_REACH[i | ((occupied >> ((sq & 56) | 1)) & 63)] | FILE_REACH[i | ((x >> 1) & 63)]

else:

    def diag_attacks(sq: i64, occupied: Bitboard) -> Bitboard:
        """Bishop moves from ``sq`` over ``occupied`` (one board)."""
        return DIAG_ATTACKS[sq][DIAG_MASKS[sq] & occupied]

    def ortho_attacks(sq: i64, occupied: Bitboard) -> Bitboard:
        """Rook moves from ``sq`` over ``occupied`` (one board)."""
        return RANK_ATTACKS[sq][RANK_MASKS[sq] & occupied] | FILE_ATTACKS[sq][FILE_MASKS[sq] & occupied]


# Castling: right bit -> (king from, king to, rook from, rook to, squares that must
# be empty on the castling board, squares the king crosses and lands on).
CASTLE_WK: Final = 1
CASTLE_WQ: Final = 2
CASTLE_BK: Final = 4
CASTLE_BQ: Final = 8
CASTLING_LETTERS: Final = ((CASTLE_WK, "K"), (CASTLE_WQ, "Q"), (CASTLE_BK, "k"), (CASTLE_BQ, "q"))
CASTLES: Final[dict[int, tuple[int, int, int, int, Bitboard, tuple[int, int]]]] = {
    CASTLE_WK: (chess.E1, chess.G1, chess.H1, chess.F1, native(chess.BB_F1 | chess.BB_G1), (chess.F1, chess.G1)),
    CASTLE_WQ: (chess.E1, chess.C1, chess.A1, chess.D1, native(chess.BB_B1 | chess.BB_C1 | chess.BB_D1), (chess.D1, chess.C1)),
    CASTLE_BK: (chess.E8, chess.G8, chess.H8, chess.F8, native(chess.BB_F8 | chess.BB_G8), (chess.F8, chess.G8)),
    CASTLE_BQ: (chess.E8, chess.C8, chess.A8, chess.D8, native(chess.BB_B8 | chess.BB_C8 | chess.BB_D8), (chess.D8, chess.C8)),
}
# The same by right bit, as flat tables for the move generator (index 1, 2, 4 or 8): the
# king's and rook's squares, the squares that must be empty on the castling board, the two
# squares the king crosses and lands on.
CASTLE_KING_FROM: Final = i64_table([CASTLES[r][0] if r in CASTLES else 0 for r in range(9)])
CASTLE_KING_TO: Final = i64_table([CASTLES[r][1] if r in CASTLES else 0 for r in range(9)])
CASTLE_ROOK_SQ_FROM: Final = i64_table([CASTLES[r][2] if r in CASTLES else 0 for r in range(9)])
CASTLE_ROOK_SQ_TO: Final = i64_table([CASTLES[r][3] if r in CASTLES else 0 for r in range(9)])
CASTLE_EMPTY: Final = i64_table([CASTLES[r][4] if r in CASTLES else 0 for r in range(9)])
CASTLE_CROSS: Final = i64_table([CASTLES[r][5][0] if r in CASTLES else 0 for r in range(9)])
CASTLE_LAND: Final = i64_table([CASTLES[r][5][1] if r in CASTLES else 0 for r in range(9)])
# CASTLING_KEEP[sq]: rights that survive a move from or to sq.
_keep = [15] * 64
_keep[chess.E1] = 15 & ~(CASTLE_WK | CASTLE_WQ)
_keep[chess.H1] = 15 & ~CASTLE_WK
_keep[chess.A1] = 15 & ~CASTLE_WQ
_keep[chess.E8] = 15 & ~(CASTLE_BK | CASTLE_BQ)
_keep[chess.H8] = 15 & ~CASTLE_BK
_keep[chess.A8] = 15 & ~CASTLE_BQ
CASTLING_KEEP: Final = i64_table(_keep)
# Rook squares of a castling king move by the king's destination: CASTLE_ROOK_FROM/TO[sq]
# (-1 for squares that are not a castling destination).
_rook_from = [-1] * 64
_rook_to = [-1] * 64
for _kt, _rf, _rt in ((chess.G1, chess.H1, chess.F1), (chess.C1, chess.A1, chess.D1), (chess.G8, chess.H8, chess.F8), (chess.C8, chess.A8, chess.D8)):
    _rook_from[_kt] = _rf
    _rook_to[_kt] = _rt
CASTLE_ROOK_FROM: Final = i64_table(_rook_from)
CASTLE_ROOK_TO: Final = i64_table(_rook_to)

# Zobrist keys: one per (piece code, square), ZOBRIST[code * 64 + sq], so the board of every
# piece is in the key; fixed seed so keys (and bench) are the same on every run. 63 bits,
# so a key is the same non-negative number in both builds (a native int64 when compiled).
_rng = random.Random(0xA11CE)
ZOBRIST: Final = i64_table([_rng.getrandbits(63) for _ in range(32 * 64)])
ZOBRIST_SIDE: Final[i64] = _rng.getrandbits(63)  # xored in when white is to move
ZOBRIST_CASTLING: Final = i64_table([_rng.getrandbits(63) for _ in range(16)])
