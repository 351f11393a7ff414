"""Tiny reference opponents speaking UCI, to measure an engine against:

    python -m alice_match.players random   # a uniformly random legal move
    python -m alice_match.players greedy   # mate in one if there is one, else the biggest
                                           # immediate material gain (ties broken at random)
    python -m alice_match.players random --seed 7   # the same moves in every run
    PYTHONPATH=.:scripts python -m alice_match.players random   # from a checkout, not installed

Both offer ``UCI_Variant`` (alice) and ``Seed`` (0: seeded from the clock; any other value,
or ``--seed N`` on the command line, seeds every game anew at ``ucinewgame``, so a game's
moves do not depend on the games the process played before: a match at a fixed seed gives the
same games whether the engines are kept between games or started for each, as on a cluster).
``MiniEngine``
is the UCI loop they share; the test suite's scripted engines build on it.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Sequence
from typing import TextIO

from engine import STARTING_FEN, FenError, MoveError, Position, move_to_uci, parse_uci
from search.score import PIECE_VALUE


class MiniEngine:
    """A minimal UCI engine: ``choose(pos)`` picks the move; the rest is protocol."""

    name = "mini"

    def __init__(self, out: TextIO | None = None) -> None:
        self.out = out or sys.stdout
        self.pos = Position()
        self.seed = 0
        self.rng = random.Random()

    def send(self, line: str) -> None:
        self.out.write(line + "\n")
        self.out.flush()

    def options(self) -> list[str]:
        return [
            "option name UCI_Variant type combo default alice var alice",
            "option name Seed type spin default 0 min 0 max 2147483647",
        ]

    def choose(self, pos: Position) -> int:
        """The move to play (``pos`` has legal moves); this base engine plays the first one."""
        first: int = pos.legal_moves()[0]
        return first

    def score(self, pos: Position, move: int) -> str:
        """The ``info score`` reported with ``move`` (side to move's view): ``cp 0``, ``mate 1``."""
        return "cp 0"

    def handle(self, line: str) -> bool:
        """Answer one command; ``False`` on ``quit``."""
        tokens = line.split()
        if not tokens:
            return True
        cmd = tokens[0]
        if cmd == "uci":
            self.send(f"id name {self.name}")
            self.send("id author alice-engine authors")
            for option in self.options():
                self.send(option)
            self.send("uciok")
        elif cmd == "isready":
            self.send("readyok")
        elif cmd == "setoption":
            self.setoption(line)
        elif cmd == "ucinewgame":
            self.pos = Position()
            if self.seed:
                self.rng = random.Random(self.seed)  # each game replays from the seed, whatever came before
        elif cmd == "position":
            self.set_position(tokens[1:])
        elif cmd == "go":
            self.go(tokens[1:])
        elif cmd == "quit":
            return False
        return True

    def setoption(self, line: str) -> None:
        body = line.split(" name ", 1)[1] if " name " in line else ""
        name, _, value = body.partition(" value ")
        if name.strip().lower() == "seed":
            try:
                self.seed = int(value)
            except ValueError:
                self.send(f"info string error: bad Seed {value!r}")
                return
            self.rng = random.Random(self.seed or None)

    def set_position(self, args: list[str]) -> None:
        try:
            if args and args[0] == "startpos":
                pos, rest = Position(STARTING_FEN), args[1:]
            elif args and args[0] == "fen":
                end = args.index("moves") if "moves" in args else len(args)
                pos, rest = Position(" ".join(args[1:end])), args[end:]
            else:
                raise FenError("expected startpos or fen")
            if rest and rest[0] == "moves":
                for text in rest[1:]:
                    pos.push(parse_uci(pos, text))
        except (FenError, MoveError) as error:
            self.send(f"info string error: {error}")
            return
        self.pos = pos

    def go(self, args: list[str]) -> None:
        legal = self.pos.legal_moves()
        if not legal:
            self.send("bestmove (none)")
            return
        move = self.choose(self.pos)
        self.send(
            f"info depth 1 score {self.score(self.pos, move)} nodes {len(legal)} pv {move_to_uci(self.pos, move)}"
        )
        self.send(f"bestmove {move_to_uci(self.pos, move)}")

    def run(self, stdin: TextIO | None = None) -> None:
        for line in stdin or sys.stdin:
            if not self.handle(line.strip()):
                return


class RandomPlayer(MiniEngine):
    """A uniformly random legal move."""

    name = "alice-random"

    def choose(self, pos: Position) -> int:
        moves: list[int] = sorted(pos.legal_moves())
        return self.rng.choice(moves)


def material_gain(pos: Position, move: int) -> int:
    """Centipawns won at once by ``move``: the captured piece plus any promotion gain."""
    gain: int = PIECE_VALUE[pos.sq[(move >> 6) & 63] & 7]
    if move >> 12:
        gain += PIECE_VALUE[move >> 12] - PIECE_VALUE[1]
    return gain


class GreedyPlayer(MiniEngine):
    """One ply: a mate in one if there is one, else the largest immediate material gain."""

    name = "alice-greedy"

    def choose(self, pos: Position) -> int:
        best: list[int] = []
        best_value = -1
        for move in sorted(pos.legal_moves()):
            pos.push(move)
            mates = not pos.legal_moves() and pos.in_check()
            pos.pop()
            value = 100000 if mates else material_gain(pos, move)
            if value > best_value:
                best, best_value = [move], value
            elif value == best_value:
                best.append(move)
        return self.rng.choice(best)

    def score(self, pos: Position, move: int) -> str:
        pos.push(move)
        mates = not pos.legal_moves() and pos.in_check()
        pos.pop()
        return "mate 1" if mates else f"cp {material_gain(pos, move)}"


PLAYERS: dict[str, type[MiniEngine]] = {"random": RandomPlayer, "greedy": GreedyPlayer}


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    seed = 0
    if len(args) == 3 and args[1] == "--seed" and args[2].isdigit():
        seed = int(args.pop(2))
        args.pop(1)
    if len(args) != 1 or args[0] not in PLAYERS:
        print(f"usage: python -m alice_match.players {{{'|'.join(PLAYERS)}}} [--seed N]", file=sys.stderr)
        return 2
    player = PLAYERS[args[0]]()
    player.seed = seed
    player.rng = random.Random(seed or time.time_ns())
    player.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
