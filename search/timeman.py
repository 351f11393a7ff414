"""Time budget for one move from the ``go`` clock limits.

``budget(limits, white_to_move, fullmove)`` returns ``(soft_ms, hard_ms)`` or ``None`` when
the search has no clock (depth/nodes/infinite/mate without times).

In sudden death (no ``movestogo``) the clock is shared among the moves still to come: an Alice
game between engines lasts about 35 moves a side, so the plan assumes ``MOVES_TO_GO_START``
moves at move 1, fewer as the game goes on (``MOVES_TO_GO_SLOPE`` per move, at least
``MOVES_TO_GO_MIN``), and adds most of each increment: the time is spent while the game is
still on instead of being left on the clock at the end. The searcher starts
no new iteration after ``soft_ms`` and aborts the running one at ``hard_ms``; both
are counted from the start of the search (or from ``ponderhit``).

Neither ever exceeds the time left on the clock minus ``move_overhead`` (and a
small floor is kept so a flag is never lost even at 1 s + 0.01 s per move):

>>> from search.limits import Limits
>>> budget(Limits(movetime=300), True)
(270, 270)
>>> soft, hard = budget(Limits(wtime=1000, winc=10), True)
>>> 0 < soft <= hard < 1000
True
"""

from __future__ import annotations

from typing import Final

from search.limits import Limits

# ---------------------------------------------------------------- tunables
MOVES_TO_GO_START: Final = 20  # sudden death: moves left assumed at move 1 ...
MOVES_TO_GO_SLOPE: Final = 0.25  # ... this many fewer per move played (0.25: one fewer every four) ...
MOVES_TO_GO_MIN: Final = 15  # ... but never fewer than this
MAX_MOVES_TO_GO: Final = 50  # a larger movestogo is treated as this many
SOFT_FRACTION: Final = 0.6  # the soft limit is this share of the per-move allotment
HARD_FACTOR: Final = 3.0  # the hard limit may reach this many allotments ...
HARD_SHARE_OF_CLOCK: Final = 0.25  # ... but never more than this share of the remaining time
INCREMENT_SHARE: Final = 0.8  # share of the increment spent on this move
MIN_THINK_MS: Final = 5  # never plan less than this (the first legal move is always available)
LAST_MOVE_SHARE: Final = 0.5  # with movestogo 1, share of the clock this move may use
SAFETY_MS: Final = 10  # kept back on top of move_overhead for scheduling jitter
# Soft-limit factor by iterations the best move has held (the last: more). A variable-length tuple:
# mypyc 2.4 reported a fixed-length Final tuple of floats as "not set" when read.
STABLE_SCALE: Final[tuple[float, ...]] = (1.5, 1.25, 1.1, 1.0, 0.9, 0.8)
DROP_PER_CP: Final = 0.006  # soft-limit factor grows by this per centipawn the score fell since the last iteration ...
DROP_MAX: Final = 0.8  # ... by at most this much
SHARE_DOMINANT: Final = 0.9  # when the best move took this share of the iteration's nodes ...
SHARE_FACTOR: Final = 0.7  # ... the soft limit shrinks by this factor (one move dominates)
SCALE_MIN_DEPTH: Final = 5  # the scaling applies from this iteration on (earlier ones are noise)


def moves_to_go(fullmove: int) -> float:
    """Moves assumed left in a sudden-death game at move ``fullmove``.

    >>> moves_to_go(1), moves_to_go(21), moves_to_go(60)
    (20.0, 15.0, 15.0)
    """
    return max(float(MOVES_TO_GO_MIN), MOVES_TO_GO_START - MOVES_TO_GO_SLOPE * (max(1, fullmove) - 1))


def budget(limits: Limits, white_to_move: bool, fullmove: int = 1) -> tuple[int, int] | None:
    """``(soft_ms, hard_ms)`` for this move at move ``fullmove`` of the game, or ``None`` if no
    time limit applies."""
    overhead = max(0, limits.move_overhead)
    if limits.movetime is not None:
        t = max(MIN_THINK_MS, limits.movetime - overhead)
        return t, t
    remaining = limits.wtime if white_to_move else limits.btime
    if remaining is None:
        return None
    inc = (limits.winc if white_to_move else limits.binc) or 0
    mtg = float(max(1, min(limits.movestogo, MAX_MOVES_TO_GO))) if limits.movestogo else moves_to_go(fullmove)
    # What we may spend at most on this move without risking the clock.
    usable = remaining - overhead - SAFETY_MS
    if usable <= MIN_THINK_MS:
        t = max(1, min(MIN_THINK_MS, remaining - overhead))
        return t, t
    if mtg == 1:
        allot = usable * LAST_MOVE_SHARE
        hard = usable * LAST_MOVE_SHARE
    else:
        allot = usable / mtg + inc * INCREMENT_SHARE
        hard = min(allot * HARD_FACTOR, usable * HARD_SHARE_OF_CLOCK + inc * INCREMENT_SHARE)
    hard = min(hard, usable)
    soft = min(allot * SOFT_FRACTION, hard)
    soft_ms = max(MIN_THINK_MS, int(soft))
    hard_ms = max(soft_ms, int(hard))
    return soft_ms, hard_ms


def soft_scale(stable: int, drop: int, best_share: float) -> float:
    """Factor for the soft limit after an iteration: more time when the best move just changed
    (``stable`` = iterations it has held) or the score fell by ``drop`` centipawns, less when the
    best move took ``best_share`` (0..1) of the iteration's nodes.

    >>> soft_scale(0, 0, 0.5) > soft_scale(5, 0, 0.5)
    True
    >>> soft_scale(3, 100, 0.5) > soft_scale(3, 0, 0.5) > soft_scale(3, 0, 0.95)
    True
    """
    factor = STABLE_SCALE[min(stable, len(STABLE_SCALE) - 1)]
    if drop > 0:
        factor *= 1.0 + min(DROP_MAX, drop * DROP_PER_CP)
    if best_share >= SHARE_DOMINANT:
        factor *= SHARE_FACTOR
    return factor
