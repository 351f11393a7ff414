"""Staged move generation: the stages together give exactly the legal moves, each once, whatever
the hash move, killers and countermove are (legal, illegal, captures, garbage); a single move
is tested as the full generation would answer; the picker's order is ``order_moves``'s."""

from __future__ import annotations

import random

import pytest

from engine.bits import i64_buffer
from engine.movegen import ALL, CAPTURES, MAX_MOVES, QUIETS, Legality, legal_moves
from engine.position import Position
from search.history import Heuristics
from search.movepick import MovePicker, order_moves
from support.walks import random_positions

POSITIONS = 600  # random positions of seeded random games (start, sparse endings included by the walk)


def generated(pos: Position, mode: int) -> list[int]:
    lg = Legality()
    lg.set(pos)
    buf = i64_buffer(MAX_MOVES)
    n = lg.generate(pos, buf, 0, mode)
    return list(buf[:n])


def picked(pos: Position, tt: int, heur: Heuristics, ply: int) -> list[int]:
    picker = MovePicker()
    picker.start(pos, tt, ply, heur)
    moves = []
    while m := picker.next(pos, heur):
        moves.append(m)
    assert picker.count == len(moves)
    return moves


def scenario(pos: Position, rng: random.Random, ply: int) -> tuple[int, Heuristics]:
    """A hash move and killers/countermove drawn from the legal moves, garbage and captures."""
    legal = legal_moves(pos)
    candidates = [*legal, 0, rng.randrange(1, 1 << 15), rng.randrange(1, 1 << 16)]
    heur = Heuristics()
    for i in range(len(heur.history)):
        heur.history[i] = rng.randrange(-400, 400)
    heur.killers[2 * ply] = rng.choice(candidates)
    heur.killers[2 * ply + 1] = rng.choice(candidates)
    if pos.stack:
        heur.countermoves[pos.stack[-1][0] & 4095] = rng.choice(candidates)
    return rng.choice(candidates), heur


@pytest.fixture(scope="module")
def positions() -> list[Position]:
    return random_positions(POSITIONS, 21)


def test_stages_partition_the_legal_moves(positions: list[Position]) -> None:
    for pos in positions:
        everything = generated(pos, ALL)
        captures = generated(pos, CAPTURES)
        quiets = generated(pos, QUIETS)
        assert everything == legal_moves(pos)
        assert sorted(captures + quiets) == sorted(everything), pos.fen()
        assert len(set(everything)) == len(everything)
        sq = pos.sq
        assert all(sq[(m >> 6) & 63] or m >> 12 for m in captures)
        assert not any(sq[(m >> 6) & 63] or m >> 12 for m in quiets)
        # Either stage first, one buffer: the same moves.
        lg = Legality()
        lg.set(pos)
        buf = i64_buffer(MAX_MOVES)
        n = lg.generate(pos, buf, lg.generate(pos, buf, 0, QUIETS), CAPTURES)
        assert sorted(buf[:n]) == sorted(everything)


def test_single_move_test_agrees_with_generation(positions: list[Position]) -> None:
    rng = random.Random(5)
    for pos in positions:
        legal = set(legal_moves(pos))
        lg = Legality()
        lg.set(pos)
        near = [m ^ (1 << rng.randrange(15)) for m in legal]  # one bit off a legal move
        for m in [*legal, *near, *(rng.randrange(0, 1 << 16) for _ in range(30))]:
            assert lg.is_legal(pos, m) == (m in legal), (pos.fen(), m)


def test_picker_gives_each_legal_move_once_in_the_order_of_order(positions: list[Position]) -> None:
    rng = random.Random(7)
    ply = 3
    for pos in positions:
        tt, heur = scenario(pos, rng, ply)
        legal = legal_moves(pos)
        moves = picked(pos, tt, heur, ply)
        assert sorted(moves) == sorted(legal), pos.fen()
        # The order of a sorted list (history unchanged here, so the stages key as order does).
        if tt in legal:
            expected = [tt, *order_moves(pos, [m for m in legal if m != tt], 0, ply, heur)]
        else:
            expected = order_moves(pos, legal, 0, ply, heur)
        assert moves == expected, pos.fen()


def test_no_legal_move_gives_nothing() -> None:
    mated = Position("rnbqkbnr/ppp1pppp/8/1B6/4p3/8/PPPP1PPP/RNBQK1NR b KQkq - 1 3")
    assert legal_moves(mated) == []
    assert picked(mated, 0, Heuristics(), 1) == []
