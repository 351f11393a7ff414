"""The web board's HTTP API, black-box: every endpoint, the guards, bad input, engine failures."""

from __future__ import annotations

import io
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import chess
import chess.pgn
import pytest

import engine.board  # noqa: F401 (registers the Alice variant for chess.pgn)
from engine.board import AliceBoard
from gui import engines as gui_engines
from gui import game as gui_game
from gui import scheduler as gui_scheduler
from gui import server as gui_server
from gui import session as gui_session
from gui.server import MAX_BODY
from support.gui_helpers import ROOT, Board, alice, raw_request, running_board, scripted
from support.installed import default_sigint, engine_command
from support.processes import tagged, wait_for

START = chess.STARTING_FEN
FIRST = 0  # engine index of the scripted first-legal-move engine
ALICE = 1  # engine index of this engine


@pytest.fixture(scope="module")
def board() -> Iterator[Board]:
    with running_board([scripted("first"), alice()]) as b:
        yield b


def new(board: Board, **setup: object) -> dict:
    return board.ok("/api/new", setup or {"mode": "analyse"})


def piece_at(state: dict, square: str) -> tuple[str, str] | None:
    for p in state["pieces"]:
        if p["square"] == square:
            return p["piece"], p["board"]
    return None


# ---------------------------------------------------------------- the game
def test_state_at_start(board: Board) -> None:
    state = new(board, mode="analyse")
    assert state["fen"] == START
    assert len(state["legal"]) == 20
    assert len(state["pieces"]) == 32 and all(p["board"] == "A" for p in state["pieces"])
    assert state["moves"] == [] and state["result"] is None
    names = [e["name"] for e in board.wait_for(lambda s: "Alice" in s["engines"][ALICE]["name"])["engines"]]
    assert names[FIRST] == "scripted-first"
    strengths = board.state()["engines"][ALICE]["strengths"]
    values = [s["value"] for s in strengths]
    assert {"full", "time:1", "nodes:1000"} <= set(values)
    # This engine's levels come from its UCI_Elo range: eight of them, strongest last.
    levels = [s["label"] for s in strengths if s["value"].startswith("level:")]
    assert len(levels) == 8 and levels[0].startswith("Level 1 (Elo ") and levels[-1].startswith("Level 8 (Elo ")
    assert board.state()["engines"][FIRST]["strengths"][0]["value"] == "full"  # no levels


@pytest.mark.parametrize(
    "module",
    [
        "gui.game", "gui.engines", "gui.strength", "gui.requests", "gui.view", "gui.pgn", "gui.notation",
        "gui.jsonbody", "gui.clock", "gui.shapes", "gui.draw", "gui.scheduler",
    ],
)
def test_docstring_examples(module: str) -> None:
    import doctest
    import importlib

    failures, _ = doctest.testmod(importlib.import_module(module))
    assert failures == 0


def test_moves_in_uci_and_san_land_on_the_other_board(board: Board) -> None:
    new(board, mode="analyse")
    status, answer = board.post("/api/move", {"move": "e2e4"})
    assert status == 200 and answer["san"] == "e4/B"
    assert piece_at(answer["state"], "e4") == ("P", "B")
    assert answer["state"]["lastMove"] == {"from": "e2", "to": "e4", "fromBoard": "A", "toBoard": "B", "capture": False}
    assert board.post("/api/move", {"move": "Nf6/B"})[1]["san"] == "Nf6/B"
    assert board.post("/api/move", {"move": "d2d4/B"})[1]["san"] == "d4/B"
    state = board.state()
    assert state["moves"] == ["e4/B", "Nf6/B", "d4/B"]
    assert state["fen"] == "rnbqkb1r/pppppppp/5|n2/8/3|P|P3/8/PPP2PPP/RNBQKBNR b KQkq - 0 2"


@pytest.mark.parametrize(
    ("move", "words"),
    [
        ("e2e5", "there is no piece on e2"),
        ("e1e2", "it is Black's move"),
        ("e7e4", "the pawn on e7 cannot move to e4"),
        ("Nf6/A", "the knight lands on board B"),
        ("Qh5", "no black queen can move to h5"),
        ("zz", "is not a move"),
        ("", "type a move"),
        (42, "must be a string"),
        (None, "must be a string"),
    ],
)
def test_bad_moves_are_refused_and_change_nothing(board: Board, move: object, words: str) -> None:
    new(board, mode="analyse")
    board.ok("/api/move", {"move": "e4"})
    before = board.state()
    status, answer = board.post("/api/move", {"move": move})
    assert status == 400 and words in answer["error"]
    after = board.state()
    assert (after["fen"], after["moves"], after["version"]) == (before["fen"], before["moves"], before["version"])


def test_play_against_the_engine_take_back_and_resign(board: Board) -> None:
    state = new(board, mode="play", side="white", opponent={"engine": FIRST, "strength": "full"})
    assert state["players"] == {"white": None, "black": {"engine": FIRST, "strength": "full"}}
    board.ok("/api/move", {"move": "e4"})
    state = board.wait_for(lambda s: len(s["moves"]) == 2)
    assert state["turn"] == "white" and state["legal"]
    state = board.ok("/api/takeback")
    assert state["moves"] == [] and state["fen"] == START
    assert board.post("/api/takeback")[0] == 409
    board.ok("/api/move", {"move": "d4"})
    board.wait_for(lambda s: len(s["moves"]) == 2)
    state = board.ok("/api/resign")
    assert state["result"] == {"result": "0-1", "reason": "White resigned"}
    assert board.post("/api/move", {"move": "e4"})[0] == 409
    assert board.post("/api/resign")[0] == 409
    board.ok("/api/mode", {"mode": "analyse"})  # analysing the game afterwards keeps its players
    pgn = board.get("/api/pgn")[1]["pgn"]
    assert '[White "You"]' in pgn and '[Black "scripted-first, Full strength' in pgn and '[Result "0-1"]' in pgn


def test_playing_black_the_engine_opens(board: Board) -> None:
    new(board, mode="play", side="black", opponent={"engine": FIRST, "strength": "full"})
    state = board.wait_for(lambda s: len(s["moves"]) == 1)
    assert state["turn"] == "black" and state["legal"]
    assert board.post("/api/move", {"move": "e4"})[0] == 400  # not Black's move
    assert board.post("/api/takeback")[0] == 409  # the engine's move alone is not the player's to take back


def test_it_is_not_your_move_while_the_engine_thinks(board: Board) -> None:
    new(board, mode="play", side="white", opponent={"engine": ALICE, "strength": "time:2"})
    board.ok("/api/move", {"move": "e4"})
    state = board.state()
    if len(state["moves"]) == 1:  # the engine is still thinking
        assert state["legal"] == []
        status, answer = board.post("/api/move", {"move": "d4"})
        assert status == 409 and "engine's turn" in answer["error"]
    board.ok("/api/stop")  # move now
    board.wait_for(lambda s: len(s["moves"]) == 2 and s["thinking"] is None)


def test_the_game_ends_with_its_reason(board: Board) -> None:
    new(board, mode="analyse")
    for move in "e2e4 d7d5 f1e2 d5e4 e2b5".split():
        board.ok("/api/move", {"move": move})
    state = board.state()
    assert state["result"] == {"result": "1-0", "reason": "checkmate"}
    assert state["check"] == {"square": "e8", "board": "A"} and state["legal"] == []
    status, answer = board.post("/api/move", {"move": "a7a6"})
    assert status == 409 and "over" in answer["error"]


@pytest.mark.parametrize(
    ("fen", "move", "reason", "result"),
    [
        (
            "1K2k3/Q7/8/8/8/8/8/8 w - - 0 1",
            "a7e7",
            "stalemate",
            "1/2-1/2",
        ),  # the queen on B guards the king's landing squares
        ("4k3/8/8/8/8/8/4q3/4K3 w - - 0 1", "e1e2", "bare kings", "1/2-1/2"),
        ("4k3/8/8/8/8/8/8/R3K3 w - - 99 80", "a1a2", "fifty-move rule", "1/2-1/2"),
    ],
)
def test_draws_are_announced(board: Board, fen: str, move: str, reason: str, result: str) -> None:
    board.ok("/api/mode", {"mode": "analyse"})
    board.ok("/api/fen", {"fen": fen})
    state = board.ok("/api/move", {"move": move})
    assert state["result"] == {"result": result, "reason": reason}


def test_threefold_repetition(board: Board) -> None:
    new(board, mode="analyse")
    moves = ["g1f3", "g8f6", "f3g1", "f6g8"] * 2  # the start position comes back after 4 and 8 plies
    for move in moves[:-1]:
        assert board.ok("/api/move", {"move": move})["result"] is None
    state = board.ok("/api/move", {"move": moves[-1]})
    assert state["result"] == {"result": "1/2-1/2", "reason": "threefold repetition"}


def test_step_through_the_moves(board: Board) -> None:
    new(board, mode="analyse")
    for move in ["e4", "d5", "Be2"]:
        board.ok("/api/move", {"move": move})
    state = board.ok("/api/goto", {"ply": 1})
    assert state["ply"] == 1 and state["fen"].startswith("rnbqkbnr/pppppppp/8/8/4|P3")
    assert state["lastMove"]["to"] == "e4"
    assert board.ok("/api/goto", {"ply": 0})["fen"] == START
    for bad in (-1, 4, "1", 1.5, True, None):
        status, answer = board.post("/api/goto", {"ply": bad})
        assert status == 400 and "ply" in answer["error"], bad
    # A move at an earlier ply starts a variation from there: the old moves are kept.
    board.ok("/api/goto", {"ply": 1})
    state = board.ok("/api/move", {"move": "e5"})
    assert state["moves"] == ["e4/B", "e5/B"] and state["ply"] == 2
    assert state["mainline"] is False
    back = state["alternatives"]["2"]
    assert [a["san"] for a in back] == ["d5/B"]
    state = board.ok("/api/goto", {"node": back[0]["id"]})  # back to the game's line, all of it
    assert state["moves"] == ["e4/B", "d5/B", "Be2/B"] and state["ply"] == 2 and state["mainline"] is True
    assert [a["san"] for a in state["alternatives"]["2"]] == ["e5/B"]
    # The same move as the next one just steps forward; no new variation.
    board.ok("/api/goto", {"ply": 1})
    state = board.ok("/api/move", {"move": "d5"})
    assert state["moves"] == ["e4/B", "d5/B", "Be2/B"] and len(state["alternatives"]["2"]) == 1
    for bad in (-1, 10**9, "x"):
        assert board.post("/api/goto", {"node": bad})[0] == 400


# ---------------------------------------------------------------- FEN and PGN
def test_load_fen_compact_and_16_wide(board: Board) -> None:
    compact = "4k3/8/8/8/4|P3/8/8/4K3 w - - 0 1"
    assert board.ok("/api/fen", {"fen": compact})["fen"] == compact
    state = board.ok("/api/fen", {"fen": "4k11/16/16/16/12P3/16/16/4K11 w - - 0 1"})
    assert state["fen"] == compact and piece_at(state, "e4") == ("P", "B")
    assert state["moves"] == [] and state["rootFen"] == compact


@pytest.mark.parametrize(
    ("fen", "words"),
    [
        ("", "paste a FEN"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "bad FEN"),
        ("8/8/8/8/8/8/8/4K3 w - - 0 1", "king"),
        ("4k3/8/8/8/8/8/8/4K2X w - - 0 1", "bad FEN"),
        ("4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1", "in check but it is not black's move"),
        ("4k3/8/8/8/8/8/8/4K3 w - e3 0 1", "bad FEN"),
        (["not", "a", "string"], "must be a string"),
    ],
)
def test_broken_fen_is_refused_and_the_game_stays(board: Board, fen: object, words: str) -> None:
    new(board, mode="analyse")
    board.ok("/api/move", {"move": "e4"})
    before = board.state()
    status, answer = board.post("/api/fen", {"fen": fen})
    assert status == 400 and words in answer["error"], answer
    after = board.state()
    assert (after["fen"], after["moves"]) == (before["fen"], before["moves"])


PGN = """[Event "test"]
[White "Alice fan"]
[Black "Looking glass"]
[Variant "Alice"]
[Result "1-0"]

1. e4/B d5/B 2. Be2/B dxe4/A 3. Bb5/A# 1-0
"""


def test_load_and_export_pgn(board: Board) -> None:
    board.ok("/api/mode", {"mode": "analyse"})
    state = board.ok("/api/pgn", {"pgn": PGN})
    assert state["moves"] == ["e4/B", "d5/B", "Be2/B", "dxe4/A", "Bb5/A#"]
    assert state["result"] == {"result": "1-0", "reason": "checkmate"}
    status, answer = board.get("/api/pgn")
    assert status == 200
    game = chess.pgn.read_game(io.StringIO(answer["pgn"]))
    assert game is not None and not game.errors
    assert isinstance(game.board(), AliceBoard)
    assert game.headers["Variant"] == "Alice" and game.headers["Result"] == "1-0"
    assert game.headers["White"] == "Alice fan"
    assert [m.uci() for m in game.mainline_moves()] == ["e2e4", "d7d5", "f1e2", "d5e4", "e2b5"]
    assert "Bb5/A#" in answer["pgn"]
    assert "FEN" not in game.headers and "SetUp" not in game.headers  # from the start position: no set-up tags


def test_exported_pgn_has_date_evals_variations_and_a_standard_termination(board: Board) -> None:
    import datetime

    board.ok("/api/mode", {"mode": "analyse"})
    board.ok("/api/analysis", {"engine": ALICE})
    board.ok("/api/pgn", {"pgn": PGN})  # a finished game: every position is evaluated
    board.wait_for(lambda s: all(e is not None for e in s["evals"]) and not s["reviewing"])
    board.ok("/api/goto", {"ply": 2})
    board.ok("/api/move", {"move": "Nf3"})  # a variation at move 2
    text = board.get("/api/pgn")[1]["pgn"]
    game = chess.pgn.read_game(io.StringIO(text))
    assert game is not None and not game.errors
    assert game.headers["Date"] == datetime.date.today().strftime("%Y.%m.%d")
    assert game.headers["Termination"] == "normal" and game.headers["Result"] == "1-0"
    assert [m.uci() for m in game.mainline_moves()] == ["e2e4", "d7d5", "f1e2", "d5e4", "e2b5"]
    assert [v.move.uci() for v in game.next().next().variations] == ["f1e2", "g1f3"]  # main line, then Nf3
    evals = [node.eval() for node in game.mainline()]
    assert all(e is not None for e in evals[:4]), text  # [%eval] for every evaluated move (not the mate itself)
    assert evals[3] is not None and evals[3].white().mate() == 1  # after 2... dxe4/A White mates in one
    assert game.end().comment.endswith("checkmate")
    # Read back: the same tree, the evaluations kept.
    state = board.ok("/api/pgn", {"pgn": text})
    assert state["moves"] == ["e4/B", "d5/B", "Be2/B", "dxe4/A", "Bb5/A#"]
    assert [a["san"] for a in state["alternatives"]["3"]] == ["Nf3/B"]
    assert state["evals"][1] is not None and state["result"] == {"result": "1-0", "reason": "checkmate"}


def test_a_resigned_game_exports_a_standard_termination(board: Board) -> None:
    new(board, mode="play", side="black", opponent={"engine": FIRST, "strength": "full"})
    board.wait_for(lambda s: len(s["moves"]) == 1)
    board.ok("/api/resign")
    text = board.get("/api/pgn")[1]["pgn"]
    game = chess.pgn.read_game(io.StringIO(text))
    assert game is not None and game.headers["Termination"] == "normal" and game.headers["Result"] == "1-0"
    assert game.end().comment == "Black resigned"
    assert game.headers["Black"] == "You" and game.headers["White"] == "scripted-first, Full strength, 1 s per move"
    assert board.ok("/api/pgn", {"pgn": text})["result"] == {"result": "1-0", "reason": "Black resigned"}


def test_pgn_without_variant_tag_and_from_a_position(board: Board) -> None:
    state = board.ok("/api/pgn", {"pgn": "1. Nf3 Nf6 2. Ng1 *"})
    assert state["moves"] == ["Nf3/B", "Nf6/B", "Ng1/A"]
    fen = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1"
    state = board.ok("/api/pgn", {"pgn": f'[Variant "Alice"]\n[SetUp "1"]\n[FEN "{fen}"]\n\n1. a8=Q/B *'})
    assert state["moves"] == ["a8=Q/B"] and state["rootFen"] == fen
    exported = chess.pgn.read_game(io.StringIO(board.get("/api/pgn")[1]["pgn"]))
    assert exported is not None and exported.board().fen() == fen
    assert exported.headers["FEN"] == fen and exported.headers["SetUp"] == "1"  # set up: FEN with SetUp "1"
    assert exported.end().board().piece_at(chess.A8) == chess.Piece.from_symbol("Q")


@pytest.mark.parametrize(
    ("pgn", "words"),
    [
        ("", "paste a PGN"),
        ("1. e4 e5 2. Qxf7", "bad PGN, move 2. Qxf7: no white queen can move to f7"),
        ('[Variant "Crazyhouse"]\n\n1. e4 *', "no Alice chess game in the PGN (its games are Crazyhouse)"),
        ("]]]] {{{{", "no game"),
        ('[FEN "not a fen"]\n\n1. e4 *', "bad PGN"),
        (7, "must be a string"),
    ],
)
def test_broken_pgn_is_refused_and_the_game_stays(board: Board, pgn: object, words: str) -> None:
    new(board, mode="analyse")
    board.ok("/api/move", {"move": "d4"})
    before = board.state()
    status, answer = board.post("/api/pgn", {"pgn": pgn})
    assert status == 400 and words in answer["error"], answer
    assert board.state()["moves"] == before["moves"]


# ---------------------------------------------------------------- engines
def test_analysis_shows_lines_live(board: Board) -> None:
    new(board, mode="analyse")
    board.ok("/api/move", {"move": "e4"})
    board.ok("/api/analysis", {"on": True, "engine": ALICE, "multipv": 2})
    state = board.wait_for(lambda s: len(s["lines"]) == 2 and all(line.get("depth", 0) >= 2 for line in s["lines"]))
    for line in state["lines"]:
        assert line["pv"].startswith("1...") and line["score"]["text"]
    assert state["thinking"] and "analysing" in state["thinking"]
    assert state["evals"][1] is not None  # the eval bar and graph get the first line's score
    state = board.ok("/api/goto", {"ply": 0})  # the analysis follows the position on view
    state = board.wait_for(lambda s: s["lines"] and s["lines"][0]["pv"].startswith("1. "))
    state = board.ok("/api/stop")
    assert state["analysis"]["on"] is False and state["thinking"] is None
    for bad in ({"multipv": 4}, {"multipv": 0}, {"engine": 9}, {"on": "yes"}):
        assert board.post("/api/analysis", bad)[0] == 400


def test_analysis_needs_analyse_mode(board: Board) -> None:
    new(board, mode="play", side="white", opponent={"engine": FIRST, "strength": "full"})
    assert board.post("/api/analysis", {"on": True})[0] == 409


def test_review_evaluates_every_position(board: Board) -> None:
    board.ok("/api/mode", {"mode": "analyse"})
    board.ok("/api/analysis", {"engine": ALICE})
    board.ok("/api/pgn", {"pgn": PGN})  # a finished game is evaluated at once
    state = board.wait_for(lambda s: all(e is not None for e in s["evals"]) and not s["reviewing"])
    assert len(state["evals"]) == 6
    assert state["evals"][5]["mate"] == 0 and state["evals"][5]["cp"] > 0  # Black is mated
    assert state["evals"][4]["mate"] == 1  # White mates in one


def test_the_page_cannot_choose_a_command(board: Board) -> None:
    for opponent in ({"engine": 2}, {"engine": -1}, {"engine": "stockfish"}, {"engine": ["sh", "-c"]}, "x"):
        assert board.post("/api/new", {"mode": "play", "side": "white", "opponent": opponent})[0] == 400, opponent
    status, answer = board.post("/api/new", {"mode": "play", "opponent": {"engine": 0, "strength": "level:99"}})
    assert status == 400 and "strength" in answer["error"]
    assert board.post("/api/new", {"mode": "fight"})[0] == 400
    assert board.post("/api/new", {"mode": "play", "side": "red"})[0] == 400


def test_watch_two_engines_and_pause(board: Board, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gui_scheduler, "WATCH_PAUSE", 0.0)
    player = {"engine": FIRST, "strength": "full"}
    new(board, mode="watch", white=player, black={"engine": ALICE, "strength": "nodes:1000"})
    board.wait_for(lambda s: len(s["moves"]) >= 4 or s["result"] is not None)
    state = board.ok("/api/stop")
    assert state["paused"]
    state = board.wait_for(lambda s: s["thinking"] is None)
    assert board.state()["moves"] == state["moves"]  # paused: nothing more is played
    assert board.post("/api/move", {"move": "a2a3"})[0] == 409
    count = len(state["moves"])
    board.ok("/api/go")
    # Two more moves, or the end of the game (this engine may mate the first-move player first).
    board.wait_for(lambda s: len(s["moves"]) > count + 1 or s["result"] is not None)
    board.ok("/api/stop")


# ---------------------------------------------------------------- failing engines
@pytest.fixture
def quick_failures(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gui_engines, "HANG_GRACE", 1.0)
    monkeypatch.setattr(gui_engines, "STOP_TIMEOUT", 1.0)


@pytest.mark.parametrize(
    ("engine", "words"),
    [
        (scripted("crash", "2"), "stopped unexpectedly (exit code 3)"),
        (scripted("hang", "2"), "did not answer"),
        (scripted("illegal", "2"), "scripted-illegal sent an illegal move: 'bestmove "),
    ],
)
def test_a_failing_engine_is_reported_and_a_new_game_starts(quick_failures: None, engine, words: str) -> None:
    with running_board([engine]) as b:
        setup = {"mode": "play", "side": "white", "opponent": {"engine": 0, "strength": "time:0.2"}}
        b.ok("/api/new", setup)
        b.ok("/api/move", {"move": "e4"})
        b.wait_for(lambda s: len(s["moves"]) == 2)
        before = b.state()["moves"]
        b.ok("/api/move", {"move": "d4"})
        state = b.wait_for(lambda s: s["engineError"] is not None)
        assert words in state["engineError"], state["engineError"]
        assert state["moves"] == [*before, "d4/B"] and state["thinking"] is None
        b.ok("/api/new", setup)  # the engine is restarted: its first move comes again
        b.ok("/api/move", {"move": "e4"})
        state = b.wait_for(lambda s: len(s["moves"]) == 2)
        assert state["engineError"] is None


@pytest.mark.parametrize(
    ("engine", "words"),
    [
        (scripted("illegal", "1"), "scripted-illegal sent an illegal move: 'bestmove "),  # its own piece
        (scripted("emptysquare", "1"), "scripted-emptysquare sent an illegal move: 'bestmove e2e3'"),
        (scripted("badbest", "1"), "scripted-badbest sent malformed output: 'bestmovefoo'"),
        (scripted("longline", "1"), "scripted-longline sent a line of more than 65536 bytes"),
    ],
)
def test_a_bad_engine_answer_is_reported_at_once(engine: gui_engines.EngineSpec, words: str) -> None:
    """Issue 37: an illegal move (even from an empty square) or malformed output is reported
    as what it is, at once; it was reported as a hang 16 s later (python-chess failed inside
    its reader). The engine is ended; a new game starts it again."""
    with running_board([engine]) as b:
        setup = {"mode": "play", "side": "white", "opponent": {"engine": 0, "strength": "time:1"}}
        b.ok("/api/new", setup)
        started = time.monotonic()
        b.ok("/api/move", {"move": "e4"})
        state = b.wait_for(lambda s: s["engineError"] is not None)
        assert time.monotonic() - started < 5, state["engineError"]  # its budget alone is 1 s + 10 s
        assert state["engineError"] == words or state["engineError"].startswith(words), state["engineError"]
        assert state["moves"] == ["e4/B"] and state["thinking"] is None
        engine_process = b.server.session.engines[0]
        assert not engine_process.alive()


def test_a_move_before_the_engine_has_started() -> None:
    """The first opponent is a level; a move at once, before the engine named its options, works."""
    with running_board([alice()]) as b:
        b.ok("/api/move", {"move": "e4"})
        state = b.wait_for(lambda s: len(s["moves"]) == 2 or s["engineError"] is not None)
        assert state["engineError"] is None and len(state["moves"]) == 2
        assert "Level 4" in state["names"]["black"]


def test_an_engine_that_cannot_start_is_reported() -> None:
    with running_board([gui_engines.EngineSpec(("/nonexistent/engine",), "ghost")]) as b:
        state = b.wait_for(lambda s: s["engineError"] is not None)
        assert "cannot start ghost" in state["engineError"]
        assert b.post("/api/move", {"move": "e4"})[0] == 200  # the board still works


# ---------------------------------------------------------------- HTTP guards
def test_static_files_and_pieces(board: Board) -> None:
    for path, kind in [
        ("/", "text/html"),
        ("/app.js", "javascript"),
        ("/style.css", "text/css"),
        ("/pieces/bQ.svg", "svg"),
    ]:
        status, headers, body = board.request("GET", path, headers={"Host": f"127.0.0.1:{board.port}"})
        assert status == 200 and kind in headers["content-type"] and body, path
        assert headers["x-content-type-options"] == "nosniff"
        assert "default-src 'self'" in headers["content-security-policy"]
    for name in gui_server.STATIC_FILES:  # every module of the page is served (package data too)
        status, headers, body = board.request("GET", f"/{name}")
        assert status == 200 and body, name
    status, _, body = board.request("GET", "/pieces/wN.svg")
    assert body.startswith(b"<svg") and b"</svg>" in body


@pytest.mark.parametrize(
    "path",
    [
        "/../gui/server.py",
        "/..%2fserver.py",
        "/static/../server.py",
        "/%2e%2e/%2e%2e/etc/passwd",
        "//etc/passwd",
        "/server.py",
        "/gui/static/app.js",
        "/pieces/../server.py",
        "/pieces/xK.svg",
        "/index.html/..",
        "/app.js%00.png",
    ],
)
def test_no_path_traversal(board: Board, path: str) -> None:
    status, _, body = board.request("GET", path)
    assert status == 404, path
    assert b"import" not in body and b"root:" not in body


@pytest.mark.parametrize(
    "headers",
    [
        {"Host": "evil.example"},
        {"Host": "evil.example:80"},
        {"Host": "127.0.0.1"},  # no port: not us
        {"Host": "127.0.0.1:1"},
        {"Origin": "http://evil.example"},
        {"Origin": "null"},
        {"Origin": "https://127.0.0.1"},
    ],
)
def test_foreign_host_or_origin_is_forbidden(board: Board, headers: dict[str, str]) -> None:
    full = {"Host": f"127.0.0.1:{board.port}", "Content-Type": "application/json", **headers}
    before = board.state()["version"]
    for method, path, body in [("GET", "/api/state", None), ("POST", "/api/new", b"{}"), ("GET", "/", None)]:
        status, _, raw = board.request(method, path, body, full)
        assert status == 403, (method, path, headers)
        assert b"forbidden" in raw
    assert board.state()["version"] == before


def test_own_origins_are_welcome(board: Board) -> None:
    for host in (f"127.0.0.1:{board.port}", f"localhost:{board.port}"):
        headers = {"Host": host, "Origin": f"http://{host}", "Content-Type": "application/json"}
        status, _, _ = board.request("POST", "/api/goto", b'{"ply": 0}', headers)
        assert status == 200


def test_request_body_limits_and_types(board: Board) -> None:
    json_headers = {"Content-Type": "application/json"}
    status, _, raw = board.request("POST", "/api/move", b"{" + b" " * MAX_BODY + b"}", json_headers)
    assert status == 413 and b"too large" in raw
    status, _, raw = board.request("POST", "/api/move", b'{"move": "e4"}', {"Content-Type": "text/plain"})
    assert status == 415
    for body in (b"{", b"[1, 2]", b'"e4"', b"\xff\xfe", b"null", b'{"move": "e4"'):
        status, _, raw = board.request("POST", "/api/move", body, json_headers)
        assert status == 400, body
        assert json.loads(raw)["error"]
    status, _, raw = board.request("POST", "/api/nothing", b"{}", json_headers)
    assert status == 404
    status, _, _ = board.request("GET", "/api/move")
    assert status == 405
    status, _, _ = board.request("PUT", "/api/move", b"{}", json_headers)
    assert status == 405
    assert board.get("/api/state?after=x")[0] == 400


def assert_guarded_json(status: int, headers: dict[str, str], body: bytes, expected: int) -> None:
    """An answer from the server's one place: the status, a JSON error, the security headers."""
    assert status == expected, (status, body[:200])
    assert headers["content-type"].startswith("application/json"), headers
    for name, value in gui_server.SECURITY_HEADERS.items():
        assert headers[name.lower()] == value, name
    assert json.loads(body)["error"]


@pytest.mark.parametrize(
    ("request_line", "host", "expected"),
    [
        ("TRACE / HTTP/1.1", "ours", 405),
        ("CONNECT 127.0.0.1:80 HTTP/1.1", "ours", 405),
        ("OPTIONS * HTTP/1.1", "ours", 405),
        ("BREW /pot HTTP/1.1", "ours", 405),
        ("TRACE / HTTP/1.1", "evil.example", 403),  # the Host check comes first
        ("BREW /pot HTTP/1.1", "evil.example", 403),
        ("PUT /api/move HTTP/1.1", "evil.example", 403),
        ("GET / HTTP/9.9", "ours", 505),  # refused by the standard library's parser: the same answer
        ("GET /\x01 junk", "ours", 400),
        ("GET /" + "x" * 70_000 + " HTTP/1.1", "ours", 414),
    ],
)
def test_every_method_and_refusal_is_answered_from_the_one_place(
    board: Board, request_line: str, host: str, expected: int
) -> None:
    """Issue 37: TRACE, CONNECT and made-up methods got the standard library's HTML 501
    before the Host check, without the security headers."""
    host_value = f"127.0.0.1:{board.port}" if host == "ours" else host
    data = f"{request_line}\r\nHost: {host_value}\r\n\r\n".encode("latin-1")
    assert_guarded_json(*raw_request(board.port, data), expected)


def test_too_many_headers_are_answered_as_json(board: Board) -> None:
    data = b"GET / HTTP/1.1\r\n" + b"".join(b"X-%d: 1\r\n" % i for i in range(150)) + b"\r\n"
    assert_guarded_json(*raw_request(board.port, data), 431)


@pytest.mark.parametrize("after", ["--1", "-", "1-", "+1", "1e3", "\u0663", "-" + "1" * 25])
def test_after_must_be_a_whole_number(board: Board, after: str) -> None:
    """``after=--1`` answered 500 (it passed the check, then int() failed)."""
    from urllib.parse import quote

    status, answer = board.get(f"/api/state?after={quote(after)}")
    assert status == 400 and answer["error"] == "after must be a whole number", answer


@pytest.mark.parametrize("length", [b"\xb2", b"\xb9", b"1\xb2", b"+4", b"-4", b"0x10", b"4.0", b"1" * 13])
def test_content_length_must_be_ascii_digits(board: Board, length: bytes) -> None:
    """A superscript digit (latin-1 ``\xb2``, read as '²', which ``str.isdigit`` accepts) answered 500."""
    data = b"POST /api/goto HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: application/json\r\n" % board.port
    status, headers, body = raw_request(board.port, data + b"Content-Length: " + length + b"\r\n\r\n{}")
    assert_guarded_json(status, headers, body, 400)
    assert b"bad Content-Length" in body


def test_a_short_body_is_answered_at_once(board: Board) -> None:
    """A body shorter than its Content-Length: 400 at once when the client ends it, 408 after
    BODY_TIMEOUT when it just stops (it was a 500 after the 15 s idle limit)."""
    head = b"POST /api/goto HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: application/json\r\n" % board.port
    data = head + b"Content-Length: 50\r\n\r\n" + b'{"ply": 0'
    started = time.monotonic()
    status, headers, body = raw_request(board.port, data)
    assert_guarded_json(status, headers, body, 400)
    assert b"9 of 50 bytes" in body and time.monotonic() - started < 2
    started = time.monotonic()
    status, headers, body = raw_request(board.port, data, half_close=False)
    assert_guarded_json(status, headers, body, 408)
    assert time.monotonic() - started < gui_server.BODY_TIMEOUT + 3


def test_a_refused_post_does_not_leave_its_body_for_the_next_request(board: Board) -> None:
    """A 403 before the body is read closes the connection: the body is never taken for a request."""
    smuggled = b"POST /api/new HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Length: 2\r\n\r\n{}" % board.port
    data = b"POST /api/new HTTP/1.1\r\nHost: evil.example\r\nContent-Length: %d\r\n\r\n" % len(smuggled)
    with socket.create_connection(("127.0.0.1", board.port), timeout=30) as sock:
        sock.sendall(data + smuggled)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    assert answer.count(b"HTTP/1.1 ") == 1 and answer.startswith(b"HTTP/1.1 403"), answer[:300]


def test_a_burst_of_forty_connections_is_answered() -> None:
    """Forty clients connect while the server is busy (not accepting): all are queued and
    answered. The standard library's listen queue of 5 dropped the rest (their connection
    attempts time out here, as a browser's retries came seconds later or never)."""
    loop = gui_engines.EngineLoop()
    session = gui_session.Session([scripted("first")], loop)
    server = gui_server.BoardServer("127.0.0.1", 0, session)
    sockets = []
    try:
        for _ in range(40):
            sockets.append(socket.create_connection(("127.0.0.1", server.port), timeout=0.5))
        request = b"GET /api/pgn HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n\r\n" % server.port
        for sock in sockets:
            sock.sendall(request)
        thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        thread.start()
        for sock in sockets:
            sock.settimeout(30)
            answer = b""
            while chunk := sock.recv(65536):
                answer += chunk
            assert answer.startswith(b"HTTP/1.1 200"), answer[:200]
        server.shutdown()
    finally:
        for sock in sockets:
            sock.close()
        server.server_close()
        session.close()
        loop.close()


def test_the_board_on_every_address_answers_other_machines() -> None:
    """``--host 0.0.0.0``: a machine using this one's address (any IP address) or a name given
    with ``--allow-host`` is answered; other names, ports and cross-site origins are not."""
    with running_board([scripted("first")], host="0.0.0.0", allowed=("mybox.local",)) as b:
        port = b.port
        for host in (f"192.0.2.7:{port}", f"[2001:db8::1]:{port}", f"mybox.local:{port}", f"MyBox.local:{port}"):
            assert b.request("GET", "/api/pgn", headers={"Host": host})[0] == 200, host
        for host in ("evil.example", f"evil.example:{port}", f"192.0.2.7:{port + 1}", f"192.0.2.7.evil.example:{port}"):
            assert b.request("GET", "/api/pgn", headers={"Host": host})[0] == 403, host
        json_headers = {"Content-Type": "application/json", "Host": f"192.0.2.7:{port}"}
        same = {**json_headers, "Origin": f"http://192.0.2.7:{port}"}
        assert b.request("POST", "/api/goto", b'{"ply": 0}', same)[0] == 200
        for origin in (f"http://192.0.2.8:{port}", "http://evil.example", f"http://mybox.evil:{port}"):
            assert b.request("POST", "/api/goto", b'{"ply": 0}', {**json_headers, "Origin": origin})[0] == 403, origin


def test_fuzz_of_malformed_requests(board: Board) -> None:
    """A few hundred malformed requests, raw and well-formed-but-wrong; the server answers on."""
    import random
    import socket

    rng = random.Random(10)
    paths = ["/api/" + name for name in ("move", "new", "mode", "goto", "fen", "pgn", "analysis", "stop", "go")]
    values: list[object] = [None, True, -1, 10**30, 1.5, "", "e4", "x" * 500, [], {}, {"a": [1]}, "\u2603", "0000"]
    keys = ["move", "ply", "fen", "pgn", "mode", "side", "opponent", "white", "black", "on", "engine", "multipv"]
    server_errors: list[object] = []
    for i in range(300):
        kind = i % 3
        if kind == 0:  # random bytes on a raw socket
            with socket.create_connection(("127.0.0.1", board.port), timeout=10) as sock:
                junk = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 300)))
                if rng.random() < 0.5:
                    junk = (
                        b"POST /api/move HTTP/1.1\r\nContent-Length: "
                        + str(rng.randrange(-5, 50)).encode()
                        + b"\r\n\r\n"
                        + junk
                    )
                try:
                    sock.sendall(junk)
                    sock.shutdown(socket.SHUT_WR)
                    sock.recv(4096)
                except OSError:
                    pass
        elif kind == 1:  # JSON objects of random shapes
            data = {rng.choice(keys): rng.choice(values) for _ in range(rng.randrange(0, 4))}
            status, answer = board.post(rng.choice(paths), data)
            if status >= 500:
                server_errors.append((data, answer))
        else:  # odd methods, paths and headers
            method = rng.choice(["GET", "POST", "HEAD", "DELETE", "OPTIONS"])
            path = rng.choice(["/", "/api/", "/api/state?after=-1", "/%", "/?" + "a" * 2000, *paths])
            headers = rng.choice([{}, {"Content-Type": "application/json"}, {"Content-Type": "a/b; x"}, {"Host": "x"}])
            body = rng.choice([None, b"", b"{}", b"[]"])
            try:
                status, _, _ = board.request(method, path, body, headers)
            except (OSError, http_client_errors()):
                continue
            if status >= 500:
                server_errors.append((method, path))
    assert not server_errors
    state = board.state()
    assert state["fen"]
    new(board, mode="analyse")
    assert board.ok("/api/move", {"move": "e4"})["moves"] == ["e4/B"]


def http_client_errors() -> type[Exception]:
    import http.client

    return http.client.HTTPException


# ---------------------------------------------------------------- the command
def test_alice_engine_gui_command() -> None:
    """``alice-engine gui --no-browser --port 0``: the URL first on stdout, a working server, a clean exit."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [
        sys.executable,
        "-m",
        "uci",
        "gui",
        "--no-browser",
        "--port",
        "0",
        "--engine",
        f"{sys.executable} {ROOT / 'tests/engines/scripted.py'} first",
    ]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env)
    try:
        assert proc.stdout is not None
        url = proc.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:") and url.endswith("/")
        port = int(url.rsplit(":", 1)[1].rstrip("/"))
        import http.client

        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request("GET", "/api/state")
        state = json.loads(conn.getresponse().read())
        assert state["fen"] == START
        conn.close()
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    assert "Traceback" not in err


FAKE_ENGINE = """import sys
for line in sys.stdin:
    if line.strip() == "uci":
        print("id name fake engine from the current folder")
        print("uciok", flush=True)
    elif line.strip() == "isready":
        print("readyok", flush=True)
    elif line.startswith("go"):
        print("bestmove 0000", flush=True)
    elif line.strip() == "quit":
        break
"""


def start_gui(
    args: list[str], cwd: str, preexec_fn: Callable[[], None] | None = None
) -> tuple[subprocess.Popen[str], int]:
    """``python -m gui --no-browser --port 0 ARGS`` started in ``cwd``: the process and its port."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "gui", "--no-browser", "--port", "0", *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=cwd, preexec_fn=preexec_fn,
    )  # fmt: skip
    assert proc.stdout is not None
    url = proc.stdout.readline().strip()
    assert url.startswith("http://127.0.0.1:"), (url, proc.stderr.read() if proc.stderr else "")
    return proc, int(url.rsplit(":", 1)[1].rstrip("/"))


def stop_gui(proc: subprocess.Popen[str]) -> str:
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 0 and "Traceback" not in err, err
    return err


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_a_stopped_board_leaves_no_engine_running(tmp_path: Path, signum: int) -> None:
    """``kill PID``, a closed terminal (SIGHUP) or Ctrl-C while the engine thinks without reading
    its input: the board stops cleanly and the engine does not outlive it (SIGHUP killed the
    board alone and left the engine running)."""
    tag = f"robust-{uuid.uuid4().hex}"
    engine = f"{sys.executable} {ROOT / 'tests/engines/scripted.py'} slow 1 30 --tag {tag}"  # 30 s, input unread
    proc, port = start_gui(["--engine", engine], str(tmp_path), preexec_fn=default_sigint)
    try:
        board = Board.remote(port)
        setup = {"mode": "play", "side": "white", "opponent": {"engine": 0, "strength": "time:10"}}
        board.ok("/api/new", setup)
        board.ok("/api/move", {"move": "e4"})
        board.wait_for(lambda s: s["thinking"] is not None)
        assert len(tagged(tag)) == 1
        proc.send_signal(signum)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0 and "Traceback" not in err, err
    assert wait_for(lambda: not tagged(tag), 5.0), tagged(tag)


@pytest.mark.parametrize("fake", ["uci/__main__.py", "uci.py"])
def test_the_default_engine_is_not_the_current_folders(tmp_path: Path, fake: str) -> None:
    """Issue 37: started from a folder holding a ``uci`` package or ``uci.py``, the web board ran
    that code as its engine (``python -m uci`` looks in the current folder first); from a
    checkout it ran the slow pure sources instead of the installed build."""
    (tmp_path / fake).parent.mkdir(exist_ok=True)
    (tmp_path / fake).write_text(FAKE_ENGINE)
    if fake.startswith("uci/"):
        (tmp_path / "uci" / "__init__.py").write_text("")
    proc, port = start_gui([], str(tmp_path))
    try:
        board = Board.remote(port)
        state = board.wait_for(lambda s: s["engines"][0]["name"] != "alice-engine" or s["engineError"] is not None)
        assert state["engines"][0]["name"].startswith("Alice Engine"), state["engines"]
        board.ok("/api/new", {"mode": "play", "side": "white", "opponent": {"engine": 0, "strength": "nodes:1000"}})
        board.ok("/api/move", {"move": "e4"})
        state = board.wait_for(lambda s: len(s["moves"]) == 2 or s["engineError"] is not None)
        assert state["engineError"] is None and len(state["moves"]) == 2
    finally:
        stop_gui(proc)


def test_the_default_engine_is_the_boards_own_build() -> None:
    """``alice-engine gui`` started in the checkout runs the engine of its own installation (the
    compiled build after ``pip install .``), not the checkout's pure sources (issue 37)."""
    from engine.build import version_line  # the build the tests use (tests/support/installed.py)

    proc = subprocess.Popen(
        [*engine_command(), "gui", "--no-browser", "--port", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
    )  # fmt: skip
    assert proc.stdout is not None
    port = int(proc.stdout.readline().strip().rsplit(":", 1)[1].rstrip("/"))
    try:
        board = Board.remote(port)
        state = board.wait_for(lambda s: s["engines"][0]["name"] != "alice-engine" or s["engineError"] is not None)
        assert state["engines"][0]["name"] == f"Alice Engine {version_line()}", state["engines"]
    finally:
        stop_gui(proc)


def test_the_board_on_every_address_says_so(tmp_path: Path) -> None:
    """``--host 0.0.0.0`` tells the user, on stderr, who can reach the board and by which names."""
    scripted_engine = f"{sys.executable} {ROOT / 'tests/engines/scripted.py'} first"
    proc, port = start_gui(["--host", "0.0.0.0", "--allow-host", "mybox.local", "--engine", scripted_engine],
                           str(tmp_path))  # fmt: skip
    err = stop_gui(proc)
    assert (
        f"alice-engine gui: listening on 0.0.0.0: any machine that can reach this one can use the board, at "
        f"http://ADDRESS:{port}/ with this machine's IP address; names accepted: mybox.local"
    ) in err
    local, _ = start_gui(["--engine", scripted_engine], str(tmp_path))
    assert "listening on" not in stop_gui(local)
    bad = subprocess.run([sys.executable, "-m", "gui", "--allow-host", "http://x:80"], capture_output=True, text=True,
                         timeout=60, cwd=str(tmp_path))  # fmt: skip
    assert bad.returncode == 2 and "--allow-host 'http://x:80': expected a host name" in bad.stderr


def test_gui_command_line_errors() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "uci", "gui", "--port", "99999"], capture_output=True, text=True, cwd=ROOT, timeout=60
    )
    assert run.returncode == 2 and "--port" in run.stderr and not run.stdout


# ---------------------------------------------------------------- hostile input (issue 23)
def test_deeply_nested_json_is_refused(board: Board) -> None:
    new(board, mode="analyse")
    before = board.state()
    for body in (b'{"move": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", b"[" * 50_000, b'{"a":' * 30_000 + b"1" + b"}" * 30_000):
        status, _, raw = board.request("POST", "/api/move", body, {"Content-Type": "application/json"})
        assert status == 400 and b"nested deeper" in raw, raw[:200]
    assert board.state() == before


def test_numbers_past_the_int_to_string_limit_are_refused(board: Board) -> None:
    new(board, mode="analyse")
    before = board.state()
    for body in (b'{"ply": ' + b"7" * 5000 + b"}", b'{"engine": -' + b"1" * 100_000 + b"}", b'{"ply": 1e400}', b'{"ply": NaN}'):
        status, _, raw = board.request("POST", "/api/goto", body, {"Content-Type": "application/json"})
        assert status == 400 and b"malformed JSON" in raw, raw[:200]
    status, answer = board.post("/api/goto", {"ply": 10**25})
    assert status == 400 and "no such move" in answer["error"]
    assert board.get("/api/state?after=" + "9" * 5000)[0] == 400
    assert board.state() == before


SCHOLARS_MATE = "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0"  # legal orthodox chess; 4. Qxf7 is not Alice


def test_a_pgn_of_several_games_takes_the_first_alice_game(board: Board) -> None:
    new(board, mode="analyse")
    text = f'[Variant "Standard"]\n\n{SCHOLARS_MATE}\n\n[Variant "Crazyhouse"]\n\n1. e4 *\n\n[Variant "Alice"]\n[White "A"]\n\n1. Nf3 Nf6 *\n'
    state = board.ok("/api/pgn", {"pgn": text})
    assert state["moves"] == ["Nf3/B", "Nf6/B"]
    assert state["note"] == "game 3 loaded: game 1 is Standard, game 2 is Crazyhouse, not Alice chess"
    assert '[White "A"]' in board.get("/api/pgn")[1]["pgn"]  # the tags of the game taken, not of the first


def test_orthodox_chess_is_never_pushed_onto_an_alice_board(board: Board) -> None:
    """The variant tag of a later game does not make an untagged first game orthodox: it is read
    as Alice chess, and its first move that Alice chess forbids is refused with the reason."""
    new(board, mode="analyse")
    board.ok("/api/move", {"move": "d4"})
    before = board.state()
    text = f'{SCHOLARS_MATE}\n\n[Variant "Alice"]\n\n1. Nf3 *\n'
    status, answer = board.post("/api/pgn", {"pgn": text})
    assert status == 400 and "move 4. Qxf7" in answer["error"], answer
    assert board.state() == before
    status, answer = board.post("/api/pgn", {"pgn": f'[Variant "Standard"]\n\n{SCHOLARS_MATE}'})
    assert status == 400 and "no Alice chess game in the PGN (its games are Standard)" in answer["error"]
    assert board.state() == before
    assert board.ok("/api/move", {"move": "d5"})["moves"] == ["d4/B", "d5/B"]  # the board works on


@pytest.mark.parametrize(
    ("fen", "words"),
    [
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 100000000000000000000", "move number must be 1 to 9999"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 0", "move number must be 1 to 9999"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 101 50", "halfmove clock must be 0 to 100"),
        ("4k3/8/8/8/8/8/8/4K3 w - - -1 5", "halfmove clock must be 0 to 100"),
        ("4k3/8/8/8/8/8/8/4K3 w - - " + "9" * 5000 + " 1", "halfmove clock must be 0 to 100"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra", "at most 6"),
    ],
)
def test_fen_fields_are_range_checked(board: Board, fen: str, words: str) -> None:
    new(board, mode="analyse")
    before = board.state()
    for path, body in (("/api/fen", {"fen": fen}), ("/api/pgn", {"pgn": f'[Variant "Alice"]\n[FEN "{fen}"]\n\n*'})):
        status, answer = board.post(path, body)
        assert status == 400 and words in answer["error"], answer
    assert board.state() == before


def test_the_largest_move_number_plays_on(board: Board) -> None:
    state = board.ok("/api/fen", {"fen": "4k3/8/8/8/8/8/8/R3K3 w - - 99 9999"})
    assert state["fen"].endswith(" 99 9999")
    state = board.ok("/api/move", {"move": "Kd2"})
    assert state["result"] == {"result": "1/2-1/2", "reason": "fifty-move rule"}
    assert board.get("/api/pgn")[0] == 200


def test_an_unexpected_error_is_a_500_without_details_and_changes_nothing(
    board: Board, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    new(board, mode="analyse")
    board.ok("/api/move", {"move": "e4"})
    before = board.state()

    def broken(self: object, move: object) -> str:
        raise RuntimeError("secret detail of a bug")

    monkeypatch.setattr(gui_game.Game, "play", broken)
    status, _, raw = board.request("POST", "/api/move", b'{"move": "e5"}', {"Content-Type": "application/json"})
    assert status == 500
    assert json.loads(raw) == {"error": gui_server.INTERNAL_ERROR} and b"secret" not in raw
    assert "secret detail of a bug" in capfd.readouterr().err  # the details are on stderr
    monkeypatch.undo()
    assert board.state() == before
    assert board.ok("/api/move", {"move": "e5"})["moves"] == ["e4/B", "e5/B"]


def test_a_request_that_fails_half_way_is_undone(board: Board, monkeypatch: pytest.MonkeyPatch) -> None:
    """The session puts every field back when a handler raises after changing some."""
    new(board, mode="analyse")
    board.ok("/api/move", {"move": "e4"})
    before = board.state()
    real = gui_session.Session.game_changed

    def half_way(self: gui_session.Session) -> None:
        real(self)
        raise RuntimeError("after the change")

    monkeypatch.setattr(gui_session.Session, "game_changed", half_way)
    assert board.post("/api/move", {"move": "e5"})[0] == 500
    assert board.post("/api/takeback")[0] == 500
    monkeypatch.undo()
    assert board.state() == before
