"""What the board server knows at any moment: ``BoardState``, shared by its three jobs.

``gui.session`` changes it on requests, ``gui.scheduler`` runs the engine search it calls
for, ``gui.view`` turns it into the page's JSON. One lock (``cond``, a ``Condition``)
guards every field; ``changed()`` (lock held) bumps ``version`` and wakes the pages
long-polling for a new state.
"""

from __future__ import annotations

import asyncio
import threading
from dataclasses import dataclass, field
from typing import Any

import chess

from gui.clock import Clock, TimeControl
from gui.engines import EngineLoop, EngineProcess, EngineSpec
from gui.game import Game
from gui.strength import Strength, strength_choices
from tablebase.probe import Tablebases

MODES = ("play", "analyse", "watch")
FIRST_STRENGTH = "level:4"  # the opponent before anyone chooses: a middle level (full strength if none)


@dataclass(frozen=True)
class Player:
    """An engine playing one side: which engine, and how strong (a strength choice value)."""

    engine: int
    strength: str


@dataclass
class Task:
    """One engine search the scheduler started."""

    kind: str  # "move", "analyse" or "review"
    key: tuple[Any, ...]  # what it is for: a different wanted key replaces it
    engine: int
    stop: asyncio.Event = field(default_factory=asyncio.Event)
    cancelled: bool = False  # its result is no longer wanted


class BoardState:
    """The one board of the server (seen by every open tab) and the engines behind it."""

    def __init__(self, specs: list[EngineSpec], loop: EngineLoop) -> None:
        self.cond = threading.Condition()
        self.version = 0
        self.loop = loop
        self.engines = [EngineProcess(spec) for spec in specs]
        self.choices: list[dict[str, Strength]] = [strength_choices({}) for _ in specs]
        self.game = Game()
        self.tablebases: Tablebases | None = None  # --tb: endgame tables, shown in the status line
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
        self.lines_for: int | None = None  # the node (position) the lines belong to
        self.thinking: str | None = None  # who is thinking, for the page
        self.note: str | None = None  # a word for the page about the last load (which game of a PGN)
        self.time_control: TimeControl | None = None  # the clock chosen for games in Play (None: untimed)
        self.clock: Clock | None = None  # the clocks of the game in Play, if it is timed

    def changed(self) -> None:
        """Call with the lock held after any change the page should see."""
        self.version += 1
        self.cond.notify_all()

    def clear_failure(self) -> None:
        """The user acted after an engine failure: engines may move again. Lock held."""
        self.halted = False
        self.engine_error = None

    def game_changed(self) -> None:
        """After the moves changed: engines may move again. Lock held."""
        self.clear_failure()

    def human(self) -> chess.Color | None:
        """The side the person plays in Play (``None`` when no side or both are people)."""
        people = [color for color, player in self.players.items() if player is None]
        return people[0] if self.mode == "play" and len(people) == 1 else None

    def engine_name(self, index: int) -> str:
        return self.engines[index].name

    def human_can_move(self) -> bool:
        game = self.game
        if self.mode == "analyse":
            return game.current.ending is None
        if self.mode == "watch" or game.over() or game.cursor != game.plies:
            return False
        return self.players[game.turn] is None

    def player_name(self, color: chess.Color) -> str:
        player = self.players[color]
        if player is None:
            if self.mode == "play":
                return "You"
            return self.game.headers.get("White" if color else "Black", "?")  # a loaded game's players
        choice = self.choices[player.engine].get(player.strength)
        label = choice.label if choice is not None else "starting"
        return f"{self.engine_name(player.engine)}, {label}"  # e.g. "alice-engine, Level 1 (Elo 1440)"
