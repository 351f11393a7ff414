"""Moves typed on the page: read in UCI or SAN, and a refused one explained in a player's words.

The rules' own messages (``engine.notation``) name the raw position; a player wants to
know *why*: the piece lands on the other board, the king is in check, the landing
square on the other board is taken, the move is ambiguous.

>>> board = AliceBoard()
>>> parse_move(board, "Nf3").uci()
'g1f3'
>>> explain(board, "Nc3/A")
'Nc3/A: the knight lands on board B (every move passes to the other board), so it is Nc3/B'
>>> explain(AliceBoard("4k3/8/8/8/8/8/P7/r3K3 w - - 0 1"), "a3")
'a3 is not allowed: your king is in check (on e1, board A) and a3 does not get it out of check'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import chess

from engine.board import AliceBoard

MAX_MOVE_TEXT = 20  # characters: anything longer is not a move
EXAMPLES = "e2e4, e2e4/B, Nf3 or Bb5/A#"

_UCI = re.compile(r"^([a-h][1-8])([a-h][1-8])([nbrqNBRQ]?)(?:/([ABab]))?$")
_SAN = re.compile(r"^([NBRQK]?)([a-h]?)([1-8]?)x?([a-h][1-8])(?:=?([NBRQnbrq]))?(?:/([ABab]))?[+#!?]*$")
_CASTLE = re.compile(r"^(O-O-O|0-0-0|O-O|0-0)(?:/([ABab]))?[+#!?]*$")
_UCI_LIKE = re.compile(r"^[a-h][1-8][a-h][1-8]", re.IGNORECASE)


class MoveTextError(ValueError):
    """A typed move that cannot be played; the message says why, for a player."""


@dataclass(frozen=True)
class _Shape:
    """What a move text asks for, legal or not: a piece type (``None``: any), hints for its
    square, the destination, a promotion and the board named by a suffix."""

    piece: chess.PieceType | None
    from_file: int | None
    from_rank: int | None
    to: chess.Square | None  # None for castling
    promotion: chess.PieceType | None
    board: int | None  # 0 = A, 1 = B
    castle: str | None = None  # "O-O" or "O-O-O"


def parse_move(board: AliceBoard, text: str) -> chess.Move:
    """The legal move named by ``text`` in UCI (``e2e4``, ``e7e8q``, ``e2e4/B``) or SAN
    (``Nf3``, ``Bb5/A#``); ``MoveTextError`` with the reason in words otherwise.

    >>> parse_move(AliceBoard(), "e2e4/B").uci()
    'e2e4'
    """
    text = text.strip()
    if not text:
        raise MoveTextError("type a move, like e2e4 or Nf3")
    if len(text) > MAX_MOVE_TEXT:
        raise MoveTextError("that is too long to be a move")
    if _shape(text) is None:  # not even the shape of a move: the rules need not look at it
        raise MoveTextError(explain(board, text))
    try:
        if _UCI_LIKE.match(text):
            return board.parse_uci(text)
        move = board.parse_san(text)
    except ValueError:
        raise MoveTextError(explain(board, text)) from None
    if not move:
        raise MoveTextError("a null move cannot be played")
    return move


def _shape(text: str) -> _Shape | None:
    suffix_board = None
    castle = _CASTLE.match(text)
    if castle:
        if castle.group(2):
            suffix_board = "AB".index(castle.group(2).upper())
        kind = "O-O-O" if len(castle.group(1)) == 5 else "O-O"
        return _Shape(chess.KING, None, None, None, None, suffix_board, kind)
    uci = _UCI.match(text)
    if uci:
        src = chess.parse_square(uci.group(1))
        promotion = chess.PIECE_SYMBOLS.index(uci.group(3).lower()) if uci.group(3) else None
        suffix_board = "AB".index(uci.group(4).upper()) if uci.group(4) else None
        dst = chess.parse_square(uci.group(2))
        return _Shape(None, chess.square_file(src), chess.square_rank(src), dst, promotion, suffix_board)
    san = _SAN.match(text)
    if not san:
        return None
    letter, file, rank, to, promo, board_letter = san.groups()
    return _Shape(
        chess.PIECE_SYMBOLS.index(letter.lower()) if letter else chess.PAWN,
        chess.FILE_NAMES.index(file) if file else None,
        chess.RANK_NAMES.index(rank) if rank else None,
        chess.parse_square(to),
        chess.PIECE_SYMBOLS.index(promo.lower()) if promo else None,
        "AB".index(board_letter.upper()) if board_letter else None,
    )


def _matches(board: AliceBoard, shape: _Shape, move: chess.Move) -> bool:
    piece = board.piece_at(move.from_square)
    if piece is None or piece.color != board.turn:
        return False
    if shape.castle is not None:
        return piece.piece_type == chess.KING and (move.to_square - move.from_square) == (2 if shape.castle == "O-O" else -2)
    if shape.piece is not None and piece.piece_type != shape.piece:
        return False
    if shape.from_file is not None and chess.square_file(move.from_square) != shape.from_file:
        return False
    if shape.from_rank is not None and chess.square_rank(move.from_square) != shape.from_rank:
        return False
    if move.to_square != shape.to:
        return False
    return shape.promotion is None or move.promotion == shape.promotion or (move.promotion is None and shape.piece is None)


def _board_letter(board: AliceBoard, square: chess.Square) -> str:
    return "AB"[board.board_at(square) or 0]


def explain(board: AliceBoard, text: str) -> str:
    """Why ``text`` is not a legal move on ``board``, in a player's words."""
    shape = _shape(text.strip())
    if shape is None:
        return f"{text} is not a move: write it like {EXAMPLES}"
    side = "White" if board.turn else "Black"
    legal = [m for m in board.legal_moves if _matches(board, shape, m)]
    uci_piece = None
    if shape.piece is None and shape.to is not None:  # UCI: the square must hold a piece of the side to move
        src = chess.square(shape.from_file or 0, shape.from_rank or 0)
        uci_piece = board.piece_at(src)
        if uci_piece is None:
            return f"{text}: there is no piece on {chess.square_name(src)}"
        if uci_piece.color != board.turn:
            return f"{text}: that is a {'white' if uci_piece.color else 'black'} piece and it is {side}'s move"
    if legal:
        sans = [board.san(m) for m in legal]
        wrong_board = [m for m in legal if shape.board is not None and (board.board_at(m.from_square) or 0) == shape.board]
        if len(wrong_board) == len(legal):
            piece_type = board.piece_type_at(legal[0].from_square) or chess.PAWN
            lands = "AB"[1 - shape.board] if shape.board is not None else "?"
            return (
                f"{text}: the {chess.piece_name(piece_type)} lands on board {lands} "
                f"(every move passes to the other board), so it is {' or '.join(sans)}"
            )
        if len(legal) > 1:
            return f"{text} is ambiguous: {' or '.join(sans)}"
        if shape.promotion is None and legal[0].promotion is not None:
            return f"{text}: say which piece the pawn becomes, like {text.split('/')[0]}=Q"
        return f"{text} cannot be played here"
    pseudo = [m for m in board.generate_pseudo_legal_moves() if _matches(board, shape, m)]
    king = board.king(board.turn)
    if board.is_check() and king is not None:
        where = f"on {chess.square_name(king)}, board {_board_letter(board, king)}"
        if pseudo:
            return f"{text} is not allowed: your king is in check ({where}) and {text} does not get it out of check"
        return f"{text} is not a legal move, and your king is in check ({where}): get it out of check first"
    if pseudo:
        return f"{text} is not allowed: it would leave your king in check"
    blocked = _blocked_landing(board, shape, text)
    if blocked is not None:
        return blocked
    if shape.castle is not None:
        return f"{side} cannot castle {'long' if shape.castle == 'O-O-O' else 'short'} here"
    assert shape.to is not None
    if uci_piece is not None:
        src_name = chess.square_name(chess.square(shape.from_file or 0, shape.from_rank or 0))
        return f"{text}: the {chess.piece_name(uci_piece.piece_type)} on {src_name} cannot move to {chess.square_name(shape.to)}"
    what = chess.piece_name(shape.piece) if shape.piece is not None else "piece"
    if shape.piece is not None and not board.pieces(shape.piece, board.turn):
        return f"{text}: {side} has no {what}"
    return f"{text}: no {side.lower()} {what} can move to {chess.square_name(shape.to)}"


def _blocked_landing(board: AliceBoard, shape: _Shape, text: str) -> str | None:
    """A piece that reaches the square on its own board but whose landing square on the
    other board is taken: the Alice rule that most often hides a move."""
    if shape.to is None or shape.piece in (None, chess.PAWN):
        return None
    other_piece = board.piece_at(shape.to)
    for square in board.pieces(shape.piece, board.turn):
        if shape.from_file is not None and chess.square_file(square) != shape.from_file:
            continue
        if shape.from_rank is not None and chess.square_rank(square) != shape.from_rank:
            continue
        if not board.attacks_mask(square) & chess.BB_SQUARES[shape.to]:
            continue
        own = board.board_at(square) or 0
        there = board.board_at(shape.to)
        if other_piece is not None and there is not None and there != own:
            name = chess.piece_name(shape.piece)
            return (
                f"{text}: the {name} would land on board {'AB'[1 - own]}, "
                f"where {chess.square_name(shape.to)} is taken (a move needs its landing square free)"
            )
    return None
