"""Forced mates: the mate set is exact (brute-force solver), mate mode (``go mate N``) finds
its mates with the shortest length and a key the solver confirms, over the API and over UCI,
and without a mate in N it still reports a line and a legal move."""

from __future__ import annotations

import os
import threading
import time

import pytest

from bench_mate import read_epd
from engine.notation import move_to_uci, parse_uci
from engine.position import Position
from find_mates import compare, sample
from mate_solver import is_mate, move_mates_within, shortest_mate
from search.limits import Iteration, Limits, Result
from search.mate import FALLBACK_DEPTH
from search.search import Searcher
from support.engine_process import Uci

MATES = read_epd(os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "mates.epd"))
SHORT = [m for m in MATES if m[1] <= 2]
LONG = [m for m in MATES if m[1] == 3]
IDS = [m[3] for m in MATES]
NODE_LIMIT = 20_000  # mate mode finds every mate in 1 or 2 of the set in well under this (at most ~400)
NODE_LIMIT_3 = 200_000  # ... and every mate in 3 (at most ~5,000)


def run(fen: str, limits: Limits) -> tuple[Position, Result, list[Iteration]]:
    pos = Position(fen)
    its: list[Iteration] = []
    result = Searcher(4).search(pos, limits, threading.Event(), its.append)
    return pos, result, its


def assert_mating_line(pos: Position, pv: list[int], n: int) -> None:
    """``pv`` is legal, 2n-1 plies long, and ends in checkmate."""
    p = pos.copy()
    for m in pv:
        assert m in p.legal_moves()
        p.push(m)
    assert len(pv) == 2 * n - 1
    assert is_mate(p)


# ---------------------------------------------------------------- the set itself
def test_the_set_has_enough_of_each_kind() -> None:
    lengths = [n for _, n, _, _ in MATES]
    assert len(MATES) >= 25 and all(lengths.count(n) >= 8 for n in (1, 2, 3))
    assert len(set(IDS)) == len(IDS)
    quiet = {2: 0, 3: 0}
    transfer = 0
    for fen, n, keys, _ in MATES:
        pos = Position(fen)
        their_board = pos.sq[pos.king(pos.turn ^ 1)] >> 4
        for key in (parse_uci(pos, k) for k in keys):
            if n > 1 and not pos.gives_check(key) and not pos.is_capture(key) and not key >> 12:
                quiet[n] += 1
            if pos.sq[key & 63] >> 4 != their_board and pos.gives_check(key):
                transfer += 1  # the piece arrives on the king's board with check
    assert quiet[2] >= 3 and quiet[3] >= 3, quiet
    assert transfer >= 10


@pytest.mark.parametrize(("fen", "n", "keys", "ident"), MATES, ids=IDS)
def test_the_solver_confirms_length_and_keys(fen: str, n: int, keys: list[str], ident: str) -> None:
    pos = Position(fen)
    assert shortest_mate(pos, n) == n  # a mate in n and none shorter
    for key in keys:
        assert move_mates_within(pos, parse_uci(pos, key), n), key


def test_the_solver_sees_no_mate_where_there_is_none() -> None:
    pos = Position()
    assert shortest_mate(pos, 2) is None
    pos = Position(MATES[0][0])
    key = parse_uci(pos, MATES[0][2][0])
    assert move_mates_within(pos, key, 1)
    assert not any(move_mates_within(pos, m, 1) for m in pos.legal_moves() if m != key)


# ---------------------------------------------------------------- mate mode
@pytest.mark.parametrize(("fen", "n", "keys", "ident"), MATES, ids=IDS)
def test_the_proof_search_is_exact(fen: str, n: int, keys: list[str], ident: str) -> None:
    """``MateSearch`` alone: no mate within n-1, a verified key within n, all keys excluded: none."""
    pos = Position(fen)
    legal = pos.legal_moves()
    its: list[Iteration] = []
    if n > 1:
        assert Searcher(1).mate_search().run(pos, legal, n - 1, its.append) is None
    result = Searcher(1).mate_search().run(pos, legal, n, its.append)
    assert result is not None and move_to_uci(pos, result.best) in keys  # type: ignore[arg-type]
    assert [it.mate for it in its] == [n]
    others = [m for m in legal if move_to_uci(pos, m) not in keys]
    assert Searcher(1).mate_search().run(pos, others, n, its.append) is None
    assert pos.fen() == Position(fen).fen()  # the position is left as it was


@pytest.mark.parametrize(
    ("n", "games", "setups"), [(2, 10, 150), pytest.param(3, 1, 60, marks=pytest.mark.slow)]
)
def test_the_proof_search_agrees_with_the_solver(n: int, games: int, setups: int) -> None:
    """Seeded random-game positions (every third) and sparse set-ups: same shortest mate, or none."""
    lengths: dict[int | None, int] = {}
    for fen, expected, got in compare(sample(11, games, 3, setups), n):
        assert got == expected, fen
        lengths[expected] = lengths.get(expected, 0) + 1
    assert lengths.get(None, 0) >= 3 and lengths.get(n, 0) >= 3, lengths  # both answers occur


@pytest.mark.parametrize(("fen", "n", "keys", "ident"), SHORT, ids=[m[3] for m in SHORT])
def test_mate_mode_finds_mates_in_one_and_two(fen: str, n: int, keys: list[str], ident: str) -> None:
    pos, result, its = run(fen, Limits(mate=n, nodes=NODE_LIMIT))
    assert its and its[-1].mate == n
    assert its[-1].nodes <= NODE_LIMIT
    assert result.best is not None and move_to_uci(pos, result.best) in keys
    assert move_mates_within(pos, result.best, n)  # the solver agrees
    assert_mating_line(pos, its[-1].pv, n)


@pytest.mark.parametrize(("fen", "n", "keys", "ident"), LONG, ids=[m[3] for m in LONG])
def test_mate_mode_finds_mates_in_three(fen: str, n: int, keys: list[str], ident: str) -> None:
    pos, result, its = run(fen, Limits(mate=n, nodes=NODE_LIMIT_3))
    assert its and its[-1].mate == n
    assert result.best is not None and move_to_uci(pos, result.best) in keys
    assert move_mates_within(pos, result.best, n)
    assert_mating_line(pos, its[-1].pv, n)


@pytest.mark.parametrize("ident", ["m1-01", "m2-04", "m2-07"])
def test_a_longer_bound_still_reports_the_shortest_mate(ident: str) -> None:
    fen, n, keys, _ = MATES[IDS.index(ident)]
    pos, result, its = run(fen, Limits(mate=n + 2))
    assert its[-1].mate == n
    assert move_to_uci(pos, result.best) in keys  # type: ignore[arg-type]


def test_searchmoves_limit_the_keys() -> None:
    fen, n, keys, _ = MATES[IDS.index("m2-01")]  # two keys
    pos = Position(fen)
    only = parse_uci(pos, keys[1])
    _, result, its = run(fen, Limits(mate=n, searchmoves=[only]))
    assert result.best == only and its[-1].mate == n


def test_no_mate_in_n_falls_back_to_a_line_and_a_legal_move() -> None:
    fen = MATES[IDS.index("m2-04")][0]  # a mate in 2, none in 1
    pos, result, its = run(fen, Limits(mate=1))
    assert its, "no line reported"
    assert all(it.mate != 1 for it in its)
    assert its[-1].depth <= FALLBACK_DEPTH and its[-1].pv
    assert result.best in pos.legal_moves()


def test_node_limit_and_stop_still_give_a_legal_move() -> None:
    pos, result, _ = run(Position().fen(), Limits(mate=4, nodes=300))
    assert result.best in pos.legal_moves()
    stop = threading.Event()
    stop.set()
    result = Searcher(4).search(pos, Limits(mate=4), stop, lambda it: None)
    assert result.best in pos.legal_moves()


def test_the_fifty_move_rule_can_spoil_a_quiet_mate() -> None:
    # m2-04: 1...Qe6/A (quiet) and mate next move; with the clock at 98 the reply reaches 100.
    fen, _, keys, _ = MATES[IDS.index("m2-04")]
    fields = fen.split()
    fields[4] = "98"
    _, _, its = run(" ".join(fields), Limits(mate=2, depth=1))
    assert all(it.mate != 2 for it in its)
    fields[4] = "97"  # the mate lands on the 100th half-move: mate comes first
    pos, result, its = run(" ".join(fields), Limits(mate=2))
    assert its[-1].mate == 2 and move_to_uci(pos, result.best) in keys  # type: ignore[arg-type]


# ---------------------------------------------------------------- over UCI (black box)
@pytest.mark.parametrize("ident", ["m1-06", "m2-02", "m3-01"])
def test_go_mate_over_uci(ident: str) -> None:
    fen, n, keys, _ = MATES[IDS.index(ident)]
    uci = Uci()
    try:
        uci.send(f"position fen {fen}")
        uci.send(f"go mate {n}")
        best, _, before = uci.bestmove(timeout=60)
        assert best in keys
        assert any(f" score mate {n} " in line for line in before), before
    finally:
        uci.close()
    assert b"Traceback" not in uci.stderr


def test_go_mate_one_without_a_mate_in_one_over_uci() -> None:
    fen, _, _, _ = MATES[IDS.index("m2-04")]
    uci = Uci()
    try:
        uci.send(f"position fen {fen}")
        uci.send("go mate 1")
        best, _, before = uci.bestmove(timeout=60)
        parse_uci(Position(fen), best)  # raises if illegal
        infos = [line for line in before if line.startswith("info depth")]
        assert infos and " pv " in infos[-1]
        assert not any(" score mate 1 " in line for line in infos)
    finally:
        uci.close()
    assert b"Traceback" not in uci.stderr


def test_stop_ends_a_long_mate_search_over_uci() -> None:
    uci = Uci()
    try:
        uci.send("position startpos moves e2e4 e7e5")
        uci.send("go mate 6")
        time.sleep(0.5)
        start = uci.send("stop")
        best, _, _ = uci.bestmove(timeout=5)
        assert time.perf_counter() - start < 1.0
        pos = Position()
        for u in ("e2e4", "e7e5"):
            pos.push(parse_uci(pos, u))
        parse_uci(pos, best)
    finally:
        uci.close()
    assert b"Traceback" not in uci.stderr


def _path(pos: Position, target: int, plies: int) -> list[int] | None:
    """``plies`` moves from ``pos`` that reach the position with key ``target`` (depth-first)."""
    if plies == 0:
        return [] if pos.key == target else None
    for m in pos.legal_moves():
        pos.push(m)
        rest = _path(pos, target, plies - 1)
        pos.pop()
        if rest is not None:
            return [m, *rest]
    return None


def test_a_third_repetition_spoils_a_mate() -> None:
    """m2-05 reached through a game in which the position after the key and a reply already
    occurred twice: that reply repeats it a third time (a draw), so there is no mate in 2."""
    fen, _, keys, _ = MATES[IDS.index("m2-05")]  # one key
    root = Position(fen)
    root.push(parse_uci(root, keys[0]))
    for reply in root.legal_moves():
        root.push(reply)
        game = Position(root.fen())  # the position after the key and this reply, as a fresh game
        root.pop()
        loop = _path(game, game.key, 4)
        if loop is None:
            continue
        for m in loop:
            game.push(m)
        back = _path(game, Position(fen).key, 2)
        if back is not None:
            break
    else:
        raise AssertionError("no game leads to the root through the repeated position")
    for m in back:
        game.push(m)
    assert game.fen().split()[:4] == fen.split()[:4]
    its: list[Iteration] = []
    result = Searcher(4).search(game, Limits(mate=2, depth=1), threading.Event(), its.append)
    assert all(it.mate != 2 for it in its)
    assert result.best in game.legal_moves()
    _, result, its = run(fen, Limits(mate=2))  # without that history: mate in 2
    assert its[-1].mate == 2
