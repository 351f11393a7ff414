#!/usr/bin/env python3
"""Move generation speed: our Alice perft against python-chess's orthodox perft.

    python scripts/bench_movegen.py [--depth 4] [--rounds 3]

Both sides count the same way: every move is made and unmade, leaves included
(no bulk counting at the last ply). Ours is ``engine.perft.perft`` from the Alice
start position; python-chess's is a recursive perft over ``board.legal_moves`` with
``push``/``pop`` from the orthodox start position. The rounds are interleaved (ours,
theirs, ours, ...) so load from other processes hits both alike. Prints each round,
both medians in nodes per second and the ratio ours / python-chess (the project
asks for at least 0.5).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable, Sequence

if __package__ in (None, ""):
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import chess

from engine import Position, perft

REQUIRED_RATIO = 0.5


def chess_perft(board: chess.Board, depth: int) -> int:
    """python-chess perft, making and unmaking every move including the leaves."""
    if depth == 0:
        return 1
    nodes = 0
    for move in board.legal_moves:
        board.push(move)
        nodes += chess_perft(board, depth - 1)
        board.pop()
    return nodes


def alice_round(depth: int) -> tuple[int, float]:
    pos = Position()
    start = time.perf_counter()
    nodes = perft(pos, depth)
    return nodes, time.perf_counter() - start


def chess_round(depth: int) -> tuple[int, float]:
    board = chess.Board()
    start = time.perf_counter()
    nodes = chess_perft(board, depth)
    return nodes, time.perf_counter() - start


def run(depth: int, rounds: int, report: Callable[[str], None] = print) -> tuple[float, float]:
    """Median nodes per second of (ours, python-chess) over interleaved rounds."""
    ours: list[float] = []
    theirs: list[float] = []
    for i in range(1, rounds + 1):
        for name, fn, out in (("alice", alice_round, ours), ("python-chess", chess_round, theirs)):
            nodes, elapsed = fn(depth)
            out.append(nodes / elapsed)
            report(f"round {i} {name:12s} perft({depth}) = {nodes:>9,} nodes in {elapsed:6.3f} s: {nodes / elapsed:>10,.0f} nps")
    return statistics.median(ours), statistics.median(theirs)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench_movegen.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--depth", type=int, default=4, help="perft depth for both (default 4)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds each (default 3)")
    args = parser.parse_args(argv)
    if args.depth < 1 or args.rounds < 1:
        parser.error("depth and rounds must be at least 1")
    ours, theirs = run(args.depth, args.rounds)
    ratio = ours / theirs
    print(f"alice perft median:        {ours:>10,.0f} nps")
    print(f"python-chess perft median: {theirs:>10,.0f} nps")
    verdict = "ok" if ratio >= REQUIRED_RATIO else f"below the required {REQUIRED_RATIO}"
    print(f"ratio alice / python-chess: {ratio:.2f} ({verdict})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
