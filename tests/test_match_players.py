"""The reference opponents (alice_match.players): random and greedy, and their UCI loop."""

from __future__ import annotations

import io
import os
import random
import subprocess
import sys
from pathlib import Path

from alice_match.players import GreedyPlayer, RandomPlayer, material_gain
from engine import Position, move_to_uci, parse_uci
from search.score import PIECE_VALUE

ROOT = Path(__file__).resolve().parent.parent


def position(line: str, fen: str | None = None) -> Position:
    pos = Position(fen) if fen else Position()
    for text in line.split():
        pos.push(parse_uci(pos, text))
    return pos


def test_greedy_mates_in_one() -> None:
    for line, mate in (("e2e4 d7d5 f1e2 d5e4", "e2b5"), ("e2e4 e7e5 d1h5 g8f6", "h5e5")):
        player = GreedyPlayer()
        for seed in range(5):
            player.rng = random.Random(seed)
            pos = position(line)
            assert move_to_uci(pos, player.choose(pos)) == mate
            assert player.score(pos, player.choose(pos)) == "mate 1"


def test_greedy_takes_the_most_material() -> None:
    # The rook a1 can take the queen a8, the knight g1 the pawn f3: the queen is worth most.
    pos = Position("q3k3/8/8/8/8/5p2/8/R3K1N1 w - - 0 1")
    player = GreedyPlayer()
    move = player.choose(pos)
    assert move_to_uci(pos, move) == "a1a8" and material_gain(pos, move) == PIECE_VALUE[5]
    assert player.score(pos, move) == f"cp {PIECE_VALUE[5]}"
    promo = Position("4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    assert move_to_uci(promo, GreedyPlayer().choose(promo)) == "a7a8q"


def test_random_player_is_legal_and_seeded() -> None:
    def game(seed: int) -> list[int]:
        player = RandomPlayer()
        player.rng = random.Random(seed)
        pos = Position()
        moves: list[int] = []
        while pos.outcome() is None and len(moves) < 60:
            m = player.choose(pos)
            assert m in pos.legal_moves()
            moves.append(m)
            pos.push(m)
        return moves

    assert game(1) == game(1) and game(1) != game(2)


def test_uci_loop() -> None:
    out = io.StringIO()
    player = GreedyPlayer(out)
    commands = "uci\nsetoption name Seed value 3\nisready\nposition startpos moves e2e4 d7d5 f1e2 d5e4\ngo nodes 1\n"
    player.run(io.StringIO(commands + "position fen 8/8/8/8/8/8/8/8 w - - 0 1\nposition bogus\nquit\ngo\n"))
    lines = out.getvalue().splitlines()
    assert "option name UCI_Variant type combo default alice var alice" in lines
    assert lines[lines.index("uciok") + 1] == "readyok"
    assert "bestmove e2b5" in lines
    assert sum(line.startswith("info string error") for line in lines) == 2  # bad FEN, bad position
    assert lines[-1].startswith("info string error")  # nothing after quit


def checkout_env() -> dict[str, str]:
    """The environment that runs the players from a checkout: ``PYTHONPATH=.:scripts``."""
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "scripts")])}


def test_players_as_processes() -> None:
    for kind in ("random", "greedy"):
        done = subprocess.run(
            [sys.executable, "-m", "alice_match.players", kind],
            input="uci\nisready\nposition startpos moves e2e4\ngo movetime 10\nquit\n",
            capture_output=True,
            text=True,
            timeout=30,
            cwd=str(ROOT),
            env=checkout_env(),
        )
        assert done.returncode == 0, done.stderr
        best = [line for line in done.stdout.splitlines() if line.startswith("bestmove ")]
        assert len(best) == 1
        pos = position("e2e4")
        parse_uci(pos, best[0].split()[1])  # legal for black
    assert subprocess.run([sys.executable, "-m", "alice_match.players", "nobody"], capture_output=True,
                          cwd=str(ROOT), env=checkout_env(), timeout=30).returncode == 2  # fmt: skip


def test_players_module_leaves_sys_path_alone() -> None:
    # An installed module must not edit sys.path (running it as a file is no longer supported).
    source = (ROOT / "scripts" / "alice_match" / "players.py").read_text(encoding="utf-8")
    assert "sys.path" not in source
