"""The web board's player features over its HTTP API (issue 22, "What players expect"):
clocks in Play (the engine on its clock through UCI, flag fall, ``[%clk]`` and
``TimeControl``), the move tree (variations promoted, deleted, written and read back as
PGN), engine lines played into the game and previewed, arrows and circles (``[%cal]``,
``[%csl]``), the Alice aids' blocked squares, and draw offers."""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Iterator
from typing import Any

import chess
import chess.pgn
import pytest

import engine.board  # noqa: F401 (registers the Alice variant for chess.pgn)
from support.gui_helpers import Board, alice, running_board, scripted

FIRST = 0  # the scripted first-legal-move engine
ALICE = 1  # this engine


@pytest.fixture(scope="module")
def board() -> Iterator[Board]:
    with running_board([scripted("first"), alice()]) as b:
        yield b


def analyse(board: Board, moves: list[str] | None = None) -> dict[str, Any]:
    board.ok("/api/new", {"mode": "analyse"})
    state = board.state()
    for move in moves or []:
        state = board.ok("/api/move", {"move": move})
    return state


def sans(game: chess.pgn.GameNode) -> list[Any]:
    """The tree of a python-chess game as nested lists: [san, [variation trees...]] per move."""
    out: list[Any] = []
    node = game
    while node.variations:
        main, *others = node.variations
        out.append([node.board().san(main.move), [sans_from(node, other) for other in others]])
        node = main
    return out


def sans_from(parent: chess.pgn.GameNode, child: chess.pgn.ChildNode) -> list[Any]:
    return [[parent.board().san(child.move), []], *sans(child)]


# ---------------------------------------------------------------- the move tree
def tree_of(state: dict[str, Any]) -> dict[int, list[str]]:
    """Parent id -> the SANs of its children, in order."""
    children: dict[int, list[str]] = {}
    for node in state["tree"]:
        children.setdefault(node["parent"], []).append(node["san"])
    return children


def node_id(state: dict[str, Any], san: str) -> int:
    found = [n["id"] for n in state["tree"] if n["san"] == san]
    assert len(found) == 1, (san, found)
    return found[0]


def test_variations_nest_promote_and_delete(board: Board) -> None:
    state = analyse(board, ["e4", "d5", "Be2", "dxe4"])
    board.ok("/api/goto", {"ply": 1})
    for move in ["e5", "Nf3", "Nc6"]:  # 1... e5 2. Nf3 Nc6: a variation of 1... d5
        state = board.ok("/api/move", {"move": move})
    board.ok("/api/goto", {"node": node_id(state, "e5/B")})
    state = board.ok("/api/move", {"move": "Nc3"})  # 2. Nc3: a variation inside the variation
    assert state["mainline"] is False
    root = state["root"]
    first = node_id(state, "e4/B")
    assert tree_of(state)[root] == ["e4/B"] and tree_of(state)[first] == ["d5/B", "e5/B"]
    assert tree_of(state)[node_id(state, "e5/B")] == ["Nf3/B", "Nc3/B"]
    # Promote 2. Nc3 one level: it becomes the variation's main move; the game's line stays.
    state = board.ok("/api/promote", {"node": state["node"]})
    assert tree_of(state)[node_id(state, "e5/B")] == ["Nc3/B", "Nf3/B"]
    assert tree_of(state)[first] == ["d5/B", "e5/B"] and state["mainline"] is False
    # Make it the main line: 1... e5 2. Nc3 is now the game; 1... d5 a variation.
    state = board.ok("/api/promote", {"node": state["node"], "main": True})
    assert tree_of(state)[first] == ["e5/B", "d5/B"] and state["mainline"] is True
    assert board.post("/api/promote", {"node": state["node"]})[0] == 409  # already the main line
    assert state["moves"] == ["e4/B", "e5/B", "Nc3/B"]
    # Delete the variation 1... d5 (with what follows it); the position on view stays.
    on_view = state["node"]
    state = board.ok("/api/delete", {"node": node_id(state, "d5/B")})
    assert tree_of(state)[first] == ["e5/B"] and state["node"] == on_view
    assert "dxe4/A" not in [n["san"] for n in state["tree"]]
    # Deleting the move on view shows the position before it (whose other move now goes on).
    state = board.ok("/api/delete", {"node": on_view})
    assert state["moves"] == ["e4/B", "e5/B", "Nf3/B", "Nc6/B"] and state["ply"] == 2
    for bad in ({"node": state["root"]}, {"node": 10**9}, {"node": "1"}, {}):
        assert board.post("/api/delete", bad)[0] in (400, 409), bad
    board.ok("/api/mode", {"mode": "play", "side": "white", "opponent": {"engine": FIRST, "strength": "full"}})
    status, answer = board.post("/api/promote", {"node": state["node"]})
    assert status == 409 and "Analyse" in answer["error"]


def test_a_tree_of_variations_round_trips_through_pgn(board: Board) -> None:
    text = """[Event "tree"]
[Variant "Alice"]

1. e4 { main } ( 1. d4 d5 ( 1... Nf6 2. c4 ) 2. c4 ) 1... e5 ( 1... c5 2. Nf3 ( 2. Nc3 Nc6 ) d6 )
( 1... d5 ) 2. Nf3 Nc6 3. Bb5 ( 3. Bc4 Bc5 ) a6 *
"""
    board.ok("/api/mode", {"mode": "analyse"})
    board.ok("/api/pgn", {"pgn": text})
    exported = board.get("/api/pgn")[1]["pgn"]
    ours = chess.pgn.read_game(io.StringIO(exported))
    theirs = chess.pgn.read_game(io.StringIO(text))
    assert ours is not None and theirs is not None and not ours.errors
    assert sans(ours) == sans(theirs)  # the same tree, variations nested in the same order
    assert ours.next() is not None and ours.next().comment == "main"
    assert exported.count("(") == text.count("(") == 6
    board.ok("/api/pgn", {"pgn": exported})  # and ours reads its own PGN to the same text
    assert board.get("/api/pgn")[1]["pgn"] == exported


# ---------------------------------------------------------------- engine lines
def test_an_engine_line_is_played_into_the_game_and_previewed(board: Board) -> None:
    state = analyse(board, ["e4", "d5"])
    start = state["nodes"][0]  # after 1. e4
    preview = board.get(f"/api/preview?node={start}&moves=e7e5,g1f3")
    assert preview[0] == 200
    pieces = {(p["square"], p["board"]): p["piece"] for p in preview[1]["pieces"]}
    assert pieces[("f3", "B")] == "N" and pieces[("e5", "B")] == "p"
    assert preview[1]["lastMove"]["to"] == "f3"
    assert board.state()["moves"] == ["e4/B", "d5/B"]  # a preview changes nothing
    for bad in ("node=x&moves=e7e5", f"node={start}&moves=e2e4", f"node={start}&moves=", "node=999999999&moves=e7e5"):
        assert board.get(f"/api/preview?{bad}")[0] == 400, bad
    # Played in from the lines' position: 1... e5 2. Nf3 becomes a variation beside 1... d5.
    status, answer = board.post("/api/line", {"node": start, "moves": ["e7e5", "g1f3"]})
    assert status == 200 and answer["san"] == "Nf3/B"
    state = answer["state"]
    assert state["moves"] == ["e4/B", "e5/B", "Nf3/B"] and state["mainline"] is False
    assert tree_of(state)[start] == ["d5/B", "e5/B"]
    # The same line again reuses the moves; one move further adds only that move.
    state = board.ok("/api/line", {"node": start, "moves": ["e7e5", "g1f3", "b8c6"]})
    assert len(state["tree"]) == 5 and state["moves"][-1] == "Nc6/B"
    assert board.post("/api/line", {"node": start, "moves": ["e7e5", "e7e5"]})[0] == 400
    assert board.state()["moves"] == ["e4/B", "e5/B", "Nf3/B", "Nc6/B"]  # a refused line changes nothing


def test_the_lines_give_their_moves_one_by_one(board: Board) -> None:
    analyse(board, ["e4"])
    board.ok("/api/analysis", {"on": True, "engine": ALICE, "multipv": 1})
    try:
        state = board.wait_for(lambda s: bool(s["lines"]) and len(s["lines"][0]["moves"]) >= 2)
    finally:
        board.ok("/api/analysis", {"on": False})
    line = state["lines"][0]
    assert state["linesNode"] == state["node"]
    assert line["moves"][0]["number"] == "1…" and line["moves"][1]["number"] == "2."
    assert line["pv"].startswith(f"1... {line['moves'][0]['san']}")


# ---------------------------------------------------------------- arrows and circles
def test_arrows_and_circles_are_kept_and_written_as_cal_and_csl(board: Board) -> None:
    state = analyse(board, ["e4", "e5"])
    board.ok("/api/shapes", {"node": state["root"], "shapes": ["Gd2d4"]})
    state = board.ok("/api/shapes", {"node": state["node"], "shapes": ["Gg1f3", "Re5", "Bm4", "Ym2m4", "Gg1f3"]})
    assert state["shapes"] == ["Gg1f3", "Re5", "Bm4", "Ym2m4"]  # duplicates dropped
    text = board.get("/api/pgn")[1]["pgn"]
    assert "[%csl Re5][%cal Gg1f3][%csl Bm4][%cal Ym2m4]" in text and "[%cal Gd2d4]" in text
    game = chess.pgn.read_game(io.StringIO(text))
    assert game is not None and not game.errors
    assert [(a.tail, a.head, a.color) for a in game.arrows()] == [(chess.D2, chess.D4, "green")]
    end = game.end()
    # python-chess reads board A's arrows and circles and passes over board B's (files i-p).
    assert sorted((a.tail, a.head, a.color) for a in end.arrows()) == [
        (chess.G1, chess.F3, "green"), (chess.E5, chess.E5, "red"),
    ]
    state = board.ok("/api/pgn", {"pgn": text})  # read back
    assert state["shapes"] == ["Re5", "Gg1f3", "Bm4", "Ym2m4"]
    board.ok("/api/goto", {"ply": 0})
    assert board.state()["shapes"] == ["Gd2d4"]
    assert board.get("/api/pgn")[1]["pgn"] == text
    for bad in (["Ge2m4"], ["Xe2e4"], ["Ge9"], ["Ge2e2"], "Ge2e4", [1], ["G"] * 65):
        assert board.post("/api/shapes", {"node": state["node"], "shapes": bad})[0] == 400, bad
    assert board.post("/api/shapes", {"node": 10**9, "shapes": []})[0] == 400


# ---------------------------------------------------------------- Alice aids
def test_blocked_moves_name_the_pieces_in_the_way(board: Board) -> None:
    board.ok("/api/mode", {"mode": "analyse"})
    state = board.ok("/api/fen", {"fen": "4k3/8/8/8/8/2|p5/4|p3/R3K3 w - - 0 1"})
    # The king reaches e2 on board A, but e2 of board B is taken (c3 of board B is in no one's way).
    assert state["blocked"] == {"e1": ["e2"]}
    assert "e1e2" not in state["legal"]
    state = board.ok("/api/fen", {"fen": "4k3/8/8/8/8/|p7/8/R3K3 w - - 0 1"})
    assert state["blocked"] == {"a1": ["a3"]}  # Ra3 would land on a3 of board B: taken
    assert "a1a4" in state["legal"]  # the rook passes a3 on its own board


# ---------------------------------------------------------------- clocks
def clocked(engine: int, base: float, increment: float = 0, strength: str = "full") -> dict[str, Any]:
    return {
        "mode": "play", "side": "white", "opponent": {"engine": engine, "strength": strength},
        "clock": {"base": base, "increment": increment},
    }


def test_the_engine_plays_on_its_clock(board: Board, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="chess.engine")
    state = board.ok("/api/new", clocked(ALICE, 60, 2, "nodes:1000"))
    assert state["clock"] == {
        "white": 60.0, "black": 60.0, "running": None, "control": "1+2", "base": 60.0, "increment": 2.0,
    }
    state = board.ok("/api/move", {"move": "e4"})  # the first move is free: Black's clock starts
    assert state["clock"]["running"] == "black" and state["clock"]["white"] == 60.0
    state = board.wait_for(lambda s: len(s["moves"]) == 2)
    assert state["clock"]["running"] == "white"
    assert 55 < state["clock"]["black"] < 62  # charged, then 2 s of increment
    state = board.ok("/api/move", {"move": "d4"})
    board.wait_for(lambda s: len(s["moves"]) == 4)
    gos = [r.getMessage() for r in caplog.records if re.search(r"<< go wtime", r.getMessage())]
    assert gos, "the engine was sent no clock"
    assert re.search(r"go wtime \d+ btime \d+ winc 2000 binc 2000 nodes 1000", gos[-1]), gos[-1]
    text = board.get("/api/pgn")[1]["pgn"]
    assert '[TimeControl "60+2"]' in text
    game = chess.pgn.read_game(io.StringIO(text))
    assert game is not None
    clocks = [node.clock() for node in game.mainline()]
    assert clocks[0] == 60  # the free first move keeps the base
    assert all(c is not None and 50 < c <= 66 for c in clocks), clocks  # 2 s more after each move
    board.ok("/api/resign")
    assert board.state()["clock"]["running"] is None  # the game is over: the clocks stopped


def test_your_flag_falls_and_a_late_move_is_refused(board: Board) -> None:
    board.ok("/api/new", clocked(FIRST, 1.5))
    board.ok("/api/move", {"move": "e4"})
    state = board.wait_for(lambda s: len(s["moves"]) == 2)
    assert state["clock"]["running"] == "white" and state["result"] is None
    state = board.wait_for(lambda s: s["result"] is not None, timeout=30)
    assert state["result"] == {"result": "0-1", "reason": "White lost on time"}
    assert state["clock"]["white"] == 0 and state["clock"]["running"] is None
    status, answer = board.post("/api/move", {"move": "d4"})
    assert status == 409 and "lost on time" in answer["error"]
    text = board.get("/api/pgn")[1]["pgn"]
    game = chess.pgn.read_game(io.StringIO(text))
    assert game is not None and game.headers["Termination"] == "time forfeit"
    assert game.headers["Result"] == "0-1" and game.headers["TimeControl"] == "1.5"
    assert "[%clk 0:00:01]" in text
    board.ok("/api/mode", {"mode": "analyse"})
    state = board.ok("/api/pgn", {"pgn": text})  # read back: the ending, its reason and the clocks
    assert state["result"] == {"result": "0-1", "reason": "White lost on time"}
    assert board.ok("/api/goto", {"ply": 1})["clock"]["white"] == 1


def test_take_back_puts_the_clocks_back(board: Board) -> None:
    board.ok("/api/new", clocked(FIRST, 30, 1))
    board.ok("/api/move", {"move": "e4"})
    board.wait_for(lambda s: len(s["moves"]) == 2)
    board.ok("/api/move", {"move": "d4"})
    before = board.wait_for(lambda s: len(s["moves"]) == 4)
    state = board.ok("/api/takeback")
    assert len(state["moves"]) == 2 and state["clock"]["running"] == "white"
    recorded = board.get("/api/pgn")[1]["pgn"]
    game = chess.pgn.read_game(io.StringIO(recorded))
    assert game is not None
    black_after_first = list(game.mainline())[1].clock()
    assert black_after_first is not None and abs(state["clock"]["black"] - black_after_first) < 1
    assert 25 < state["clock"]["white"] <= 30.0 and before["clock"]["white"] < 31


@pytest.mark.parametrize(
    ("fen", "verdict"),
    [
        (None, {"result": "1-0", "reason": "Black lost on time"}),
        ("4k3/8/8/8/8/8/8/r3K3 w - - 0 1", {"result": "1/2-1/2", "reason": "Black ran out of time but White has only its king"}),
    ],
)
def test_the_engine_flag_falls(fen: str | None, verdict: dict[str, str]) -> None:
    """An engine slower than its clock loses on time (a draw if you have only your king); its late move is dropped."""
    with running_board([scripted("first", "--delay", "3")]) as b:
        b.ok("/api/new", clocked(0, 1))
        if fen is not None:
            b.ok("/api/fen", {"fen": fen})
        state = b.state()
        assert state["clock"]["running"] is None
        b.ok("/api/move", {"move": state["legal"][0]})
        state = b.wait_for(lambda s: s["result"] is not None, timeout=30)
        assert state["result"] == verdict and len(state["moves"]) == 1
        assert state["clock"]["black"] == 0 and state["clock"]["running"] is None
        game = chess.pgn.read_game(io.StringIO(b.get("/api/pgn")[1]["pgn"]))
        assert game is not None and game.headers["Termination"] == "time forfeit"


@pytest.mark.parametrize(
    "clock",
    [{"base": 0.5}, {"base": 99999}, {"base": "300"}, {"base": 60, "increment": -1}, {"base": True}, [300, 3], 300],
)
def test_bad_clocks_are_refused(board: Board, clock: object) -> None:
    before = board.state()
    status, answer = board.post("/api/new", {"mode": "play", "clock": clock})
    assert status == 400 and answer["error"]
    assert board.state()["version"] == before["version"]


# ---------------------------------------------------------------- draw offers
@pytest.fixture(scope="module")
def scored() -> Iterator[Board]:
    """Two scripted engines that report a fixed score: level (0) and better for themselves (+300)."""
    with running_board([scripted("first", "--score", "0"), scripted("first", "--score", "300")]) as b:
        yield b


LATE = "4k3/8/3|p4/8/8/3|P4/8/4K3 w - - 0 30"  # move 30: past the opening


def offer(board: Board, engine: int, fen: str | None) -> dict[str, Any]:
    board.ok("/api/new", {"mode": "play", "side": "white", "opponent": {"engine": engine, "strength": "full"}})
    if fen is not None:
        board.ok("/api/fen", {"fen": fen})
    state = board.state()
    board.ok("/api/move", {"move": state["legal"][0]})
    board.wait_for(lambda s: len(s["moves"]) == 2)
    status, answer = board.post("/api/draw")
    assert status == 200
    return answer  # type: ignore[no-any-return]


def test_the_engine_accepts_a_draw_when_level(scored: Board) -> None:
    answer = offer(scored, 0, LATE)
    assert answer["accepted"] is True and "accepts" in answer["message"]
    assert answer["state"]["result"] == {"result": "1/2-1/2", "reason": "draw agreed"}
    game = chess.pgn.read_game(io.StringIO(scored.get("/api/pgn")[1]["pgn"]))
    assert game is not None and game.headers["Result"] == "1/2-1/2" and game.headers["Termination"] == "normal"
    assert scored.post("/api/draw")[0] == 409  # over


@pytest.mark.parametrize(("engine", "fen", "why"), [(1, LATE, "stands better"), (0, None, "opening")])
def test_the_engine_declines_a_draw(scored: Board, engine: int, fen: str | None, why: str) -> None:
    answer = offer(scored, engine, fen)
    assert answer["accepted"] is False and why in answer["message"]
    assert answer["state"]["result"] is None
    scored.ok("/api/mode", {"mode": "analyse"})
    assert scored.post("/api/draw")[0] == 409  # only against the engine, in Play
