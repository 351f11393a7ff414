"""What each request does to the board: ``Session``, the one board of the server.

HTTP threads call its methods; each checks its input (``gui.requests``), changes the
``BoardState`` under its lock, and lets the ``Scheduler`` start or stop the engine search
the new state calls for. A request that cannot be carried out raises ``ApiError`` (HTTP
4xx) before changing anything. The page reads the state as JSON (``gui.view``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import chess

from gui.engines import EngineFailure, EngineLoop, EngineSpec
from gui.game import Game, GameError
from gui.pgn import read_first_alice_game, write_pgn
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
    @contextmanager
    def _changing(self) -> Iterator[None]:
        """Hold the lock while a request changes the state; then start or stop engine work
        and publish. If the request fails, every field is put back as it was: handlers never
        change the game in place (they change a ``copy()`` and swap it in), so the saved
        references, and where the game was on view, are the whole state."""
        with self.cond:
            saved = dict(vars(self))
            current = self.game.current
            try:
                yield
            except BaseException:
                vars(self).update(saved)
                self.game.current = current
                raise
            self.scheduler.finished = None  # the user acted: any analysis may run again
            self.scheduler.update()

    def _new_game(self, game: Game, note: str | None = None) -> None:
        self.game = game
        self.game_token = object()
        self.lines, self.lines_for = [], None
        self.review_wanted = False
        self.paused = False
        self.note = note
        self.game_changed()

    def _setup(self, data: Mapping[str, Any]) -> Setup:
        return parse_setup(data, self.mode, self.choices, [engine.name for engine in self.engines])

    def new_game(self, data: Mapping[str, Any]) -> None:
        """A new game from the start position with the players and mode in ``data``."""
        with self._changing():
            setup = self._setup(data)
            self.mode, self.players = setup.mode, setup.players
            self._new_game(Game())

    def set_mode(self, data: Mapping[str, Any]) -> None:
        """Change the mode and players, keeping the game (e.g. analyse a finished game)."""
        with self._changing():
            setup = self._setup(data)
            if self.game.plies and setup.mode != self.mode:  # the game keeps who played it (for its PGN)
                game = self.game.copy()
                for color, tag in ((chess.WHITE, "White"), (chess.BLACK, "Black")):
                    game.headers.setdefault(tag, self.player_name(color))
                self.game = game
            self.mode, self.players = setup.mode, setup.players
            self.paused = False
            self.clear_failure()

    def move(self, text: Any) -> str:
        """Play the human's move (UCI or SAN); its SAN. At an earlier position of the line
        (Analyse) a move other than the next one starts a variation: nothing is dropped."""
        text = parse_string("move", text, " like e2e4 or Nf3")
        with self._changing():
            if not self.human_can_move():
                raise ApiError(409, self._why_no_move())
            game = self.game.copy()
            try:
                san = game.play_text(text)
            except GameError as error:
                raise ApiError(400, str(error)) from None
            self.game = game
            self.note = None
            self.game_changed()
            return san

    def _why_no_move(self) -> str:
        game = self.game
        if game.current.ending is not None or (game.over() and game.cursor == game.plies):
            ending = game.current.ending or game.ending
            assert ending is not None
            return f"the game is over ({ending.result}, {ending.reason})"
        if self.mode == "watch":
            return "you are watching: switch to Play or Analyse to move"
        if game.cursor != game.plies:
            return "go to the last move to play on (or take back)"
        return "it is the engine's turn"

    def take_back(self) -> None:
        """Take back the last move of the line on view (in Play: your last move and the engine's answer)."""
        with self._changing():
            game = self.game
            if self.mode == "watch":
                raise ApiError(409, "you are watching: pause and switch to Analyse to take back")
            if game.plies == 0:
                raise ApiError(409, "there is no move to take back")
            count = 1
            if self.mode == "play":
                human = next((c for c, p in self.players.items() if p is None), chess.WHITE)
                turn_after = game.root_board.turn ^ (game.plies % 2 == 1)  # to move at the end of the line
                # Back to the last position where it was the human's move, before their move.
                count = 1 if turn_after != human else 2
                if count > game.plies or (game.root_board.turn ^ ((game.plies - count) % 2 == 1)) != human:
                    raise ApiError(409, "there is no move of yours to take back")
            game = game.copy()
            game.take_back(count)
            self.game = game
            self.game_changed()

    def resign(self) -> None:
        with self._changing():
            human = [c for c, p in self.players.items() if p is None]
            if self.mode != "play" or len(human) != 1:
                raise ApiError(409, "you can resign only when playing against the engine")
            game = self.game.copy()
            try:
                game.resign(human[0])
            except GameError as error:
                raise ApiError(409, str(error)) from None
            self.game = game
            self.game_changed()

    def goto(self, data: Mapping[str, Any]) -> None:
        """Show another position: ``{"ply": n}`` along the line on view, or ``{"node": id}``
        anywhere in the game (a variation's move: its line becomes the line on view)."""
        with self._changing():
            try:
                if "node" in data:
                    self.game.goto_node(parse_whole_number("node", data["node"]))
                else:
                    self.game.goto(parse_whole_number("ply", data.get("ply")))
            except GameError as error:
                raise ApiError(400, str(error)) from None

    def load_fen(self, fen: Any) -> None:
        text = parse_string("fen", fen, "")
        try:
            game = Game.from_fen(text)
        except GameError as error:
            raise ApiError(400, str(error)) from None
        self._load(game, None)

    def load_pgn(self, pgn: Any) -> None:
        text = parse_string("pgn", pgn, "")
        try:
            game, note = read_first_alice_game(text)
        except GameError as error:
            raise ApiError(400, str(error)) from None
        self._load(game, note or None)

    def _load(self, game: Game, note: str | None) -> None:
        """A new game from a FEN or PGN; a finished game is evaluated for the graph."""
        with self._changing():
            self._new_game(game, note)
            self.review_wanted = game.over()

    def export_pgn(self) -> str:
        with self.cond:
            return write_pgn(self.game, self.player_name(chess.WHITE), self.player_name(chess.BLACK))

    def set_analysis(self, data: Mapping[str, Any]) -> None:
        with self._changing():
            now = AnalysisSettings(self.analysis_on, self.analysis_engine, self.multipv)
            settings = parse_analysis(data, now, len(self.engines))
            if settings.on and self.mode != "analyse":
                raise ApiError(409, "switch to Analyse to run the analysis")
            self.analysis_on, self.analysis_engine, self.multipv = settings.on, settings.engine, settings.multipv
            self.clear_failure()

    def review(self) -> None:
        """Evaluate every position of the line on view (for the graph) when nothing else runs."""
        with self._changing():
            self.review_wanted = True
            self.clear_failure()

    def stop(self) -> None:
        """The engine plays its best move now; watching pauses; analysis stops."""
        with self._changing():
            if self.mode == "watch":
                self.paused = True
            if self.mode == "analyse":
                self.analysis_on = False
            self.review_wanted = False
            self.scheduler.move_now()

    def go(self) -> None:
        """Resume: watching goes on, a halted engine tries again, analysis starts."""
        with self._changing():
            self.paused = False
            self.clear_failure()
            if self.mode == "analyse":
                self.analysis_on = True
