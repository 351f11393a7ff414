#!/usr/bin/env python3
"""A fixed search in one process, for profilers: nodes, time and nodes per second.

    python scripts/bench_search.py                       # 200,000 nodes on each position
    python scripts/bench_search.py --nodes 50000 --positions 2
    perf record -g --call-graph dwarf python scripts/bench_search.py
    valgrind --tool=callgrind python scripts/bench_search.py --nodes 20000

Searches each of ``compare_depth.POSITIONS`` (the four opening positions of the speed
comparison with Fairy-Stockfish) with a fresh ``Searcher`` (Hash 16) to a node limit, so the
work is the same on every run: the node count printed at the end is a signature of the tree
(like ``bench``'s), the time is the searches alone. Runs whichever build ``engine`` imports as
(``--version`` line first): the installed package or the checkout.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time
from collections.abc import Sequence

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

from compare_depth import POSITIONS  # noqa: E402
from engine.build import version_line  # noqa: E402
from engine.position import Position  # noqa: E402
from search.limits import Iteration, Limits  # noqa: E402
from search.search import Searcher  # noqa: E402

DEFAULT_NODES = 200_000  # node limit per position


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=DEFAULT_NODES, help=f"nodes per position ({DEFAULT_NODES:,})")
    parser.add_argument("--positions", type=int, default=len(POSITIONS), help="how many of the positions")
    args = parser.parse_args(argv)
    print(version_line())

    def ignore(_: Iteration) -> None:
        return None

    total = 0
    seconds = 0.0
    for name, fen in POSITIONS[: args.positions]:
        searcher = Searcher(16)
        start = time.perf_counter()
        searcher.search(Position(fen), Limits(nodes=args.nodes), threading.Event(), ignore)
        elapsed = time.perf_counter() - start
        seconds += elapsed
        total += searcher.nodes
        print(f"{name:<10} {searcher.nodes:>9,} nodes  {elapsed:6.2f} s  {searcher.nodes / elapsed:>9,.0f} nodes/s")
    print(f"total      {total:>9,} nodes  {seconds:6.2f} s  {total / seconds:>9,.0f} nodes/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
