"""Search: early mates, mates in two, won material, legality under tiny limits,
time and node limits, stop/ponder/infinite behaviour, MultiPV, searchmoves, draws."""

from __future__ import annotations

import random
import threading
import time

import pyffish_alice as sf
import pytest

from engine.movegen import check_info, gives_check
from engine.notation import move_to_uci, parse_uci
from engine.position import Position
from search.bench import BENCH_FENS, run_bench
from search.limits import Iteration, Limits, Result
from search.score import MATE
from search.search import Searcher
from support.walks import random_positions, walk

EARLY_MATES = [
    "e2e4 d7d5 f1e2 d5e4 e2b5",
    "e2e4 e7e5 d1h5 g8f6 h5e5",
    "d2d4 e7e6 d1d6 f8e7 d6e5 e8f8 c1h6",
]

# Mates in two (the move, and no mate in one), found by self-play and checked
# exhaustively with the Fairy-Stockfish alice rules in ``test_mate_in_two_is_real``.
MATES_IN_TWO = [
    ("|Rnb2bnr/2k1pppp/8/|pQP5/4|P3/8/|rPP2PPP/1NB1KBNR w K - 4 9", "a8a7"),
    ("r3k3/p1p1|bpp1/2|nr4/3|pp2|p/2p2|B1|P/7|N/PPN|qPPP1/R3KB2 b Qq - 3 14", "d2a5"),
    ("rn1r4/|R|b1k1p1p/1|p2|p3/2Q5/3p1|P2/|P1|P2|N|p1/1P1P2PP/1NB1K2R w - - 2 22", "a7b7"),
    ("2b1kb2/1pp2ppp/q3|p1r1/|p2p3R/|P2n3P/2|P1|n1|N1/1P1NPP2/4KB2 b - - 2 19", "e3c2"),
]


def play(moves: list[str], fen: str | None = None) -> Position:
    pos = Position(fen) if fen else Position()
    for u in moves:
        pos.push(parse_uci(pos, u))
    return pos


def run(pos: Position, limits: Limits, searcher: Searcher | None = None) -> tuple[Result, list[Iteration]]:
    iterations: list[Iteration] = []
    result = (searcher or Searcher(4)).search(pos, limits, threading.Event(), iterations.append)
    return result, iterations


def assert_pv_legal(pos: Position, pv: list[int]) -> None:
    p = pos.copy()
    for m in pv:
        assert m in p.legal_moves()
        p.push(m)


@pytest.mark.parametrize("line", EARLY_MATES)
def test_early_mate_in_one(line: str) -> None:
    moves = line.split()
    pos = play(moves[:-1])
    result, its = run(pos, Limits(depth=3))
    assert result.best is not None
    assert move_to_uci(pos, result.best) == moves[-1]
    assert its[-1].mate == 1
    assert its[-1].score == MATE - 1


def _mates_in_one(fen: str, moves: list[str]) -> bool:
    for m in sf.legal_moves("alice", fen, moves):
        after = [*moves, m]
        if not sf.legal_moves("alice", fen, after) and sf.gives_check("alice", fen, after):
            return True
    return False


@pytest.mark.parametrize(("fen", "key_move"), MATES_IN_TWO)
def test_mate_in_two_is_real(fen: str, key_move: str) -> None:
    """Independent check with pyffish_alice: no mate in one; the key move mates in two."""
    assert not _mates_in_one(fen, [])
    replies = sf.legal_moves("alice", fen, [key_move])
    assert replies
    assert all(_mates_in_one(fen, [key_move, r]) for r in replies)


@pytest.mark.parametrize(("fen", "key_move"), MATES_IN_TWO)
def test_mate_in_two_found(fen: str, key_move: str) -> None:
    pos = Position(fen)
    result, its = run(pos, Limits(depth=5))
    assert result.best is not None
    assert move_to_uci(pos, result.best) == key_move
    assert its[-1].mate == 2
    assert_pv_legal(pos, its[-1].pv)


def test_go_mate_stops_when_proved() -> None:
    fen, key_move = MATES_IN_TWO[0]
    pos = Position(fen)
    result, its = run(pos, Limits(mate=2, movetime=20000))
    assert move_to_uci(pos, result.best) == key_move  # type: ignore[arg-type]
    assert its[-1].mate == 2
    assert its[-1].depth <= 8  # stopped at the proof, not at the clock


def test_walking_into_mate_is_avoided() -> None:
    # After 1.e4 d5 2.Be2, 2...dxe4?? allows 3.Bb5# (the king cannot transfer out of check).
    pos = play("e2e4 d7d5 f1e2".split())
    result, its = run(pos, Limits(depth=3))
    assert result.best is not None
    assert move_to_uci(pos, result.best) != "d5e4"
    assert its[-1].mate is None or its[-1].mate > 0
    pos.push(parse_uci(pos, "d5e4"))
    _, its = run(pos, Limits(depth=3))
    assert its[-1].mate == 1


def test_won_capture_is_taken() -> None:
    # A black rook hangs on board A on the white queen's file; nothing recaptures.
    pos = Position("4k3/8/8/3r4/8/8/8/3QK3 w - - 0 1")
    result, its = run(pos, Limits(depth=4))
    assert move_to_uci(pos, result.best) == "d1d5"  # type: ignore[arg-type]
    assert its[-1].score > 300


def test_capture_on_the_other_board_is_impossible_and_not_tried() -> None:
    # The black rook stands on board B: the queen on A cannot take it.
    pos = Position("4k3/8/8/3|r4/8/8/8/3QK3 w - - 0 1")
    result, _ = run(pos, Limits(depth=3))
    assert result.best in pos.legal_moves()
    assert move_to_uci(pos, result.best) != "d1d5"  # type: ignore[arg-type]


def _random_positions(count: int, seed: int) -> list[Position]:
    return random_positions(count, seed, max_plies=80, playable=True)


def _check_legal_bestmoves(count: int, seed: int) -> None:
    searcher = Searcher(1)
    rng = random.Random(seed)
    for pos in _random_positions(count, seed):
        fen_before = pos.fen()
        limits = Limits(nodes=rng.choice([1, 2, 20, 150]))
        its: list[Iteration] = []
        result = searcher.search(pos, limits, threading.Event(), its.append)
        assert result.best in pos.legal_moves(), fen_before
        assert pos.fen() == fen_before  # the caller's position is untouched
        if result.ponder is not None:
            after = pos.copy()
            after.push(result.best)
            assert result.ponder in after.legal_moves()
        for it in its:
            assert_pv_legal(pos, it.pv)


def test_no_illegal_bestmove_small_node_limits() -> None:
    _check_legal_bestmoves(120, 11)


@pytest.mark.slow
def test_no_illegal_bestmove_many_positions() -> None:
    _check_legal_bestmoves(1000, 12)


def test_node_limit_is_exact() -> None:
    searcher = Searcher(1)
    run(Position(BENCH_FENS[3]), Limits(nodes=777), searcher)
    assert searcher.nodes == 777


def test_movetime_is_respected() -> None:
    pos = Position(BENCH_FENS[3])
    start = time.perf_counter()
    result, _ = run(pos, Limits(movetime=300))
    elapsed = (time.perf_counter() - start) * 1000
    assert result.best in pos.legal_moves()
    assert elapsed < 300 + 1500  # generous: the machine may be loaded (tight figures: scripts/bench_latency.py)


def test_clock_at_one_second_plus_increment() -> None:
    pos = Position(BENCH_FENS[4])
    start = time.perf_counter()
    result, _ = run(pos, Limits(wtime=1000, btime=1000, winc=10, binc=10))
    elapsed = (time.perf_counter() - start) * 1000
    assert result.best in pos.legal_moves()
    assert elapsed < 1000  # a fraction of the clock, never all of it


def test_stop_set_before_search_still_gives_a_legal_move() -> None:
    stop = threading.Event()
    stop.set()
    pos = Position(BENCH_FENS[2])
    result = Searcher(1).search(pos, Limits(infinite=True), stop, lambda it: None)
    assert result.best in pos.legal_moves()


def test_stop_event_ends_infinite_search_quickly() -> None:
    stop = threading.Event()
    pos = Position(BENCH_FENS[3])
    out: list[Result] = []
    thread = threading.Thread(target=lambda: out.append(Searcher(4).search(pos, Limits(infinite=True), stop, lambda it: None)))
    thread.start()
    time.sleep(0.3)
    t0 = time.perf_counter()
    stop.set()
    thread.join(2)
    assert not thread.is_alive()
    assert (time.perf_counter() - t0) < 1.0
    assert out[0].best in pos.legal_moves()


def test_infinite_waits_for_stop_even_when_done() -> None:
    """A forced mate is found at once, but ``go infinite`` must not answer before ``stop``."""
    pos = play(EARLY_MATES[0].split()[:-1])
    stop = threading.Event()
    out: list[Result] = []
    thread = threading.Thread(
        target=lambda: out.append(Searcher(1).search(pos, Limits(infinite=True, depth=2), stop, lambda it: None))
    )
    thread.start()
    thread.join(0.2)
    assert thread.is_alive()
    stop.set()
    thread.join(1)
    assert move_to_uci(pos, out[0].best) == "e2b5"  # type: ignore[arg-type]


def test_ponderhit_starts_the_clock() -> None:
    pos = Position(BENCH_FENS[3])
    stop = threading.Event()
    searcher = Searcher(4)
    out: list[Result] = []
    limits = Limits(ponder=True, movetime=200)
    thread = threading.Thread(target=lambda: out.append(searcher.search(pos, limits, stop, lambda it: None)))
    thread.start()
    time.sleep(0.4)
    assert thread.is_alive()  # pondering ignores the clock
    t0 = time.perf_counter()
    searcher.ponderhit()
    thread.join(2)
    elapsed = (time.perf_counter() - t0) * 1000
    assert not thread.is_alive()
    assert 100 < elapsed < 200 + 1500  # the 200 ms budget runs from the hit
    assert out[0].best in pos.legal_moves()


def test_no_legal_move_gives_none() -> None:
    pos = play(EARLY_MATES[0].split())
    result, its = run(pos, Limits(depth=3))
    assert result.best is None
    assert [(it.depth, it.mate, it.pv) for it in its] == [(0, 0, [])]  # reported as mated, no line


def test_multipv_lines_are_distinct_and_ordered() -> None:
    for fen in BENCH_FENS[:6]:
        pos = Position(fen)
        result, its = run(pos, Limits(depth=4, multipv=3))
        for depth in range(1, 5):
            lines = [it for it in its if it.depth == depth][-3:]  # the last report of each line
            assert [it.multipv for it in lines] == [1, 2, 3]
            assert len({it.pv[0] for it in lines}) == 3
            assert lines[0].score >= lines[1].score >= lines[2].score, (fen, depth, [it.score for it in lines])
            for it in lines:
                assert_pv_legal(pos, it.pv)
        assert result.best == lines[0].pv[0]


def test_searchmoves_restricts_the_root() -> None:
    pos = Position()
    only = parse_uci(pos, "a2a3")
    result, its = run(pos, Limits(depth=3, searchmoves=[only]))
    assert result.best == only
    assert all(it.pv[0] == only for it in its)


def test_repetition_is_a_draw_inside_the_search() -> None:
    pos = play("g1f3 g8f6 f3g1 f6g8".split())  # the start position again, boards included
    searcher = Searcher(1)
    assert pos.key == Position().key
    assert not searcher.tree.is_draw(pos, 0)  # occurred once before the root: not yet a draw
    assert searcher.tree.is_draw(pos, 4)  # a repetition inside the tree is scored as a draw
    pos = play("g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8".split())
    assert searcher.tree.is_draw(pos, 0)  # third occurrence


def test_same_squares_other_boards_is_no_repetition() -> None:
    a = Position("4k3/8/8/8/8/8/|R7/4K3 w - - 10 40")
    b = Position("4k3/8/8/8/8/8/R7/4K3 w - - 10 40")
    assert a.key != b.key


def test_fifty_move_rule_scores_draw() -> None:
    # White is a rook up but the clock is at 99 half-moves: any quiet move ends the game drawn.
    pos = Position("4k3/8/8/8/8/8/4|R3/4K3 w - - 99 80")
    _, its = run(pos, Limits(depth=3))
    assert its[-1].score == 0


def test_bench_is_deterministic() -> None:
    a, _ = run_bench(4, depth=3)
    b, _ = run_bench(4, depth=3)
    assert a == b > 1000


def test_fast_gives_check_matches_make_unmake() -> None:
    """``gives_check`` (no make/unmake) agrees with ``Position.gives_check`` on every legal
    move along random games: direct checks by transfer, discovered checks, castling."""
    rng = random.Random(21)
    checks = 0
    for _ in range(60):
        for pos in walk(Position(), rng, rng.randrange(10, 90)):
            info = check_info(pos)
            for m in pos.legal_moves():
                expected = pos.gives_check(m)
                assert gives_check(pos, m, info) == expected, (pos.fen(), move_to_uci(pos, m))
                checks += expected
    assert checks > 100
