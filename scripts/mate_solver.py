"""A brute-force mate solver, independent of ``search/mate.py``: plain minimax over
``engine.Position`` (``push``, ``pop``, ``legal_moves``, ``in_check``) and nothing else.

The only shortcuts are ones that cannot change the answer: an OR node stops at the
first move that mates, an AND node at the first reply that escapes. No table, no move
ordering, no check detection without making the move. Repetitions and the fifty-move
rule are ignored (the test positions have a fresh halfmove clock and no history).

>>> from engine.position import Position
>>> from engine.notation import parse_uci
>>> pos = Position()
>>> for u in "e2e4 d7d5 f1e2 d5e4".split():
...     pos.push(parse_uci(pos, u))
>>> shortest_mate(pos, 2)
1
"""

from __future__ import annotations

from engine.position import Position
from engine.tables import Move


def is_mate(pos: Position) -> bool:
    """The side to move is checkmated."""
    return pos.in_check() and not pos.legal_moves()


def mates_within(pos: Position, n: int) -> bool:
    """The side to move can force checkmate within ``n`` (>= 1) of its moves."""
    return any(move_mates_within(pos, m, n) for m in pos.legal_moves())


def move_mates_within(pos: Position, m: Move, n: int) -> bool:
    """Playing ``m`` forces checkmate within ``n`` moves (``m`` counted)."""
    pos.push(m)
    try:
        if is_mate(pos):
            return True
        if n == 1:
            return False
        replies = pos.legal_moves()
        if not replies:
            return False  # stalemate
        for r in replies:
            pos.push(r)
            ok = mates_within(pos, n - 1)
            pos.pop()
            if not ok:
                return False
        return True
    finally:
        pos.pop()


def shortest_mate(pos: Position, limit: int) -> int | None:
    """The length of the shortest forced mate for the side to move, if at most ``limit``."""
    for n in range(1, limit + 1):
        if mates_within(pos, n):
            return n
    return None


def mate_keys(pos: Position, n: int) -> list[Move]:
    """Every move that forces checkmate within ``n`` moves."""
    return [m for m in pos.legal_moves() if move_mates_within(pos, m, n)]
