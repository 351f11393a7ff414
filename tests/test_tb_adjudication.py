"""scripts/tb_adjudication.py: where ``alice-match -tb`` would have ended games played without it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import chess.pgn

from engine.board import AliceBoard
from support.installed import ROOT

SCRIPT = str(Path(ROOT) / "scripts" / "tb_adjudication.py")


def _pgn(fen: str | None, moves: list[str], result: str) -> str:
    board = AliceBoard(fen) if fen else AliceBoard()
    for uci in moves:
        board.push_uci(uci)
    game = chess.pgn.Game.from_board(board)
    game.headers["Result"] = result
    game.headers["White"], game.headers["Black"] = "withtb", "notb"
    return str(game) + "\n\n"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True, timeout=120, cwd=ROOT)


def test_counts_the_plies_tables_would_save(kqk_dir: str, tmp_path: Path) -> None:
    games = tmp_path / "games.pgn"
    games.write_text(
        # KQ against K and knight: the capture on ply 1 reaches KQK, a win; white then mates
        # (the game's own 1-0 agrees with the table); 3 plies played, 2 of them after coverage.
        _pgn("8/8/8/4k3/8/8/1n6/1Q2K3 w - - 0 1", ["b1b2", "e5d5", "b2b3"], "1-0")
        # the start position: never covered, 4 plies played
        + _pgn(None, ["e2e4", "e7e5", "g1f3", "b8c6"], "1/2-1/2")
    )
    out = _run("--tb", kqk_dir, str(games))
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "games 2, reaching a covered position 1"
    assert lines[1] == "plies played 7, with -tb 5 (saved 2, 28.6 %)"
    assert lines[2] == "covered games: 2.0 plies played on after the first covered position"
    assert lines[3] == "  won by the table for withtb: 1 as the table"


def test_bad_directory_is_one_line(tmp_path: Path) -> None:
    out = _run("--tb", str(tmp_path / "none"), str(tmp_path / "x.pgn"))
    assert out.returncode == 2 and out.stdout == "" and out.stderr.count("\n") == 1
    out = _run("--tb", str(tmp_path), str(tmp_path / "x.pgn"))
    assert out.returncode == 2 and "no tables" in out.stderr
