"""Moves as problemists read them, in Popeye's style with the landing board:
``Bd5-b7B``, ``Qd7*c7A``, ``d2-d1=SA``, ``0-0B``, then `` +``, `` #`` or `` =``.

>>> from engine.position import Position
>>> from engine.notation import parse_uci
>>> pos = Position("4k3/8/8/8/8/8/8/4K2R w K - 0 1")
>>> popeye_move(pos, parse_uci(pos, "e1g1"))
'0-0B'
"""

from __future__ import annotations

from typing import Final

import chess

from engine.position import Position
from engine.tables import KING, Move

PIECE_LETTERS: Final = " PSBRQK"  # Popeye's English letters; pawns go without one
BOARD_LETTERS: Final = "AB"


def popeye_move(pos: Position, m: Move) -> str:
    """``m`` (legal in ``pos``) in Popeye's notation, landing board included, no check sign."""
    s, d, promo = m & 63, (m >> 6) & 63, m >> 12
    p = pos.squares[s]
    board = BOARD_LETTERS[(p >> 4) ^ 1]
    if p & 7 == KING and abs(d - s) == 2:
        return ("0-0" if d > s else "0-0-0") + board
    letter = "" if p & 7 == 1 else PIECE_LETTERS[p & 7]
    sep = "*" if pos.squares[d] else "-"
    text = f"{letter}{chess.SQUARE_NAMES[s]}{sep}{chess.SQUARE_NAMES[d]}"
    if promo:
        text += "=" + PIECE_LETTERS[promo]
    return text + board


def suffix(pos: Position) -> str:
    """After a move: `` #`` (mate), `` =`` (stalemate), `` +`` (check) or nothing."""
    moves = pos.legal_moves()
    check = pos.in_check()
    if not moves:
        return " #" if check else " ="
    return " +" if check else ""


def move_text(pos: Position, m: Move) -> str:
    """``popeye_move`` with the sign of what it does (the move is played and taken back)."""
    text = popeye_move(pos, m)
    pos.push(m)
    try:
        return text + suffix(pos)
    finally:
        pos.pop()
