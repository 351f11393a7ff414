"""The tools that drive an engine through the project's UCI client (``alice_match.uci_process``),
each on our own engine: ``scripts/bench_latency.py`` times ``isready`` and ``stop`` during a
search, ``scripts/make_openings.py``'s scorer and ``scripts/find_mates.py``'s Fairy-Stockfish
driver read the score of a search (``scripts/compare_depth.py``: tests/test_compare_depth.py;
``scripts/tune``'s reference labeller: tests/test_tune.py)."""

from __future__ import annotations

import os

import bench_latency
import find_mates
import make_openings
from alice_match.uci_process import EngineConfig, Stalled, UciProcess
from bench_mate import read_epd
from engine import Position, parse_uci
from support.installed import CHILD_CWD, ROOT, engine_command
from tune import data


def test_bench_latency_times_both_answers_during_a_search() -> None:
    found = bench_latency.measure(engine_command(), trials=2, cwd=CHILD_CWD)
    assert sorted(found) == ["isready -> readyok during search", "stop -> bestmove"]
    for name, seconds in found.items():
        assert len(seconds) == 2 and all(0 < s < 10 for s in seconds), (name, seconds)


def test_the_opening_scorer_reads_the_score_of_the_search() -> None:
    """The same centipawns as our search in this process at the same depth (side to move)."""
    scorer = make_openings.Scorer(engine_command(), depth=2, cwd=CHILD_CWD)
    try:
        moves = ["e2e4", "e7e5", "g1f3"]
        pos = Position()
        for text in moves:
            pos.push(parse_uci(pos, text))
        assert scorer.score(moves) == data.OwnLabeller(depth=2).label(pos)
    finally:
        scorer.close()


def test_the_mate_finder_reads_a_mate_score_and_the_move() -> None:
    fen, length, keys, _ = next(p for p in read_epd(os.path.join(ROOT, "tests", "data", "mates.epd")) if p[1] == 1)
    fsf = find_mates.Fsf(engine_command(), cwd=CHILD_CWD)  # our engine in Fairy-Stockfish's place
    try:
        mate, move = fsf.mate(fen, "go depth 3")
        assert mate == length == 1 and move in keys
    finally:
        fsf.close()


def test_the_client_times_out_a_mute_engine_instead_of_hanging() -> None:
    """What every tool gets from the client: a deadline on each wait (here a process that
    never answers ``uci``)."""
    mute = UciProcess(EngineConfig.from_argv(["sleep", "30"]))
    try:
        mute.start(timeout=0.5)
    except Stalled as error:
        assert "uciok" in str(error)
    else:
        raise AssertionError("a mute engine was taken for a UCI engine")
    finally:
        mute.kill()
