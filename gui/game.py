"""One Alice game as the web board sees it: the moves, the position viewed, the result.

Pure (no threads, no I/O): ``gui.session`` owns one ``Game`` and serialises access to it.
Every rule, FEN, SAN and PGN question goes to ``AliceBoard`` (``engine/``) and
``chess.pgn``; a failed change raises ``GameError`` and leaves the game as it was.

>>> game = Game()
>>> game.play_text("e4")
'e4/B'
>>> game.play_text("d7d5/B")
'd5/B'
>>> game.fen()
'rnbqkbnr/ppp1pppp/8/3|p4/4|P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2'
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass

import chess
import chess.pgn

from engine.board import STARTING_FEN, AliceBoard

PGN_EVENT = "Alice chess in the browser"  # the Event tag of exported games
PGN_MAX_GAME_PLIES = 2000  # a longer loaded game is refused (a sane page, a bounded state)

_UCI_LIKE = re.compile(r"^[a-h][1-8][a-h][1-8]", re.IGNORECASE)
_VARIANT_TAG = re.compile(r'^\s*\[\s*Variant\s+"([^"]*)"\s*\]', re.MULTILINE | re.IGNORECASE)


class GameError(ValueError):
    """A change that cannot be made (illegal move, bad FEN or PGN); the message is for the user."""


@dataclass(frozen=True)
class Ending:
    """How a game ended: ``result`` is ``1-0``, ``0-1`` or ``1/2-1/2``."""

    result: str
    reason: str


class _StrictGameBuilder(chess.pgn.GameBuilder):  # type: ignore[type-arg]
    """Reads a PGN game, raising on its first error (python-chess would log it and go on)."""

    def handle_error(self, error: Exception) -> None:
        raise GameError(f"bad PGN: {error}")


def _has_real_tags(headers: chess.pgn.Headers) -> bool:
    """Any tag besides the variant that is not one of python-chess's ``?`` placeholders."""
    return any(v not in ("?", "????.??.??", "*") for k, v in headers.items() if k != "Variant")


def parse_move(board: AliceBoard, text: str) -> chess.Move:
    """The legal move named by ``text`` in UCI (``e2e4``, ``e7e8q``, ``e2e4/B``) or SAN
    (``Nf3``, ``Bb5/A#``); ``GameError`` with the rules' message otherwise.

    >>> parse_move(AliceBoard(), "Nf3").uci()
    'g1f3'
    """
    text = text.strip()
    if not text:
        raise GameError("type a move, like e2e4 or Nf3")
    if len(text) > 20:
        raise GameError("that is too long to be a move")
    try:
        if _UCI_LIKE.match(text):
            return board.parse_uci(text)
        return board.parse_san(text)
    except ValueError as error:
        raise GameError(f"{text}: {error}") from None


def ending_of(board: AliceBoard) -> Ending | None:
    """The rules' verdict on ``board`` (mate, stalemate, repetition, fifty moves, bare kings)."""
    outcome = board.outcome()
    if outcome is None:
        return None
    reasons = {
        chess.Termination.CHECKMATE: "checkmate",
        chess.Termination.STALEMATE: "stalemate",
        chess.Termination.INSUFFICIENT_MATERIAL: "bare kings",
        chess.Termination.FIFTY_MOVES: "fifty-move rule",
        chess.Termination.THREEFOLD_REPETITION: "threefold repetition",
    }
    return Ending(outcome.result(), reasons.get(outcome.termination, outcome.termination.name.lower()))


class Game:
    """The moves from a root position, the ply on view, and the result once over.

    ``board`` always holds the whole game; ``cursor`` is the ply shown (stepping
    through the moves moves only the cursor). Playing a move while viewing an
    earlier ply drops the moves after it, as a new line.
    """

    def __init__(self, fen: str = STARTING_FEN) -> None:
        self.board = AliceBoard(fen)
        self.cursor = 0
        self.ending: Ending | None = None  # set by the rules or by a resignation
        self.headers: dict[str, str] = {}  # PGN tags of a loaded game, kept on export

    # ------------------------------------------------------------ reading
    @property
    def plies(self) -> int:
        return len(self.board.move_stack)

    def root_fen(self) -> str:
        return self.board.root().fen()

    def view(self, ply: int | None = None) -> AliceBoard:
        """A copy of the position after ``ply`` moves (default: the ply on view)."""
        ply = self.cursor if ply is None else ply
        board = self.board.copy()
        while len(board.move_stack) > ply:
            board.pop()
        return board

    def fen(self) -> str:
        """The compact FEN of the position on view."""
        return self.view().fen()

    def sans(self) -> list[str]:
        """SAN of every move of the game, with ``/A`` ``/B``."""
        board = self.board.root()
        out = []
        for move in self.board.move_stack:
            out.append(board.san(move))
            board.push(move)
        return out

    def over(self) -> bool:
        return self.ending is not None

    # ------------------------------------------------------------ changing
    def goto(self, ply: int) -> None:
        if not 0 <= ply <= self.plies:
            raise GameError(f"no such move: ply {ply} (the game has {self.plies})")
        self.cursor = ply

    def play(self, move: chess.Move) -> str:
        """Play a legal ``move`` at the ply on view; its SAN. Later moves are dropped."""
        board = self.view()
        if self.ending is not None and self.cursor == self.plies:
            raise GameError(f"the game is over ({self.ending.result}, {self.ending.reason})")
        if not board.is_legal(move):
            raise GameError(f"illegal move {move.uci()} in {board.fen()}")
        san = board.san(move)
        board.push(move)
        self.board = board
        self.cursor = self.plies
        self.ending = ending_of(board)
        return san

    def play_text(self, text: str) -> str:
        """Play a move typed in UCI or SAN; its SAN."""
        return self.play(parse_move(self.view(), text))

    def take_back(self, plies: int) -> None:
        """Undo the last ``plies`` moves of the game (fewer if the game is shorter)."""
        board = self.board.copy()
        for _ in range(min(plies, len(board.move_stack))):
            board.pop()
        self.board = board
        self.cursor = self.plies
        self.ending = ending_of(board)

    def resign(self, loser: chess.Color) -> None:
        if self.ending is not None:
            raise GameError("the game is already over")
        name = "White" if loser == chess.WHITE else "Black"
        self.ending = Ending("0-1" if loser == chess.WHITE else "1-0", f"{name} resigned")

    # ------------------------------------------------------------ FEN and PGN
    @classmethod
    def from_fen(cls, fen: str) -> Game:
        """A new game from a compact or 16-wide FEN; ``GameError`` naming the problem."""
        fen = " ".join(fen.split())
        if not fen:
            raise GameError("paste a FEN first")
        try:
            game = cls(fen)
        except ValueError as error:
            raise GameError(f"bad FEN: {error}") from None
        game.ending = ending_of(game.board)
        return game

    @classmethod
    def from_pgn(cls, text: str) -> Game:
        """The first game of a PGN (``[Variant "Alice"]`` assumed when absent), at its last move."""
        if not text.strip():
            raise GameError("paste a PGN first")
        variant = _VARIANT_TAG.search(text)
        if variant is None:
            text = '[Variant "Alice"]\n' + text
        elif variant.group(1).strip().lower() not in [a.lower() for a in AliceBoard.aliases]:
            raise GameError(f"this board plays Alice chess; the PGN's variant is {variant.group(1)!r}")
        try:
            pgn = chess.pgn.read_game(io.StringIO(text), Visitor=_StrictGameBuilder)
        except GameError:
            raise
        except (ValueError, KeyError) as error:
            raise GameError(f"bad PGN: {error}") from None
        if pgn is None or not (pgn.variations or pgn.headers.get("FEN") or _has_real_tags(pgn.headers)):
            raise GameError("no game found in the PGN")
        moves = list(pgn.mainline_moves())
        if len(moves) > PGN_MAX_GAME_PLIES:
            raise GameError(f"the game is too long ({len(moves)} plies; at most {PGN_MAX_GAME_PLIES})")
        game = cls.from_fen(pgn.board().fen())
        for move in moves:
            game.board.push(move)
        game.cursor = game.plies
        game.ending = ending_of(game.board)
        result = pgn.headers.get("Result", "*")
        if game.ending is None and result in ("1-0", "0-1", "1/2-1/2"):
            game.ending = Ending(result, pgn.headers.get("Termination", "result given in the PGN"))
        game.headers = {k: v for k, v in pgn.headers.items() if k not in ("FEN", "SetUp", "Variant", "Result")}
        return game

    def pgn(self, white: str, black: str) -> str:
        """The game as PGN: ``[Variant "Alice"]``, SAN with ``/A`` ``/B``."""
        pgn = chess.pgn.Game.from_board(self.board)
        for tag in ("Event", "White", "Black"):
            del pgn.headers[tag]
        pgn.headers["Event"] = PGN_EVENT
        for key, value in self.headers.items():
            pgn.headers[key] = value
        pgn.headers.setdefault("White", white)  # a loaded game keeps its players
        pgn.headers.setdefault("Black", black)
        pgn.headers["Result"] = self.ending.result if self.ending else "*"
        if self.ending is not None:
            pgn.headers["Termination"] = self.ending.reason
        return str(pgn) + "\n"
