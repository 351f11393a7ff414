"""alice_match.schedule: round-robin, gauntlet and knockout pairings, colours and openings."""

from __future__ import annotations

import tracemalloc
from collections import Counter
from itertools import combinations

import pytest

from alice_match.schedule import (
    BYE,
    DRAW,
    LOSS,
    WIN,
    Knockout,
    Pair,
    Schedule,
    Slot,
    bracket_order,
    bracket_text,
    make_schedule,
    needs_more_games,
)


def slots(schedule: Schedule) -> list[Slot]:
    """Every game of a schedule that needs no results (round robin, gauntlet)."""
    return list(iter(schedule.next_slot, None))


@pytest.mark.parametrize("engines", [3, 4, 5, 6, 7])
@pytest.mark.parametrize(("games", "rounds"), [(2, 1), (1, 2), (4, 1), (2, 3)])
def test_round_robin_every_pair_equally_often_with_colours_balanced(engines: int, games: int, rounds: int) -> None:
    schedule = make_schedule("round-robin", engines, games, rounds)
    played = slots(schedule)
    assert len(played) == schedule.final_count == engines * (engines - 1) // 2 * games * rounds
    assert [s.number for s in played] == list(range(1, len(played) + 1))
    as_white = Counter((s.white, s.black) for s in played)
    for a, b in combinations(range(engines), 2):
        # every pair meets games * rounds times, half of them with each colour
        assert as_white[(a, b)] == as_white[(b, a)] == games * rounds // 2
    whites = Counter(s.white for s in played)
    assert all(whites[e] == (engines - 1) * games * rounds // 2 for e in range(engines))


@pytest.mark.parametrize("engines", [3, 4, 5, 6, 7, 8, 9])
def test_single_round_robin_gives_each_engine_white_in_half_its_games(engines: int) -> None:
    played = slots(make_schedule("round-robin", engines))
    assert Counter(frozenset((s.white, s.black)) for s in played) == {
        frozenset(p): 1 for p in combinations(range(engines), 2)
    }
    whites, blacks = Counter(s.white for s in played), Counter(s.black for s in played)
    assert all(abs(whites[e] - blacks[e]) <= 1 for e in range(engines))


def test_round_robin_order_and_rounds_by_hand() -> None:
    # Circle method with four engines: engine 0 fixed, the others rotating; three rounds of two games.
    played = slots(make_schedule("round-robin", 4))
    assert [(s.white, s.black, s.round) for s in played] == [
        (0, 3, 1), (1, 2, 1),
        (2, 0, 2), (3, 1, 2),  # engine 0 takes Black in even rounds
        (0, 1, 3), (2, 3, 3),
    ]  # fmt: skip
    # Three engines: one has the bye each round.
    three = slots(make_schedule("round-robin", 3))
    assert [(s.white, s.black, s.round) for s in three] == [(1, 2, 1), (2, 0, 2), (0, 1, 3)]


def test_encounters_are_consecutive_and_alternate_colours() -> None:
    played = slots(make_schedule("round-robin", 3, games=4))
    assert [(s.white, s.black) for s in played[:4]] == [(1, 2), (2, 1), (1, 2), (2, 1)]
    noswap = slots(make_schedule("round-robin", 3, games=2, swap=False))
    assert [(s.white, s.black) for s in noswap[:2]] == [(1, 2), (1, 2)]
    reverse = slots(make_schedule("round-robin", 3, games=2, reverse=True))
    assert [(s.white, s.black) for s in reverse[:2]] == [(2, 1), (1, 2)]


def test_two_engines_is_todays_match_schedule() -> None:
    # Game i: the first engine has White when i is even; -repeat 2 plays each opening twice.
    played = slots(make_schedule("round-robin", 2, games=3, rounds=2, repeat=2))
    assert [s.white for s in played] == [0, 1, 0, 1, 0, 1]
    assert [s.opening for s in played] == [0, 0, 1, 1, 2, 2]
    reverse = slots(make_schedule("round-robin", 2, games=4, reverse=True))
    assert [s.white for s in reverse] == [1, 0, 1, 0]


def test_openings_change_with_the_encounter() -> None:
    # More than two engines: a new encounter takes a new opening; -repeat 2 within it.
    played = slots(make_schedule("round-robin", 3, games=4, repeat=2))
    assert [s.opening for s in played] == [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5]
    no_repeat = slots(make_schedule("round-robin", 3, games=2))
    assert [s.opening for s in no_repeat] == [0, 1, 2, 3, 4, 5]
    encounter = slots(make_schedule("round-robin", 3, games=4, policy="encounter"))
    assert [s.opening for s in encounter] == [0] * 4 + [1] * 4 + [2] * 4
    by_round = slots(make_schedule("round-robin", 4, games=2, policy="round"))
    assert [s.opening for s in by_round] == [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2]


def test_gauntlet() -> None:
    played = slots(make_schedule("gauntlet", 4, games=2))
    assert len(played) == 6
    assert all(0 in (s.white, s.black) for s in played)  # the first engine plays every game
    assert [frozenset((s.white, s.black)) for s in played[::2]] == [frozenset((0, o)) for o in (1, 2, 3)]
    assert Counter(s.white for s in played)[0] == 3  # half its games with White
    one_game = slots(make_schedule("gauntlet", 5))
    assert [(s.white, s.black) for s in one_game] == [(0, 1), (2, 0), (0, 3), (4, 0)]  # its colour alternates
    two_seeds = slots(make_schedule("gauntlet", 5, seeds=2))
    assert sorted((min(s.white, s.black), max(s.white, s.black)) for s in two_seeds) == [
        (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4),
    ]  # fmt: skip
    rounds = slots(make_schedule("gauntlet", 3, rounds=2))
    assert [(s.white, s.black, s.round) for s in rounds] == [(0, 1, 1), (2, 0, 1), (1, 0, 2), (0, 2, 2)]


def test_bracket_order() -> None:
    assert bracket_order(2) == [1, 2]
    assert bracket_order(4) == [1, 4, 2, 3]
    assert bracket_order(16)[:8] == [1, 16, 8, 9, 4, 13, 5, 12]


def finish(schedule: Schedule, slot: Slot, winner: int | None) -> None:
    """Finish ``slot`` with ``winner`` (an engine) winning, or a draw."""
    half = DRAW if winner is None else WIN if winner == slot.white else LOSS
    schedule.finish(slot, half)


def play_knockout(schedule: Schedule, winner_of: dict[frozenset[int], int]) -> list[Slot]:
    """Run a knockout to the end, one game at a time, the engine in ``winner_of`` winning each game."""
    played = []
    while (slot := schedule.next_slot()) is not None:
        played.append(slot)
        finish(schedule, slot, winner_of[frozenset((slot.white, slot.black))])
    return played


def test_knockout_with_byes() -> None:
    # Five engines in an eight-bracket: seeds 1 to 3 get byes, 4 meets 5; then 1 v (4/5), 2 v 3.
    ko = make_schedule("knockout", 5, games=2)
    assert isinstance(ko, Knockout)
    assert [(p.first, p.second) for p in ko.bracket[0]] == [(0, BYE), (3, 4), (1, BYE), (2, BYE)]
    assert ko.final_count == 4 * 2
    lower_wins = {frozenset((a, b)): min(a, b) for a, b in combinations(range(5), 2)}
    played = play_knockout(ko, lower_wins)
    assert [(s.white, s.black, s.round) for s in played] == [
        (3, 4, 1), (4, 3, 1),
        (0, 3, 2), (3, 0, 2), (1, 2, 2), (2, 1, 2),
        (0, 1, 3), (1, 0, 3),
    ]  # fmt: skip
    assert ko.champion() == 0
    names = ["a", "b", "c", "d", "e"]
    assert bracket_text(ko, names).split("\n") == [
        "a", "\t\ta", "bye", "\t\t\t\ta (2-0)", "d", "\t\td (2-0)", "e",
        "\t\t\t\t\t\ta (2-0)",
        "b", "\t\tb", "bye", "\t\t\t\tb (2-0)", "c", "\t\tc", "bye",
    ]  # fmt: skip


def test_knockout_seeds_and_draw() -> None:
    assert make_schedule("knockout", 4).entrants == [0, 1, 2, 3]  # type: ignore[attr-defined]
    drawn = {tuple(make_schedule("knockout", 6, seeds=2, seed=s).entrants) for s in range(20)}  # type: ignore[attr-defined]
    assert all(e[:2] == (0, 1) and sorted(e[2:]) == [2, 3, 4, 5] for e in drawn) and len(drawn) > 1
    same = [make_schedule("knockout", 6, seeds=0, seed=7).entrants for _ in range(2)]  # type: ignore[attr-defined]
    assert same[0] == same[1]


def test_knockout_tie_breaks_as_cutechess() -> None:
    # Odd encounter: one more game at a time until someone leads.
    assert needs_more_games(Pair(0, 1, first_score=1, second_score=1, started=1, finished=1), 1)
    assert not needs_more_games(Pair(0, 1, first_score=3, second_score=1, started=2, finished=2), 1)
    # Even encounter: a lead after an even number of games, or by 1.5 points.
    assert needs_more_games(Pair(0, 1, first_score=2, second_score=2, started=2, finished=2), 2)
    assert needs_more_games(Pair(0, 1, first_score=4, second_score=2, started=3, finished=3), 2)  # 2-1 after 3
    assert not needs_more_games(Pair(0, 1, first_score=4, second_score=2, started=4, finished=4), 2)
    assert not needs_more_games(Pair(0, 1, first_score=5, second_score=1, started=3, finished=3), 2)  # 2.5-0.5
    assert not needs_more_games(Pair(0, BYE), 2)
    # Drawn first game, then White wins: two engines, one game per encounter.
    ko = make_schedule("knockout", 2)
    assert isinstance(ko, Knockout)
    first = ko.next_slot()
    assert first is not None and ko.next_slot() is None and ko.more_may_come()  # waits for the result
    finish(ko, first, None)
    second = ko.next_slot()
    assert second is not None and (second.white, second.black) == (1, 0) and ko.final_count == 2
    finish(ko, second, 1)
    assert ko.next_slot() is None and not ko.more_may_come() and ko.champion() == 1


def test_knockout_phases_wait_for_the_round() -> None:
    # Four engines, one game each: both semi-finals start at once, the final only after both.
    ko = make_schedule("knockout", 4)
    semi1, semi2 = ko.next_slot(), ko.next_slot()
    assert semi1 is not None and semi2 is not None and ko.next_slot() is None
    assert {frozenset((semi1.white, semi1.black)), frozenset((semi2.white, semi2.black))} == {
        frozenset((0, 3)), frozenset((1, 2)),
    }  # fmt: skip
    finish(ko, semi1, 3)
    assert ko.next_slot() is None  # the other semi-final is still being played
    finish(ko, semi2, 1)
    final = ko.next_slot()
    assert final is not None and {final.white, final.black} == {1, 3} and final.round == 2


@pytest.mark.parametrize("kind", ["round-robin", "gauntlet", "knockout"])
def test_huge_games_cost_no_memory(kind: str) -> None:
    """``-games 10**7`` (any count the command line takes) is handed out game by game: a
    knockout used to list every game of a round first (160 MB here, and a hang that only
    SIGKILL ended for ``-games 10**9``)."""
    tracemalloc.start()
    try:
        schedule = make_schedule(kind, 5, games=10**7)
        first = [schedule.next_slot() for _ in range(4)]
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert all(slot is not None for slot in first)
    assert peak < 1 << 20, peak
