#!/usr/bin/env python3
"""What the shared transposition table (``Threads`` > 1) costs one search, per node.

    python scripts/sharedtt_cost.py                 # depth 11, 5 runs, compare_depth's positions
    python scripts/sharedtt_cost.py --depth 9 --runs 3

One thread, in this process: the same fixed-depth search of each of ``scripts/compare_depth.py``'s
positions with the searcher's own table (``own``) and with ``SharedTranspositionTable`` over an
anonymous shared mapping (``shared``), alternating, each from an empty table. The trees are the
same (the node counts are checked), so the CPU time ratio is the shared table's cost. Printed:
per position the median CPU seconds of each and their ratio, then the median ratio.
"""

from __future__ import annotations

import argparse
import mmap
import os
import statistics
import sys
import threading
import time
from collections.abc import Sequence

sys.path[:0] = [os.path.dirname(os.path.abspath(__file__))]

from compare_depth import POSITIONS, load  # noqa: E402
from engine.build import build_name  # noqa: E402
from engine.position import Position  # noqa: E402
from search.limits import Iteration, Limits  # noqa: E402
from search.search import Searcher  # noqa: E402
from search.sharedtt import SharedTranspositionTable  # noqa: E402
from search.tt import BUCKET_BYTES  # noqa: E402

HASH_MB = 16  # every table's size


def searcher(shared: bool) -> Searcher:
    """A one-thread searcher over its own table, or over a shared one."""
    s = Searcher(HASH_MB)
    if shared:
        mapping = mmap.mmap(-1, HASH_MB * 1024 * 1024 // BUCKET_BYTES * BUCKET_BYTES)
        s.tree.tt = SharedTranspositionTable(memoryview(mapping).cast("q"))
    return s


def timed(shared: bool, fen: str, depth: int) -> tuple[float, int]:
    """CPU seconds and nodes of one search of ``fen`` to ``depth``."""
    s = searcher(shared)
    nodes = 0

    def seen(iteration: Iteration) -> None:
        nonlocal nodes
        nodes = iteration.nodes

    start = time.process_time()
    s.search(Position(fen), Limits(depth=depth), threading.Event(), seen)
    return time.process_time() - start, nodes


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1].strip())
    parser.add_argument("--depth", type=int, default=11)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    print(f"{build_name()}, depth {args.depth}, {args.runs} runs, load {load()}")
    ratios: list[float] = []
    for name, fen in POSITIONS:
        times: dict[bool, list[float]] = {False: [], True: []}
        counts: set[int] = set()
        for _ in range(args.runs):
            for shared in (False, True):
                seconds, nodes = timed(shared, fen, args.depth)
                times[shared].append(seconds)
                counts.add(nodes)
        if len(counts) != 1:
            print(f"{name}: the trees differ ({sorted(counts)} nodes)", file=sys.stderr)
            return 1
        own, shared_s = statistics.median(times[False]), statistics.median(times[True])
        ratios.append(shared_s / own)
        print(f"{name}: {counts.pop()} nodes; own {own:.3f} s, shared {shared_s:.3f} s; shared/own {ratios[-1]:.2f}")
    print(f"median ratio: shared/own {statistics.median(ratios):.2f}")
    print(f"load {load()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
