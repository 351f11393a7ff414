"""The strength menu of an engine, built from the UCI options it offers.

>>> import chess.engine
>>> skill = chess.engine.Option("Skill Level", "spin", 20, 0, 20, None)
>>> menu = strength_choices({"Skill Level": skill})
>>> menu["level:1"].options, menu["full"].options
({'Skill Level': 0}, {'Skill Level': 20})
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import chess.engine

LEVEL_COUNT = 8  # levels offered when the engine has UCI_Elo (or Skill Level)
LEVEL_MOVE_TIME = 1.0  # seconds per move at a level and at full strength
TIME_CHOICES = (0.2, 0.5, 1.0, 2.0, 5.0, 10.0)  # seconds per move offered
NODE_CHOICES = (1000, 10_000, 100_000, 1_000_000)  # nodes per move offered


@dataclass(frozen=True)
class Strength:
    """A strength choice: the UCI options it sets and the limit of each move."""

    label: str
    options: Mapping[str, chess.engine.ConfigValue]
    limit: chess.engine.Limit


def strength_choices(options: Mapping[str, chess.engine.Option]) -> dict[str, Strength]:
    """The strength menu of an engine with these UCI ``options``, by value.

    Levels come from ``UCI_LimitStrength`` + ``UCI_Elo`` (``LEVEL_COUNT`` Elo values
    spread over the engine's range), else from ``Skill Level``; then full strength,
    times per move and node counts.
    """
    choices: dict[str, Strength] = {}
    full: dict[str, chess.engine.ConfigValue] = {}
    move_time = chess.engine.Limit(time=LEVEL_MOVE_TIME)
    elo, limit_strength, skill = options.get("UCI_Elo"), options.get("UCI_LimitStrength"), options.get("Skill Level")
    if elo is not None and limit_strength is not None and elo.min is not None and elo.max is not None:
        full["UCI_LimitStrength"] = False
        for n in range(LEVEL_COUNT):
            value = round((elo.min + (elo.max - elo.min) * n / (LEVEL_COUNT - 1)) / 10) * 10
            value = max(elo.min, min(elo.max, value))
            choices[f"level:{n + 1}"] = Strength(
                f"Level {n + 1} (Elo {value})", {"UCI_LimitStrength": True, "UCI_Elo": value}, move_time
            )
    elif skill is not None and skill.min is not None and skill.max is not None:
        full["Skill Level"] = skill.max
        for n in range(LEVEL_COUNT):
            value = round(skill.min + (skill.max - skill.min) * n / LEVEL_COUNT)
            choices[f"level:{n + 1}"] = Strength(f"Level {n + 1} (skill {value})", {"Skill Level": value}, move_time)
    choices["full"] = Strength(f"Full strength, {LEVEL_MOVE_TIME:g} s per move", full, move_time)
    for seconds in TIME_CHOICES:
        choices[f"time:{seconds:g}"] = Strength(f"{seconds:g} s per move", full, chess.engine.Limit(time=seconds))
    for nodes in NODE_CHOICES:
        choices[f"nodes:{nodes}"] = Strength(f"{nodes:,} nodes per move", full, chess.engine.Limit(nodes=nodes))
    return choices
