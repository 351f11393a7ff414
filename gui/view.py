"""The page's view of the board: ``state_json`` turns a ``BoardState`` into JSON-ready data.

Pure functions (call them with the state's lock held); scores are from White's view,
squares by name, boards ``"A"``/``"B"``.

>>> from engine.board import AliceBoard
>>> board = AliceBoard()
>>> board.push_san("e4")
Move.from_uci('e2e4')
>>> last_move_json(board)
{'from': 'e2', 'to': 'e4', 'toBoard': 'B', 'fromBoard': 'A', 'capture': False}
>>> blocked_json(AliceBoard("4k3/8/8/8/8/8/4|p3/4K3 w - - 0 1"))  # Ke2 would land on e2 of board B: taken
{'e1': ['e2']}
"""

from __future__ import annotations

import time
from typing import Any

import chess
import chess.engine

from engine.board import AliceBoard
from engine.position import Position
from gui.clock import TimeControl
from gui.game import Evaluation, Game, Node
from gui.state import BoardState
from search.score import MATE
from tablebase.probe import Tablebases
from tablebase.values import DECIDED, DRAWN

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


def pv_moves(board: AliceBoard, moves: list[chess.Move]) -> list[dict[str, str]]:
    """The moves of a line one by one, for the page to preview or play: UCI, SAN and the
    move number written before it (``"12."``, ``"12…"`` for a first move by Black, or ``""``)."""
    board = board.copy(stack=False)
    out: list[dict[str, str]] = []
    for i, move in enumerate(moves[:PV_SHOWN]):
        if not board.is_legal(move):
            break
        number = ""
        if board.turn == chess.WHITE:
            number = f"{board.fullmove_number}."
        elif i == 0:
            number = f"{board.fullmove_number}…"
        out.append({"uci": board.uci(move), "san": board.san(move), "number": number})
        board.push(move)
    return out


def _board_name(board: AliceBoard, square: chess.Square) -> str:
    return "AB"[board.board_at(square) or 0]


def last_move_json(board: AliceBoard) -> dict[str, str | bool] | None:
    """The last move: from (on the board it left) and to (on the board it landed on)."""
    if not board.move_stack:
        return None
    move = board.pop()  # the position before it says whether it took a piece
    capture = board.is_capture(move)
    board.push(move)
    landed = _board_name(board, move.to_square)
    return {
        "from": chess.square_name(move.from_square),
        "to": chess.square_name(move.to_square),
        "toBoard": landed,
        "fromBoard": "B" if landed == "A" else "A",
        "capture": capture,
    }


def check_json(board: AliceBoard) -> dict[str, str] | None:
    """The king in check, if any: its square and board."""
    if not board.is_check():
        return None
    king = board.king(board.turn)
    assert king is not None
    return {"square": chess.square_name(king), "board": _board_name(board, king)}


def blocked_json(board: AliceBoard) -> dict[str, list[str]]:
    """For each piece of the side to move: the squares it reaches on its own board whose
    square on the other board is taken (so the move is missing: it would have nowhere to
    land). The page marks the pieces in the way when the piece is lifted. Castling aside."""
    occupied_b = board.board_b & board.occupied
    occupied_a = board.occupied & ~board.board_b
    out: dict[str, list[str]] = {}
    for square in chess.SquareSet(board.occupied_co[board.turn]):
        on_b = bool(chess.BB_SQUARES[square] & board.board_b)
        own, other = (occupied_b, occupied_a) if on_b else (occupied_a, occupied_b)
        if board.piece_type_at(square) == chess.PAWN:
            reach = _pawn_pushes(square, board.turn, own)
        else:
            reach = board.attacks_mask(square)
        blocked = reach & other
        if blocked:
            out[chess.square_name(square)] = [chess.square_name(s) for s in chess.SquareSet(blocked)]
    return out


def _pawn_pushes(square: chess.Square, color: chess.Color, own: chess.Bitboard) -> chess.Bitboard:
    """The squares a pawn steps to on its own board (one, or two from its first rank), as far
    as its own board is empty (captures need a piece there, so they are never blocked)."""
    step = 8 if color == chess.WHITE else -8
    one = square + step
    if not 0 <= one < 64 or chess.BB_SQUARES[one] & own:
        return chess.BB_EMPTY
    reach = chess.BB_SQUARES[one]
    if chess.square_rank(square) == (1 if color == chess.WHITE else 6) and not chess.BB_SQUARES[one + step] & own:
        reach |= chess.BB_SQUARES[one + step]
    return reach


def position_json(board: AliceBoard) -> dict[str, Any]:
    """A position as the boards draw it (a preview of a line's move)."""
    return {
        "fen": board.fen(),
        "pieces": pieces_json(board),
        "lastMove": last_move_json(board),
        "check": check_json(board),
    }


def tree_json(game: Game) -> list[dict[str, Any]]:
    """Every move of the game, depth first with the main line first (so each node's children
    come in their order): id, parent id, SAN and ply. The page draws the move list from it."""
    return [
        {"id": node.id, "parent": node.parent.id, "san": node.san, "ply": node.ply}
        for node in game.walk()
        if node.parent is not None
    ]


def clock_json(state: BoardState) -> dict[str, Any] | None:
    """The clocks: live in a timed game in Play, whatever position is on view (``running``:
    whose clock runs; the page ticks it down from the time sent), else the times recorded at
    the position on view (a game with ``[%clk]``), else ``None``."""
    game = state.game
    clock = state.clock
    control = clock.control if clock is not None else TimeControl.from_tag(game.headers.get("TimeControl", ""))
    about = {
        "control": control.label() if control is not None else None,
        "base": control.base if control is not None else None,
        "increment": control.increment if control is not None else None,
    }
    if clock is not None:
        now = time.monotonic()
        return {
            "white": max(0.0, clock.left(chess.WHITE, now)),
            "black": max(0.0, clock.left(chess.BLACK, now)),
            "running": ("white" if clock.turn else "black") if clock.running else None,
            **about,
        }
    left: dict[str, float | None] = {"white": None, "black": None}
    path: list[Node] = game.path(game.current)
    for node in path:
        if node.clock is not None:
            mover_white = game.root_board.turn ^ (node.ply % 2 == 0)
            left["white" if mover_white else "black"] = node.clock
    if left["white"] is None and left["black"] is None:
        return None
    return {**left, "running": None, **about}


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


def tablebase_json(tables: Tablebases | None, board: AliceBoard) -> dict[str, Any] | None:
    """What the endgame tables say of the position (``None``: no table covers it): the result
    for White, the moves to mate, and the status line's words.

    >>> tablebase_json(None, AliceBoard()) is None
    True
    """
    if tables is None or board.castling_rights:
        return None
    value = tables.probe(Position(board.fen()))
    if not value:
        return None
    if value == DRAWN:
        return {"result": "1/2-1/2", "mate": None, "text": "draw (tablebase)"}
    plies = value - DECIDED
    white_wins = (plies % 2 == 1) == board.turn
    moves = (plies + 1) // 2
    winner = "White" if white_wins else "Black"
    return {"result": "1-0" if white_wins else "0-1", "mate": moves, "text": f"{winner}: mate in {moves} (tablebase)"}


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
        "blocked": blocked_json(board) if legal else {},
        "lastMove": last_move_json(board),
        "check": check_json(board),
        **line_json(game),
        "node": game.current.id,
        "root": game.root.id,
        "tree": tree_json(game),
        "shapes": list(game.current.shapes),
        "clock": clock_json(state),
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
        "linesNode": state.lines_for if lines else None,
        "evals": [evaluation_json(node.evaluation) for node in line],
        "reviewing": state.task is not None and state.task.kind == "review",
        "engineError": state.engine_error,
        "note": state.note,
        "engines": engines_json(state),
        "tablebase": tablebase_json(state.tablebases, board),
    }
