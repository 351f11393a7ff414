"""Running alice-match in the tests: a match in-process with its output, and PGN checks."""

from __future__ import annotations

import dataclasses
import io
from pathlib import Path

import chess.pgn

from alice_match.cli import parse_args
from alice_match.match import Match, run_match
from engine.board import AliceBoard


@dataclasses.dataclass
class Run:
    status: int
    match: Match
    out: str
    err: str

    def lines(self, prefix: str) -> list[str]:
        return [line for line in self.out.splitlines() if line.startswith(prefix)]


def run(argv: list[str], **settings: float) -> Run:
    """Parse ``argv`` and run it in this process (``settings`` override GameSettings fields)."""
    config, _ = parse_args(argv)
    if settings:
        assert config.settings is not None
        config.settings = dataclasses.replace(config.settings, **settings)  # type: ignore[arg-type]
    out, err = io.StringIO(), io.StringIO()
    status, match = run_match(config, out, err)
    return Run(status, match, out.getvalue(), err.getvalue())


def read_pgn(path: str | Path) -> list[chess.pgn.Game]:
    """All games of ``path``, read by python-chess (the Variant tag picks AliceBoard) and checked:
    legal moves, PlyCount, and a rule ending for every game terminated "normal"."""
    games = []
    with open(path, encoding="utf-8") as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            assert not game.errors, game.errors
            board = game.board()
            assert isinstance(board, AliceBoard)
            for move in game.mainline_moves():
                assert board.is_legal(move)
                board.push(move)
            headers = game.headers
            assert headers["Variant"] == "Alice"
            assert int(headers["PlyCount"]) == len(board.move_stack)
            if headers["Termination"] == "normal":
                outcome = board.outcome()
                assert outcome is not None and outcome.result() == headers["Result"]
            else:
                assert board.outcome() is None
            games.append(game)
    return games


def final_comment(game: chess.pgn.Game) -> str:
    return game.end().comment if game.end() is not game else game.comment
