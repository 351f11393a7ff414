"""Search: early mates, legality under tiny limits, time limits, determinism."""

from __future__ import annotations

import threading
import time

import pytest

from engine.notation import move_to_uci, parse_uci
from engine.position import Position
from search.limits import Iteration, Limits, Result
from search.search import Searcher

EARLY_MATES = [
    "e2e4 d7d5 f1e2 d5e4 e2b5",
    "e2e4 e7e5 d1h5 g8f6 h5e5",
    "d2d4 e7e6 d1d6 f8e7 d6e5 e8f8 c1h6",
]


def play(moves: list[str]) -> Position:
    pos = Position()
    for u in moves:
        pos.push(parse_uci(pos, u))
    return pos


def run(pos: Position, limits: Limits, searcher: Searcher | None = None) -> tuple[Result, list[Iteration]]:
    iterations: list[Iteration] = []
    result = (searcher or Searcher(4)).search(pos, limits, threading.Event(), iterations.append)
    return result, iterations


@pytest.mark.parametrize("line", EARLY_MATES)
def test_early_mate_in_one(line: str) -> None:
    moves = line.split()
    pos = play(moves[:-1])
    result, its = run(pos, Limits(depth=3))
    assert result.best is not None
    assert move_to_uci(pos, result.best) == moves[-1]
    assert its[-1].mate == 1


def test_movetime_is_respected() -> None:
    start = time.perf_counter()
    result, _ = run(Position(), Limits(movetime=300))
    elapsed = (time.perf_counter() - start) * 1000
    assert result.best in Position().legal_moves()
    assert elapsed < 300 + 50


def test_stop_set_before_search_still_gives_a_legal_move() -> None:
    stop = threading.Event()
    stop.set()
    pos = Position()
    result = Searcher(1).search(pos, Limits(infinite=True), stop, lambda it: None)
    assert result.best in pos.legal_moves()


def test_no_legal_move_gives_none() -> None:
    pos = play(["e2e4", "d7d5", "f1e2", "d5e4", "e2b5"])
    result, its = run(pos, Limits(depth=3))
    assert result.best is None and its == []
