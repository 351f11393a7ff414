"""Who plays whom, in which order, with which colours and which opening: the pairings of
round robins, gauntlets and knockouts, numbered game by game as cutechess-cli numbers them.

Engines are numbers 0..n-1 (the order of ``-engine``). A *pair* of engines plays an
*encounter* of ``games`` games in a row; unless ``swap`` is off the colours alternate from
one game of the pair to the next, and that alternation carries across rounds (so with
``-rounds 2`` each pair meets twice with the colours of its first game reversed).

- round robin: the circle method (one engine fixed, the others rotating; a bye when the
  count is odd), as cutechess. One difference: the fixed engine's colour alternates from
  round to round (cutechess gives it White in every round), so in a one-game round robin
  every engine has White in half its games, give or take one.
- gauntlet: the first ``seeds`` engines (default 1) each play all the others; the gauntlet
  engine's first colour alternates from one opponent to the next (cutechess: always White).
- knockout: a seeded single-elimination bracket (seed 1 meets seed n, ...; the top seeds get
  the byes; seeds 1 and 2 can meet only in the final). An encounter that ends level goes on,
  as in cutechess: with an odd ``games`` one more game at a time until someone leads; with an
  even ``games`` until someone leads after an even number of games or by 1.5 points. Games
  are handed out in *phases*: the encounters' first ``games`` games, then one tie-break
  game per level encounter once everything before it has finished, then the next round.
  So the schedule depends on results only, not on timing, and a run can be resumed.

Openings (cutechess's rule): with more than two engines a new encounter takes a new
opening; within an encounter (and in a two-engine match) each opening is played
``repeat`` times. ``policy="encounter"`` changes it only with the pair, ``"round"`` only
with the round.

>>> s = make_schedule("round-robin", 3)
>>> [(slot.white, slot.black, slot.round) for slot in iter(s.next_slot, None)]
[(1, 2, 1), (2, 0, 2), (0, 1, 3)]
"""

from __future__ import annotations

import itertools
import random
import sys
from abc import ABC, abstractmethod
from collections.abc import Iterator
from dataclasses import dataclass

KINDS = ("round-robin", "gauntlet", "knockout")
POLICIES = ("default", "encounter", "round")
BYE = -1  # the empty opponent of a knockout bye
WIN, DRAW, LOSS = 2, 1, 0  # half points, as cutechess counts encounter scores
UNLIMITED = sys.maxsize  # opening repetitions under the encounter and round policies


@dataclass
class Pair:
    """Two engines meeting; ``first`` has White in the pair's next game."""

    first: int
    second: int
    first_score: int = 0  # half points
    second_score: int = 0
    started: int = 0
    finished: int = 0
    original_order: bool = True

    @property
    def valid(self) -> bool:
        """``False`` for a bye."""
        return self.first != BYE and self.second != BYE

    def players(self) -> frozenset[int]:
        return frozenset((self.first, self.second))

    def swap(self) -> None:
        self.first, self.second = self.second, self.first
        self.first_score, self.second_score = self.second_score, self.first_score
        self.original_order = not self.original_order

    def add_score(self, player: int, half_points: int) -> None:
        if player == self.first:
            self.first_score += half_points
        else:
            self.second_score += half_points

    def score_of(self, player: int) -> int:
        return self.first_score if player == self.first else self.second_score

    def leader(self) -> int | None:
        """The engine ahead (the real one of a bye); ``None`` when level."""
        if not self.valid:
            return self.second if self.first == BYE else self.first
        if self.first_score == self.second_score:
            return None
        return self.first if self.first_score > self.second_score else self.second


@dataclass(frozen=True)
class Slot:
    """One scheduled game: its number (from 1), the engines, the round and the opening index."""

    number: int
    white: int
    black: int
    round: int
    opening: int


def needs_more_games(pair: Pair, games: int) -> bool:
    """Whether a finished-so-far knockout encounter is still undecided (cutechess's rule).

    >>> needs_more_games(Pair(0, 1, first_score=2, second_score=2, started=2, finished=2), 2)
    True
    >>> needs_more_games(Pair(0, 1, first_score=3, second_score=1, started=2, finished=2), 2)
    False
    """
    if not pair.valid:
        return False
    lead = max(pair.first_score, pair.second_score)
    if lead <= games:  # nobody has more than half the points of the encounter
        return True
    min_diff = 1 if games % 2 else 3
    diff = abs(pair.first_score - pair.second_score)
    if diff >= min_diff:
        return False
    if min_diff == 1 or diff == 0:
        return True
    return pair.started % 2 != 0  # an even-length encounter is extended two games at a time


class Schedule(ABC):
    """The games of a tournament, handed out one at a time by ``next_slot``."""

    kind = ""

    def __init__(
        self,
        players: int,
        games: int = 1,
        rounds: int = 1,
        *,
        repeat: int = 1,
        swap: bool = True,
        reverse: bool = False,
        policy: str = "default",
        seeds: int | None = None,
        seed: int = 0,
    ) -> None:
        if players < 2:
            raise ValueError("a tournament needs at least two engines")
        self.players = players
        self.games = games  # per encounter
        self.rounds = rounds  # how many times the whole cycle is played
        self.repeat = repeat if policy == "default" else UNLIMITED
        self.swap_sides = swap
        self.reverse = reverse
        self.policy = policy
        self.seeds = seeds
        self.seed = seed
        self.round = 1
        self.started = 0
        self.finished = 0
        self._pairs: dict[frozenset[int], Pair] = {}
        self._current: Pair | None = None  # the pair of the last game handed out
        self._in_play: dict[int, Pair] = {}
        self._opening = -1
        self._repetition = 0  # games played on the current opening (0: take a new one)
        self._opening_round = 0
        self._initialize()
        self.final_count = self.games_per_cycle() * games * rounds

    # ---------------------------------------------------------------- rules per kind
    @abstractmethod
    def _initialize(self) -> None: ...

    @abstractmethod
    def games_per_cycle(self) -> int:
        """Encounters in one cycle (``-rounds`` multiplies it, ``-games`` gives games per encounter)."""

    @abstractmethod
    def _next_pair(self) -> Pair | None:
        """The pair of the next game, or ``None`` if no game can start now."""

    def seed_count(self) -> int:
        """Engines listed first in the standings whatever their score (the gauntlet engines)."""
        return 0

    # ---------------------------------------------------------------- common rules
    def pair(self, white: int, black: int) -> Pair:
        """The pair of ``white`` and ``black``, created with ``white`` first if new."""
        key = frozenset((white, black))
        if key not in self._pairs:
            self._pairs[key] = Pair(white, black)
        return self._pairs[key]

    def in_progress(self) -> int:
        return self.started - self.finished

    def next_slot(self) -> Slot | None:
        """The next game to start, or ``None`` (all handed out, or waiting for results)."""
        pair = self._next_pair()
        if pair is None or not pair.valid:
            return None
        same = self._current is not None and pair.players() == self._current.players()
        if not same and self.reverse:
            pair.swap()
        if self._new_opening_due(same):
            self._repetition = 0
            self._opening_round = self.round
        self._current = pair
        pair.started += 1
        self.started += 1
        self.final_count = max(self.final_count, self.started)
        if 0 < self._repetition < self.repeat:
            self._repetition += 1
        else:
            self._opening += 1
            self._repetition = 1
        slot = Slot(self.started, pair.first, pair.second, self.round, self._opening)
        self._in_play[slot.number] = pair
        if self.swap_sides:
            pair.swap()
        return slot

    def _new_opening_due(self, same_pair: bool) -> bool:
        if self.policy == "round":
            return self.round > self._opening_round
        return not same_pair and self.players > 2

    def finish(self, slot: Slot, white_half_points: int) -> None:
        """Record the result of ``slot`` (2: White won, 1: draw, 0: Black won)."""
        pair = self._in_play.pop(slot.number)
        pair.add_score(slot.white, white_half_points)
        pair.add_score(slot.black, WIN - white_half_points)
        pair.finished += 1
        self.finished += 1

    def more_may_come(self) -> bool:
        """Whether ``next_slot`` may give a game later (when games in progress finish)."""
        return False


class RoundRobin(Schedule):
    """Everyone plays everyone (circle method), ``rounds`` times over."""

    kind = "round-robin"

    def _initialize(self) -> None:
        count = self.players + self.players % 2  # with a bye if odd
        self._top = list(range(count // 2))
        self._bottom = list(range(count - 1, count // 2 - 1, -1))
        self._board = 0

    def games_per_cycle(self) -> int:
        return self.players * (self.players - 1) // 2

    def _next_pair(self) -> Pair | None:
        if self.started >= self.final_count:
            return None
        if self.started % self.games != 0:
            return self._current
        while True:
            if self._board >= len(self._top):
                self._board = 0
                self.round += 1
                self._top.insert(1, self._bottom.pop(0))
                self._bottom.append(self._top.pop())
            board = self._board
            white, black = self._top[board], self._bottom[board]
            self._board += 1
            if white < self.players and black < self.players:
                if board == 0 and self.round % 2 == 0:
                    white, black = black, white  # the fixed engine alternates colours
                return self.pair(white, black)


class Gauntlet(Schedule):
    """The first ``seeds`` engines (default 1) each play all the others."""

    kind = "gauntlet"

    def _initialize(self) -> None:
        self._seeds = min(max(1, self.seeds or 1), self.players - 1)
        self._opponent = self._seeds
        self._player = 0

    def seed_count(self) -> int:
        return self._seeds

    def games_per_cycle(self) -> int:
        return (self.players - self._seeds) * self._seeds

    def _next_pair(self) -> Pair | None:
        if self.started >= self.final_count:
            return None
        if self.started % self.games != 0:
            return self._current
        if self._opponent >= self.players:
            self._opponent = self._seeds
            self._player += 1
            if self._player >= self._seeds:
                self._player = 0
                self.round += 1
        player, opponent = self._player, self._opponent
        self._opponent += 1
        if (player + opponent - self._seeds) % 2:
            return self.pair(opponent, player)
        return self.pair(player, opponent)


def bracket_order(size: int) -> list[int]:
    """Seed numbers (from 1) in bracket order: neighbours meet in the first round.

    >>> bracket_order(8)
    [1, 8, 4, 5, 2, 7, 3, 6]
    """
    order = [1]
    while len(order) < size:
        n = 2 * len(order)
        order = [s for seed in order for s in (seed, n + 1 - seed)]
    return order


class Knockout(Schedule):
    """Single elimination over a seeded bracket; see the module docstring for the phases."""

    kind = "knockout"

    def _initialize(self) -> None:
        size = 1
        while size < self.players:
            size *= 2
        self._size = size
        self.entrants = self._seeded_entrants()
        by_seed = [*self.entrants, *[BYE] * (size - self.players)]
        slots = [by_seed[s - 1] for s in bracket_order(size)]
        self._rounds: list[list[Pair]] = [self._make_round(slots)]
        self._queue = self._opening_phase()

    def _seeded_entrants(self) -> list[int]:
        """Engines by seed: the first ``seeds`` in order (all by default), the rest drawn at random."""
        seeded = self.players if self.seeds is None else min(self.seeds, self.players)
        rest = list(range(seeded, self.players))
        random.Random(self.seed).shuffle(rest)
        return [*range(seeded), *rest]

    def _make_round(self, slots: list[int]) -> list[Pair]:
        pairs = []
        for i in range(0, len(slots), 2):
            first, second = slots[i], slots[i + 1]
            pairs.append(self.pair(first, second) if first != BYE and second != BYE else Pair(first, second))
        return pairs

    def games_per_cycle(self) -> int:
        return self.players - 1

    def seed_count(self) -> int:
        return 0

    @property
    def bracket(self) -> list[list[Pair]]:
        return self._rounds

    def _opening_phase(self) -> Iterator[Pair]:
        """Each pair of the round ``games`` times in a row, handed out one at a time (never a
        list: ``-games`` may be huge)."""
        valid = [pair for pair in self._rounds[-1] if pair.valid]
        return itertools.chain.from_iterable(itertools.repeat(pair, self.games) for pair in valid)

    def _next_pair(self) -> Pair | None:
        pair = next(self._queue, None)
        if pair is not None:
            return pair
        if self.in_progress():
            return None  # a phase ends when all its games have finished
        tie_breaks = [p for p in self._rounds[-1] if needs_more_games(p, self.games)]
        if tie_breaks:
            self._queue = iter(tie_breaks)
        else:
            winners = [p.leader() for p in self._rounds[-1]]
            if len(winners) <= 1:
                return None
            self._rounds.append(self._make_round([w for w in winners if w is not None]))
            self.round += 1
            self._queue = self._opening_phase()
        return next(self._queue, None)

    def more_may_come(self) -> bool:
        return self.in_progress() > 0

    def champion(self) -> int | None:
        final = self._rounds[-1]
        if len(final) == 1 and not needs_more_games(final[0], self.games) and not self.in_progress():
            return final[0].leader()
        return None


SCHEDULES: dict[str, type[Schedule]] = {s.kind: s for s in (RoundRobin, Gauntlet, Knockout)}


def make_schedule(kind: str, players: int, games: int = 1, rounds: int = 1, **options: object) -> Schedule:
    """A new schedule of ``kind`` (``round-robin``, ``gauntlet`` or ``knockout``)."""
    return SCHEDULES[kind](players, games, rounds, **options)  # type: ignore[arg-type]


def bracket_text(schedule: Knockout, names: list[str]) -> str:
    """The bracket as cutechess-cli prints it: first-round names, then each round's winner
    (with the encounter score) indented by two tabs per round, ``...`` while undecided."""
    lines: list[str] = []
    for pair in schedule.bracket[0]:
        first, second = (pair.first, pair.second) if pair.original_order else (pair.second, pair.first)
        lines += [names[first], "", "bye" if second == BYE else names[second], ""]
    lines.pop()
    for r, pairs in enumerate(schedule.bracket, 1):
        for x, pair in enumerate(pairs):
            decided = not needs_more_games(pair, schedule.games) and pair.started == pair.finished
            leader = pair.leader()
            text = "\t" * (2 * r) + (names[leader] if decided and leader is not None else "...")
            if pair.first_score + pair.second_score:
                a, b = pair.first_score, pair.second_score
                if not pair.original_order:
                    a, b = b, a
                text += f" ({a / 2:g}-{b / 2:g})"
            lines[(2**r - 1) + x * 2 ** (r + 1)] += text
    return "\n".join(lines)
