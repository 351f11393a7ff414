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
import sys
from collections.abc import Iterator, Sequence

HERE = os.path.dirname(os.path.abspath(__file__))
for _path in (os.path.dirname(HERE), HERE):
    if _path not in sys.path:
        sys.path.insert(0, _path)


from alice_match.uci_process import EngineConfig, Info, UciProcess  # noqa: E402
from engine import Position, move_to_san, move_to_uci  # noqa: E402

SEED = 2026
COUNT = 300
DEPTH = 10
MAX_CP = 50
START_TIMEOUT = 30.0  # seconds for the engine's handshake and each readyok
SEARCH_TIMEOUT = 600.0  # seconds for one ``go depth``: a hung engine ends the run instead of hanging it
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
    """Fairy-Stockfish at a fixed depth, one position at a time (through the project's UCI
    client, ``alice_match.uci_process``: ``UCI_Variant alice`` when offered)."""

    def __init__(self, command: Sequence[str], depth: int, cwd: str | None = None) -> None:
        """``command``: the engine's program and its arguments; ``cwd`` its working directory."""
        self.depth = depth
        self.process = UciProcess(EngineConfig.from_argv(command, dir=cwd))
        self.process.start(START_TIMEOUT)
        self.process.set_if_offered("Threads", "1")
        self.process.set_if_offered("Hash", "16")

    def score(self, moves: list[str]) -> int | None:
        """Centipawns for the side to move after ``moves`` from the start; ``None`` for a mate score."""
        self.process.new_game(START_TIMEOUT)
        self.process.position(None, moves)
        info: Info = self.process.go(f"depth {self.depth}", SEARCH_TIMEOUT).info
        return info.cp  # the last score: None when it is a mate

    def close(self) -> None:
        self.process.quit()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", required=True, help="Fairy-Stockfish (alice branch) binary")
    parser.add_argument("--out", default=OUT)
    parser.add_argument("--count", type=int, default=COUNT)
    parser.add_argument("--depth", type=int, default=DEPTH)
    parser.add_argument("--max-cp", type=int, default=MAX_CP)
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args(argv)
    scorer = Scorer([args.engine], args.depth)
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
