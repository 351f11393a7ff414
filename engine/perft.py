"""perft and divide: count leaf nodes of the legal move tree (make/unmake at every node).

>>> from engine.position import Position
>>> perft(Position(), 2)
400
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from mypy_extensions import i64

from engine.bits import i64_buffer
from engine.movegen import ALL, MAX_MOVES, Legality, legal_moves
from engine.notation import move_to_uci
from engine.position import Position

if TYPE_CHECKING:
    from librt.vecs import vec


def perft(pos: Position, depth: int) -> int:
    """Leaf nodes at ``depth``; every leaf is made and unmade (no bulk counting)."""
    if depth <= 0:
        return 1
    # One legality record and move buffer per remaining depth, made once: nothing per node.
    legality = [Legality() for _ in range(depth)]
    buffers = [i64_buffer(MAX_MOVES) for _ in range(depth)]
    return _perft(pos, depth, legality, buffers)


def _perft(pos: Position, depth: int, legality: list[Legality], buffers: list[vec[i64]]) -> int:
    lg = legality[depth - 1]
    buf = buffers[depth - 1]
    lg.set(pos)
    n = lg.generate(pos, buf, 0, ALL)
    push = pos.push
    pop = pos.pop
    if depth == 1:
        for i in range(n):
            push(buf[i])
            pop()
        return n
    nodes = 0
    for i in range(n):
        push(buf[i])
        nodes += _perft(pos, depth - 1, legality, buffers)
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
