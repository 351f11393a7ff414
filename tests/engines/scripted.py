#!/usr/bin/env python3
"""Scripted UCI engines for the match-runner tests (built on ``alice_match.players.MiniEngine``).

    scripted.py first [--suffix]    the first legal move (with /A /B when --suffix)
    scripted.py random SEED         a seeded random legal move
    scripted.py greedy SEED         the greedy reference player, seeded
    scripted.py illegal N           a well-formed illegal move at its N-th go of a game
    scripted.py emptysquare N       a move from a square with no piece at its N-th go of a game
    scripted.py badsuffix N         a legal move with the wrong board suffix at its N-th go
    scripted.py list M1,M2,...      the listed moves, one a go (legal or not), then the first legal move
    scripted.py slow N SECONDS      sleeps SECONDS before answering its N-th go
    scripted.py crash N             exits without answering its N-th go
    scripted.py hang N              never answers its N-th go, nor stop (nor anything after)
    scripted.py nouci               never answers uci
    scripted.py exit                exits at once (exit code 3), before reading anything
    scripted.py garbage             answers uci with lines of junk (some not UTF-8), never uciok
    scripted.py flooduci            answers uci with info lines without end, never uciok
    scripted.py flood N             at its N-th go prints info lines without end, never bestmove
    scripted.py longline N          at its N-th go prints one line of 400 MB and no newline, then sleeps
    scripted.py badbest N           answers its N-th go with ``bestmovefoo``
    scripted.py novariant           plays the first legal move but offers no UCI_Variant option
    scripted.py ponder              offers Ponder; plays the first legal move with ``ponder Y``,
                                    Y the opponent's first legal reply; on ``go ponder`` it waits
                                    for ``ponderhit`` (then answers at once) or ``stop``

``--score CP`` (any mode) makes it report ``info ... score cp CP`` with each move;
``--delay SECONDS`` makes it sleep that long before every ``bestmove`` of a normal ``go``;
``--pidfile PATH`` makes it write its process id to PATH first (``--startlog PATH``: append
it as a line); ``--idsuffix TEXT`` adds TEXT to its ``id name``, as does the environment
variable ``ALICE_SCRIPTED_ID_SUFFIX``; ``--tag TEXT`` does nothing (it marks the process for
a test that counts processes). Go counts restart at every ``ucinewgame``.
"""

from __future__ import annotations

import os
import random
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
for _path in (ROOT, os.path.join(ROOT, "scripts")):
    if _path not in sys.path:
        sys.path.insert(0, _path)

import chess  # noqa: E402

from alice_match.players import GreedyPlayer, MiniEngine  # noqa: E402
from engine import Position, move_to_uci  # noqa: E402


class Scripted(MiniEngine):
    name = "scripted"

    def __init__(self, mode: str, args: list[str]) -> None:
        super().__init__()
        self.mode = mode
        self.args = args
        self.gos = 0
        self.hung = False
        self.pondering = False
        self.name = f"scripted-{mode}" + self.flag("--idsuffix", "") + os.environ.get("ALICE_SCRIPTED_ID_SUFFIX", "")
        if mode in ("random", "greedy"):
            self.rng = random.Random(int(args[0]))

    def flag(self, name: str, default: str) -> str:
        """The value after ``name`` in the arguments, else ``default``."""
        return self.args[self.args.index(name) + 1] if name in self.args[:-1] else default

    def options(self) -> list[str]:
        if self.mode == "novariant":
            return []
        ponder = ["option name Ponder type check default false"] if self.mode == "ponder" else []
        return super().options() + ponder

    def score(self, pos: Position, move: int) -> str:
        if "--score" in self.args:
            return f"cp {int(self.args[self.args.index('--score') + 1])}"
        return super().score(pos, move)

    def handle(self, line: str) -> bool:
        if self.hung:
            return True  # deaf to everything, quit included
        if self.mode == "nouci" and line.strip() == "uci":
            return True
        if self.mode == "flooduci" and line.strip() == "uci":
            flood("info string flood\n")
        if self.mode == "garbage" and line.strip() == "uci":
            sys.stdout.write("hello\n\x00\x01 not uci at all\n")
            sys.stdout.flush()
            sys.stdout.buffer.write(b"\xff\xfe\xfd junk bytes\n")
            sys.stdout.buffer.flush()
            return True
        if line.strip() == "ucinewgame":
            self.gos = 0
        if self.mode == "ponder" and line.strip() in ("ponderhit", "stop") and self.pondering:
            self.pondering = False
            self.answer()  # the move for the ponder position: played after ponderhit, discarded after stop
            return True
        return super().handle(line)

    def choose(self, pos: Position) -> int:
        if self.mode == "random":
            return self.rng.choice(sorted(pos.legal_moves()))
        if self.mode == "greedy":
            return GreedyPlayer.choose(self, pos)  # type: ignore[arg-type]
        return pos.legal_moves()[0]

    def go(self, args: list[str]) -> None:
        if self.mode == "ponder" and "ponder" in args:
            self.pondering = True  # answered on ponderhit or stop
            return
        self.gos += 1
        if "--delay" in self.args:
            time.sleep(float(self.args[self.args.index("--delay") + 1]))
        if self.mode == "ponder":
            self.answer()
            return
        trigger = self.mode in MODES_WITH_A_GO and self.gos == int(self.args[0])
        if trigger and self.mode == "flood":
            flood("info depth 1 score cp 0 nodes 1 pv e2e4\n")
        if trigger and self.mode == "longline":
            flood("x" * 4096, LONG_LINE)
        if trigger and self.mode == "emptysquare":
            empty = next(s for s in range(64) if not self.pos.sq[s])
            self.send(f"bestmove {chess.SQUARE_NAMES[empty]}{chess.SQUARE_NAMES[(empty + 8) % 64]}")
            return
        if trigger and self.mode == "badbest":
            self.send("bestmovefoo")
            return
        if trigger and self.mode == "crash":
            os._exit(3)
        if trigger and self.mode == "hang":
            self.hung = True
            return
        if trigger and self.mode == "slow":
            time.sleep(float(self.args[1]))
        if trigger and self.mode == "illegal":
            self.send(f"bestmove {illegal_move(self.pos)}")
            return
        if trigger and self.mode == "badsuffix":
            m = self.pos.legal_moves()[0]
            right = move_to_uci(self.pos, m, suffix=True)
            self.send(f"bestmove {right[:-1]}{'A' if right.endswith('B') else 'B'}")
            return
        if self.mode == "list" and self.gos <= len(self.args[0].split(",")):
            self.send(f"bestmove {self.args[0].split(',')[self.gos - 1]}")
            return
        if self.mode == "first" and "--suffix" in self.args:
            legal = self.pos.legal_moves()
            if legal:
                self.send(f"bestmove {move_to_uci(self.pos, self.choose(self.pos), suffix=True)}")
                return
        super().go(args)

    def answer(self) -> None:
        """``bestmove X ponder Y``: the first legal move and the first legal reply to it."""
        legal = self.pos.legal_moves()
        if not legal:
            self.send("bestmove (none)")
            return
        move = legal[0]
        text = f"bestmove {move_to_uci(self.pos, move)}"
        after = self.pos.copy()
        after.push(move)
        replies = after.legal_moves()
        if replies:
            text += f" ponder {move_to_uci(after, replies[0])}"
        self.send(text)


MODES_WITH_A_GO = ("illegal", "emptysquare", "badsuffix", "slow", "crash", "hang", "flood", "longline", "badbest")


LONG_LINE = 400 << 20  # characters of the longline mode's line


def flood(text: str, limit: int | None = None) -> None:
    """Print ``text`` over and over as fast as the reader takes it, without end (or ``limit``
    characters, then sleep); exit when the pipe breaks."""
    written = 0
    try:
        while limit is None or written < limit:
            sys.stdout.write(text * 64)
            sys.stdout.flush()
            written += 64 * len(text)
        time.sleep(3600)
    except OSError:  # BrokenPipeError: the reader is gone
        os._exit(0)


def illegal_move(pos: Position) -> str:
    """A well-formed move of one of our pieces that is not legal here."""
    legal = set(pos.legal_moves())
    for s in range(64):
        p = pos.sq[s]
        if not p or (p >> 3) & 1 != pos.turn:
            continue
        for d in range(64):
            if d != s and (s | d << 6) not in legal and not (p & 7 == chess.PAWN and chess.square_rank(d) in (0, 7)):
                return chess.SQUARE_NAMES[s] + chess.SQUARE_NAMES[d]
    raise AssertionError("no illegal move found")


if __name__ == "__main__":
    if "--pidfile" in sys.argv[:-1]:
        with open(sys.argv[sys.argv.index("--pidfile") + 1], "w") as handle:
            handle.write(str(os.getpid()))
    if "--startlog" in sys.argv[:-1]:
        with open(sys.argv[sys.argv.index("--startlog") + 1], "a") as handle:
            handle.write(f"{os.getpid()}\n")
    if sys.argv[1] == "exit":
        sys.exit(3)
    Scripted(sys.argv[1], sys.argv[2:]).run()
