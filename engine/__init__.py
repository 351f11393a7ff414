"""The rules of Alice chess: two-board position, legal moves, FEN, notation, perft.

Knows nothing of search or text protocols. Entry points::

    from engine import Position, parse_uci, move_to_uci, move_to_san, parse_san
    pos = Position()                     # or Position("<compact or 16-wide FEN>")
    pos.push(parse_uci(pos, "e2e4/B"))   # MoveError on a bad or illegal move
    pos.legal_moves(), pos.captures(), pos.outcome(), pos.fen(), pos.key
"""

from engine.fen import FenError
from engine.notation import MoveError, move_to_san, move_to_uci, parse_san, parse_uci
from engine.perft import divide, perft
from engine.position import STARTING_FEN, Outcome, Position
from engine.tables import BOARD_A, BOARD_B, Move, make_move, move_from, move_promotion, move_to

__all__ = [
    "BOARD_A",
    "BOARD_B",
    "STARTING_FEN",
    "FenError",
    "Move",
    "MoveError",
    "Outcome",
    "Position",
    "divide",
    "make_move",
    "move_from",
    "move_promotion",
    "move_to",
    "move_to_san",
    "move_to_uci",
    "parse_san",
    "parse_uci",
    "perft",
]
