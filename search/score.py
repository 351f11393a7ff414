"""Score constants and piece values: the one definition every package imports.

Scores are centipawns from the side to move. A mate in ``n`` plies scores ``MATE - n``
(``-(MATE - n)`` when being mated); every score at or beyond ``MATE_BOUND`` is a mate, and
``INF`` is larger than any score. The evaluation, the search, the mate search, the
strength levels, the match runner's reference players and the web board all read these
names; none keeps a copy.

A mate in 3 plies is a mate score, and no material count comes near one:

>>> MATE - 3 >= MATE_BOUND > 16 * max(PIECE_VALUE)
True
"""

from __future__ import annotations

from typing import Final

MATE: Final = 30000  # mate at the root; mate in n plies scores MATE - n
MATE_BOUND: Final = MATE - 1000  # scores at or beyond this (in absolute value) are mates
INF: Final = 32000  # larger than any score: the open window's bounds
DRAW: Final = 0  # stalemate, fifty moves, repetition, bare kings
PIECE_VALUE: Final = (0, 105, 211, 236, 545, 1203, 0)  # material by ptype: -, P, N, B, R, Q, K (fitted)
