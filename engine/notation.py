"""Moves as text: UCI and SAN, with the optional landing-board suffix ``/A`` ``/B``.

>>> from engine.position import Position
>>> pos = Position()
>>> move_to_san(pos, parse_uci(pos, "e2e4/b"))
'e4/B'
>>> move_to_uci(pos, parse_san(pos, "Nf3"), suffix=True)
'g1f3/B'
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import chess

from engine.tables import BOARD_NAMES, KING, PAWN, Move

if TYPE_CHECKING:
    from engine.position import Position

PROMO_LETTERS = " pnbrqk"
SAN_LETTERS = " PNBRQK"

_UCI_RE = re.compile(r"^([a-h][1-8])([a-h][1-8])([nbrqNBRQ]?)(?:/([abAB]))?$")
_SAN_RE = re.compile(r"^([NBRQK])?([a-h])?([1-8])?(x)?([a-h][1-8])(?:=?([NBRQnbrq]))?$")
_SUFFIX_RE = re.compile(r"(.*?)(?:/([abAB]))?", re.DOTALL)  # fullmatch: any text splits


class MoveError(ValueError):
    """A move that is malformed, illegal here, or whose board suffix is wrong."""


class MalformedMoveError(MoveError):
    """Text that is not a move at all (not UCI, or not SAN)."""


class AmbiguousSanError(MoveError):
    """SAN that names more than one legal move."""


def landing_board(pos: Position, m: Move) -> int:
    """The board (0 = A, 1 = B) the moving piece lands on."""
    return (pos.squares[m & 63] >> 4) ^ 1


def move_to_uci(pos: Position, m: Move, suffix: bool = False) -> str:
    """``e2e4`` (or ``e2e4/B`` with ``suffix``); ``pos`` is the position before the move."""
    text = chess.SQUARE_NAMES[m & 63] + chess.SQUARE_NAMES[(m >> 6) & 63]
    if m >> 12:
        text += PROMO_LETTERS[m >> 12]
    if suffix:
        text += "/" + BOARD_NAMES[landing_board(pos, m)]
    return text


def _check_suffix(pos: Position, m: Move, board: str | None, text: str) -> Move:
    if board is not None:
        want = BOARD_NAMES.index(board.upper())
        got = landing_board(pos, m)
        if want != got:
            raise MoveError(f"move {text!r}: the piece lands on board {BOARD_NAMES[got]}, not {BOARD_NAMES[want]}")
    return m


def parse_uci(pos: Position, text: str) -> Move:
    """The legal move named by UCI ``text`` (suffix optional, case-insensitive)."""
    match = _UCI_RE.match(text.strip())
    if not match:
        raise MalformedMoveError(f"malformed move {text!r}: expected a move like e2e4, e7e8q or e2e4/B")
    src, dst, promo, board = match.groups()
    wanted = chess.parse_square(src) | chess.parse_square(dst) << 6 | PROMO_LETTERS.index(promo.lower() or " ") << 12
    if wanted not in pos.legal_moves():
        raise MoveError(f"illegal move {text!r} in {pos.fen()}")
    return _check_suffix(pos, wanted, board, text)


def move_to_san(pos: Position, m: Move) -> str:
    """SAN with the landing board before any check sign: ``Nxe4/A+``, ``O-O-O/B``."""
    s = m & 63
    d = (m >> 6) & 63
    p = pos.squares[s]
    t = p & 7
    board = "/" + BOARD_NAMES[landing_board(pos, m)]
    if t == KING and abs(d - s) == 2:
        san = ("O-O" if d > s else "O-O-O") + board
    else:
        capture = bool(pos.squares[d])
        if t == PAWN:
            # Two pawns of one file can push to the same square (one on each board,
            # f7-f5 over a pawn on f6 of the other board): name the rank, as
            # Fairy-Stockfish does (``6f5``).
            prefix = chess.FILE_NAMES[s & 7] + "x" if capture else _disambiguation(pos, m)
            san = prefix + chess.SQUARE_NAMES[d]
            if m >> 12:
                san += "=" + SAN_LETTERS[m >> 12]
        else:
            san = SAN_LETTERS[t] + _disambiguation(pos, m) + ("x" if capture else "") + chess.SQUARE_NAMES[d]
        san += board
    pos.push(m)
    try:
        if pos.in_check():
            san += "#" if not pos.legal_moves() else "+"
    finally:
        pos.pop()
    return san


def _disambiguation(pos: Position, m: Move) -> str:
    s = m & 63
    d = (m >> 6) & 63
    t = pos.squares[s] & 7
    rivals = [o & 63 for o in pos.legal_moves() if (o >> 6) & 63 == d and o & 63 != s and pos.squares[o & 63] & 7 == t]
    if not rivals:
        return ""
    if all(r & 7 != s & 7 for r in rivals):
        return chess.FILE_NAMES[s & 7]
    if all(r >> 3 != s >> 3 for r in rivals):
        return chess.RANK_NAMES[s >> 3]
    return chess.SQUARE_NAMES[s]


def parse_san(pos: Position, text: str) -> Move:
    """The legal move named by SAN ``text``; the ``/A`` ``/B`` suffix is optional."""
    raw = text.strip()
    match = _SUFFIX_RE.fullmatch(raw.rstrip("+#!?"))
    assert match is not None  # the pattern matches every string
    body, board = match.groups()
    body = body.rstrip("+#")
    legal = pos.legal_moves()
    candidates: list[Move]
    if body in ("O-O", "0-0", "O-O-O", "0-0-0"):
        long = len(body) == 5
        candidates = [
            m for m in legal if pos.squares[m & 63] & 7 == KING and ((m >> 6) & 63) - (m & 63) == (-2 if long else 2)
        ]
    else:
        match = _SAN_RE.match(body)
        if not match:
            raise MalformedMoveError(f"malformed SAN {text!r}")
        piece, file, rank, _, dst, promo = match.groups()
        t = SAN_LETTERS.index(piece) if piece else PAWN
        d = chess.parse_square(dst)
        pr = PROMO_LETTERS.index(promo.lower()) if promo else 0
        candidates = [
            m
            for m in legal
            if (m >> 6) & 63 == d
            and pos.squares[m & 63] & 7 == t
            and m >> 12 == pr
            and (chess.FILE_NAMES[m & 7] == file if file is not None else t != PAWN or (m & 7) == (d & 7))
            and (rank is None or chess.RANK_NAMES[(m & 63) >> 3] == rank)
        ]
    if not candidates:
        raise MoveError(f"illegal SAN {text!r} in {pos.fen()}")
    if len(candidates) > 1 and board is not None:
        # The suffix tells apart two pawns of one file pushing to one square.
        want = BOARD_NAMES.index(board.upper())
        narrowed = [m for m in candidates if landing_board(pos, m) == want]
        if not narrowed:
            raise MoveError(f"SAN {text!r}: no such move lands on board {BOARD_NAMES[want]} in {pos.fen()}")
        candidates = narrowed
    if len(candidates) > 1:
        raise AmbiguousSanError(f"ambiguous SAN {text!r} in {pos.fen()}")
    return _check_suffix(pos, candidates[0], board, text)
