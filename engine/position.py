"""The two-board Alice position: state, make/unmake, keys, attacks, game state.

>>> import chess
>>> from engine.tables import make_move
>>> pos = Position()
>>> pos.push(make_move(chess.E2, chess.E4))
>>> pos.board_of(chess.E4)
1
>>> pos.pop() == make_move(chess.E2, chess.E4)
True
>>> pos.key == pos.compute_key()
True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from mypy_extensions import i64

import engine.movegen as movegen  # not ``from engine import``: engine/__init__ imports this module
from engine.bits import Bitboard, bit_length, i64_buffer, i64_table, unsigned
from engine.fen import parse_fen, write_fen
from engine.tables import (
    BB_LEN,
    BB_SQUARES,
    BISHOP,
    BOARD_BIT,
    CASTLE_ROOK_FROM,
    CASTLE_ROOK_TO,
    CASTLING_KEEP,
    COLOR_BIT,
    KING,
    KNIGHT,
    OCC_A,
    OCC_B,
    OCC_BLACK,
    OCC_WHITE,
    PAWN,
    QUEEN,
    ROOK,
    ZOBRIST,
    ZOBRIST_CASTLING,
    ZOBRIST_SIDE,
    Move,
    Piece,
    Square,
)

if TYPE_CHECKING:
    from librt.vecs import vec

STARTING_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

# The piece-square accumulator: weights by piece code and square, ``PSQ[code << 6 | sq]``, that
# the evaluation fills (``search.evaluate``: material plus placement, white's view) and every
# position sums over its pieces in ``Position.psq``, kept up to date by ``push`` and ``pop``.
# The rules do not read it. ``PSQ[PSQ_VERSION]`` counts the fills: a position whose sum was
# made with an older table is summed again (``Position.psq_current``).
PSQ_SIZE: Final = 32 * 64
PSQ_VERSION: Final = PSQ_SIZE
PSQ: Final = i64_buffer(PSQ_SIZE + 1)


def set_psq_table(values: list[int]) -> None:
    """Fill the accumulator's weights (``values[code << 6 | sq]``, 2048 of them)."""
    if len(values) != PSQ_SIZE:
        raise ValueError(f"a piece-square table has {PSQ_SIZE} weights, not {len(values)}")
    for i in range(PSQ_SIZE):
        PSQ[i] = values[i]
    PSQ[PSQ_VERSION] += 1

# One undo record: move, moved piece, captured piece, castling, halfmove clock and key
# before the move (the bitboards are restored by applying the move's changes again).
Undo = tuple[Move, Piece, Piece, int, int, i64]
UNDO_KEY = 5  # index of the key in an undo record (repetition scans read it)


@dataclass(frozen=True)
class Outcome:
    """How a game ended: ``result`` is ``1-0``, ``0-1`` or ``1/2-1/2``."""

    termination: str  # checkmate, stalemate, fifty-move rule, threefold repetition, bare kings
    winner: bool | None  # chess.WHITE, chess.BLACK or None for a draw

    @property
    def result(self) -> str:
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner else "0-1"


class Position:
    """An Alice chess position with its move history.

    ``sq`` is the mailbox of piece codes (``engine.tables``). The bitboards (in the build's
    representation, ``engine.bits``) are fields: by piece type over both colours and boards
    (``pawns`` .. ``kings``), by colour (``black``, ``white``) and by board (``occ_a``,
    ``occ_b``); ``bb`` lists them by the ``tables`` indices for code off the hot paths.
    ``turn`` is 1 (white) or 0 (black).
    """

    __slots__ = (
        "bishops", "black", "castling", "fullmove", "halfmove", "key", "kings", "knights", "occ_a", "occ_b",
        "pawns", "psq", "psq_version", "queens", "rooks", "squares", "stack", "turn", "white",
    )  # fmt: skip

    def __init__(self, fen: str | None = STARTING_FEN) -> None:
        self.squares: vec[i64] = i64_buffer(64)  # the mailbox (``sq``)
        self.pawns: Bitboard = 0
        self.knights: Bitboard = 0
        self.bishops: Bitboard = 0
        self.rooks: Bitboard = 0
        self.queens: Bitboard = 0
        self.kings: Bitboard = 0
        self.black: Bitboard = 0
        self.white: Bitboard = 0
        self.occ_a: Bitboard = 0
        self.occ_b: Bitboard = 0
        self.turn: int = 1
        self.castling: int = 0
        self.halfmove: int = 0
        self.fullmove: int = 1
        self.key: i64 = 0
        self.psq: i64 = 0  # the sum of PSQ over the pieces (see PSQ)
        self.psq_version: i64 = 0  # PSQ[PSQ_VERSION] when psq was summed
        self.stack: list[Undo] = []
        if fen is not None:
            self.set_fen(fen)

    # ----------------------------------------------------------------- setup
    @classmethod
    def from_fen(cls, fen: str) -> Position:
        """Parse a compact or 16-wide FEN; raises ``engine.fen.FenError``."""
        return cls(fen)

    def set_fen(self, fen: str) -> None:
        """Replace this position by ``fen``; on error nothing changes."""
        parsed = parse_fen(fen)  # raises before anything is touched
        self.squares = i64_table(parsed.squares)
        self.turn = parsed.turn
        self.castling = parsed.castling
        self.halfmove = parsed.halfmove
        self.fullmove = parsed.fullmove
        self.stack = []
        self.rebuild()

    def fen(self) -> str:
        """The compact FEN, as Fairy-Stockfish prints it."""
        return write_fen(self)

    def rebuild(self) -> None:
        """Recompute everything derived from the mailbox ``sq``, ``turn`` and ``castling`` (the
        bitboards and the key): call it after editing those fields directly."""
        self.pawns = self.knights = self.bishops = self.rooks = self.queens = self.kings = 0
        self.black = self.white = self.occ_a = self.occ_b = 0
        for s, p in enumerate(self.squares):
            if p:
                self._flip(p, BB_SQUARES[s])
        self.key = self.compute_key()
        self.sum_psq()

    def sum_psq(self) -> None:
        """``psq`` from scratch, with the accumulator's current weights."""
        total: i64 = 0
        for s, p in enumerate(self.squares):
            if p:
                total += PSQ[p << 6 | s]
        self.psq = total
        self.psq_version = PSQ[PSQ_VERSION]

    def psq_current(self) -> i64:
        """``psq``, summed again first if the weights changed since (``set_psq_table``)."""
        if self.psq_version != PSQ[PSQ_VERSION]:
            self.sum_psq()
        return self.psq

    @property
    def sq(self) -> vec[i64]:
        """The mailbox: the piece code on each square (0: empty), ``squares`` by its old name.
        Assigning a sequence of 64 codes copies it in (then call ``rebuild``)."""
        return self.squares

    @sq.setter
    def sq(self, codes: Iterable[int]) -> None:
        # For code outside the compiled modules (engine.board): compiled code assigns squares
        # (mypyc 2.4 hands a vec to this setter unboxed, which crashes).
        values = list(codes)
        if len(values) != 64:
            raise ValueError(f"a mailbox has 64 squares, not {len(values)}")
        self.squares = i64_table(values)

    @property
    def bb(self) -> list[Bitboard]:
        """The bitboards as a list indexed by ``tables.PAWN`` .. ``KING`` and ``OCC_*`` (a copy)."""
        bb: list[Bitboard] = [0] * BB_LEN
        bb[PAWN], bb[KNIGHT], bb[BISHOP] = self.pawns, self.knights, self.bishops
        bb[ROOK], bb[QUEEN], bb[KING] = self.rooks, self.queens, self.kings
        bb[OCC_BLACK], bb[OCC_WHITE], bb[OCC_A], bb[OCC_B] = self.black, self.white, self.occ_a, self.occ_b
        return bb

    def type_bb(self, t: int) -> Bitboard:
        """The bitboard of piece type ``t`` (both colours, both boards)."""
        if t == PAWN:
            return self.pawns
        if t == KNIGHT:
            return self.knights
        if t == BISHOP:
            return self.bishops
        if t == ROOK:
            return self.rooks
        if t == QUEEN:
            return self.queens
        return self.kings

    def _flip(self, p: Piece, mask: Bitboard) -> None:
        """Toggle ``mask`` in the bitboards of piece ``p`` (its type, colour and board)."""
        t = p & 7
        if t == PAWN:
            self.pawns ^= mask
        elif t == KNIGHT:
            self.knights ^= mask
        elif t == BISHOP:
            self.bishops ^= mask
        elif t == ROOK:
            self.rooks ^= mask
        elif t == QUEEN:
            self.queens ^= mask
        else:
            self.kings ^= mask
        if p & COLOR_BIT:
            self.white ^= mask
        else:
            self.black ^= mask
        if p & BOARD_BIT:
            self.occ_b ^= mask
        else:
            self.occ_a ^= mask

    def compute_key(self) -> i64:
        """The Zobrist key from scratch (the incremental ``key`` must equal it)."""
        key: i64 = ZOBRIST_CASTLING[self.castling]
        if self.turn:
            key ^= ZOBRIST_SIDE
        for s, p in enumerate(self.squares):
            if p:
                key ^= ZOBRIST[p << 6 | s]
        return key

    def copy(self) -> Position:
        """An independent copy, history included."""
        other = Position(None)
        other.squares = self.squares[:]
        other.pawns, other.knights, other.bishops = self.pawns, self.knights, self.bishops
        other.rooks, other.queens, other.kings = self.rooks, self.queens, self.kings
        other.black, other.white, other.occ_a, other.occ_b = self.black, self.white, self.occ_a, self.occ_b
        other.turn = self.turn
        other.castling = self.castling
        other.halfmove = self.halfmove
        other.fullmove = self.fullmove
        other.key = self.key
        other.psq = self.psq
        other.psq_version = self.psq_version
        other.stack = self.stack[:]
        return other

    # ------------------------------------------------------------ make/unmake
    def push(self, m: Move) -> None:
        """Play a legal move (not checked: use ``legal_moves`` or notation)."""
        sq = self.squares
        s = m & 63
        d = (m >> 6) & 63
        p = sq[s]
        q = sq[d]
        key = self.key
        self.stack.append((m, p, q, self.castling, self.halfmove, key))
        c = (p >> 3) & 1
        promo = m >> 12
        np = p ^ BOARD_BIT if not promo else promo | ((p & (COLOR_BIT | BOARD_BIT)) ^ BOARD_BIT)
        sq[s] = 0
        sq[d] = np
        key ^= ZOBRIST[p << 6 | s] ^ ZOBRIST[np << 6 | d] ^ ZOBRIST_SIDE
        psq = self.psq + PSQ[np << 6 | d] - PSQ[p << 6 | s]
        if q:
            key ^= ZOBRIST[q << 6 | d]
            psq -= PSQ[q << 6 | d]
            self.halfmove = 0
        elif p & 7 == PAWN:
            self.halfmove = 0
        else:
            self.halfmove += 1
            if p & 7 == KING and (d - s == 2 or s - d == 2):
                rs = CASTLE_ROOK_FROM[d]
                rd = CASTLE_ROOK_TO[d]
                r = sq[rs]
                sq[rs] = 0
                sq[rd] = r ^ BOARD_BIT
                key ^= ZOBRIST[r << 6 | rs] ^ ZOBRIST[(r ^ BOARD_BIT) << 6 | rd]
                psq += PSQ[(r ^ BOARD_BIT) << 6 | rd] - PSQ[r << 6 | rs]
        self.psq = psq
        self._move_bits(s, d, p, np, q)
        cr = self.castling
        if cr:
            ncr = cr & CASTLING_KEEP[s] & CASTLING_KEEP[d]
            if ncr != cr:
                key ^= ZOBRIST_CASTLING[cr] ^ ZOBRIST_CASTLING[ncr]
                self.castling = ncr
        if not c:
            self.fullmove += 1
        self.turn = c ^ 1
        self.key = key

    def _move_bits(self, s: Square, d: Square, p: Piece, np: Piece, q: Piece) -> None:
        """Toggle the bitboards for piece ``p`` leaving ``s`` and ``np`` (``p`` through the
        looking-glass, or what it promotes to) arriving on ``d``, capturing ``q``; the rook
        too when it is castling. Applied twice it changes nothing: ``pop`` undoes ``push``."""
        fb = BB_SQUARES[s]
        tb = BB_SQUARES[d]
        if q:
            self._flip(q, tb)
        if p & 7 == KING and (d - s == 2 or s - d == 2):
            r = p ^ (KING ^ ROOK)  # our rook, on the king's board before the move
            self._flip(r, BB_SQUARES[CASTLE_ROOK_FROM[d]])
            self._flip(r ^ BOARD_BIT, BB_SQUARES[CASTLE_ROOK_TO[d]])
        if np == p ^ BOARD_BIT:
            # Same piece: only the board changes; fast path of _flip twice, written out because
            # make/unmake is the hottest code: a shared helper cost the pure build 2-3 % in perft
            # and bench (whole-process timings, paired, 2026-12-01).
            both = fb | tb
            t = p & 7
            if t == PAWN:
                self.pawns ^= both
            elif t == KNIGHT:
                self.knights ^= both
            elif t == BISHOP:
                self.bishops ^= both
            elif t == ROOK:
                self.rooks ^= both
            elif t == QUEEN:
                self.queens ^= both
            else:
                self.kings ^= both
            if p & COLOR_BIT:
                self.white ^= both
            else:
                self.black ^= both
            if p & BOARD_BIT:
                self.occ_b ^= fb
                self.occ_a ^= tb
            else:
                self.occ_a ^= fb
                self.occ_b ^= tb
        else:
            self._flip(p, fb)
            self._flip(np, tb)

    def pop(self) -> Move:
        """Take back the last move and return it."""
        m, p, q, self.castling, self.halfmove, self.key = self.stack.pop()
        sq = self.squares
        s = m & 63
        d = (m >> 6) & 63
        np = sq[d]
        sq[s] = p
        sq[d] = q
        psq = self.psq + PSQ[p << 6 | s] - PSQ[np << 6 | d]
        if q:
            psq += PSQ[q << 6 | d]
        if p & 7 == KING and (d - s == 2 or s - d == 2):
            rs = CASTLE_ROOK_FROM[d]
            rd = CASTLE_ROOK_TO[d]
            r = sq[rd]
            sq[rs] = r ^ BOARD_BIT
            sq[rd] = 0
            psq += PSQ[(r ^ BOARD_BIT) << 6 | rs] - PSQ[r << 6 | rd]
        self.psq = psq
        self._move_bits(s, d, p, np, q)
        c = (p >> 3) & 1
        self.turn = c
        if not c:
            self.fullmove -= 1
        return m

    def push_null(self) -> None:
        """Pass the move (for null-move pruning); undo with ``pop_null``."""
        self.stack.append((0, 0, 0, self.castling, self.halfmove, self.key))
        self.key ^= ZOBRIST_SIDE
        self.halfmove += 1
        self.turn ^= 1

    def pop_null(self) -> None:
        _, _, _, self.castling, self.halfmove, self.key = self.stack.pop()
        self.turn ^= 1

    @property
    def move_stack(self) -> list[Move]:
        return [u[0] for u in self.stack]

    # ------------------------------------------------------------- queries
    def piece_at(self, s: Square) -> tuple[int, bool, int] | None:
        """``(piece type, colour, board)`` of the piece on ``s``, or ``None``."""
        p = self.squares[s]
        if not p:
            return None
        return p & 7, bool(p & 8), p >> 4

    def board_of(self, s: Square) -> int | None:
        """0 (A) or 1 (B) for an occupied square, else ``None``."""
        p = self.squares[s]
        return p >> 4 if p else None

    def king(self, color: int) -> Square:
        """The square of ``color``'s king (-1 if none)."""
        return bit_length(self.kings & (self.white if color else self.black)) - 1

    def pin_mask(self, color: int, s: Square) -> int:
        """The line from ``color``'s king through ``s`` to the enemy slider that the piece on
        ``s`` alone shields it from on the king's board, else all squares (see ``movegen.pin_ray``;
        python-chess's bitboard form)."""
        return unsigned(movegen.pin_ray(self, int(color), s))

    def attackers_mask(self, color: int, s: Square, board: int) -> int:
        """Pieces of ``color`` on ``board`` that attack ``s`` on that board (python-chess's
        bitboard form: see ``engine.bits.unsigned``)."""
        return unsigned(movegen.attackers(self, int(color), s, self.occ_b if board else self.occ_a))

    def is_attacked(self, color: int, s: Square, board: int) -> bool:
        return bool(movegen.attackers(self, int(color), s, self.occ_b if board else self.occ_a))

    def checkers(self) -> Bitboard:
        """Enemy pieces giving check to the side to move (on its king's board)."""
        k = self.king(self.turn)
        if k < 0:
            return 0
        return movegen.attackers(self, self.turn ^ 1, k, self.occ_b if self.squares[k] >> 4 else self.occ_a)

    def checkers_mask(self) -> int:
        """``checkers()`` in python-chess's bitboard form."""
        return unsigned(self.checkers())

    def in_check(self) -> bool:
        return bool(self.checkers())

    def legal_moves(self) -> list[Move]:
        return movegen.legal_moves(self)

    def captures(self) -> list[Move]:
        """Legal captures and promotions only."""
        return movegen.legal_moves(self, True)

    def is_legal(self, m: Move) -> bool:
        return m in movegen.legal_moves(self)

    def is_capture(self, m: Move) -> bool:
        return bool(self.squares[(m >> 6) & 63])

    def gives_check(self, m: Move) -> bool:
        self.push(m)
        try:
            return self.in_check()
        finally:
            self.pop()

    # ----------------------------------------------------------- game state
    def repetitions(self) -> int:
        """How often the current position (boards included) has occurred."""
        key = self.key
        count = 1
        stack = self.stack
        n = len(stack)
        # Only positions since the last irreversible move can repeat.
        limit = max(0, n - self.halfmove)
        i = n - 2
        while i >= limit:
            if stack[i][UNDO_KEY] == key:
                count += 1
            i -= 2
        return count

    def is_repetition(self, count: int = 3) -> bool:
        return self.repetitions() >= count

    def is_bare_kings(self) -> bool:
        return (self.black | self.white) == self.kings

    def is_fifty_moves(self) -> bool:
        return self.halfmove >= 100

    def outcome(self) -> Outcome | None:
        """The result if the game is over (mate first, then draws), else ``None``."""
        if not movegen.legal_moves(self):
            if self.in_check():
                return Outcome("checkmate", not self.turn)
            return Outcome("stalemate", None)
        if self.is_bare_kings():
            return Outcome("bare kings", None)
        if self.is_fifty_moves():
            return Outcome("fifty-move rule", None)
        if self.is_repetition(3):
            return Outcome("threefold repetition", None)
        return None

    def __repr__(self) -> str:
        return f"Position({self.fen()!r})"
