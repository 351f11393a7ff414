#!/usr/bin/env python3
"""Make the bundled opening book ``scripts/alice_match/openings.epd``, reproducibly.

How the book was made (the defaults of this script):

1. Candidates: from the Alice start position, play 2, 3 or 4 uniformly random legal plies
   (the ply count drawn uniformly too) with ``random.Random(SEED)``; drop lines that reach
   a finished game, positions with the side to move in check, and repeated positions.
   The candidate stream depends only on the seed and our move generator (moves are chosen
   from the legal moves sorted by their int code).
2. Balance: each candidate is scored by Fairy-Stockfish (``gbtami/Fairy-Stockfish``, branch
   ``alice``; ``UCI_Variant alice``, ``Threads 1``, ``Hash 16``, ``ucinewgame`` before every
   position, ``go depth DEPTH``); the last ``score cp`` is kept. Mate scores are dropped.
3. Keep the first COUNT candidates with ``|score| <= MAX_CP`` in stream order.

Each line: the position (compact FEN fields, clocks as ``hmvc``/``fmvn``), then ``c0`` the
moves from the start position in SAN, ``ce`` the score (centipawns, side to move) and ``id``.

    python scripts/make_openings.py --engine /path/to/fairy-stockfish
    python scripts/make_openings.py --engine ... --count 300 --depth 10 --max-cp 50 --seed 2026
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
from collections.abc import Iterator, Sequence

HERE = os.path.dirname(os.path.abspath(__file__))
for _path in (os.path.dirname(HERE), HERE):
    if _path not in sys.path:
        sys.path.insert(0, _path)


from engine import Position, move_to_san, move_to_uci  # noqa: E402

SEED = 2026
COUNT = 300
DEPTH = 10
MAX_CP = 50
OUT = os.path.join(HERE, "alice_match", "openings.epd")


def candidates(seed: int = SEED) -> Iterator[tuple[Position, list[int]]]:
    """The endless, deterministic stream of candidate lines (position after, moves)."""
    rng = random.Random(seed)
    seen: set[str] = set()
    while True:
        plies = rng.choice((2, 3, 4))
        pos = Position()
        moves: list[int] = []
        ok = True
        for _ in range(plies):
            legal = sorted(pos.legal_moves())
            if not legal:
                ok = False
                break
            m = rng.choice(legal)
            moves.append(m)
            pos.push(m)
        if not ok or pos.outcome() is not None or pos.in_check():
            continue
        key = " ".join(pos.fen().split()[:4])
        if key in seen:
            continue
        seen.add(key)
        yield pos, moves


def san_line(moves: list[int]) -> str:
    pos = Position()
    parts = []
    for i, m in enumerate(moves):
        san = move_to_san(pos, m)
        parts.append(f"{i // 2 + 1}. {san}" if i % 2 == 0 else san)
        pos.push(m)
    return " ".join(parts)


class Scorer:
    """Fairy-Stockfish at a fixed depth, one position at a time."""

    def __init__(self, path: str, depth: int) -> None:
        self.depth = depth
        self.proc = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1
        )
        self._send("uci")
        self._wait("uciok")
        for name, value in (("UCI_Variant", "alice"), ("Threads", "1"), ("Hash", "16")):
            self._send(f"setoption name {name} value {value}")

    def _send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def _wait(self, prefix: str) -> list[str]:
        assert self.proc.stdout is not None
        lines = []
        for line in self.proc.stdout:
            lines.append(line.strip())
            if line.startswith(prefix):
                return lines
        raise RuntimeError("Fairy-Stockfish exited")

    def score(self, moves: list[str]) -> int | None:
        """Centipawns for the side to move after ``moves`` from the start; ``None`` for a mate score."""
        self._send("ucinewgame")
        self._send("isready")
        self._wait("readyok")
        self._send("position startpos moves " + " ".join(moves))
        self._send(f"go depth {self.depth}")
        score: int | None = None
        for line in self._wait("bestmove"):
            tokens = line.split()
            if tokens[:1] == ["info"] and "score" in tokens:
                i = tokens.index("score")
                score = int(tokens[i + 2]) if tokens[i + 1] == "cp" else None
        return score

    def close(self) -> None:
        self._send("quit")
        self.proc.wait(5)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", required=True, help="Fairy-Stockfish (alice branch) binary")
    parser.add_argument("--out", default=OUT)
    parser.add_argument("--count", type=int, default=COUNT)
    parser.add_argument("--depth", type=int, default=DEPTH)
    parser.add_argument("--max-cp", type=int, default=MAX_CP)
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args(argv)
    scorer = Scorer(args.engine, args.depth)
    lines: list[str] = []
    tried = 0
    try:
        for pos, moves in candidates(args.seed):
            tried += 1
            replay = Position()
            uci = []
            for m in moves:
                uci.append(move_to_uci(replay, m))
                replay.push(m)
            cp = scorer.score(uci)
            if cp is None or abs(cp) > args.max_cp:
                continue
            fields = pos.fen().split()
            lines.append(
                f'{" ".join(fields[:4])} hmvc {fields[4]}; fmvn {fields[5]}; c0 "{san_line(moves)}"; ce {cp}; '
                f'id "alice-{len(lines) + 1:03d}";'
            )
            if len(lines) >= args.count:
                break
    finally:
        scorer.close()
    with open(args.out, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")
    print(f"wrote {len(lines)} openings to {args.out} ({tried} candidates scored)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
