#!/usr/bin/env python3
"""Alice chess perft from the command line.

    python scripts/perft.py FEN DEPTH [--divide]
    python scripts/perft.py startpos 5
    python scripts/perft.py "r1bqkb1r/pppp1ppp/2|n2|n2/4|p3/2|B1|P3/5|N2/PPPP1PPP/RNBQ1|R|K1 b kq - 5 4" 3 --divide

The FEN may be quoted or given as separate words (compact ``|`` or 16-wide form).
``--divide`` prints Stockfish's format: one ``move: nodes`` line per legal move,
a blank line, then ``Nodes searched: N``. A timing line follows in both modes.
Exit status 2 on a bad FEN or depth.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence

if __package__ in (None, ""):
    # Run as a file: make the checkout's packages importable without installing.
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine import STARTING_FEN, FenError, Position, divide, perft


def _parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="perft.py",
        usage="%(prog)s FEN DEPTH [--divide]",
        description="Count the leaf nodes of the Alice chess legal move tree.",
    )
    parser.add_argument("words", nargs="+", metavar="FEN DEPTH", help="a FEN (or 'startpos') followed by the depth")
    parser.add_argument("--divide", action="store_true", help="print the node count below each legal move")
    args = parser.parse_args(argv)
    words: list[str] = args.words
    if len(words) < 2:
        parser.error("expected a FEN (or 'startpos') and a depth")
    depth_text = words[-1]
    if not depth_text.isdigit():
        parser.error(f"depth must be a non-negative integer, got {depth_text!r}")
    args.depth = int(depth_text)
    fen = " ".join(words[:-1])
    args.fen = STARTING_FEN if fen == "startpos" else fen
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = _parse_args(argv)
    try:
        pos = Position(args.fen)
    except FenError as exc:
        print(f"perft.py: invalid FEN: {exc}", file=sys.stderr)
        return 2
    start = time.perf_counter()
    if args.divide and args.depth > 0:
        nodes = 0
        for uci, count in divide(pos, args.depth):
            print(f"{uci}: {count}", flush=True)
            nodes += count
        print()
    else:
        nodes = perft(pos, args.depth)
    elapsed = time.perf_counter() - start
    print(f"Nodes searched: {nodes}")
    nps = nodes / elapsed if elapsed > 0 else 0.0
    print(f"Time: {elapsed:.3f} s ({nps:,.0f} nodes/s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
