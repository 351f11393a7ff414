"""The API's input checked: each request's JSON fields turned into typed values, or ``ApiError``.

Pure functions of the request body (and of the menus they choose from); nothing here
changes the board. ``ApiError`` carries the HTTP status (4xx) and a message for the page.

>>> parse_color("white")
True
>>> parse_whole_number("ply", 3)
3
>>> parse_whole_number("ply", True)
Traceback (most recent call last):
...
gui.requests.ApiError: ply must be a whole number
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import chess

from gui.state import MODES, Player
from gui.strength import Strength

MAX_MULTIPV = 3  # analysis lines shown


class ApiError(Exception):
    """A request that cannot be carried out: the HTTP status and a message for the page."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Setup:
    """Who plays: the mode and, for each side, an engine player or ``None`` (a person)."""

    mode: str
    players: dict[chess.Color, Player | None]


@dataclass(frozen=True)
class AnalysisSettings:
    on: bool
    engine: int
    multipv: int


def parse_color(text: Any) -> chess.Color:
    if text not in ("white", "black"):
        raise ApiError(400, "side must be 'white' or 'black'")
    return bool(text == "white")


def parse_whole_number(name: str, value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ApiError(400, f"{name} must be a whole number")
    return value


def parse_string(name: str, value: Any, example: str) -> str:
    if not isinstance(value, str):
        raise ApiError(400, f"{name} must be a string{example}")
    return value


def parse_engine(value: Any, count: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < count:
        raise ApiError(400, f"engine must be a number from 0 to {count - 1}")
    return value


def parse_player(data: Any, choices: Sequence[Mapping[str, Strength]], names: Sequence[str]) -> Player:
    """``{"engine": i, "strength": value}``: an engine of the command line and one of its strengths."""
    if not isinstance(data, dict):
        raise ApiError(400, 'an engine player must be an object like {"engine": 0, "strength": "full"}')
    engine = parse_engine(data.get("engine"), len(choices))
    strength = data.get("strength", "full")
    if not isinstance(strength, str) or strength not in choices[engine]:
        raise ApiError(400, f"unknown strength {strength!r} for {names[engine]}")
    return Player(engine, strength)


def parse_setup(
    data: Mapping[str, Any], mode_now: str, choices: Sequence[Mapping[str, Strength]], names: Sequence[str]
) -> Setup:
    """``{mode, side, opponent}`` (play), ``{mode, white, black}`` (watch) or ``{mode}`` (analyse)."""
    mode = data.get("mode", mode_now)
    if mode not in MODES:
        raise ApiError(400, f"mode must be one of {', '.join(MODES)}")
    players: dict[chess.Color, Player | None] = {chess.WHITE: None, chess.BLACK: None}
    if mode == "play":
        human = parse_color(data.get("side", "white"))
        players[not human] = parse_player(data.get("opponent", {"engine": 0}), choices, names)
    elif mode == "watch":
        players[chess.WHITE] = parse_player(data.get("white", {"engine": 0}), choices, names)
        players[chess.BLACK] = parse_player(data.get("black", {"engine": 0}), choices, names)
    return Setup(str(mode), players)


def parse_analysis(data: Mapping[str, Any], now: AnalysisSettings, engine_count: int) -> AnalysisSettings:
    """``{on, engine, multipv}``, each optional (the current setting stays)."""
    on = data.get("on", now.on)
    engine = data.get("engine", now.engine)
    multipv = data.get("multipv", now.multipv)
    if not isinstance(on, bool):
        raise ApiError(400, "on must be true or false")
    engine = parse_engine(engine, engine_count)
    if not isinstance(multipv, int) or isinstance(multipv, bool) or not 1 <= multipv <= MAX_MULTIPV:
        raise ApiError(400, f"multipv must be 1 to {MAX_MULTIPV}")
    return AnalysisSettings(on, engine, multipv)
