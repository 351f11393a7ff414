"""When the engine accepts a draw offered in Play: a rule of its last evaluation.

The engine accepts when the game is past the opening (the position's move number is at
least ``DRAW_FROM_MOVE``) and its last evaluation of the game, from its own side, is at
most ``DRAW_MARGIN_CP`` centipawns: level, or worse for it. It declines when it thinks it
stands better, in the opening, and before it has evaluated the game. A mate it sees for
itself is "better"; a mate against it is "worse".

>>> draw_answer(Evaluation(12), chess.BLACK, 30)
(True, 'the engine accepts the draw')
>>> draw_answer(Evaluation(-150), chess.BLACK, 30)
(False, 'the engine declines the draw: it thinks it stands better')
>>> draw_answer(Evaluation(0), chess.WHITE, 8)
(False, 'the engine declines the draw: the game is still in the opening (a draw is offered from move 20)')
"""

from __future__ import annotations

import chess

from gui.game import Evaluation

DRAW_FROM_MOVE = 20  # the opening is over from this move number on
DRAW_MARGIN_CP = 30  # the engine accepts when its evaluation, from its side, is at most this


def draw_answer(evaluation: Evaluation | None, engine: chess.Color, move_number: int) -> tuple[bool, str]:
    """``(accepted, words for the page)`` for a draw offered to the engine playing ``engine``."""
    if move_number < DRAW_FROM_MOVE:
        return False, (
            f"the engine declines the draw: the game is still in the opening (a draw is offered from move {DRAW_FROM_MOVE})"
        )
    if evaluation is None or not evaluation.known:
        return False, "the engine declines the draw: it has not evaluated the game yet"
    own = evaluation.cp if engine == chess.WHITE else -evaluation.cp
    if own > DRAW_MARGIN_CP:
        return False, "the engine declines the draw: it thinks it stands better"
    return True, "the engine accepts the draw"
