"""Which engine search should run, and running it: ``Scheduler``.

After every change ``update()`` (lock held) works out the search the state calls for
(the engine's move, live analysis, or the post-game review), cancels a search that is
no longer wanted and starts the wanted one on the engine loop. Results come back on the
loop thread and are written into the state under its lock, only while still wanted.
Engine failures go to ``engine_error`` and halt the engines until the user acts.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import chess
import chess.engine

from engine.board import AliceBoard
from gui.clock import Clock, flag_verdict
from gui.engines import EngineFailure, SearchRequest
from gui.game import Ending, Evaluation, Game, Node
from gui.requests import MAX_MULTIPV
from gui.state import BoardState, Task
from gui.strength import strength_choices
from gui.view import evaluation_json, evaluation_of, pv_moves, pv_san
from search.score import MATE

REVIEW_NODES = 5000  # nodes per position when the finished game is evaluated
WATCH_PAUSE = 0.6  # seconds between moves when watching engines, so each can be seen
MIN_CLOCK = 0.001  # seconds: the least time left told to an engine (UCI wants a positive wtime)


class Scheduler:
    """Starts and stops the engine searches of one ``BoardState``."""

    def __init__(self, state: BoardState) -> None:
        self.state = state
        self.finished: tuple[Any, ...] | None = None  # an analysis the engine ended by itself: not run again
        self.flag_watch: float | None = None  # the flag time a timer is set for

    def wanted(self) -> tuple[str, tuple[Any, ...], int] | None:
        """The search that should run now: (kind, key, engine), or ``None``. A key names the
        position (a node id, never reused) and the settings: a new key replaces the search."""
        s = self.state
        game = s.game
        at_end = game.cursor == game.plies
        if s.mode in ("play", "watch") and at_end and not game.over() and not s.halted and not s.paused:
            player = s.players[game.turn]
            if player is not None:
                return "move", ("move", game.current.id, player), player.engine
        if s.mode == "analyse" and s.analysis_on and not s.halted and game.current.ending is None:
            key = ("analyse", game.current.id, s.analysis_engine, s.multipv)
            return "analyse", key, s.analysis_engine
        if s.review_wanted and not s.halted and self.unreviewed() is not None:
            return "review", ("review", s.game_token, s.analysis_engine), s.analysis_engine
        return None

    def unreviewed(self) -> Node | None:
        """The first position of the line on view without an evaluation."""
        game = self.state.game
        return next((node for node in [game.root, *game.line()] if node.evaluation is None), None)

    def update(self) -> None:
        """Start/stop engine work to match the state, then publish. Lock held."""
        s = self.state
        if s.game.over() and s.mode in ("play", "watch"):
            s.review_wanted = True
        self._watch_clock()
        wanted = self.wanted()
        task = s.task
        if task is not None and (wanted is None or wanted[1] != task.key):
            self.cancel()
        if wanted is not None and s.task is None and wanted[1] != self.finished:
            kind, key, engine = wanted
            task = Task(kind, key, engine)
            s.task = task
            s.thinking = self._thinking_label(kind, engine)
            s.loop.submit(self._run(task))
        s.changed()

    # ------------------------------------------------------------ clocks
    def _watch_clock(self) -> None:
        """Stop the clocks of a finished game; set a timer for the running clock's flag. Lock held."""
        s = self.state
        clock = s.clock
        if clock is None:
            return
        if clock.running and s.game.over():
            s.clock = clock.stop(time.monotonic())
            return
        deadline = clock.deadline()
        if deadline is not None and deadline != self.flag_watch:
            self.flag_watch = deadline
            s.loop.call_later(max(0.0, deadline - time.monotonic()), self._on_flag_timer)

    def _on_flag_timer(self) -> None:
        """A clock's flag time came (on the engine loop): end the game if it is still running out."""
        with self.state.cond:
            if not self.check_flag():
                clock = self.state.clock
                if clock is not None and clock.deadline() == self.flag_watch:
                    self.flag_watch = None  # early (a timer's rounding): set it again
                    self._watch_clock()

    def check_flag(self) -> bool:
        """If the running clock has passed zero, the game ends on time (a loss, or a draw when
        the other side has only its king); true if it did. Lock held."""
        s = self.state
        clock = s.clock
        now = time.monotonic()
        if clock is None or not clock.flagged(now) or s.game.over():
            return False
        flagged = clock.turn
        game = s.game.copy()
        bare = game.board_at(game.line_end()).has_insufficient_material(not flagged)
        result, reason = flag_verdict(flagged, bare)
        game.end(Ending(result, reason, "time forfeit"))
        s.game = game
        s.clock = clock.stop(now)
        s.game_changed()
        self.update()
        return True

    def press_clock(self, game: Game, mover: chess.Color) -> Clock:
        """The clocks after ``mover`` played the last move of ``game`` (its node keeps the time
        left, for PGN's ``[%clk]``). Lock held, ``state.clock`` set."""
        clock = self.state.clock
        assert clock is not None
        now = time.monotonic()
        clock = clock.press(mover, now)
        game.current.clock = max(0.0, clock.left(mover, now))
        return clock

    def clock_at(self, game: Game) -> Clock:
        """The clocks as they were at the position on view (after a take back): each side's
        time after its last move there, the side to move's running unless no move was played."""
        clock = self.state.clock
        assert clock is not None
        left = {chess.WHITE: clock.control.base, chess.BLACK: clock.control.base}
        for node in game.path(game.current):
            if node.clock is not None:
                left[not (game.root_board.turn ^ (node.ply % 2 == 1))] = node.clock
        return Clock.at(
            clock.control, left[chess.WHITE], left[chess.BLACK], game.turn, time.monotonic(), game.current.ply > 0
        )

    def _thinking_label(self, kind: str, engine: int) -> str:
        name = self.state.engine_name(engine)
        return {"move": f"{name} is thinking", "analyse": f"{name} is analysing"}.get(
            kind, f"{name} is evaluating the game"
        )

    def cancel(self) -> None:
        """Drop the running search (its result is ignored). Lock held."""
        s = self.state
        task = s.task
        if task is not None:
            task.cancelled = True
            s.loop.call(task.stop.set)
            s.task = None

    def move_now(self) -> None:
        """The engine searching for its move answers at once; other searches are dropped. Lock held."""
        task = self.state.task
        if task is not None:
            if task.kind != "move":
                self.cancel()
            else:
                self.state.loop.call(task.stop.set)

    def _fail(self, task: Task, message: str) -> None:
        """An engine failed while ``task`` was wanted: halt and tell the page. Lock held."""
        s = self.state
        if s.task is task:
            s.task = None
            s.halted = True
            s.engine_error = message
            s.changed()

    async def _run(self, task: Task) -> None:
        s = self.state
        try:
            if task.kind == "review":
                await self._run_review(task)
            else:
                await self._run_search(task)
        except Exception as error:  # an EngineFailure, or a bug: either way the page hears of it
            message = str(error) if isinstance(error, EngineFailure) else f"internal error: {error!r}"
            with s.cond:
                self._fail(task, message)
            return
        with s.cond:
            if s.task is task:
                s.task = None
                if task.kind == "analyse":
                    self.finished = task.key  # e.g. a mate found, or an engine that answers go infinite at once
                self.update()

    async def _run_search(self, task: Task) -> None:
        s = self.state
        engine = s.engines[task.engine]
        await engine.warm_up()  # its options decide what a strength choice sets
        with s.cond:
            if task.cancelled:
                return
            node = s.game.current
            board = s.game.view()
            player = s.players[board.turn] if task.kind == "move" else None
            token = s.game_token
            multipv = s.multipv if task.kind == "analyse" else 1
            choices = strength_choices(engine.options)
            if player is not None:
                strength = choices.get(player.strength, choices["full"])
                options, limit = dict(strength.options), strength.limit
                if s.clock is not None and s.mode == "play":
                    limit = clock_limit(s.clock, time.monotonic(), limit, player.strength)
            else:
                options, limit = dict(choices["full"].options), None
            s.lines, s.lines_for = [], node.id
        if task.kind == "move" and s.mode == "watch":
            await asyncio.sleep(WATCH_PAUSE)

        def on_info(info: chess.engine.InfoDict) -> None:
            self._on_info(task, board, node.id, info)

        best = await engine.search(SearchRequest(board, limit, options, multipv, token), on_info, task.stop)
        if task.kind != "move" or best is None or task.cancelled:
            return
        with s.cond:
            if s.task is not task or s.game.current.id != node.id:
                return
            if best.move is None or not board.is_legal(best.move):
                self._fail(task, f"{engine.name} sent no legal move (bestmove {best.move})")
                return
            if self.check_flag():
                return  # its time ran out before the move came
            game = s.game.copy()
            game.play(best.move)
            if s.clock is not None and s.mode == "play":
                s.clock = self.press_clock(game, board.turn)
            s.game = game
            s.game_changed()

    def _on_info(self, task: Task, board: AliceBoard, node_id: int, info: chess.engine.InfoDict) -> None:
        s = self.state
        if "score" not in info or not info.get("pv"):
            return
        with s.cond:
            if task.cancelled or s.task is not task:
                return
            multipv = info.get("multipv", 1)
            score = evaluation_of(info["score"])
            if not 1 <= multipv <= MAX_MULTIPV:
                return
            line = {
                "multipv": multipv,
                "depth": info.get("depth"),
                "nodes": info.get("nodes"),
                "nps": info.get("nps"),
                "score": evaluation_json(score),
                "pv": pv_san(board, info.get("pv", [])),
                "moves": pv_moves(board, info.get("pv", [])),
            }
            while len(s.lines) < multipv:
                s.lines.append({})
            s.lines[multipv - 1] = line
            node = s.game.node(node_id)
            if multipv == 1 and node is not None:
                node.evaluation = score
            s.changed()

    async def _run_review(self, task: Task) -> None:
        """Evaluate each position of the line on view without an evaluation, at ``REVIEW_NODES`` each."""
        s = self.state
        engine = s.engines[task.engine]
        await engine.warm_up()
        while True:
            with s.cond:
                if task.cancelled:
                    return
                node = self.unreviewed()
                if node is None:
                    s.review_wanted = False
                    return
                board = s.game.board_at(node)
                options = dict(strength_choices(engine.options)["full"].options)  # undoes any level
                token = s.game_token
            if board.is_game_over():
                score = Evaluation(0)
                if board.is_checkmate():
                    score = Evaluation(MATE if board.turn == chess.BLACK else -MATE, 0)
                with s.cond:
                    self._evaluated(node.id, score)
                continue
            found: list[Evaluation] = []

            def on_info(info: chess.engine.InfoDict) -> None:
                if "score" in info and info.get("multipv", 1) == 1:
                    found.append(evaluation_of(info["score"]))

            request = SearchRequest(board, chess.engine.Limit(nodes=REVIEW_NODES), options, 1, token)
            await engine.search(request, on_info, task.stop)
            with s.cond:
                if task.cancelled:
                    return
                self._evaluated(node.id, found[-1] if found else Evaluation(0, known=False))

    def _evaluated(self, node_id: int, score: Evaluation) -> None:
        """Keep an evaluation with its position (if the position is still in the game). Lock held."""
        node = self.state.game.node(node_id)
        if node is not None:
            node.evaluation = score
        self.state.changed()


def clock_limit(clock: Clock, now: float, limit: chess.engine.Limit, strength: str) -> chess.engine.Limit:
    """The engine's limit in a timed game: both clocks and increments (UCI ``wtime btime winc
    binc``); a node count or a time per move chosen as its strength stays as a cap on top.

    >>> from gui.clock import TimeControl
    >>> clock = Clock.fresh(TimeControl(60.0, 1.0))
    >>> clock_limit(clock, 0.0, chess.engine.Limit(nodes=1000), "nodes:1000")
    Limit(nodes=1000, white_clock=60.0, black_clock=60.0, white_inc=1.0, black_inc=1.0)
    """
    inc = clock.control.increment
    return chess.engine.Limit(
        time=limit.time if strength.startswith("time:") else None,
        nodes=limit.nodes,
        white_clock=max(MIN_CLOCK, clock.left(chess.WHITE, now)),
        black_clock=max(MIN_CLOCK, clock.left(chess.BLACK, now)),
        white_inc=inc,
        black_inc=inc,
    )
