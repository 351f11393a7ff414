"""An Alice chess board that python-chess understands: ``AliceBoard``, a ``chess.Board`` subclass.

The rules come from ``engine.Position`` (kept in sync, the single source of truth);
python-chess's bitboards (``pawns`` ... ``occupied_co``) show the *merged* view of both
boards (one piece per coordinate), and ``board_b`` marks the squares whose piece stands on
board B. With it:

* ``chess.engine`` drives any Alice UCI engine: the root is sent as ``position fen
  <compact FEN> moves ...`` and the engine's ``bestmove``/``pv`` moves (with or without
  ``/A`` ``/B``) are checked by our rules;
* ``chess.pgn`` writes and reads Alice games: importing this module registers the variant
  (``[Variant "Alice"]``), SAN carries the landing board (``e4/B``, ``Nxe4/A+``);
* repetition is layer-aware (a position includes the board of every piece) and the draws
  of the Alice rules (fifty moves, threefold repetition, bare kings) are automatic, so
  ``outcome()`` reports them whatever ``claim_draw`` says.

>>> board = AliceBoard()
>>> board.push_san("e4")
Move.from_uci('e2e4')
>>> board.fen()
'rnbqkbnr/pppppppp/8/8/4|P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1'
>>> board.san(board.parse_uci("d7d5/b"))
'd5/B'
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Mapping
from typing import ClassVar

import chess
import chess.variant

from engine.bits import native, unsigned
from engine.fen import FenError, valid_castling
from engine.movegen import attackers, piece_attacks, pseudo_legal_moves
from engine.notation import (
    AmbiguousSanError,
    MalformedMoveError,
    MoveError,
    landing_board,
    move_to_san,
    parse_san,
    parse_uci,
)
from engine.position import STARTING_FEN, Position
from engine.tables import BOARD_NAMES, KING, OCC_B, OCC_BLACK, OCC_WHITE, PAWN, piece_code

__all__ = ["STARTING_FEN", "AliceBoard", "to_chess_move", "to_engine_move"]

# Engine castling bits <-> python-chess castling-rights bitboards (rook squares).
_CASTLING_BB = ((1, chess.BB_H1), (2, chess.BB_A1), (4, chess.BB_H8), (8, chess.BB_A8))
_TERMINATIONS: dict[str, chess.Termination] = {
    "checkmate": chess.Termination.CHECKMATE,
    "stalemate": chess.Termination.STALEMATE,
    "bare kings": chess.Termination.INSUFFICIENT_MATERIAL,
    "fifty-move rule": chess.Termination.FIFTY_MOVES,
    "threefold repetition": chess.Termination.THREEFOLD_REPETITION,
}
_PROMOTIONS = (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT)

# python-chess's private hooks that AliceBoard overrides, each with the python-chess code that
# calls it (read in python-chess 1.9.4, 1.10.0 and 1.11.2, the range pyproject.toml pins: the
# same in all three). Our public overrides (reset_board, clear, set_fen, push, ...) never reach
# python-chess's own versions; the hooks catch the public methods left to python-chess. Before
# the pin moves, read the new release's callers again; tests/test_board.py checks that
# chess.Board still has every hook. The undo stack ``_stack`` (python-chess's ``_BoardState``s)
# is kept empty: push, pop, root, copy, is_repetition and clean_castling_rights, its readers,
# are all overridden.
PYTHON_CHESS_HOOKS: dict[str, str] = {
    "_reset_board": "BaseBoard.__init__, reset_board",
    "_clear_board": "BaseBoard.__init__, clear_board, Board.clear, _set_board_fen, _set_piece_map",
    "_remove_piece_at": "remove_piece_at (Board's then clears the stack), set_piece_at, Board.push",
    "_set_piece_at": "set_piece_at, _set_board_fen, _set_piece_map, Board.push",
    "_set_piece_map": "set_piece_map (Board's then clears the stack)",
    "_set_chess960_pos": "set_chess960_pos, from_chess960_pos (refused: no Chess960 in Alice chess)",
    "_set_board_fen": "BaseBoard.__init__, set_board_fen, Board.set_fen",
    "_transposition_key": "Board.__eq__, is_repetition, can_claim_threefold_repetition",
    "_algebraic_and_push": "san, lan, san_and_push, variation_san (through _algebraic)",
}


def to_engine_move(move: chess.Move) -> int:
    """The ``engine`` move int of a python-chess move (0 for the null move)."""
    if not move:
        return 0
    return move.from_square | move.to_square << 6 | (move.promotion or 0) << 12


def to_chess_move(m: int) -> chess.Move:
    """The python-chess move of an ``engine`` move int."""
    if not m:
        return chess.Move.null()
    return chess.Move(m & 63, (m >> 6) & 63, (m >> 12) or None)


def _is_null(undo: tuple) -> bool:  # type: ignore[type-arg]
    """A ``Position.stack`` entry of ``push_null`` (move 0 and no piece)."""
    return not undo[0] and not undo[1]


class AliceBoard(chess.Board):
    """A ``chess.Board`` playing Alice chess (see ``engine/`` and docs/alice-rules.md).

    FENs are read in the compact (``|``) or 16-wide form and written compact. Chess960
    is not supported. ``push`` accepts pseudo-legal moves (and the null move); ``pop``
    takes back. Pseudo-legal means: the piece moves as in orthodox chess on its own
    board, the destination is not one of our pieces on that board and is empty on the
    other board, king safety ignored; castling only when fully legal.
    """

    aliases: ClassVar[list[str]] = ["Alice", "Alice chess", "Alice Chess", "alice"]
    uci_variant = "alice"
    xboard_variant = "alice"
    starting_fen = STARTING_FEN

    tbw_suffix = None
    tbz_suffix = None
    tbw_magic = None
    tbz_magic = None

    board_b: chess.Bitboard
    """Squares whose piece stands on board B (all other occupied squares are on A)."""

    def __init__(self, fen: str | None = STARTING_FEN, *, chess960: bool = False) -> None:
        if chess960:
            raise ValueError("Alice chess has no Chess960 mode")
        self._pos = Position(None)
        self._legal: list[int] | None = None
        self.chess960 = False
        self.promoted = chess.BB_EMPTY
        self.move_stack: list[chess.Move] = []
        self._stack: list[
            chess._BoardState
        ] = []  # python-chess's own undo states: unused, the engine position keeps history
        if fen is None:
            self._sync()
        else:
            self.set_fen(fen)

    # ----------------------------------------------------------- state mirror
    def _sync(self) -> None:
        """Copy the engine position into python-chess's attributes; drop caches."""
        bb = [unsigned(b) for b in self._pos.bb]  # the compiled engine keeps bit 63 as a sign bit
        self.pawns, self.knights, self.bishops, self.rooks, self.queens, self.kings = bb[PAWN : KING + 1]
        self.occupied_co = [bb[OCC_BLACK], bb[OCC_WHITE]]
        self.occupied = bb[OCC_BLACK] | bb[OCC_WHITE]
        self.board_b = bb[OCC_B]
        self._legal = None

    def _edited(self) -> None:
        """After a direct edit of the squares: fix castling, rebuild, forget history."""
        pos = self._pos
        pos.castling = valid_castling(list(pos.sq), pos.castling)
        pos.rebuild()
        self.move_stack.clear()
        self._stack.clear()
        pos.stack = []
        self._sync()

    @property
    def position(self) -> Position:
        """The engine position behind this board (do not modify it directly)."""
        return self._pos

    @property
    def turn(self) -> chess.Color:
        return bool(self._pos.turn)

    @turn.setter
    def turn(self, color: chess.Color) -> None:
        if bool(self._pos.turn) != bool(color):
            self._pos.turn = int(bool(color))
            self._pos.rebuild()
            self._legal = None

    @property
    def castling_rights(self) -> chess.Bitboard:
        rights = self._pos.castling
        return sum(mask for bit, mask in _CASTLING_BB if rights & bit)

    @castling_rights.setter
    def castling_rights(self, mask: chess.Bitboard) -> None:
        bits = sum(bit for bit, bb in _CASTLING_BB if mask & bb)
        self._pos.castling = valid_castling(list(self._pos.sq), bits)
        self._pos.rebuild()
        self._legal = None

    @property
    def halfmove_clock(self) -> int:
        return self._pos.halfmove

    @halfmove_clock.setter
    def halfmove_clock(self, value: int) -> None:
        self._pos.halfmove = int(value)

    @property
    def fullmove_number(self) -> int:
        return self._pos.fullmove

    @fullmove_number.setter
    def fullmove_number(self, value: int) -> None:
        self._pos.fullmove = max(1, int(value))

    @property
    def ep_square(self) -> chess.Square | None:
        return None

    @ep_square.setter
    def ep_square(self, square: chess.Square | None) -> None:
        if square is not None:
            raise ValueError("Alice chess has no en passant")

    def board_at(self, square: chess.Square) -> int | None:
        """0 (board A) or 1 (board B) for an occupied square, else ``None``."""
        return self._pos.board_of(square)

    # --------------------------------------------------- setting up positions
    def reset(self) -> None:
        self.set_fen(STARTING_FEN)

    def reset_board(self) -> None:
        self._reset_board()

    def _reset_board(self) -> None:
        turn, halfmove, fullmove = self._pos.turn, self._pos.halfmove, self._pos.fullmove
        self._pos = Position(STARTING_FEN)
        self._pos.turn, self._pos.halfmove, self._pos.fullmove = turn, halfmove, fullmove
        self._edited()

    def clear(self) -> None:
        self._pos = Position(None)
        self._edited()

    def clear_board(self) -> None:
        self._clear_board()

    def _clear_board(self) -> None:
        self._pos.sq = [0] * 64
        self._edited()

    def clear_stack(self) -> None:
        self.move_stack.clear()
        self._stack.clear()
        self._pos.stack = []

    def _remove_piece_at(self, square: chess.Square) -> chess.PieceType | None:
        p = self._pos.sq[square]
        self._pos.sq[square] = 0
        self._edited()
        return p & 7 or None

    def _set_piece_at(
        self, square: chess.Square, piece_type: chess.PieceType, color: chess.Color, promoted: bool = False
    ) -> None:
        self._pos.sq[square] = piece_code(piece_type, color, 0)
        self._edited()

    def set_piece_at(
        self, square: chess.Square, piece: chess.Piece | None, promoted: bool = False, *, board: int = 0
    ) -> None:
        """Put ``piece`` on ``square`` of ``board`` (0 = A, 1 = B); ``None`` empties the square."""
        self._pos.sq[square] = piece_code(piece.piece_type, piece.color, board) if piece else 0
        self._edited()

    def _set_piece_map(self, pieces: Mapping[chess.Square, chess.Piece]) -> None:
        """All pieces go to board A (use ``set_piece_at(..., board=1)`` for board B)."""
        sq = [0] * 64
        for square, piece in pieces.items():
            sq[square] = piece_code(piece.piece_type, piece.color, 0)
        self._pos.sq = sq
        self._edited()

    def _set_chess960_pos(self, scharnagl: int) -> None:
        raise ValueError("Alice chess has no Chess960 mode")

    def _set_board_fen(self, fen: str) -> None:
        """The board field alone (compact or 16-wide); kings are required."""
        side = "w" if self._pos.turn else "b"
        try:
            parsed = Position(f"{fen.strip()} {side} - - 0 1")
        except FenError as error:
            raise ValueError(f"invalid board fen {fen!r}: {error}") from None
        self._pos.sq = parsed.sq
        self._edited()

    def set_fen(self, fen: str) -> None:
        """Set the position from a compact or 16-wide FEN (missing trailing fields default
        to ``w - - 0 1``); raises ``ValueError`` (``engine.FenError``) and changes nothing
        on a bad FEN. Clears the move stack."""
        fields = fen.split()
        defaults = ["w", "-", "-"]
        if 0 < len(fields) < 4:
            fields += defaults[len(fields) - 1 :]
        self._pos = Position(" ".join(fields))
        self.move_stack.clear()
        self._stack.clear()
        self._sync()

    def set_castling_fen(self, castling_fen: str) -> None:
        if castling_fen == "-":
            self.castling_rights = chess.BB_EMPTY
            self.clear_stack()
            return
        letters = dict(zip("KQkq", (chess.BB_H1, chess.BB_A1, chess.BB_H8, chess.BB_A8)))
        if not castling_fen or any(ch not in letters for ch in castling_fen):
            raise ValueError(f"invalid castling fen for Alice chess: {castling_fen!r}")
        self.castling_rights = sum(letters[ch] for ch in set(castling_fen))
        self.clear_stack()

    def apply_transform(self, f: Callable[[chess.Bitboard], chess.Bitboard]) -> None:
        sq = [0] * 64
        for s, p in enumerate(self._pos.sq):
            if p:
                sq[chess.msb(f(chess.BB_SQUARES[s]))] = p
        rights = f(self.castling_rights)
        self._pos.sq = sq
        self._pos.castling = sum(bit for bit, bb in _CASTLING_BB if rights & bb)
        self._edited()

    def apply_mirror(self) -> None:
        sq = [0] * 64
        for s, p in enumerate(self._pos.sq):
            if p:
                sq[chess.square_mirror(s)] = p ^ 8
        rights = self._pos.castling
        self._pos.sq = sq
        self._pos.castling = (rights & 3) << 2 | (rights >> 2)
        self._pos.turn ^= 1
        self._edited()

    # ------------------------------------------------------------------ FEN
    def board_fen(self, *, promoted: bool | None = False) -> str:
        return self._pos.fen().split()[0]

    def fen(
        self, *, shredder: bool = False, en_passant: chess.EnPassantSpec = "legal", promoted: bool | None = None
    ) -> str:
        """The compact FEN, exactly as Fairy-Stockfish writes it (no en passant ever)."""
        return self._pos.fen()

    def castling_xfen(self) -> str:
        return self._pos.fen().split()[2]

    def castling_shredder_fen(self) -> str:
        rights = self._pos.castling
        return "".join(letter for bit, letter in zip((1, 2, 4, 8), "HAha") if rights & bit) or "-"

    def clean_castling_rights(self) -> chess.Bitboard:
        return self.castling_rights  # kept valid by every change

    # ----------------------------------------------------------- make/unmake
    def push(self, move: chess.Move) -> None:
        """Play a pseudo-legal move or the null move (raises ``IllegalMoveError`` otherwise)."""
        if not move:
            self._pos.push_null()
        else:
            if move.drop or not self.is_pseudo_legal(move):
                raise chess.IllegalMoveError(f"push() expects a pseudo-legal move, got {move.uci()} in {self.fen()}")
            self._pos.push(to_engine_move(move))
        self.move_stack.append(chess.Move(move.from_square, move.to_square, move.promotion))
        self._sync()

    def pop(self) -> chess.Move:
        move = self.move_stack.pop()
        if _is_null(self._pos.stack[-1]):
            self._pos.pop_null()
        else:
            self._pos.pop()
        self._sync()
        return move

    def _unwound(self) -> Position:
        pos = self._pos.copy()
        while pos.stack:
            if _is_null(pos.stack[-1]):
                pos.pop_null()
            else:
                pos.pop()
        return pos

    def root(self) -> AliceBoard:
        board = type(self)(None)
        board._pos = self._unwound()
        board._sync()
        return board

    def copy(self, *, stack: bool | int = True) -> AliceBoard:
        board = type(self)(None)
        pos = self._pos.copy()
        keep = len(self.move_stack) if stack is True else int(stack)
        keep = max(0, min(keep, len(self.move_stack)))
        pos.stack = pos.stack[len(pos.stack) - keep :]
        board._pos = pos
        board.move_stack = [
            chess.Move(m.from_square, m.to_square, m.promotion) for m in self.move_stack[len(self.move_stack) - keep :]
        ]
        board._sync()
        return board

    # ----------------------------------------------------------------- moves
    def _legal_ints(self) -> list[int]:
        if self._legal is None:
            pos = self._pos
            has_kings = pos.king(1) >= 0 and pos.king(0) >= 0
            self._legal = pos.legal_moves() if has_kings else []
        return self._legal

    def generate_legal_moves(
        self, from_mask: chess.Bitboard = chess.BB_ALL, to_mask: chess.Bitboard = chess.BB_ALL
    ) -> Iterator[chess.Move]:
        for m in self._legal_ints():
            if chess.BB_SQUARES[m & 63] & from_mask and chess.BB_SQUARES[(m >> 6) & 63] & to_mask:
                yield to_chess_move(m)

    def generate_castling_moves(
        self, from_mask: chess.Bitboard = chess.BB_ALL, to_mask: chess.Bitboard = chess.BB_ALL
    ) -> Iterator[chess.Move]:
        sq = self._pos.sq
        for m in self._legal_ints():
            s, d = m & 63, (m >> 6) & 63
            if (
                sq[s] & 7 == KING
                and abs(d - s) == 2
                and chess.BB_SQUARES[s] & from_mask
                and chess.BB_SQUARES[d] & to_mask
            ):
                yield to_chess_move(m)

    def generate_pseudo_legal_moves(
        self, from_mask: chess.Bitboard = chess.BB_ALL, to_mask: chess.Bitboard = chess.BB_ALL
    ) -> Iterator[chess.Move]:
        """The rules' pseudo-legal moves (``engine.movegen.pseudo_legal_moves``)."""
        for m in pseudo_legal_moves(self._pos):
            if chess.BB_SQUARES[m & 63] & from_mask and chess.BB_SQUARES[(m >> 6) & 63] & to_mask:
                yield to_chess_move(m)

    def is_pseudo_legal(self, move: chess.Move) -> bool:
        if not move or move.drop:
            return False
        p = self._pos.sq[move.from_square]
        if not p or bool(p & 8) != self.turn:
            return False
        from_mask = chess.BB_SQUARES[move.from_square]
        to_mask = chess.BB_SQUARES[move.to_square]
        return move in self.generate_pseudo_legal_moves(from_mask, to_mask)

    def is_legal(self, move: chess.Move) -> bool:
        return bool(move) and not move.drop and to_engine_move(move) in self._legal_ints()

    def is_into_check(self, move: chess.Move) -> bool:
        """For a pseudo-legal move: would it leave the mover's king attacked on its board?"""
        return not self.is_legal(move)

    def was_into_check(self) -> bool:
        pos = self._pos
        k = pos.king(pos.turn ^ 1)
        return k >= 0 and pos.is_attacked(pos.turn, k, pos.sq[k] >> 4)

    def checkers_mask(self) -> chess.Bitboard:
        return self._pos.checkers_mask()

    def is_check(self) -> bool:
        return bool(self._pos.checkers_mask())

    def gives_check(self, move: chess.Move) -> bool:
        self.push(move)
        try:
            return self.is_check()
        finally:
            self.pop()

    def attacks_mask(self, square: chess.Square) -> chess.Bitboard:
        """Squares the piece on ``square`` attacks on its own board."""
        p = self._pos.sq[square]
        if not p:
            return chess.BB_EMPTY
        return unsigned(piece_attacks(p, square, self._pos.occ_b if p >> 4 else self._pos.occ_a))

    def attackers_mask(
        self,
        color: chess.Color,
        square: chess.Square,
        occupied: chess.Bitboard | None = None,
        *,
        board: int | None = None,
    ) -> chess.Bitboard:
        """Pieces of ``color`` attacking ``square`` on ``board`` (default: the board of the
        piece on ``square``; both boards for an empty square). ``occupied`` replaces that
        board's blockers."""
        if board is None:
            b = self._pos.board_of(square)
            if b is None:
                return self.attackers_mask(color, square, occupied, board=0) | self.attackers_mask(
                    color, square, occupied, board=1
                )
            board = b
        own = self._pos.occ_b if board else self._pos.occ_a
        o = own if occupied is None else native(occupied)
        return unsigned(attackers(self._pos, int(color), square, o) & own)

    def pin_mask(self, color: chess.Color, square: chess.Square) -> chess.Bitboard:
        """The ray to the king if the piece on ``square`` shields its king from an enemy
        slider on the king's board (such a piece can only move by capturing that slider),
        else ``BB_ALL``."""
        return self._pos.pin_mask(int(color), square)

    # ------------------------------------------------------------ game state
    def is_checkmate(self) -> bool:
        return self.is_check() and not self._legal_ints()

    def is_stalemate(self) -> bool:
        return not self.is_check() and not self._legal_ints()

    def is_insufficient_material(self) -> bool:
        """Bare kings (a draw by the Alice rules)."""
        return self.occupied == self.kings

    def has_insufficient_material(self, color: chess.Color) -> bool:
        """``color`` has nothing but its king."""
        return self.occupied_co[color] & ~self.kings == 0

    def is_repetition(self, count: int = 3) -> bool:
        """The position (boards of all pieces included) occurred ``count`` times in the move stack."""
        return self._pos.repetitions() >= count

    def can_claim_threefold_repetition(self) -> bool:
        pos = self._pos
        if pos.repetitions() >= 3:
            return True
        for m in self._legal_ints():
            pos.push(m)
            try:
                if pos.repetitions() >= 3:
                    return True
            finally:
                pos.pop()
        return False

    def _transposition_key(self) -> Hashable:
        pos = self._pos
        return (tuple(pos.sq), pos.turn, pos.castling)

    def outcome(self, *, claim_draw: bool = False) -> chess.Outcome | None:
        """Mate, stalemate, bare kings, fifty moves, threefold repetition (layer-aware).

        The Alice draws are automatic, so ``claim_draw`` changes nothing. A position
        without both kings has no outcome."""
        pos = self._pos
        if pos.king(1) < 0 or pos.king(0) < 0:
            return None
        result = pos.outcome()
        if result is None:
            return None
        return chess.Outcome(_TERMINATIONS[result.termination], result.winner)

    # -------------------------------------------------------------- notation
    def _algebraic_and_push(self, move: chess.Move, *, long: bool = False) -> str:
        if not move:
            self.push(move)
            return "--"
        if not self.is_legal(move):
            raise chess.IllegalMoveError(f"illegal move {move.uci()} in {self.fen()}")
        m = to_engine_move(move)
        san = move_to_san(self._pos, m)
        if long:
            san = self._long(m, san)
        self.push(move)
        return san

    def _long(self, m: int, san: str) -> str:
        """Long algebraic: ``Ng1-f3/B``, ``e2-e4/B``, ``Qd1xd7/A+``; castling as in SAN."""
        if san.startswith("O-O"):
            return san
        pos = self._pos
        s, d = m & 63, (m >> 6) & 63
        piece = "" if pos.sq[s] & 7 == PAWN else " PNBRQK"[pos.sq[s] & 7]
        text = piece + chess.SQUARE_NAMES[s] + ("x" if pos.sq[d] else "-") + chess.SQUARE_NAMES[d]
        if m >> 12:
            text += "=" + " PNBRQK"[m >> 12]
        text += "/" + BOARD_NAMES[landing_board(pos, m)]
        return text + san[len(san.rstrip("+#")) :]

    def parse_san(self, san: str) -> chess.Move:
        """A legal move from SAN, with or without ``/A`` ``/B`` (a wrong suffix is an error)."""
        if san in ("--", "Z0", "0000", "@@@@"):
            return chess.Move.null()
        try:
            return to_chess_move(parse_san(self._pos, san))
        except AmbiguousSanError as error:
            raise chess.AmbiguousMoveError(str(error)) from None
        except MalformedMoveError as error:
            raise chess.InvalidMoveError(str(error)) from None
        except MoveError as error:
            raise chess.IllegalMoveError(str(error)) from None

    def parse_uci(self, uci: str) -> chess.Move:
        """A legal move from UCI, optionally with ``/A`` ``/B`` (``e2e4/B``); ``0000`` is the null move."""
        if uci == "0000":
            return chess.Move.null()
        try:
            return to_chess_move(parse_uci(self._pos, uci))
        except MalformedMoveError as error:
            raise chess.InvalidMoveError(str(error)) from None
        except MoveError as error:
            raise chess.IllegalMoveError(str(error)) from None

    def uci(self, move: chess.Move, *, chess960: bool | None = None, suffix: bool = False) -> str:
        """``e2e4``, or ``e2e4/B`` with ``suffix`` (the move must then be legal here)."""
        text = move.uci()
        if suffix and move:
            text += "/" + BOARD_NAMES[landing_board(self._pos, to_engine_move(move))]
        return text

    def __str__(self) -> str:
        """Both boards side by side, board A left, board B right."""
        rows = []
        for rank in range(7, -1, -1):
            halves = []
            for board in (0, 1):
                cells = []
                for file in range(8):
                    p = self._pos.sq[chess.square(file, rank)]
                    cells.append(chess.Piece(p & 7, bool(p & 8)).symbol() if p and p >> 4 == board else ".")
                halves.append(" ".join(cells))
            rows.append("   ".join(halves))
        return "\n".join(rows)


def _register() -> None:
    if AliceBoard not in chess.variant.VARIANTS:
        chess.variant.VARIANTS.append(AliceBoard)


_register()
