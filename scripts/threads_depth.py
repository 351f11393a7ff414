#!/usr/bin/env python3
"""Time to a fixed depth with ``Threads`` N against 1 thread (Lazy SMP's speed-up).

    python scripts/threads_depth.py                          # depth 10, Threads 2 vs 1, 5 runs
    python scripts/threads_depth.py --depth 11 --threads 2 --runs 5 --engine "/path/venv/bin/alice-engine"

On ``scripts/compare_depth.py``'s four positions, one engine process per thread count (set up
as there: ``Hash 16``, then ``Threads N``), alternating (1 thread, N threads, 1, N, ...);
each search is ``ucinewgame``, ``position fen ...``, ``isready``, ``go depth D``, timed from
``go`` to ``bestmove`` by this script's clock (through ``alice_match.uci_process``, as
compare_depth). Printed: the median seconds per position and
thread count, their ratio (1 thread / N threads: above 1 is a speed-up) and the median ratio
over the positions, with the load average before and after (helpers only help when there are
idle cores: on a loaded machine the figures say little).
"""

from __future__ import annotations

import argparse
import os
import shlex
import statistics
import sys
import time
from collections.abc import Sequence

sys.path[:0] = [os.path.dirname(os.path.abspath(__file__))]

from compare_depth import POSITIONS, START_TIMEOUT, Engine, default_engine, load  # noqa: E402

DEFAULT_DEPTH = 10  # the fixed depth of every search
DEFAULT_THREADS = 2  # compared with 1
DEFAULT_RUNS = 5  # searches of each position per thread count (medians)
SEARCH_TIMEOUT = 600.0  # seconds one search may take before the engine counts as hung


def start(command: str, threads: int) -> Engine:
    """An engine set up as compare_depth does (the project's UCI client), then ``Threads`` ``threads``."""
    engine = Engine(f"Threads {threads}", shlex.split(command))
    engine.start()
    assert engine.process is not None
    engine.process.set_if_offered("Threads", str(threads))
    engine.process.isready(START_TIMEOUT * 4)  # spawn: each helper imports the engine
    return engine


def time_to_depth(engine: Engine, fen: str, depth: int) -> float:
    """Seconds from ``go depth`` to ``bestmove`` (after ``ucinewgame``, the position, ``isready``)."""
    process = engine.process
    assert process is not None
    process.new_game(START_TIMEOUT)
    process.position(fen, [])
    process.isready(START_TIMEOUT)
    began = time.perf_counter()
    process.go(f"depth {depth}", SEARCH_TIMEOUT)
    return time.perf_counter() - began


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--engine", default=default_engine(), help="command of the engine (default: %(default)s)")
    parser.add_argument("--depth", type=int, default=DEFAULT_DEPTH, help="go depth D (default 10)")
    parser.add_argument("--threads", type=int, default=DEFAULT_THREADS, help="compared with 1 (default 2)")
    parser.add_argument("--runs", type=int, default=DEFAULT_RUNS, help="searches per position and count (default 5)")
    args = parser.parse_args(argv)
    print(f"load average before: {load()}")
    print(f"go depth {args.depth}, {args.runs} run(s), Hash 16, Threads {args.threads} vs 1: {args.engine}")
    engines = {1: start(args.engine, 1), args.threads: start(args.engine, args.threads)}
    times: dict[tuple[str, int], list[float]] = {}
    try:
        for _ in range(args.runs):
            for name, fen in POSITIONS:
                for threads, engine in engines.items():
                    times.setdefault((name, threads), []).append(time_to_depth(engine, fen, args.depth))
    finally:
        for engine in engines.values():
            engine.quit()
    ratios = []
    print(f"{'position':<10} {'1 thread s':>11} {f'{args.threads} threads s':>12} {'speed-up':>9}")
    for name, _ in POSITIONS:
        one = statistics.median(times[(name, 1)])
        many = statistics.median(times[(name, args.threads)])
        ratios.append(one / many)
        print(f"{name:<10} {one:>11.2f} {many:>12.2f} {one / many:>9.2f}")
    print(f"median speed-up: {statistics.median(ratios):.2f}")
    print(f"load average after: {load()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
