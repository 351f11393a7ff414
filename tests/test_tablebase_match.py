"""``alice-match -tb DIR``: a game the tables cover is adjudicated with their result (as
cutechess's ``-tb``); without ``-tb`` it is played on; a missing directory is refused. The web
board's ``--tb``: the state's ``tablebase`` field (the status line's "mate in N (tablebase)")."""

from __future__ import annotations

from pathlib import Path

from alice_match.cli import main
from engine.position import Position
from support.gui_helpers import running_board, scripted
from support.matchargs import each, our_engine
from support.matchrun import run
from tablebase.probe import Tablebases
from tablebase.values import DECIDED

KQK = "8/8/8/8/3k4/8/8/K|Q6 w - - 0 1"  # white mates (in 6 by the table)


def _book(tmp_path: Path, fen: str) -> str:
    book = tmp_path / "book.epd"
    board, stm, castling, ep = fen.split()[:4]
    book.write_text(f"{board} {stm} {castling} {ep}\n")
    return str(book)


def test_covered_game_is_adjudicated(kqk_dir: str, tmp_path: Path) -> None:
    book = _book(tmp_path, KQK)
    common = [*our_engine("a"), *our_engine("b"), *each(depth=1), "-openings", f"file={book}", "format=epd"]
    r = run([*common, "-tb", kqk_dir])
    assert r.status == 0, r.err
    record = r.match.records[1]
    assert (record.result, record.termination) == ("1-0", "adjudication")
    assert record.reason == "White wins by tablebase adjudication"
    assert record.moves == []
    played = run([*common, "-maxmoves", "1"])
    assert played.match.records[1].reason != record.reason
    assert len(played.match.records[1].moves) >= 1


def test_tb_needs_a_directory(tmp_path: Path, capsys: object) -> None:
    assert main([*our_engine("a"), *our_engine("b"), *each(depth=1), "-tb", str(tmp_path / "none")]) == 2


def test_web_board_shows_tablebase_mate(kqk_dir: str) -> None:
    """The web board's state says "mate in N (tablebase)" for a covered position, nothing else."""
    with running_board([scripted("first")]) as board:
        board.server.session.tablebases = Tablebases(kqk_dir)
        state = board.ok("/api/fen", {"fen": KQK})
        mate = (Tablebases(kqk_dir).probe(Position(KQK)) - DECIDED + 1) // 2
        assert state["tablebase"] == {"result": "1-0", "mate": mate, "text": f"White: mate in {mate} (tablebase)"}
        assert board.ok("/api/fen", {"fen": "4k3/8/8/8/4|P3/8/8/4K3 w - - 0 1"})["tablebase"] is None
