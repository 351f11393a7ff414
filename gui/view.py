"""The page's view of the board: ``state_json`` turns a ``BoardState`` into JSON-ready data.

Pure functions (call them with the state's lock held); scores are from White's view,
squares by name, boards ``"A"``/``"B"``.

>>> from engine.board import AliceBoard
>>> board = AliceBoard()
>>> board.push_san("e4")
Move.from_uci('e2e4')
>>> last_move_json(board)
{'from': 'e2', 'to': 'e4', 'toBoard': 'B', 'fromBoard': 'A'}
"""

from __future__ import annotations

from typing import Any

import chess
import chess.engine

from engine.board import AliceBoard
from gui.game import Evaluation, Game
from gui.state import BoardState
from search.score import MATE

PV_SHOWN = 10  # moves of each line shown


def evaluation_of(score: chess.engine.PovScore) -> Evaluation:
    """An engine's score as the game keeps it (White's view, mates as ``±MATE``)."""
    white = score.white()
    mate = white.mate()
    if mate is not None:
        return Evaluation(MATE if mate > 0 else -MATE, mate)
    return Evaluation(white.score() or 0)


def evaluation_json(evaluation: Evaluation | None) -> dict[str, Any] | None:
    """``{cp, mate, text}`` for the page (``text``: ``+0.35``, ``#3``, ``#-2``, ``1-0``, ``?``)."""
    if evaluation is None:
        return None
    return {"cp": evaluation.cp, "mate": evaluation.mate, "text": evaluation.text()}


def pv_san(board: AliceBoard, moves: list[chess.Move]) -> str:
    """A principal variation in SAN with move numbers: ``12. Nf3/B Qd5/A 13. ...``."""
    board = board.copy(stack=False)
    parts: list[str] = []
    for i, move in enumerate(moves[:PV_SHOWN]):
        if not board.is_legal(move):
            break
        if board.turn == chess.WHITE:
            parts.append(f"{board.fullmove_number}.")
        elif i == 0:
            parts.append(f"{board.fullmove_number}...")
        parts.append(board.san(move))
        board.push(move)
    return " ".join(parts)


def _board_name(board: AliceBoard, square: chess.Square) -> str:
    return "AB"[board.board_at(square) or 0]


def last_move_json(board: AliceBoard) -> dict[str, str] | None:
    """The last move: from (on the board it left) and to (on the board it landed on)."""
    if not board.move_stack:
        return None
    move = board.peek()
    landed = _board_name(board, move.to_square)
    return {
        "from": chess.square_name(move.from_square),
        "to": chess.square_name(move.to_square),
        "toBoard": landed,
        "fromBoard": "B" if landed == "A" else "A",
    }


def check_json(board: AliceBoard) -> dict[str, str] | None:
    """The king in check, if any: its square and board."""
    if not board.is_check():
        return None
    king = board.king(board.turn)
    assert king is not None
    return {"square": chess.square_name(king), "board": _board_name(board, king)}


def pieces_json(board: AliceBoard) -> list[dict[str, str]]:
    return [
        {"square": chess.square_name(square), "piece": piece.symbol(), "board": _board_name(board, square)}
        for square, piece in board.piece_map().items()
    ]


def engines_json(state: BoardState) -> list[dict[str, Any]]:
    """Each engine of the command line: its name and strength menu."""
    return [
        {
            "id": i,
            "name": engine.name,
            "strengths": [{"value": value, "label": s.label} for value, s in state.choices[i].items()],
        }
        for i, engine in enumerate(state.engines)
    ]


def _player_json(state: BoardState, color: chess.Color) -> dict[str, Any] | None:
    player = state.players[color]
    return None if player is None else {"engine": player.engine, "strength": player.strength}


def line_json(game: Game) -> dict[str, Any]:
    """The line on view: its moves (SAN and node id) and, for each of its moves, the
    other moves played there (variations, or the main line when the line is a variation)."""
    line = game.line()
    alternatives = {}
    for ply, node in enumerate(line, 1):
        others = game.alternatives(node)
        if others:
            alternatives[str(ply)] = [{"id": other.id, "san": other.san} for other in others]
    return {
        "moves": [node.san for node in line],
        "nodes": [node.id for node in line],
        "alternatives": alternatives,
        "mainline": all(node.parent is None or node.parent.children[0] is node for node in line),
    }


def state_json(state: BoardState) -> dict[str, Any]:
    """Everything the page shows. Call with the lock held."""
    game = state.game
    board = game.view()
    legal = [board.uci(move) for move in board.legal_moves] if state.human_can_move() else []
    ending = game.ending
    root = game.root_board
    line = [game.root, *game.line()]
    ids = [node.id for node in line]
    lines_ply = ids.index(state.lines_for) if state.lines_for in ids else None
    # Analysis shows the lines of the position on view; play and watch the last search's, while
    # its position is still in the line (a take back removes them with it).
    shown = lines_ply == game.cursor if state.mode == "analyse" else lines_ply is not None
    lines = state.lines if shown else []
    return {
        "version": state.version,
        "mode": state.mode,
        "fen": board.fen(),
        "turn": "white" if board.turn else "black",
        "pieces": pieces_json(board),
        "legal": legal,
        "lastMove": last_move_json(board),
        "check": check_json(board),
        **line_json(game),
        "ply": game.cursor,
        "rootFen": game.root_fen(),
        "firstMove": {"number": root.fullmove_number, "turn": "white" if root.turn else "black"},
        "result": None if ending is None else {"result": ending.result, "reason": ending.reason},
        "players": {"white": _player_json(state, chess.WHITE), "black": _player_json(state, chess.BLACK)},
        "names": {"white": state.player_name(chess.WHITE), "black": state.player_name(chess.BLACK)},
        "analysis": {"on": state.analysis_on, "engine": state.analysis_engine, "multipv": state.multipv},
        "thinking": state.thinking if state.task is not None else None,
        "paused": state.paused,
        "lines": lines,
        "linesPly": lines_ply,
        "evals": [evaluation_json(node.evaluation) for node in line],
        "reviewing": state.task is not None and state.task.kind == "review",
        "engineError": state.engine_error,
        "note": state.note,
        "engines": engines_json(state),
    }
