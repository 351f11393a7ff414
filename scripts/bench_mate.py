"""Mate-mode benchmark: ``go mate N`` on every position of the mate set.

    python scripts/bench_mate.py [tests/data/mates.epd] [--cap SECONDS] [--hash MB]

For each position (fresh hash) it runs the search with ``Limits(mate=N, movetime=cap)``
and prints the id, N, whether the mate was found (``score mate N`` with one of the
verified keys), the move, the nodes and the time; then per N how many were found and
the median and largest time. Then the other side of the work: the proof search alone
(``MateSearch``) showing that the bench positions (``search/bench.py``) have no mate in
``--refute`` moves (default 3), with its nodes and time.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from engine.notation import move_to_uci  # noqa: E402
from engine.position import Position  # noqa: E402
from search.bench import BENCH_FENS  # noqa: E402
from search.limits import Iteration, Limits  # noqa: E402
from search.search import Searcher  # noqa: E402

DEFAULT_FILE = os.path.join(ROOT, "tests", "data", "mates.epd")
DEFAULT_CAP = 60.0  # seconds per position


def read_epd(path: str) -> list[tuple[str, int, list[str], str]]:
    """``(fen, mate length, keys, id)`` per line of a mate set (``#`` lines are comments)."""
    out = []
    with open(path) as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            fields = line.split()
            ops: dict[str, str] = {}
            for op in " ".join(fields[4:]).split(";"):
                name, _, value = op.strip().partition(" ")
                if name:
                    ops[name] = value.strip().strip('"')
            out.append((" ".join(fields[:4]) + " 0 1", int(ops["dm"]), ops["key"].split(), ops["id"]))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("file", nargs="?", default=DEFAULT_FILE)
    ap.add_argument("--cap", type=float, default=DEFAULT_CAP, help="seconds per position (default %(default)s)")
    ap.add_argument("--hash", type=int, default=16, help="hash MB (default %(default)s)")
    ap.add_argument("--refute", type=int, default=3, help="mate length refuted on the bench positions (0: skip)")
    args = ap.parse_args()
    found_mates(args)
    if args.refute:
        refutations(args.refute, args.hash)


def found_mates(args: argparse.Namespace) -> None:
    """Mate mode on every position of the set."""
    times: dict[int, list[float]] = {}
    found: dict[int, int] = {}
    print(f"{'id':10} {'N':>2} {'found':5} {'move':6} {'nodes':>9} {'time s':>7}")
    for fen, n, keys, ident in read_epd(args.file):
        pos = Position(fen)
        its: list[Iteration] = []
        searcher = Searcher(args.hash)
        start = time.perf_counter()
        result = searcher.search(pos, Limits(mate=n, movetime=int(args.cap * 1000)), threading.Event(), its.append)
        elapsed = time.perf_counter() - start
        move = move_to_uci(pos, result.best) if result.best is not None else "(none)"
        ok = bool(its) and its[-1].mate == n and move in keys
        nodes = its[-1].nodes if its else 0
        times.setdefault(n, []).append(elapsed)
        found[n] = found.get(n, 0) + ok
        print(f"{ident:10} {n:2} {'yes' if ok else 'NO':5} {move:6} {nodes:9} {elapsed:7.2f}", flush=True)
    print()
    for n in sorted(times):
        t = times[n]
        print(f"mate in {n}: found {found[n]}/{len(t)}, time median {statistics.median(t):.2f} s, max {max(t):.2f} s")
    every = [x for t in times.values() for x in t]
    print(f"all: found {sum(found.values())}/{len(every)}, time median {statistics.median(every):.2f} s, max {max(every):.2f} s")


def refutations(n: int, hash_mb: int) -> None:
    """The proof search alone on positions without a short mate: the cost of "no mate in n"."""
    print(f"\nno mate in {n}? (bench positions, proof search only)")
    times = []
    for i, fen in enumerate(BENCH_FENS, 1):
        pos = Position(fen)
        searcher = Searcher(hash_mb)
        its: list[Iteration] = []
        start = time.perf_counter()
        searcher.mate_search().run(pos, pos.legal_moves(), n, its.append)
        elapsed = time.perf_counter() - start
        times.append(elapsed)
        answer = f"mate {its[-1].mate}" if its else "none"
        print(f"bench{i:<5} {answer:8} {searcher.nodes:9} {elapsed:7.2f}", flush=True)
    print(f"time median {statistics.median(times):.2f} s, max {max(times):.2f} s")


if __name__ == "__main__":
    main()
