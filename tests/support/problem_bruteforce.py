"""Brute-force solvers of Alice problems, independent of ``problems.solver``: plain minimax
and plain enumeration over ``engine.Position`` (``push``, ``pop``, ``legal_moves``,
``in_check``, ``push_null``) and nothing else: no table, no move ordering, no check filter.

>>> from engine.position import Position
>>> from engine.notation import move_to_uci
>>> pos = Position("rnbqkbnr/ppp1pppp/8/8/4p3/8/PPPP|BPPP/RNBQK1NR w KQkq - 0 3")  # 1.e4 d5 2.Be2 dxe4
>>> [move_to_uci(pos, m) for m in direct_keys(pos, "mate", 1)]
['e2b5']
"""

from __future__ import annotations

from engine.position import Position
from engine.tables import Move


def reached(pos: Position, goal: str) -> bool:
    """The side to move is mated (``goal`` "mate") or stalemated ("stalemate")."""
    if pos.legal_moves():
        return False
    return pos.in_check() == (goal == "mate")


def _after_attack(pos: Position, goal: str, n: int, self_play: bool) -> bool:
    """Defender to move after an attacker move, ``n`` attacker moves counted so far."""
    replies = pos.legal_moves()
    if not self_play:
        if not replies:
            return pos.in_check() == (goal == "mate")
        if n == 1:
            return False
    elif not replies:
        return False
    for r in replies:
        pos.push(r)
        if self_play and reached(pos, goal):
            ok = True
        else:
            ok = n > 1 and any(_try(pos, m, goal, n - 1, self_play) for m in pos.legal_moves())
        pos.pop()
        if not ok:
            return False
    return True


def _try(pos: Position, m: Move, goal: str, n: int, self_play: bool) -> bool:
    pos.push(m)
    try:
        return _after_attack(pos, goal, n, self_play)
    finally:
        pos.pop()


def direct_keys(pos: Position, goal: str, n: int) -> list[Move]:
    """Every first move forcing the goal (against the side not moving) within ``n`` moves."""
    return [m for m in pos.legal_moves() if _try(pos, m, goal, n, False)]


def self_keys(pos: Position, n: int) -> list[Move]:
    """Every first move forcing the opponent to mate the mover within ``n`` moves."""
    return [m for m in pos.legal_moves() if _try(pos, m, "mate", n, True)]


def help_lines(pos: Position, goal: str, plies: int) -> list[tuple[Move, ...]]:
    """Every line of exactly ``plies`` half-moves after which the goal is reached."""
    found: list[tuple[Move, ...]] = []
    for m in pos.legal_moves():
        pos.push(m)
        if plies == 1:
            if reached(pos, goal):
                found.append((m,))
        else:
            found.extend((m, *rest) for rest in help_lines(pos, goal, plies - 1))
        pos.pop()
    return found
