"""Random games for tests: seeded walks of legal moves over ``engine.Position``."""

from __future__ import annotations

import random
from collections.abc import Iterator

from engine import Position


def walk(pos: Position, rng: random.Random, plies: int) -> Iterator[Position]:
    """Play up to ``plies`` random legal moves on ``pos``, yielding ``pos`` before each move
    (so a caller sees every position with moves to play); stops early when none is legal.

    >>> sum(1 for _ in walk(Position(), random.Random(1), 3))
    3
    """
    for _ in range(plies):
        moves = pos.legal_moves()
        if not moves:
            return
        yield pos
        pos.push(rng.choice(moves))


def play_out(pos: Position, rng: random.Random, plies: int) -> Position:
    """``pos`` after up to ``plies`` random legal moves."""
    for _ in walk(pos, rng, plies):
        pass
    return pos


def random_positions(count: int, seed: int, max_plies: int = 80, playable: bool = False) -> list[Position]:
    """``count`` positions, each after 0..``max_plies``-1 random plies from the start
    (with ``playable``, only positions that still have a legal move)."""
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < count:
        pos = play_out(Position(), rng, rng.randrange(0, max_plies))
        if not playable or pos.legal_moves():
            out.append(pos)
    return out
