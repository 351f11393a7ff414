"""Alice chess shown to XBoard/WinBoard as one 16x8 board: files a-h are board A, i-p board B.

XBoard 4.9 knows nothing of Alice chess: the engine defines the variant (``setup``), sends
every move in a form XBoard's own board copy applies correctly, and tells XBoard which
moves a lifted piece has (``highlight``). This module holds that presentation, as pure
functions of ``engine`` positions; the rules stay in ``engine`` (moves are checked by
``engine.parse_uci``, see ``uci.shared.check_move``).

A piece's square is its coordinate on its board: A's e4 is ``e4``, B's e4 is ``m4``. A move
is written where the piece lands: 1.e4 (A e2, lands on B e4) is ``e2m4``. XBoard applies
some orthodox habits to its copy even with ``-testLegality false``; the forms below are
the ones a real XBoard 4.9.1 was seen to apply square for square (``docs/xboard.md``):

* a capture is two legs, the capture on the piece's board then the transfer:
  ``e4d5,d5l5`` (a one-leg ``e4l5`` would leave the victim on d5);
* castling is the rook's move with a leg onto its own king, ``h1e1,e1n1``: XBoard puts the
  rook on n1 and the king beside it on o1, because the rook's piece description contains
  ``O`` (``PIECE_COMMANDS``); XBoard relays it to the other engine as ``h1n1,e1o1``;
* the king's description has an initial move (``i``) and no castling (``O``), so XBoard
  never turns a king move along a rank into castling;
* the parent variant is Berolina, the one variant with a normal pawn whose diagonal moves
  onto an empty square XBoard does not treat as an en-passant capture.

>>> from engine import Position
>>> pos = Position()
>>> move_text(pos, parse_move(pos, "e2m4"))
'e2m4'
>>> wide_fen(pos)
'rnbqkbnr8/pppppppp8/16/16/16/16/PPPPPPPP8/RNBQKBNR8 w EHAeha - 0 1'
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

import chess

from engine import Move, Position, move_from, move_promotion, move_to
from uci.shared import CommandError, check_move

FILES: Final = "abcdefghijklmnop"  # board A's a-h, then board B's a-h
WIDTH: Final = 16
PIECE_TO_CHAR: Final = "PNBRQKpnbrqk"  # XBoard's piece types Pawn..Queen and King, by FEN letter
PARENT_VARIANT: Final = "berolina"  # pawns XBoard does not capture en passant across boards
PIECE_COMMANDS: Final = (
    "piece K& KiK",  # a king with an initial move and no 'O': XBoard never castles it
    "piece R& RiO",  # 'O': a rook move with a leg onto its king is castling (king placed beside it)
)
PROMOTION_LETTERS: Final = " pnbrqk"
EMPTY_HIGHLIGHT: Final = "/".join(["16"] * 8)

# Colours of the ``highlight`` command.
QUIET: Final = "Y"  # yellow: the piece lands here
PROMOTION: Final = "M"  # magenta: lands here and promotes (XBoard asks for the piece)
FIRST_LEG: Final = "C"  # cyan: a capture or castling goes on from here (the move is not complete)

_SQUARE = r"([a-p])([1-8])"
_LEG_RE = re.compile(rf"^{_SQUARE}{_SQUARE}([nbrqNBRQ]?)$")


class XboardMoveError(ValueError):
    """An XBoard move text that is not a legal move of the position in this presentation."""


# ---------------------------------------------------------------- squares
def square_name(coord: int, board: int) -> str:
    """The 16x8 name of coordinate ``coord`` (0..63) on ``board`` (0 = A, 1 = B).

    >>> square_name(chess.E4, 0), square_name(chess.E4, 1)
    ('e4', 'm4')
    """
    return FILES[(coord & 7) + 8 * board] + str((coord >> 3) + 1)


def parse_square(file: str, rank: str) -> tuple[int, int]:
    """``(coordinate, board)`` of a 16x8 square given as its file letter and rank digit."""
    column = FILES.index(file)
    return (int(rank) - 1) * 8 + (column & 7), column >> 3


def _column(coord: int, board: int) -> int:
    return (coord & 7) + 8 * board


def _board_of(pos: Position, coord: int) -> int:
    board = pos.board_of(coord)
    assert board is not None
    return board


# ---------------------------------------------------------------- FEN
def wide_fen(pos: Position) -> str:
    """The position as XBoard reads it: each rank lists A's a-h then B's a-h; the castling
    field names the files of the kings and rooks that have not moved (``EHAeha``), the form
    XBoard writes for pieces with initial moves; no en passant in Alice chess."""
    rows = []
    for rank in range(7, -1, -1):
        cells = [""] * WIDTH
        for file in range(8):
            coord = rank * 8 + file
            piece = pos.piece_at(coord)
            if piece is not None:
                kind, white, board = piece
                letter = chess.piece_symbol(kind)
                cells[_column(coord, board)] = letter.upper() if white else letter
        rows.append(_compress(cells))
    side = "w" if pos.turn else "b"
    return f"{'/'.join(rows)} {side} {_virgin_files(pos.fen().split()[2])} - {pos.halfmove} {pos.fullmove}"


def _compress(cells: Sequence[str]) -> str:
    """One rank of a FEN-like text: runs of empty cells ("") become their count."""
    out, empty = [], 0
    for cell in cells:
        if cell:
            if empty:
                out.append(str(empty))
            out.append(cell)
            empty = 0
        else:
            empty += 1
    if empty:
        out.append(str(empty))
    return "".join(out)


_VIRGIN_OF_RIGHT = {"K": "EH", "Q": "EA", "k": "eh", "q": "ea"}


def _virgin_files(castling: str) -> str:
    """Castling rights ``KQkq`` as XBoard's unmoved-piece files: ``KQ`` -> ``EHA``."""
    files = ""
    for right in castling:
        for letter in _VIRGIN_OF_RIGHT.get(right, ""):
            if letter not in files:
                files += letter
    return files or "-"


def fen_from_xboard(text: str) -> str:
    """A FEN XBoard sends (``setboard``) in the form ``engine`` reads: the castling field of
    unmoved-piece files (``HEAhea``) becomes rights (``KQkq``), the en-passant field ``-``.

    >>> fen_from_xboard("4k3r7/16/16/16/16/16/16/R3K11 w EAe i3 0 5")
    '4k3r7/16/16/16/16/16/16/R3K11 w Q - 0 5'
    """
    fields = text.split()
    if len(fields) < 4:
        return text  # the FEN parser names what is missing
    fields[2] = _rights_of(fields[2])
    fields[3] = "-"
    return " ".join(fields)


def _rights_of(castling: str) -> str:
    if castling == "-" or all(letter in "KQkq" for letter in castling):
        return castling
    rights = [right for right, pair in _VIRGIN_OF_RIGHT.items() if all(letter in castling for letter in pair)]
    return "".join(rights) or "-"


def setup_lines() -> list[str]:
    """The answer to ``variant alice``: the piece descriptions, then the board and start."""
    start = wide_fen(Position())
    return [*PIECE_COMMANDS, f"setup ({PIECE_TO_CHAR}) {WIDTH}x8+0_{PARENT_VARIANT} {start}"]


# ---------------------------------------------------------------- moves out
def _legs(pos: Position, m: Move) -> list[tuple[str, str]]:
    """The legs of ``m`` as (from, to) square names, in the form XBoard applies correctly."""
    s, d = move_from(m), move_to(m)
    board = _board_of(pos, s)
    kind = pos.piece_at(s)
    assert kind is not None
    if kind[0] == chess.KING and abs(d - s) == 2:
        rook_from, rook_to = _castling_rook(pos, m)
        king = square_name(s, board)
        return [(square_name(rook_from, board), king), (king, square_name(rook_to, board ^ 1))]
    if pos.piece_at(d) is not None:  # a capture: on the piece's own board, then the transfer
        victim = square_name(d, board)
        return [(square_name(s, board), victim), (victim, square_name(d, board ^ 1))]
    return [(square_name(s, board), square_name(d, board ^ 1))]


def _castling_rook(pos: Position, m: Move) -> tuple[int, int]:
    """Where castling ``m`` takes its rook from and to, read off the position it makes."""
    before = [pos.piece_at(c) for c in range(64)]
    pos.push(m)
    try:
        after = [pos.piece_at(c) for c in range(64)]
    finally:
        pos.pop()
    rook_from = rook_to = -1
    for c in range(64):
        was, now = before[c], after[c]
        if was != now:
            if was is not None and was[0] == chess.ROOK:
                rook_from = c
            if now is not None and now[0] == chess.ROOK:
                rook_to = c
    return rook_from, rook_to


def move_text(pos: Position, m: Move) -> str:
    """``m`` (legal in ``pos``) as CECP sends it: legs joined by commas, ``e4d5,d5l5``."""
    legs = _legs(pos, m)
    promotion = PROMOTION_LETTERS[move_promotion(m)].strip()
    return ",".join(a + b for a, b in legs) + promotion


def pv_text(root: Position, pv: Sequence[Move]) -> str:
    """A principal variation in the form XBoard's move parser reads (legs joined by ``-``,
    as in its own game records: ``e4d5-l5``), cut at the first move not legal there."""
    pos = root.copy()
    words = []
    for m in pv:
        if m not in pos.legal_moves():
            break
        legs = _legs(pos, m)
        words.append(legs[0][0] + "-".join(b for _, b in legs) + PROMOTION_LETTERS[move_promotion(m)].strip())
        pos.push(m)
    return " ".join(words)


# ---------------------------------------------------------------- moves in
def parse_move(pos: Position, text: str) -> Move:
    """The legal move of ``pos`` that XBoard's ``text`` names; ``XboardMoveError`` (with the
    reason) for anything else. Accepted: a quiet move ``e2m4`` (``e7m8q``), a capture
    ``e4d5,d5l5`` and castling as the rook's move ``h1e1,e1n1`` or as XBoard relays it,
    ``h1n1,e1o1``. A capture in one leg, or castling as a king move, is refused: XBoard's
    board would not match (the victim, or the rook, left behind)."""
    squares: list[tuple[tuple[int, int], tuple[int, int]]] = []
    promotion = ""
    legs = text.strip().split(",")
    for number, leg in enumerate(legs, 1):
        match = _LEG_RE.match(leg)
        if match is None or len(legs) > 2 or (match.group(5) and number < len(legs)):
            raise XboardMoveError("not a move of this board, e.g. e2m4 or e4d5,d5l5")
        squares.append((parse_square(match.group(1), match.group(2)), parse_square(match.group(3), match.group(4))))
        promotion = match.group(5).lower()
    (s, from_board), (d, to_board) = squares[0]
    mover = pos.piece_at(s)
    if mover is None or mover[2] != from_board:
        raise XboardMoveError(f"no piece on {square_name(s, from_board)}")
    if mover[1] != bool(pos.turn):
        raise XboardMoveError("not that side's turn")
    if len(squares) == 1:
        return _one_leg(pos, s, d, from_board, to_board, promotion)
    (s2, board2), (d2, to_board2) = squares[1]
    if mover[0] == chess.ROOK and to_board == from_board and pos.piece_at(d) == (chess.KING, mover[1], from_board):
        # Castling as the rook's move onto its king: h1e1,e1n1.
        if (s2, board2) != (d, to_board):
            raise XboardMoveError("the second leg must start where the first ended")
        return _castling(pos, king=d, rook=s, rook_to=d2, board=from_board, landing=to_board2)
    if mover[0] == chess.ROOK and to_board != from_board and pos.piece_at(s2) == (chess.KING, mover[1], board2):
        # Castling as XBoard relays it: the rook's move, then the king's (h1n1,e1o1).
        move = _castling(pos, king=s2, rook=s, rook_to=d, board=from_board, landing=to_board)
        if (d2, to_board2) != (move_to(move), from_board ^ 1):
            raise XboardMoveError("the king does not land there")
        return move
    # A capture: e4d5,d5l5.
    if (s2, board2) != (d, to_board):
        raise XboardMoveError("the second leg must start where the first ended")
    victim = pos.piece_at(d)
    if to_board != from_board or victim is None or victim[2] != from_board:
        raise XboardMoveError("the first leg of a capture ends on the captured piece")
    if d2 != d or to_board2 != from_board ^ 1:
        raise XboardMoveError(f"a capture on {square_name(d, from_board)} lands on {square_name(d, from_board ^ 1)}")
    return _checked(pos, s, d, promotion)


def _one_leg(pos: Position, s: int, d: int, from_board: int, to_board: int, promotion: str) -> Move:
    if to_board == from_board:
        raise XboardMoveError(f"the piece passes to the other board: {square_name(d, from_board ^ 1)}")
    move = _checked(pos, s, d, promotion)
    if pos.piece_at(d) is not None:
        victim = square_name(d, from_board)
        raise XboardMoveError(
            f"a capture is two legs: {square_name(s, from_board)}{victim},{victim}{square_name(d, to_board)}"
        )
    mover = pos.piece_at(s)
    if mover is not None and mover[0] == chess.KING and abs(d - s) == 2:
        raise XboardMoveError("castling is the rook's move onto its king, e.g. h1e1,e1n1")
    return move


def _castling(pos: Position, king: int, rook: int, rook_to: int, board: int, landing: int) -> Move:
    """The castling move of the king on ``king`` with the rook on ``rook`` whose rook lands
    on ``rook_to`` (on board ``landing``)."""
    side = 2 if rook > king else -2
    move = _checked(pos, king, king + side, "")
    if landing != board ^ 1 or _castling_rook(pos, move) != (rook, rook_to):
        raise XboardMoveError("not a castling move")
    return move


def _checked(pos: Position, s: int, d: int, promotion: str) -> Move:
    """The legal move from ``s`` to ``d``: the rules decide, through the UCI parser."""
    text = chess.SQUARE_NAMES[s] + chess.SQUARE_NAMES[d] + promotion
    try:
        return check_move(pos, text, "move")
    except CommandError:
        raise XboardMoveError("not legal in this position") from None


# ---------------------------------------------------------------- highlights
@dataclass
class Lift:
    """What a ``lift`` marked: the squares where the move goes on (cyan), with their moves."""

    legs: dict[str, list[Move]] = field(default_factory=dict)


def lift_highlight(pos: Position, square: str) -> tuple[str, Lift]:
    """The ``highlight`` colour FEN for the piece lifted on ``square``: where each legal move
    lands (yellow, magenta for a promotion), or, for a capture or castling, the square
    the first leg goes to (cyan: the captured piece, or the rook's own king)."""
    lift = Lift()
    match = re.match(rf"^{_SQUARE}$", square)
    if not match:
        return EMPTY_HIGHLIGHT, lift
    coord, board = parse_square(match.group(1), match.group(2))
    mover = pos.piece_at(coord)
    if mover is None or mover[2] != board or mover[1] != bool(pos.turn):
        return EMPTY_HIGHLIGHT, lift
    marks: dict[int, str] = {}
    for m in pos.legal_moves():
        s, d = move_from(m), move_to(m)
        castling = pos.piece_at(s) == (chess.KING, mover[1], board) and abs(d - s) == 2
        if castling:
            if mover[0] == chess.ROOK and _castling_rook(pos, m)[0] == coord:
                lift.legs.setdefault(square_name(s, board), []).append(m)
                marks[_column(s, board) + 16 * (s >> 3)] = FIRST_LEG
            continue
        if s != coord:
            continue
        if pos.piece_at(d) is not None:
            lift.legs.setdefault(square_name(d, board), []).append(m)
            marks[_column(d, board) + 16 * (d >> 3)] = FIRST_LEG
        else:
            marks[_column(d, board ^ 1) + 16 * (d >> 3)] = PROMOTION if move_promotion(m) else QUIET
    return color_fen(marks), lift


def leg_highlight(pos: Position, moves: Sequence[Move]) -> str:
    """The ``highlight`` for the second leg, once the first went to a cyan square: where
    each of ``moves`` makes its piece land."""
    marks: dict[int, str] = {}
    for m in moves:
        legs = _legs(pos, m)
        name = legs[-1][1]
        coord, board = parse_square(name[0], name[1])
        marks[_column(coord, board) + 16 * (coord >> 3)] = PROMOTION if move_promotion(m) else QUIET
    return color_fen(marks)


def color_fen(marks: dict[int, str]) -> str:
    """A colour FEN of the 16x8 board: ``marks`` maps ``column + 16 * rank`` to a colour."""
    rows = []
    for rank in range(7, -1, -1):
        rows.append(_compress([marks.get(column + 16 * rank, "") for column in range(WIDTH)]))
    return "/".join(rows)
