#!/usr/bin/env python3
"""What the shared transposition table (``Threads`` > 1) costs one search, per node.

    python scripts/sharedtt_cost.py                 # depth 11, 5 runs, compare_depth's positions
    python scripts/sharedtt_cost.py --depth 9 --runs 3 --table view

One thread, in this process: the same fixed-depth search of each of ``scripts/compare_depth.py``'s
positions with the searcher's own table (``own``) and with a shared table over a file
(``shared``: ``--table native``, the file mapped into the table's vector, as ``Threads`` uses
it where it can; ``--table view``, through a ``memoryview``, as on Windows), alternating, each
from an empty table. The trees are the
same (the node counts are checked), so the CPU time ratio is the shared table's cost. Printed:
per position the median CPU seconds of each and their ratio, then the median ratio.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Sequence

sys.path[:0] = [os.path.dirname(os.path.abspath(__file__))]

from compare_depth import POSITIONS, load  # noqa: E402
from engine.build import build_name  # noqa: E402
from engine.position import Position  # noqa: E402
from search.limits import Iteration, Limits  # noqa: E402
from search.search import Searcher  # noqa: E402
from search.sharedtt import SharedTranspositionTable, ViewTranspositionTable, attach  # noqa: E402

HASH_MB = 16  # every table's size
SIZE = HASH_MB * 1024 * 1024


def shared_table(kind: str) -> SharedTranspositionTable | ViewTranspositionTable:
    """A shared table of ``HASH_MB`` over a new file, as ``Threads`` makes it: ``native`` (the
    system must allow it) or ``view``."""
    with tempfile.TemporaryFile() as f:
        f.truncate(SIZE)
        table = attach(f.fileno(), 0, SIZE // 8, native=kind == "native")
    if kind == "native" and not isinstance(table, SharedTranspositionTable):
        raise SystemExit("no native shared table here (the pure build, or no POSIX mmap): try --table view")
    return table


def timed(shared: str, fen: str, depth: int) -> tuple[float, int]:
    """CPU seconds and nodes of one search of ``fen`` to ``depth`` (``shared``: the shared
    table's kind, or "" for the searcher's own table)."""
    s = Searcher(HASH_MB)
    table = shared_table(shared) if shared else None
    if table is not None:
        s.tree.tt = table
    nodes = 0

    def seen(iteration: Iteration) -> None:
        nonlocal nodes
        nodes = iteration.nodes

    start = time.process_time()
    s.search(Position(fen), Limits(depth=depth), threading.Event(), seen)
    seconds = time.process_time() - start
    if table is not None:
        table.release()
    return seconds, nodes


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1].strip())
    parser.add_argument("--depth", type=int, default=11)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--table", choices=("native", "view"), default="native", help="the shared table's kind")
    args = parser.parse_args(argv)
    print(f"{build_name()}, depth {args.depth}, {args.runs} runs, {args.table} shared table, load {load()}")
    ratios: list[float] = []
    for name, fen in POSITIONS:
        times: dict[str, list[float]] = {"": [], args.table: []}
        counts: set[int] = set()
        for _ in range(args.runs):
            for shared in times:
                seconds, nodes = timed(shared, fen, args.depth)
                times[shared].append(seconds)
                counts.add(nodes)
        if len(counts) != 1:
            print(f"{name}: the trees differ ({sorted(counts)} nodes)", file=sys.stderr)
            return 1
        own, shared_s = statistics.median(times[""]), statistics.median(times[args.table])
        ratios.append(shared_s / own)
        print(f"{name}: {counts.pop()} nodes; own {own:.3f} s, shared {shared_s:.3f} s; shared/own {ratios[-1]:.2f}")
    print(f"median ratio: shared/own {statistics.median(ratios):.2f}")
    print(f"load {load()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
