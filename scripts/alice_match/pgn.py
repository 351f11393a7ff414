"""Alice games in PGN, through python-chess with ``engine.board.AliceBoard``.

Writing: ``[Variant "Alice"]``, SAN with the landing board (``e4/B``), ``[FEN]`` and
``[SetUp "1"]`` (compact FEN) only when the game does not start from the Alice start
position. Reading: ``read_game`` treats every game as Alice chess (a file without a
``Variant`` tag too); a game naming another variant is an error.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TextIO

import chess
import chess.pgn

from engine import move_to_uci
from engine.board import AliceBoard, to_chess_move, to_engine_move
from engine.position import STARTING_FEN


class AliceHeaders(chess.pgn.Headers):
    """PGN headers whose board is always an ``AliceBoard``."""

    def variant(self) -> type[chess.Board]:
        name = self.get("Variant")
        if name is not None and name.lower() not in (a.lower() for a in AliceBoard.aliases):
            raise ValueError(f"not an Alice chess game: [Variant {name!r}]")
        board: type[chess.Board] = AliceBoard
        return board


class AliceGame(chess.pgn.Game):
    """A ``chess.pgn.Game`` of Alice chess."""

    def __init__(self, headers: Any = None) -> None:
        super().__init__(headers)
        self.headers = AliceHeaders(self.headers)


class _AliceBuilder(chess.pgn.GameBuilder[chess.pgn.Game]):
    """Builds ``AliceGame`` objects and notes whether the movetext ended with a result token."""

    def __init__(self) -> None:
        super().__init__(Game=AliceGame)
        self.terminated = False

    def visit_result(self, result: str) -> None:
        self.terminated = True
        super().visit_result(result)

    def handle_error(self, error: Exception) -> None:
        """Keep the error in ``game.errors`` without python-chess's own log message (which
        would reach stderr before the caller's one-line report)."""
        self.game.errors.append(error)

    def result(self) -> chess.pgn.Game:
        game = super().result()
        game.terminated = self.terminated  # type: ignore[attr-defined]
        return game


def read_game(handle: TextIO) -> chess.pgn.Game | None:
    """The next game of ``handle`` as Alice chess (``None`` at the end of the file); its
    ``terminated`` attribute says whether the movetext ended with a result (a game cut off
    by a killed writer has none)."""
    return chess.pgn.read_game(handle, Visitor=_AliceBuilder)


def uci_moves(game: chess.pgn.Game, plies: int | None = None) -> tuple[str, list[str]]:
    """The start position (compact FEN) and main line (plain UCI, at most ``plies``) of ``game``."""
    board = game.board()
    start = board.fen()
    moves: list[str] = []
    for move in game.mainline_moves():
        if plies is not None and len(moves) >= plies:
            break
        moves.append(move_to_uci(board.position, to_engine_move(move)))  # type: ignore[attr-defined]
        board.push(move)
    return start, moves


def build_game(
    headers: dict[str, str],
    start_fen: str,
    moves: Iterable[int],
    comments: Iterable[str],
    final_comment: str = "",
) -> chess.pgn.Game:
    """A PGN game from ``engine`` moves played from ``start_fen``.

    ``comments`` pairs with ``moves`` (empty strings for none); ``final_comment`` (like
    ``White mates``) joins the last move's comment, or the game comment if there are no moves.
    The Seven Tag Roster comes first, then ``Variant``, ``FEN``/``SetUp`` and ``headers``.
    """
    game = AliceGame()
    for key in ("Event", "Site", "Date", "Round", "White", "Black", "Result"):
        if key in headers:
            game.headers[key] = headers[key]
    game.headers["Variant"] = AliceBoard.aliases[0]
    board = AliceBoard(start_fen)
    if board.fen() != STARTING_FEN:
        game.headers["FEN"] = board.fen()
        game.headers["SetUp"] = "1"
    for key, value in headers.items():
        if key not in game.headers:
            game.headers[key] = value
    node: chess.pgn.GameNode = game
    comment_list = list(comments)
    move_list = list(moves)
    for i, m in enumerate(move_list):
        node = node.add_variation(to_chess_move(m), comment=comment_list[i] if i < len(comment_list) else "")
    if final_comment:
        if node is game:
            game.comment = final_comment
        else:
            node.comment = f"{node.comment}, {final_comment}" if node.comment else final_comment
    return game


def game_text(game: chess.pgn.Game, comments: bool = True) -> str:
    """The PGN text of ``game`` (80 columns), ending with a blank line."""
    exporter = chess.pgn.StringExporter(headers=True, variations=True, comments=comments)
    return game.accept(exporter) + "\n\n"
