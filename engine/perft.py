"""perft and divide: count leaf nodes of the legal move tree (make/unmake at every node).

>>> from engine.position import Position
>>> perft(Position(), 2)
400
"""

from __future__ import annotations

from collections.abc import Iterator

from engine.movegen import legal_moves
from engine.notation import move_to_uci
from engine.position import Position


def perft(pos: Position, depth: int) -> int:
    """Leaf nodes at ``depth``; every leaf is made and unmade (no bulk counting)."""
    if depth == 0:
        return 1
    push = pos.push
    pop = pos.pop
    nodes = 0
    if depth == 1:
        for m in legal_moves(pos):
            push(m)
            pop()
            nodes += 1
        return nodes
    for m in legal_moves(pos):
        push(m)
        nodes += perft(pos, depth - 1)
        pop()
    return nodes


def divide(pos: Position, depth: int) -> Iterator[tuple[str, int]]:
    """``(uci, nodes)`` for each legal move, in generation order, each as soon as it is counted
    (``go perft`` and ``scripts/perft.py --divide`` print them as they come).

    >>> dict(divide(Position(), 2))["e2e4"]
    20
    """
    for m in legal_moves(pos):
        uci = move_to_uci(pos, m)
        pos.push(m)
        count = perft(pos, depth - 1) if depth > 1 else 1
        pos.pop()
        yield uci, count
