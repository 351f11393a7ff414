"""The runner with our own engine (alice-engine) against the reference players."""

from __future__ import annotations

import io
from pathlib import Path

import chess.pgn
import pytest

from alice_match.cli import parse_args
from alice_match.match import run_match
from engine.board import AliceBoard
from support.matchargs import each, our_engine, player


@pytest.mark.slow
def test_alice_engine_against_the_random_player(tmp_path: Path) -> None:
    pgn = tmp_path / "engine.pgn"
    argv = [
        *our_engine("alice"), *player("random", name="random"), *each(nodes=200),
        "-games", "2", "-repeat", "-maxmoves", "25",
        "-openings", "file=default", "order=random", "-srand", "3", "-pgnout", str(pgn),
    ]  # fmt: skip
    config, _ = parse_args(argv)
    out = io.StringIO()
    status, match = run_match(config, out, io.StringIO())
    assert status == 0, out.getvalue()
    assert match.score.games == 2
    # Against a random mover our engine must not lose (mate or material adjudication aside, no forfeits).
    assert match.score.losses == 0, out.getvalue()
    assert all(r.termination in ("normal", "adjudication") for r in match.records.values())
    with open(pgn, encoding="utf-8") as handle:
        for _ in range(2):
            game = chess.pgn.read_game(handle)
            assert game is not None and not game.errors
            board = game.board()
            assert isinstance(board, AliceBoard)
            for move in game.mainline_moves():
                assert board.is_legal(move)
                board.push(move)
