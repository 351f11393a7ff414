"""Memory: the ``Hash`` option bounds the engine's size, and a search keeps nothing per node.

* The engine process, after ``setoption name Hash value 256`` and a search, is resident for the
  256 MB table plus the interpreter and tables of a small Hash (measured: the same process at
  Hash 1), within ``RSS_SLACK_MB``; at Hash 1 it stays small.
* A search of many nodes on a warm searcher (tables made, buffers allocated) leaves the traced
  memory where it was and its peak close to the start: the move loop keeps nothing per node
  (move lists, scores and check information live in per-ply buffers made with the searcher).
  This is a net test: a block allocated and freed within a node does not show.
"""

from __future__ import annotations

import threading
import tracemalloc

from alice_match.uci_process import EngineConfig, UciProcess
from engine.position import Position
from search.bench import BENCH_FENS
from search.limits import Limits
from search.search import Searcher
from support.installed import CHILD_CWD, engine_command

SEARCH_TIMEOUT = 120.0  # seconds for the handshake (a 256 MB table made) and the search
RSS_SLACK_MB = 60  # resident size beyond the table and a Hash 1 engine's own, allowed
HASH_MB = 256
PEAK_SLACK = 256 * 1024  # bytes a warm search may hold at its peak above where it started
HELD_SLACK = 40 * 1024  # bytes a longer warm search may hold more than a short one (pure build: table slots filled)


def resident_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS line")


def engine_rss_after_search(hash_mb: int) -> float:
    """Resident MB of an engine process after ``setoption Hash`` and a 2,000-node search (the
    project's UCI client, ``alice_match.uci_process``, drives it)."""
    config = EngineConfig.from_argv(engine_command(), dir=CHILD_CWD)
    config.options["Hash"] = str(hash_mb)
    engine = UciProcess(config)
    try:
        engine.start(SEARCH_TIMEOUT)
        engine.position(None, ["e2e4", "d7d5"])
        engine.go("nodes 2000", SEARCH_TIMEOUT)
        assert engine.pid is not None
        return resident_mb(engine.pid)
    finally:
        engine.kill()


def test_hash_bounds_the_resident_size() -> None:
    small = engine_rss_after_search(1)
    large = engine_rss_after_search(HASH_MB)
    assert small < 200, f"Hash 1: {small:.0f} MB resident"
    # The table is all there (touched when made) and nothing else grows with it.
    assert HASH_MB - 8 <= large - small <= HASH_MB + RSS_SLACK_MB, f"Hash 1: {small:.0f} MB, Hash 256: {large:.0f} MB"


def test_a_search_keeps_nothing_per_node() -> None:
    searcher = Searcher(1)
    pos = Position(BENCH_FENS[3])

    def search(nodes: int) -> None:
        searcher.search(pos, Limits(nodes=nodes), threading.Event(), lambda it: None)

    search(2000)  # warm: every table and per-ply buffer made, the history filled
    tracemalloc.start()
    try:
        start, _ = tracemalloc.get_traced_memory()
        search(2000)
        after_short, peak_short = tracemalloc.get_traced_memory()
        search(15000)
        after_long, peak_long = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert searcher.nodes >= 10000
    # Several times the nodes: about the same memory held after, and about the same peak. The
    # pure build's killer, countermove and history tables are lists whose slots hold int
    # objects, and a longer search fills more slots (bounded by the tables' sizes; 18 KB seen);
    # anything held per node would be at least 13,000 x 32 bytes, ten times this bound.
    assert abs(after_long - after_short) < HELD_SLACK, (start, after_short, after_long)
    assert peak_long - start < PEAK_SLACK, (start, peak_short, peak_long)
