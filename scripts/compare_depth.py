#!/usr/bin/env python3
"""Depth, nodes and nodes per second at a fixed time: this engine against any second UCI engine.

    python scripts/compare_depth.py                                   # our engine alone
    python scripts/compare_depth.py /work/fsf/fairy-stockfish/src/stockfish
    python scripts/compare_depth.py OTHER --engine "/path/venv/bin/alice-engine" --movetime 3000 --runs 3

For each of four fixed opening positions (``POSITIONS``) every engine gets ``ucinewgame``,
``position fen ...`` and ``go movetime T`` (3000 ms by default), one engine at a time, so
they never share the CPU; with ``--runs N`` the engines alternate (ours, theirs, ours,
...) and the medians are printed. Each engine is set up as a GUI would: ``UCI_Variant
alice`` when it declares that option (Fairy-Stockfish needs it), ``Hash 16`` and
``Threads 1`` where it has them.

Printed per position and engine: the depth of the last ``info`` line, its nodes, and the
nodes per second (the engine's own ``nps`` if it prints one on that line, else nodes /
time); then the ratio of our nodes per second to the other engine's, per position and as
the median over the positions. The machine's load (``/proc/loadavg``) is printed before
and after: on a shared machine compare ratios from one run, not absolute speeds.
"""

from __future__ import annotations

import argparse
import os
import shlex
import statistics
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field

from alice_match.uci_process import EngineConfig, EngineError, UciProcess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# ---------------------------------------------------------------- settings
# Four opening positions: the start, and three of the bundled openings (alice_match's
# openings.epd: alice-001, alice-004, alice-018), two to four plies in.
POSITIONS: list[tuple[str, str]] = [
    ("start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    ("alice-001", "rnbqkb1r/ppppppp1/5|n2/7|p/2|P5/8/PP|QPPPPP/RNB1KBNR w KQkq - 2 3"),
    ("alice-004", "rnbqkbnr/1pp1pppp/8/|p2|p4/1|P2|P3/8/P1PP1PPP/RNBQKBNR w KQkq - 0 3"),
    ("alice-018", "rnbqkbnr/ppp1pppp/8/8/3p4/2|P2|P2/PP1PP1PP/RNBQKBNR w KQkq - 0 3"),
]
DEFAULT_MOVETIME = 3000  # ms per search
DEFAULT_RUNS = 1  # searches of each position per engine
HASH_MB = 16
START_TIMEOUT = 30.0  # seconds for the uci / isready handshake
SEARCH_GRACE = 10.0  # seconds past the movetime before an engine counts as hung


@dataclass
class Search:
    depth: int
    nodes: int
    nps: int


@dataclass
class Engine:
    """One UCI engine (the project's client, ``alice_match.uci_process``) and what it searched,
    by position name."""

    name: str
    command: list[str]
    results: dict[str, list[Search]] = field(default_factory=dict)
    process: UciProcess | None = None

    def start(self) -> None:
        """Handshake (``UCI_Variant alice`` when offered), ``Hash`` and ``Threads`` where it has them."""
        self.process = UciProcess(EngineConfig.from_argv(self.command, name=self.name))
        self.process.start(START_TIMEOUT)
        self.process.set_if_offered("Hash", str(HASH_MB))
        self.process.set_if_offered("Threads", "1")
        self.process.isready(START_TIMEOUT)

    def search(self, position: str, fen: str, movetime: int) -> Search:
        assert self.process is not None
        self.process.new_game(START_TIMEOUT)
        self.process.position(fen, [])
        self.process.isready(START_TIMEOUT)
        infos: list[str] = []
        self.process.go(f"movetime {movetime}", movetime / 1000 + SEARCH_GRACE, on_info=infos.append)
        found = last_search(infos)
        if found is None:
            raise SystemExit(f"error: {self.name} printed no info line with depth and nodes on {position}")
        self.results.setdefault(position, []).append(found)
        return found

    def quit(self) -> None:
        if self.process is not None:
            self.process.quit()


def info_fields(line: str) -> dict[str, int]:
    """The integer fields of an ``info`` line (``depth``, ``nodes``, ``nps``, ``time``) that it has.

    >>> info_fields("info depth 12 seldepth 20 score cp 31 nodes 4000 nps 2000 time 2000 pv e2e4")["nps"]
    2000
    """
    words = line.split()
    found: dict[str, int] = {}
    for name in ("depth", "nodes", "nps", "time"):
        if name in words:
            i = words.index(name)
            if i + 1 < len(words) and words[i + 1].isdigit():
                found[name] = int(words[i + 1])
    return found


def last_search(infos: Sequence[str]) -> Search | None:
    """Depth, nodes and nodes per second from the last ``info`` line that has depth and nodes
    (``multipv`` lines other than the first and ``currmove`` lines have none or are skipped)."""
    for line in reversed(infos):
        fields = info_fields(line)
        if "depth" in fields and "nodes" in fields and " currmove " not in line:
            nps = fields.get("nps", fields["nodes"] * 1000 // max(1, fields.get("time", 1)))
            return Search(fields["depth"], fields["nodes"], nps)
    return None


def default_engine() -> str:
    """The ``alice-engine`` next to this interpreter, else ``python -m uci`` from the checkout."""
    exe = os.path.join(os.path.dirname(sys.executable), "alice-engine")
    if os.path.exists(exe):
        return shlex.quote(exe)
    return f"{shlex.quote(sys.executable)} -m uci"


def load() -> str:
    try:
        with open("/proc/loadavg") as f:
            return " ".join(f.read().split()[:3])
    except OSError:
        return "unknown"


def median(values: Sequence[int]) -> int:
    return int(statistics.median(values))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("other", nargs="?", help="command of a second UCI engine (e.g. Fairy-Stockfish)")
    parser.add_argument("--engine", default=default_engine(), help="command of our engine (default: %(default)s)")
    parser.add_argument("--movetime", type=int, default=DEFAULT_MOVETIME, help="ms per search (default 3000)")
    parser.add_argument("--runs", type=int, default=DEFAULT_RUNS, help="searches per position and engine (medians)")
    args = parser.parse_args(argv)
    engines = [Engine("ours", shlex.split(args.engine))]
    if args.other:
        engines.append(Engine(os.path.basename(shlex.split(args.other)[0]), shlex.split(args.other)))
    print(f"load average before: {load()}")
    print(f"go movetime {args.movetime}, {args.runs} run(s), Hash {HASH_MB}, 1 thread")
    for e in engines:
        print(f"{e.name}: {args.engine if e.name == 'ours' else args.other}")
    cwd = os.getcwd()
    try:
        os.chdir(ROOT if "-m uci" in args.engine else cwd)
        for e in engines:
            e.start()
        for _ in range(args.runs):
            for name, fen in POSITIONS:
                for e in engines:
                    e.search(name, fen, args.movetime)
    except EngineError as error:  # it exited, hung or broke the protocol: one line, no traceback
        raise SystemExit(f"error: {error}") from None
    finally:
        os.chdir(cwd)
        for e in engines:
            e.quit()
    print()
    header = f"{'position':<10}" + "".join(f" {e.name[:14]:>14} depth {'nodes':>10} {'nodes/s':>9}" for e in engines)
    print(header + ("   ratio" if len(engines) > 1 else ""))
    ratios: list[float] = []
    for name, _ in POSITIONS:
        row = f"{name:<10}"
        nps: list[int] = []
        for e in engines:
            runs = e.results[name]
            depth = median([r.depth for r in runs])
            nodes = median([r.nodes for r in runs])
            nps.append(median([r.nps for r in runs]))
            row += f" {'':>14} {depth:>5} {nodes:>10,} {nps[-1]:>9,}"
        if len(engines) > 1:
            ratios.append(nps[0] / max(1, nps[1]))
            row += f"   {ratios[-1]:.2f}"
        print(row)
    if ratios:
        print(f"nodes/s ours / {engines[1].name}: median {statistics.median(ratios):.2f} "
              f"(min {min(ratios):.2f}, max {max(ratios):.2f})")
    print(f"load average after: {load()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
