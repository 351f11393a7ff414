"""FEN in (compact ``|`` form and 16-wide form) and out (compact form).

Compact: a ``|`` right before a piece letter puts that piece on board B; digits
count coordinates empty on both boards. 16-wide: each rank lists board A's a..h
then board B's a..h, digits may run across the halves.

>>> parse_fen("4k11/16/16/16/12P3/16/16/4K11 w - - 0 1").squares[28] >> 4
1
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import chess

from engine.bits import Bitboard
from engine.movegen import piece_attacks
from engine.tables import (
    BB_SQUARES,
    BOARD_A,
    CASTLE_WK,
    CASTLE_WQ,
    CASTLES,
    CASTLING_LETTERS,
    KING,
    PAWN,
    ROOK,
    piece_code,
)

if TYPE_CHECKING:
    from engine.position import Position

PIECE_LETTERS = " pnbrqk"


class FenError(ValueError):
    """An invalid FEN; the message names the field or rank and the problem."""


@dataclass
class ParsedFen:
    squares: list[int]
    turn: int
    castling: int
    halfmove: int
    fullmove: int


def _split_rank(text: str, rank_no: int) -> list[tuple[str, bool]]:
    """Tokens of one rank: ('n', False) for n empty columns, ('P', on_b)."""
    tokens: list[tuple[str, bool]] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch.isdigit():
            j = i
            while j < len(text) and text[j].isdigit():
                j += 1
            if text[i] == "0":
                raise FenError(f"rank {rank_no}: empty count {text[i:j]!r} must be positive")
            tokens.append((text[i:j], False))
            i = j
        elif ch == "|":
            if i + 1 >= len(text) or text[i + 1].lower() not in PIECE_LETTERS[1:]:
                raise FenError(f"rank {rank_no}: '|' must be followed by a piece letter")
            tokens.append((text[i + 1], True))
            i += 2
        elif ch.lower() in PIECE_LETTERS[1:]:
            tokens.append((ch, False))
            i += 1
        else:
            raise FenError(f"rank {rank_no}: bad character {ch!r}")
    return tokens


def _width(tokens: list[tuple[str, bool]]) -> int:
    return sum(int(t) if t.isdigit() else 1 for t, _ in tokens)


def _parse_board(text: str) -> list[int]:
    ranks = text.split("/")
    if len(ranks) != 8:
        raise FenError(f"board field: expected 8 ranks, got {len(ranks)}")
    tokenized = [_split_rank(r, 8 - i) for i, r in enumerate(ranks)]
    wide = all(not any(b for _, b in toks) for toks in tokenized) and any(_width(t) == 16 for t in tokenized)
    width = 16 if wide else 8
    squares = [0] * 64
    for i, toks in enumerate(tokenized):
        rank_no = 8 - i
        w = _width(toks)
        if w != width:
            raise FenError(f"rank {rank_no}: {w} columns, expected {width}")
        col = 0
        for t, on_b in toks:
            if t.isdigit():
                col += int(t)
                continue
            board = 1 if on_b or col >= 8 else 0
            s = chess.square(col % 8, rank_no - 1)
            if squares[s]:
                raise FenError(f"rank {rank_no}: square {chess.SQUARE_NAMES[s]} is filled on both boards")
            squares[s] = piece_code(PIECE_LETTERS.index(t.lower()), t.isupper(), board)
            col += 1
    return squares


def _check_board(squares: list[int]) -> None:
    for color, name in ((1, "white"), (0, "black")):
        kings = [s for s, p in enumerate(squares) if p and p & 7 == KING and (p >> 3) & 1 == color]
        if not kings:
            raise FenError(f"board field: missing {name} king")
        if len(kings) > 1:
            raise FenError(f"board field: {len(kings)} {name} kings")
    for s, p in enumerate(squares):
        if p and p & 7 == PAWN and chess.square_rank(s) in (0, 7):
            raise FenError(f"board field: pawn on {chess.SQUARE_NAMES[s]} (rank 1 or 8)")


def _parse_castling(text: str, squares: list[int]) -> int:
    """The castling field; a right whose king or rook is not at home on board A is dropped
    (as python-chess drops impossible rights of orthodox FENs), see ``valid_castling``."""
    if text == "-":
        return 0
    rights = 0
    letters = {letter: bit for bit, letter in CASTLING_LETTERS}
    for ch in text:
        if ch not in letters:
            raise FenError(f"castling field: bad character {ch!r} in {text!r}")
        bit = letters[ch]
        if rights & bit:
            raise FenError(f"castling field: {ch!r} given twice")
        rights |= bit
    return valid_castling(squares, rights)


def valid_castling(squares: Sequence[int], rights: int) -> int:
    """``rights`` without those whose king or rook is not on its home square on board A.

    A king or rook that has moved has passed to board B (every move transfers), so a right
    can only belong to pieces at home on A; castling from board B cannot arise.

    >>> squares = parse_fen("4k3/8/8/8/8/8/8/R3K2|R w - - 0 1").squares
    >>> valid_castling(squares, CASTLE_WK | CASTLE_WQ) == CASTLE_WQ
    True
    """
    valid = 0
    for bit, (kf, _, rf, _, _, _) in CASTLES.items():
        color = 1 if bit in (CASTLE_WK, CASTLE_WQ) else 0
        if rights & bit and squares[kf] == piece_code(KING, color, BOARD_A) and squares[rf] == piece_code(ROOK, color, BOARD_A):
            valid |= bit
    return valid


def _parse_int(text: str, field: str, minimum: int) -> int:
    if not re.fullmatch(r"\d+", text) or int(text) < minimum:
        raise FenError(f"{field} field: expected an integer >= {minimum}, got {text!r}")
    return int(text)


def parse_fen(fen: str) -> ParsedFen:
    """Parse and validate a FEN, raising ``FenError`` naming the problem."""
    fields = fen.split()
    if len(fields) < 4 or len(fields) > 6:
        raise FenError(f"expected 4 to 6 fields (board, side, castling, en passant[, clocks]), got {len(fields)}")
    squares = _parse_board(fields[0])
    _check_board(squares)
    if fields[1] not in ("w", "b"):
        raise FenError(f"side-to-move field: expected 'w' or 'b', got {fields[1]!r}")
    turn = 1 if fields[1] == "w" else 0
    castling = _parse_castling(fields[2], squares)
    if fields[3] != "-":
        raise FenError(f"en-passant field: Alice chess has no en passant, expected '-', got {fields[3]!r}")
    halfmove = _parse_int(fields[4], "halfmove-clock", 0) if len(fields) > 4 else 0
    fullmove = _parse_int(fields[5], "fullmove-number", 1) if len(fields) > 5 else 1
    parsed = ParsedFen(squares, turn, castling, halfmove, fullmove)
    _check_not_in_check(parsed)
    return parsed


def _check_not_in_check(parsed: ParsedFen) -> None:
    """The side that is not to move must not be in check (its king could be taken)."""
    side = parsed.turn ^ 1
    squares = parsed.squares
    k = next(s for s, p in enumerate(squares) if p & 7 == KING and (p >> 3) & 1 == side)
    kb = squares[k] >> 4
    occ: Bitboard = 0
    for s, p in enumerate(squares):
        if p and p >> 4 == kb:
            occ |= BB_SQUARES[s]
    for s, p in enumerate(squares):
        if p and p >> 4 == kb and (p >> 3) & 1 != side and piece_attacks(p, s, occ) & BB_SQUARES[k]:
            name = "white" if side else "black"
            raise FenError(f"board field: {name} is in check but it is not {name}'s move")


def write_fen(pos: Position) -> str:
    """The compact FEN of ``pos``, exactly as Fairy-Stockfish writes it."""
    rows = []
    for rank in range(7, -1, -1):
        row = ""
        empty = 0
        for file in range(8):
            p = pos.squares[rank * 8 + file]
            if not p:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            letter = PIECE_LETTERS[p & 7]
            row += ("|" if p >> 4 else "") + (letter.upper() if p & 8 else letter)
        if empty:
            row += str(empty)
        rows.append(row)
    castling = "".join(letter for bit, letter in CASTLING_LETTERS if pos.castling & bit) or "-"
    side = "w" if pos.turn else "b"
    return f"{'/'.join(rows)} {side} {castling} - {pos.halfmove} {pos.fullmove}"
