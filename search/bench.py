"""``bench``: a fixed search over fixed positions, for speed and as a search signature.

    nodes, ms = run_bench(16)            # or run_bench(lambda: Searcher(16), depth=5)

Every position is searched to ``depth`` with a fresh ``Searcher`` (empty TT, no
history), without time limits, so the node count is the same on every run and
every machine; only ``ms`` varies. ``ms`` is the time of the searches alone (making
the 16 MB tables is not timed). UCI ``bench`` prints ``Nodes searched`` and
``Nodes/second`` from it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Final

from engine.position import Position
from search.limits import Iteration, Limits
from search.search import Searcher

# ---------------------------------------------------------------- settings
BENCH_DEPTH: Final = 5  # default depth of every bench search
BENCH_HASH_MB: Final = 16  # hash size when run_bench is given no factory

# The start, the four perft.epd positions and a few Alice middlegames and endings.
BENCH_FENS: Final[list[str]] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/ppp1pppp/8/8/4p3/8/PPPP|BPPP/RNBQK1NR w KQkq - 0 3",
    "r1bqkb1r/pppp1ppp/2|n2|n2/4|p3/2|B1|P3/5|N2/PPPP1PPP/RNBQ1|R|K1 b kq - 5 4",
    "r3kb1r/pp2pppp/3|p4/2|pP1|b2/2|Pnn3/|q1|N1|B3/PP|QNPPPP/1K1|R1B1R w kq - 6 11",
    "r1b2b1r/pp|k3pp/3|p|p2|B/2|p2P2/2|Pnn1|P1/1|P3|P2/P6P/|q4QK1 w - - 0 21",
    "r1bqk2r/pppp1ppp/2|n2|n2/2|b1|p3/2|B1|P3/2|N2|N2/PPPP1PPP/R1BQK2R w KQkq - 6 5",
    "6k1/5ppp/8/8/8/8/|r4PPP/3|R2K1 w - - 0 30",
    "4k3/8/3|q4/8/8/2|N5/8/R3K3 w - - 0 40",
]


def run_bench(
    searcher_factory: int | Callable[[], Searcher] | None = None,
    depth: int | None = None,
) -> tuple[int, int]:
    """Search every ``BENCH_FENS`` position to ``depth``; return ``(nodes, ms)``.

    ``searcher_factory`` is a hash size in MB or a callable returning a fresh
    ``Searcher``; it is called once per position.
    """
    if searcher_factory is None:
        searcher_factory = BENCH_HASH_MB
    if isinstance(searcher_factory, int):
        mb = searcher_factory

        def factory() -> Searcher:
            return Searcher(mb)

    else:
        factory = searcher_factory
    limits = Limits(depth=depth or BENCH_DEPTH)
    total = 0
    seconds = 0.0

    def ignore(_: Iteration) -> None:
        return None

    for fen in BENCH_FENS:
        searcher = factory()  # allocating the tables is not timed: only the searches are
        pos = Position(fen)
        start = time.perf_counter()
        searcher.search(pos, limits, threading.Event(), ignore)
        seconds += time.perf_counter() - start
        total += searcher.nodes
    return total, int(seconds * 1000)


def main() -> None:
    nodes, ms = run_bench()
    print(f"Nodes searched: {nodes}")
    print(f"Nodes/second: {nodes * 1000 // max(1, ms)}")


if __name__ == "__main__":
    main()
