"""What each request does to the board: ``Session``, the one board of the server.

HTTP threads call its methods; each checks its input (``gui.requests``), changes the
``BoardState`` under its lock, and lets the ``Scheduler`` start or stop the engine search
the new state calls for. A request that cannot be carried out raises ``ApiError`` (HTTP
4xx) before changing anything. The page reads the state as JSON (``gui.view``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import chess

from gui.engines import EngineFailure, EngineLoop, EngineSpec
from gui.game import Game, GameError
from gui.requests import (
    AnalysisSettings,
    ApiError,
    Setup,
    parse_analysis,
    parse_setup,
    parse_string,
    parse_whole_number,
)
from gui.scheduler import Scheduler
from gui.state import BoardState, Player
from gui.strength import strength_choices
from gui.view import state_json

LONG_POLL = 20.0  # seconds a state request waits for a change

__all__ = ["LONG_POLL", "ApiError", "Session"]


class Session(BoardState):
    """The board on the page and the engines behind it (see the module docstring)."""

    def __init__(self, specs: list[EngineSpec], loop: EngineLoop) -> None:
        super().__init__(specs, loop)
        self.scheduler = Scheduler(self)

    # ------------------------------------------------------------ start/stop
    def start(self) -> None:
        """Start every engine in the background, to learn names and options."""
        for index in range(len(self.engines)):
            self.loop.submit(self._start_engine(index))

    async def _start_engine(self, index: int) -> None:
        engine = self.engines[index]
        try:
            await engine.warm_up()
        except EngineFailure as error:
            with self.cond:
                self.engine_error = str(error)
                self.changed()
            return
        with self.cond:
            self.choices[index] = strength_choices(engine.options)
            for color, player in self.players.items():
                if player is not None and player.engine == index and player.strength not in self.choices[index]:
                    self.players[color] = Player(index, "full")  # an engine without levels
            self.changed()

    def close(self) -> None:
        with self.cond:
            self.scheduler.cancel()
        futures = [self.loop.submit(engine.quit()) for engine in self.engines]
        for future in futures:
            try:
                future.result(timeout=5)
            except Exception:
                pass

    # ------------------------------------------------------------ state
    def wait_state(self, after: int | None, timeout: float = LONG_POLL) -> dict[str, Any]:
        """The state, once its version differs from ``after`` (or after ``timeout``)."""
        with self.cond:
            if after is not None:
                self.cond.wait_for(lambda: self.version != after, timeout)
            return self.state()

    def state(self) -> dict[str, Any]:
        """Everything the page shows, as JSON-ready data. Call with the lock held."""
        return state_json(self)

    # ------------------------------------------------------------ requests
    def _new_game(self, game: Game) -> None:
        self.game = game
        self.game_token = object()
        self.lines, self.lines_for = [], None
        self.review_wanted = False
        self.paused = False
        self.game_changed(None)

    def _setup(self, data: Mapping[str, Any]) -> Setup:
        return parse_setup(data, self.mode, self.choices, [engine.name for engine in self.engines])

    def new_game(self, data: Mapping[str, Any]) -> None:
        """A new game from the start position with the players and mode in ``data``."""
        with self.cond:
            setup = self._setup(data)
            self.mode, self.players = setup.mode, setup.players
            self._new_game(Game())
            self.scheduler.update()

    def set_mode(self, data: Mapping[str, Any]) -> None:
        """Change the mode and players, keeping the game (e.g. analyse a finished game)."""
        with self.cond:
            setup = self._setup(data)
            if self.game.plies and setup.mode != self.mode:  # the game keeps who played it (for its PGN)
                for color, tag in ((chess.WHITE, "White"), (chess.BLACK, "Black")):
                    self.game.headers.setdefault(tag, self.player_name(color))
            self.mode, self.players = setup.mode, setup.players
            self.paused = False
            self.clear_failure()
            self.scheduler.update()

    def move(self, text: Any) -> str:
        """Play the human's move (UCI or SAN); its SAN."""
        text = parse_string("move", text, " like e2e4 or Nf3")
        with self.cond:
            if not self.human_can_move():
                raise ApiError(409, self._why_no_move())
            ply = self.game.cursor
            try:
                san = self.game.play_text(text)
            except GameError as error:
                raise ApiError(400, str(error)) from None
            self.game_changed(ply)
            self.scheduler.update()
            return san

    def _why_no_move(self) -> str:
        game = self.game
        if game.over() and game.cursor == game.plies:
            assert game.ending is not None
            return f"the game is over ({game.ending.result}, {game.ending.reason})"
        if self.mode == "watch":
            return "you are watching: switch to Play or Analyse to move"
        if game.cursor != game.plies:
            return "go to the last move to play on (or take back)"
        return "it is the engine's turn"

    def take_back(self) -> None:
        with self.cond:
            game = self.game
            if self.mode == "watch":
                raise ApiError(409, "you are watching: pause and switch to Analyse to take back")
            if game.plies == 0:
                raise ApiError(409, "there is no move to take back")
            count = 1
            if self.mode == "play":
                human = next((c for c, p in self.players.items() if p is None), chess.WHITE)
                board = game.board.copy()
                board.pop()
                while board.move_stack and board.turn != human:
                    board.pop()
                    count += 1
                if board.turn != human:
                    raise ApiError(409, "there is no move of yours to take back")
            game.take_back(count)
            self.game_changed(game.plies)
            self.scheduler.update()

    def resign(self) -> None:
        with self.cond:
            human = [c for c, p in self.players.items() if p is None]
            if self.mode != "play" or len(human) != 1:
                raise ApiError(409, "you can resign only when playing against the engine")
            try:
                self.game.resign(human[0])
            except GameError as error:
                raise ApiError(409, str(error)) from None
            self.game.cursor = self.game.plies
            self.game_changed(self.game.plies)
            self.scheduler.update()

    def goto(self, ply: Any) -> None:
        ply = parse_whole_number("ply", ply)
        with self.cond:
            try:
                self.game.goto(ply)
            except GameError as error:
                raise ApiError(400, str(error)) from None
            self.scheduler.update()

    def load_fen(self, fen: Any) -> None:
        self._load("fen", Game.from_fen, fen)

    def load_pgn(self, pgn: Any) -> None:
        self._load("pgn", Game.from_pgn, pgn)

    def _load(self, what: str, parse: Callable[[str], Game], text: Any) -> None:
        """A new game from a FEN or PGN; a finished game is evaluated for the graph."""
        text = parse_string(what, text, "")
        try:
            game = parse(text)
        except GameError as error:
            raise ApiError(400, str(error)) from None
        with self.cond:
            self._new_game(game)
            self.review_wanted = game.over()
            self.scheduler.update()

    def export_pgn(self) -> str:
        with self.cond:
            return self.game.pgn(self.player_name(chess.WHITE), self.player_name(chess.BLACK))

    def set_analysis(self, data: Mapping[str, Any]) -> None:
        with self.cond:
            now = AnalysisSettings(self.analysis_on, self.analysis_engine, self.multipv)
            settings = parse_analysis(data, now, len(self.engines))
            if settings.on and self.mode != "analyse":
                raise ApiError(409, "switch to Analyse to run the analysis")
            self.analysis_on, self.analysis_engine, self.multipv = settings.on, settings.engine, settings.multipv
            self.clear_failure()
            self.scheduler.update()

    def review(self) -> None:
        """Evaluate every position of the game (for the graph) when nothing else runs."""
        with self.cond:
            self.review_wanted = True
            self.clear_failure()
            self.scheduler.update()

    def stop(self) -> None:
        """The engine plays its best move now; watching pauses; analysis stops."""
        with self.cond:
            if self.mode == "watch":
                self.paused = True
            if self.mode == "analyse":
                self.analysis_on = False
            self.review_wanted = False
            self.scheduler.move_now()
            self.scheduler.update()

    def go(self) -> None:
        """Resume: watching goes on, a halted engine tries again, analysis starts."""
        with self.cond:
            self.paused = False
            self.clear_failure()
            if self.mode == "analyse":
                self.analysis_on = True
            self.scheduler.update()
