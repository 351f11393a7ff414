"""What the page is doing: the game, who plays each side, the engine at work, its lines.

One ``Session`` per server (one board, seen by every open tab). HTTP threads call its
methods; engine results arrive on the engine loop thread. One lock (a ``Condition``)
guards everything; every change bumps ``version`` so that long-polling pages fetch
the new state. After each change ``_update`` decides which engine search should run
(the engine's move, live analysis, or the post-game review) and starts or stops one.

A request that cannot be carried out raises ``ApiError`` (HTTP 4xx) before changing
anything. Engine failures are kept in ``engine_error`` for the page and halt the
engine until the user acts (new game, take back, go, ...).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import chess
import chess.engine

from engine.board import AliceBoard
from gui.engines import EngineFailure, EngineLoop, EngineProcess, EngineSpec, SearchRequest
from gui.game import Game, GameError
from gui.strength import Strength, strength_choices
from search.score import MATE

MODES = ("play", "analyse", "watch")
FIRST_STRENGTH = "level:4"  # the opponent before anyone chooses: a middle level (full strength if none)
MAX_MULTIPV = 3  # analysis lines shown
PV_SHOWN = 10  # moves of each line shown
REVIEW_NODES = 5000  # nodes per position when the finished game is evaluated
WATCH_PAUSE = 0.6  # seconds between moves when watching engines, so each can be seen
LONG_POLL = 20.0  # seconds a state request waits for a change


class ApiError(Exception):
    """A request that cannot be carried out: the HTTP status and a message for the page."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Player:
    """An engine playing one side: which engine, and how strong (a strength choice value)."""

    engine: int
    strength: str


@dataclass
class Task:
    """One engine search the session started."""

    kind: str  # "move", "analyse" or "review"
    key: tuple[Any, ...]  # what it is for: a different wanted key replaces it
    engine: int
    stop: asyncio.Event = field(default_factory=asyncio.Event)
    cancelled: bool = False  # its result is no longer wanted


def score_json(score: chess.engine.PovScore | None, turn: chess.Color) -> dict[str, Any] | None:
    """A score for the page: ``cp`` (White's view, mates as ``±MATE``), ``mate``
    (White's view) and ``text`` (``+0.35``, ``#3``, ``#-2``)."""
    if score is None:
        return None
    white = score.white()
    mate = white.mate()
    if mate is not None:
        return {"cp": MATE if mate > 0 else -MATE, "mate": mate, "text": f"#{mate}"}
    cp = white.score() or 0
    return {"cp": cp, "mate": None, "text": f"{cp / 100:+.2f}"}


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


def _color(text: Any) -> chess.Color:
    if text not in ("white", "black"):
        raise ApiError(400, "side must be 'white' or 'black'")
    return text == "white"


class Session:
    """The board on the page and the engines behind it (see the module docstring)."""

    def __init__(self, specs: list[EngineSpec], loop: EngineLoop) -> None:
        self.cond = threading.Condition()
        self.version = 0
        self.loop = loop
        self.engines = [EngineProcess(spec) for spec in specs]
        self.choices: list[dict[str, Strength]] = [strength_choices({}) for _ in specs]
        self.game = Game()
        self.game_token = object()  # a new one per game: chess.engine sends ucinewgame
        self.mode = "play"
        self.players: dict[chess.Color, Player | None] = {
            chess.WHITE: None,
            chess.BLACK: Player(0, FIRST_STRENGTH),
        }
        self.analysis_on = False
        self.analysis_engine = 0
        self.multipv = 1
        self.review_wanted = False
        self.paused = False  # watching: stopped by the user
        self.halted = False  # an engine failed: no engine move until the user acts
        self.engine_error: str | None = None
        self.task: Task | None = None
        self.lines: list[dict[str, Any]] = []
        self.lines_for: tuple[int, int] | None = None  # (generation, ply) the lines belong to
        self.thinking: str | None = None  # who is thinking, for the page
        self.evals: dict[int, dict[str, Any]] = {}  # ply -> score (White's view)
        self.generation = 0

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
                self._changed()
            return
        with self.cond:
            self.choices[index] = strength_choices(engine.options)
            for color, player in self.players.items():
                if player is not None and player.engine == index and player.strength not in self.choices[index]:
                    self.players[color] = Player(index, "full")  # an engine without levels
            self._changed()

    def close(self) -> None:
        with self.cond:
            self._cancel_task()
        futures = [self.loop.submit(engine.quit()) for engine in self.engines]
        for future in futures:
            try:
                future.result(timeout=5)
            except Exception:
                pass

    # ------------------------------------------------------------ state
    def _changed(self) -> None:
        """Call with the lock held after any change the page should see."""
        self.version += 1
        self.cond.notify_all()

    def wait_state(self, after: int | None, timeout: float = LONG_POLL) -> dict[str, Any]:
        """The state, once its version differs from ``after`` (or after ``timeout``)."""
        with self.cond:
            if after is not None:
                self.cond.wait_for(lambda: self.version != after, timeout)
            return self.state()

    def _human_can_move(self) -> bool:
        game = self.game
        if self.mode == "analyse":
            return not (game.over() and game.cursor == game.plies)
        if self.mode == "watch" or game.over() or game.cursor != game.plies:
            return False
        return self.players[game.board.turn] is None

    def _engine_name(self, index: int) -> str:
        return self.engines[index].name

    def _player_name(self, color: chess.Color) -> str:
        player = self.players[color]
        if player is None:
            if self.mode == "play":
                return "You"
            return self.game.headers.get("White" if color else "Black", "?")  # a loaded game's players
        choice = self.choices[player.engine].get(player.strength)
        label = choice.label if choice is not None else "starting"
        return f"{self._engine_name(player.engine)} ({label})"

    def state(self) -> dict[str, Any]:
        """Everything the page shows, as JSON-ready data. Call with the lock held."""
        game = self.game
        board = game.view()
        last = None
        if game.cursor > 0:
            move = board.peek()
            last = {
                "from": chess.square_name(move.from_square),
                "to": chess.square_name(move.to_square),
                "toBoard": "AB"[board.board_at(move.to_square) or 0],
                "fromBoard": "BA"[board.board_at(move.to_square) or 0],
            }
        check = None
        if board.is_check():
            king = board.king(board.turn)
            assert king is not None
            check = {"square": chess.square_name(king), "board": "AB"[board.board_at(king) or 0]}
        pieces = []
        for square, piece in board.piece_map().items():
            pieces.append(
                {
                    "square": chess.square_name(square),
                    "piece": piece.symbol(),
                    "board": "AB"[board.board_at(square) or 0],
                }
            )
        legal = [board.uci(move) for move in board.legal_moves] if self._human_can_move() else []
        sans = game.sans()
        ending = game.ending
        # Analysis shows the lines of the position on view; play and watch the last search's.
        lines = self.lines if self.mode != "analyse" or self.lines_for == (self.generation, game.cursor) else []
        return {
            "version": self.version,
            "mode": self.mode,
            "fen": board.fen(),
            "turn": "white" if board.turn else "black",
            "pieces": pieces,
            "legal": legal,
            "lastMove": last,
            "check": check,
            "moves": sans,
            "ply": game.cursor,
            "rootFen": game.root_fen(),
            "firstMove": {
                "number": game.board.root().fullmove_number,
                "turn": "white" if game.board.root().turn else "black",
            },
            "result": None if ending is None else {"result": ending.result, "reason": ending.reason},
            "players": {
                "white": self._player_json(chess.WHITE),
                "black": self._player_json(chess.BLACK),
            },
            "names": {"white": self._player_name(chess.WHITE), "black": self._player_name(chess.BLACK)},
            "analysis": {"on": self.analysis_on, "engine": self.analysis_engine, "multipv": self.multipv},
            "thinking": self.thinking if self.task is not None else None,
            "paused": self.paused,
            "lines": lines,
            "linesPly": self.lines_for[1] if self.lines_for else None,
            "evals": [self.evals.get(ply) for ply in range(game.plies + 1)],
            "reviewing": self.task is not None and self.task.kind == "review",
            "engineError": self.engine_error,
            "engines": [
                {
                    "id": i,
                    "name": engine.name,
                    "strengths": [{"value": value, "label": s.label} for value, s in self.choices[i].items()],
                }
                for i, engine in enumerate(self.engines)
            ],
        }

    def _player_json(self, color: chess.Color) -> dict[str, Any] | None:
        player = self.players[color]
        return None if player is None else {"engine": player.engine, "strength": player.strength}

    # ------------------------------------------------------------ requests
    def _game_changed(self, keep_evals_to: int | None) -> None:
        """After the moves changed: a new generation, stale evaluations dropped."""
        self.generation += 1
        if keep_evals_to is None:
            self.evals = {}
        else:
            self.evals = {ply: s for ply, s in self.evals.items() if ply <= keep_evals_to}
        self._clear_failure()

    def _new_game(self, game: Game) -> None:
        self.game = game
        self.game_token = object()
        self.lines, self.lines_for = [], None
        self.review_wanted = False
        self.paused = False
        self._game_changed(None)

    def _parse_player(self, data: Any) -> Player:
        if not isinstance(data, dict):
            raise ApiError(400, 'an engine player must be an object like {"engine": 0, "strength": "full"}')
        engine, strength = data.get("engine"), data.get("strength", "full")
        if not isinstance(engine, int) or isinstance(engine, bool) or not 0 <= engine < len(self.engines):
            raise ApiError(400, f"engine must be a number from 0 to {len(self.engines) - 1}")
        if not isinstance(strength, str) or strength not in self.choices[engine]:
            raise ApiError(400, f"unknown strength {strength!r} for {self._engine_name(engine)}")
        return Player(engine, strength)

    def _parse_setup(self, data: Mapping[str, Any]) -> tuple[str, dict[chess.Color, Player | None]]:
        mode = data.get("mode", self.mode)
        if mode not in MODES:
            raise ApiError(400, f"mode must be one of {', '.join(MODES)}")
        players: dict[chess.Color, Player | None] = {chess.WHITE: None, chess.BLACK: None}
        if mode == "play":
            human = _color(data.get("side", "white"))
            players[not human] = self._parse_player(data.get("opponent", {"engine": 0}))
        elif mode == "watch":
            players[chess.WHITE] = self._parse_player(data.get("white", {"engine": 0}))
            players[chess.BLACK] = self._parse_player(data.get("black", {"engine": 0}))
        return mode, players

    def new_game(self, data: Mapping[str, Any]) -> None:
        """A new game from the start position with the players and mode in ``data``."""
        with self.cond:
            mode, players = self._parse_setup(data)
            self.mode, self.players = mode, players
            self._new_game(Game())
            self._update()

    def set_mode(self, data: Mapping[str, Any]) -> None:
        """Change the mode and players, keeping the game (e.g. analyse a finished game)."""
        with self.cond:
            mode, players = self._parse_setup(data)
            if self.game.plies and mode != self.mode:  # the game keeps who played it (for its PGN)
                for color, tag in ((chess.WHITE, "White"), (chess.BLACK, "Black")):
                    self.game.headers.setdefault(tag, self._player_name(color))
            self.mode, self.players = mode, players
            self.paused = False
            self._clear_failure()
            self._update()

    def move(self, text: Any) -> str:
        """Play the human's move (UCI or SAN); its SAN."""
        if not isinstance(text, str):
            raise ApiError(400, "move must be a string like e2e4 or Nf3")
        with self.cond:
            if not self._human_can_move():
                raise ApiError(409, self._why_no_move())
            ply = self.game.cursor
            try:
                san = self.game.play_text(text)
            except GameError as error:
                raise ApiError(400, str(error)) from None
            self._game_changed(ply)
            self._update()
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
            self._game_changed(game.plies)
            self._update()

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
            self._game_changed(self.game.plies)
            self._update()

    def goto(self, ply: Any) -> None:
        if not isinstance(ply, int) or isinstance(ply, bool):
            raise ApiError(400, "ply must be a whole number")
        with self.cond:
            try:
                self.game.goto(ply)
            except GameError as error:
                raise ApiError(400, str(error)) from None
            self._update()

    def load_fen(self, fen: Any) -> None:
        self._load("fen", Game.from_fen, fen)

    def load_pgn(self, pgn: Any) -> None:
        self._load("pgn", Game.from_pgn, pgn)

    def _load(self, what: str, parse: Callable[[str], Game], text: Any) -> None:
        """A new game from a FEN or PGN; a finished game is evaluated for the graph."""
        if not isinstance(text, str):
            raise ApiError(400, f"{what} must be a string")
        try:
            game = parse(text)
        except GameError as error:
            raise ApiError(400, str(error)) from None
        with self.cond:
            self._new_game(game)
            self.review_wanted = game.over()
            self._update()

    def export_pgn(self) -> str:
        with self.cond:
            return self.game.pgn(self._player_name(chess.WHITE), self._player_name(chess.BLACK))

    def set_analysis(self, data: Mapping[str, Any]) -> None:
        with self.cond:
            on, engine, multipv = (
                data.get("on", self.analysis_on),
                data.get("engine", self.analysis_engine),
                data.get("multipv", self.multipv),
            )
            if not isinstance(on, bool):
                raise ApiError(400, "on must be true or false")
            if not isinstance(engine, int) or isinstance(engine, bool) or not 0 <= engine < len(self.engines):
                raise ApiError(400, f"engine must be a number from 0 to {len(self.engines) - 1}")
            if not isinstance(multipv, int) or isinstance(multipv, bool) or not 1 <= multipv <= MAX_MULTIPV:
                raise ApiError(400, f"multipv must be 1 to {MAX_MULTIPV}")
            if on and self.mode != "analyse":
                raise ApiError(409, "switch to Analyse to run the analysis")
            self.analysis_on, self.analysis_engine, self.multipv = on, engine, multipv
            self._clear_failure()
            self._update()

    def review(self) -> None:
        """Evaluate every position of the game (for the graph) when nothing else runs."""
        with self.cond:
            self.review_wanted = True
            self._clear_failure()
            self._update()

    def stop(self) -> None:
        """The engine plays its best move now; watching pauses; analysis stops."""
        with self.cond:
            task = self.task
            if self.mode == "watch":
                self.paused = True
            if self.mode == "analyse":
                self.analysis_on = False
            self.review_wanted = False
            if task is not None:
                if task.kind != "move":
                    self._cancel_task()
                else:
                    self.loop.call(task.stop.set)
            self._update()

    def go(self) -> None:
        """Resume: watching goes on, a halted engine tries again, analysis starts."""
        with self.cond:
            self.paused = False
            self._clear_failure()
            if self.mode == "analyse":
                self.analysis_on = True
            self._update()

    # ------------------------------------------------------------ scheduling
    def _wanted(self) -> tuple[str, tuple[Any, ...], int] | None:
        """The search that should run now: (kind, key, engine), or ``None``."""
        game = self.game
        at_end = game.cursor == game.plies
        if self.mode in ("play", "watch") and at_end and not game.over() and not self.halted and not self.paused:
            player = self.players[game.board.turn]
            if player is not None:
                return "move", ("move", self.generation, player), player.engine
        if self.mode == "analyse" and self.analysis_on and not self.halted:
            if not (game.over() and at_end):
                key = ("analyse", self.generation, game.cursor, self.analysis_engine, self.multipv)
                return "analyse", key, self.analysis_engine
        if self.review_wanted and not self.halted and self._unreviewed() is not None:
            return "review", ("review", self.generation, self.analysis_engine), self.analysis_engine
        return None

    def _unreviewed(self) -> int | None:
        """The first ply without an evaluation."""
        for ply in range(self.game.plies + 1):
            if ply not in self.evals:
                return ply
        return None

    def _clear_failure(self) -> None:
        """The user acted after an engine failure: engines may move again. Lock held."""
        self.halted = False
        self.engine_error = None

    def _update(self) -> None:
        """Start/stop engine work to match the state, then publish. Lock held."""
        if self.game.over() and self.mode in ("play", "watch"):
            self.review_wanted = True
        wanted = self._wanted()
        task = self.task
        if task is not None and (wanted is None or wanted[1] != task.key):
            self._cancel_task()
        if wanted is not None and self.task is None:
            kind, key, engine = wanted
            task = Task(kind, key, engine)
            self.task = task
            self.thinking = self._thinking_label(kind, engine)
            self.loop.submit(self._run(task))
        self._changed()

    def _thinking_label(self, kind: str, engine: int) -> str:
        name = self._engine_name(engine)
        return {"move": f"{name} is thinking", "analyse": f"{name} is analysing"}.get(
            kind, f"{name} is evaluating the game"
        )

    def _cancel_task(self) -> None:
        task = self.task
        if task is not None:
            task.cancelled = True
            self.loop.call(task.stop.set)
            self.task = None

    async def _run(self, task: Task) -> None:
        try:
            if task.kind == "review":
                await self._run_review(task)
            else:
                await self._run_search(task)
        except Exception as error:  # an EngineFailure, or a bug: either way the page hears of it
            message = str(error) if isinstance(error, EngineFailure) else f"internal error: {error!r}"
            with self.cond:
                if self.task is task:
                    self.task = None
                    self.halted = True
                    self.engine_error = message
                    self._changed()
            return
        with self.cond:
            if self.task is task:
                self.task = None
                self._update()

    async def _run_search(self, task: Task) -> None:
        engine = self.engines[task.engine]
        await engine.warm_up()  # its options decide what a strength choice sets
        with self.cond:
            if task.cancelled:
                return
            board = self.game.view()
            generation, ply = self.generation, self.game.cursor
            player = self.players[board.turn] if task.kind == "move" else None
            token = self.game_token
            multipv = self.multipv if task.kind == "analyse" else 1
            choices = strength_choices(engine.options)
            if player is not None:
                strength = choices.get(player.strength, choices["full"])
                options, limit = dict(strength.options), strength.limit
            else:
                options, limit = dict(choices["full"].options), None
            self.lines, self.lines_for = [], (generation, ply)
        if task.kind == "move" and self.mode == "watch":
            await asyncio.sleep(WATCH_PAUSE)

        def on_info(info: chess.engine.InfoDict) -> None:
            self._on_info(task, board, generation, ply, info)

        best = await engine.search(SearchRequest(board, limit, options, multipv, token), on_info, task.stop)
        if task.kind != "move" or best is None or task.cancelled:
            return
        with self.cond:
            if self.task is not task or self.generation != generation:
                return
            if best.move is None or not board.is_legal(best.move):
                self.task = None
                self.halted = True
                self.engine_error = f"{engine.name} sent no legal move (bestmove {best.move})"
                self._changed()
                return
            self.game.play(best.move)
            self._game_changed(ply)

    def _on_info(self, task: Task, board: AliceBoard, generation: int, ply: int, info: chess.engine.InfoDict) -> None:
        if "score" not in info or not info.get("pv"):
            return
        with self.cond:
            if task.cancelled or self.task is not task or self.generation != generation:
                return
            multipv = info.get("multipv", 1)
            score = score_json(info["score"], board.turn)
            if not 1 <= multipv <= MAX_MULTIPV or score is None:
                return
            line = {
                "multipv": multipv,
                "depth": info.get("depth"),
                "nodes": info.get("nodes"),
                "nps": info.get("nps"),
                "score": score,
                "pv": pv_san(board, info.get("pv", [])),
            }
            while len(self.lines) < multipv:
                self.lines.append({})
            self.lines[multipv - 1] = line
            if multipv == 1:
                self.evals[ply] = score
            self._changed()

    async def _run_review(self, task: Task) -> None:
        """Evaluate each position without an evaluation, at ``REVIEW_NODES`` each."""
        engine = self.engines[task.engine]
        await engine.warm_up()
        while True:
            with self.cond:
                if task.cancelled:
                    return
                ply = self._unreviewed()
                if ply is None:
                    self.review_wanted = False
                    return
                board = self.game.view(ply)
                generation = self.generation
                options = dict(strength_choices(engine.options)["full"].options)  # undoes any level
                token = self.game_token
            if board.is_game_over():
                score = {"cp": 0, "mate": None, "text": "0.00"}
                if board.is_checkmate():
                    white_won = board.turn == chess.BLACK
                    score = {"cp": MATE if white_won else -MATE, "mate": 0, "text": "1-0" if white_won else "0-1"}
                with self.cond:
                    if self.generation == generation:
                        self.evals[ply] = score
                        self._changed()
                continue
            found: dict[str, Any] = {}

            def on_info(info: chess.engine.InfoDict) -> None:
                if "score" in info and info.get("multipv", 1) == 1:
                    found["score"] = score_json(info["score"], board.turn)

            request = SearchRequest(board, chess.engine.Limit(nodes=REVIEW_NODES), options, 1, token)
            await engine.search(request, on_info, task.stop)
            with self.cond:
                if task.cancelled or self.generation != generation:
                    return
                self.evals[ply] = found.get("score") or {"cp": 0, "mate": None, "text": "?"}
                self._changed()
