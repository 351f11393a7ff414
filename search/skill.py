"""Playing weaker on purpose, for people: ``Skill Level`` and ``UCI_LimitStrength`` + ``UCI_Elo``.

A weakened search is an ordinary search with a small node budget and a few root lines
(MultiPV); the move is then drawn among those lines with a probability that falls with
how much worse each is than the best (``exp(-loss / temperature)``), and never one that
loses more than the level's ``margin``. So a weak level misses tactics a deeper search
would see and sometimes prefers a slightly worse move, but it does not give away its
queen for nothing: a move that loses more than the margin (300 cp at the lowest level,
less above) is never played, and a mate it sees is always played.

Everything here is a pure function of the level (and of the ``random.Random`` passed in,
so tests are repeatable). The skill is a number from 0 to 20 (20: full strength, no
weakening); ``UCI_Elo`` is turned into a skill through ``ELO_TABLE``, the calibration
measured with ``alice-match`` (README, "Play in the browser").

>>> plan(0).nodes, plan(10).nodes, plan(19).nodes
(150, 1000, 8000)
>>> skill_of_elo(ELO_MIN), skill_of_elo(ELO_MAX)
(0.0, 19.0)
"""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass, replace
from typing import Final

from engine.tables import Move
from search.limits import Iteration, Limits
from search.score import MATE, MATE_BOUND

# ---------------------------------------------------------------- tunables
SKILL_MAX: Final = 20  # Skill Level at full strength (no weakening)
SKILL_NODES: Final = ((0, 150), (5, 400), (10, 1000), (15, 3000), (19, 8000))  # (skill, node budget)
SKILL_MARGIN: Final = ((0, 300), (5, 200), (10, 120), (15, 60), (19, 25))  # (skill, cp it may lose at most)
SKILL_TEMPERATURE: Final = ((0, 150), (5, 90), (10, 50), (15, 25), (19, 10))  # (skill, cp of the softmax)
SKILL_LINES: Final = ((0, 4), (10, 4), (15, 3), (19, 2))  # (skill, root lines searched)
# (skill, Elo) measured with alice-match at fixed nodes, random mover = 500 (README, "Levels").
ELO_TABLE: Final = ((0.0, 1440), (5.0, 1690), (10.0, 1840), (15.0, 2140), (19.0, 2520))
ELO_MIN: Final = ELO_TABLE[0][1]
ELO_MAX: Final = ELO_TABLE[-1][1]


@dataclass(frozen=True)
class Plan:
    """How a weakened search is run and its move chosen."""

    skill: float
    nodes: int  # node budget of the search
    lines: int  # root lines (MultiPV) searched to choose among
    margin: int  # centipawns: no move worse than the best by more than this
    temperature: float  # centipawns: the softmax scale of the choice


def _interpolate(table: tuple[tuple[float, float], ...], x: float) -> float:
    """Piecewise-linear through ``table`` ((x, y) increasing in x), flat beyond its ends."""
    if x <= table[0][0]:
        return table[0][1]
    for (x0, y0), (x1, y1) in itertools.pairwise(table):
        if x <= x1:
            return y0 + (y1 - y0) * (x - x0) / (x1 - x0)
    return table[-1][1]


def skill_of_elo(elo: int) -> float:
    """The skill that plays at ``elo`` on the calibrated scale (clamped to the table)."""
    inverse = tuple((float(e), s) for s, e in ELO_TABLE)
    return round(_interpolate(inverse, elo), 2)


def skill_from_options(limit_strength: bool, elo: int, skill_level: int) -> float | None:
    """The skill the options ask for, ``None`` for full strength. ``UCI_LimitStrength``
    with ``UCI_Elo`` wins over ``Skill Level``, as in Stockfish.

    >>> skill_from_options(False, 1500, 20) is None
    True
    >>> skill_from_options(True, 1690, 20), skill_from_options(False, 1690, 7)
    (5.0, 7.0)
    """
    if limit_strength:
        return skill_of_elo(elo)
    if skill_level < SKILL_MAX:
        return float(max(0, skill_level))
    return None


def plan(skill: float) -> Plan:
    """The search budget and choice of a skill from 0 to 19.x."""
    return Plan(
        skill=skill,
        nodes=round(_interpolate(SKILL_NODES, skill)),
        lines=round(_interpolate(SKILL_LINES, skill)),
        margin=round(_interpolate(SKILL_MARGIN, skill)),
        temperature=_interpolate(SKILL_TEMPERATURE, skill),
    )


def search_limits(limits: Limits, p: Plan) -> Limits:
    """``limits`` with the plan's node budget (never more than asked) and enough lines."""
    nodes = min(limits.nodes, p.nodes) if limits.nodes else p.nodes
    return replace(limits, nodes=nodes, multipv=max(limits.multipv, p.lines))


def centipawns(it: Iteration) -> int:
    """A line's score in centipawns for the side to move, mates as ``±(MATE - n)``."""
    if it.mate is not None:
        return MATE - abs(it.mate) if it.mate > 0 else -MATE + abs(it.mate)
    return it.score


def merge_lines(latest: dict[int, Iteration], previous: dict[int, Iteration]) -> list[Iteration]:
    """The root lines to choose among: those of the latest iteration (by line number),
    then the previous iteration's for the moves an unfinished latest one has not reached.

    >>> old = {1: Iteration(1, 1, 1, 30, None, 0, 0, [7], 0), 2: Iteration(1, 1, 2, 10, None, 0, 0, [8], 0)}
    >>> [it.pv[0] for it in merge_lines({1: Iteration(2, 2, 1, 5, None, 0, 0, [8], 0)}, old)]
    [8, 7]
    """
    lines = [it for it in latest.values() if it.pv]
    seen = {it.pv[0] for it in lines}
    return lines + [it for it in previous.values() if it.pv and it.pv[0] not in seen]


def choose(lines: list[Iteration], p: Plan, rng: random.Random) -> Move | None:
    """The move to play from the root ``lines`` of one iteration (any order); ``None`` if none.

    >>> from search.limits import Iteration
    >>> line = lambda move, cp: Iteration(3, 3, 1, cp, None, 0, 0, [move], 0)
    >>> choose([line(11, 50), line(22, -400)], plan(0), random.Random(1))  # 450 cp worse: never
    11
    """
    scored = [(centipawns(it), it.pv[0]) for it in lines if it.pv]
    if not scored:
        return None
    best = max(score for score, _ in scored)
    if best >= MATE_BOUND:  # a mate it has seen is always played
        return next(move for score, move in scored if score == best)
    allowed = [(best - score, move) for score, move in scored if best - score <= p.margin]
    weights = [math.exp(-loss / p.temperature) for loss, _ in allowed]
    return rng.choices([move for _, move in allowed], weights)[0]
